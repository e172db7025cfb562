// Broker credentials and OAuth tokens at rest (DESIGN.md "Security baseline"): AES-256-GCM
// under SECRETS_KEY, tagged with a key id, the connector's key bound as additional
// authenticated data so a blob copied onto another row does not open.
// Layout: version (1 byte) | iv (12) | auth tag (16) | ciphertext.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export type Secrets = Record<string, string>;

export interface SealedSecrets {
  data: Buffer;
  keyId: string;
}

const VERSION = 1;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;
const HEADER = 1 + IV_LENGTH + TAG_LENGTH;

/** Never carries key material, ciphertext or plaintext in its message. */
export class SecretsError extends Error {
  override readonly name = 'SecretsError';
}

/** First 8 hex digits of SHA-256(key): names the key a blob was sealed with, reveals nothing. */
export function secretsKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export function sealSecrets(key: Buffer, aad: string, secrets: Secrets): SealedSecrets {
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_LENGTH });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return { data: Buffer.concat([Buffer.of(VERSION), iv, cipher.getAuthTag(), body]), keyId: secretsKeyId(key) };
}

export function openSecrets(key: Buffer, aad: string, sealed: SealedSecrets): Secrets {
  const expected = secretsKeyId(key);
  if (sealed.keyId !== expected) {
    throw new SecretsError(`secrets sealed with key ${sealed.keyId}, the server has key ${expected}`);
  }
  const { data } = sealed;
  if (data.length < HEADER || data[0] !== VERSION) throw new SecretsError('secrets blob has an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(1, 1 + IV_LENGTH), {
    authTagLength: TAG_LENGTH,
  });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(data.subarray(1 + IV_LENGTH, HEADER));
  let plain: string;
  try {
    plain = Buffer.concat([decipher.update(data.subarray(HEADER)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretsError('secrets failed authentication (tampered, or bound to another connector)');
  }
  const parsed: unknown = JSON.parse(plain);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SecretsError('secrets are not a map');
  return parsed as Secrets;
}
