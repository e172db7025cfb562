// Random credentials and their stored form: 256 random bits in base64url, kept as SHA-256.
import { createHash, randomBytes } from 'node:crypto';

/** A new bearer or emailed-link token (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
