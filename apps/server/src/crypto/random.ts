// Random identifiers from the system CSPRNG: base62 by rejection sampling, so every character
// is equally likely (no modulo bias).
import { randomBytes } from 'node:crypto';

export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 248 = 4 × 62: bytes at or above it are dropped, the rest map evenly onto the alphabet. */
export const BASE62_LIMIT = 248;

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    // About 3 % of bytes are dropped; asking for twice as many makes a second round rare.
    for (const byte of randomBytes((length - out.length) * 2)) {
      if (byte >= BASE62_LIMIT) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Public identifiers of users, tokens, connectors, hooks and notifications (not secrets). */
export function newKey(): string {
  return randomBase62(16);
}

/** A hook's short key: 22 base62 characters (about 131 bits), its only secret. */
export function newShortKey(): string {
  return randomBase62(22);
}
