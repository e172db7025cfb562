// Random credentials and their stored form: 256 random bits in base64url, kept as SHA-256.
import { createHash, randomBytes, randomInt } from 'node:crypto';

/** A new bearer or emailed-link token (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** A public identifier (user key, token key): 16 characters, not a credential. */
export function newKey(): string {
  return randomBytes(12).toString('base64url');
}

/** `length` characters drawn uniformly from `alphabet` (codes people read or type). */
export function randomCode(alphabet: string, length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
  return code;
}
