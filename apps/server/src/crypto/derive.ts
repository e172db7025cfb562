// Keys for one purpose each, derived from SECRETS_KEY (HKDF-SHA-256), so every instance sharing
// the key derives the same ones and no purpose's key reveals another's.
import { hkdfSync } from 'node:crypto';

export function deriveKey(secretsKey: Buffer, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), `signal-router:${purpose}`, length));
}
