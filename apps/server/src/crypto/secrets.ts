// Secrets at rest (DESIGN.md "Security baseline"), all AES-256-GCM under SECRETS_KEY with the
// owning row bound as additional authenticated data, so a blob copied onto another row does not
// open. Broker credentials and OAuth tokens: a blob tagged with a key id, laid out as
// version (1 byte) | iv (12) | auth tag (16) | ciphertext. Small text secrets (the TOTP secret):
// `v1.<iv>.<ciphertext+tag>` in base64url.
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

interface Encrypted {
  iv: Buffer;
  tag: Buffer;
  body: Buffer;
}

function encrypt(key: Buffer, aad: string, plaintext: string): Encrypted {
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_LENGTH });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), body };
}

/** Throws what GCM throws when the tag does not match (tampered, or another row's AAD). */
function decrypt(key: Buffer, aad: string, { iv, tag, body }: Encrypted): string {
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_LENGTH });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

export function sealSecrets(key: Buffer, aad: string, secrets: Secrets): SealedSecrets {
  const { iv, tag, body } = encrypt(key, aad, JSON.stringify(secrets));
  return { data: Buffer.concat([Buffer.of(VERSION), iv, tag, body]), keyId: secretsKeyId(key) };
}

export function openSecrets(key: Buffer, aad: string, sealed: SealedSecrets): Secrets {
  const expected = secretsKeyId(key);
  if (sealed.keyId !== expected) {
    throw new SecretsError(`secrets sealed with key ${sealed.keyId}, the server has key ${expected}`);
  }
  const { data } = sealed;
  if (data.length < HEADER || data[0] !== VERSION) throw new SecretsError('secrets blob has an unknown format');
  let plain: string;
  try {
    plain = decrypt(key, aad, {
      iv: data.subarray(1, 1 + IV_LENGTH),
      tag: data.subarray(1 + IV_LENGTH, HEADER),
      body: data.subarray(HEADER),
    });
  } catch {
    throw new SecretsError('secrets failed authentication (tampered, or bound to another connector)');
  }
  const parsed: unknown = JSON.parse(plain);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new SecretsError('secrets are not a map');
  return parsed as Secrets;
}

/** A small text secret sealed as `v1.<iv>.<ciphertext+tag>` (base64url), bound to `aad`. */
export function sealText(key: Buffer, plaintext: string, aad: string): string {
  const { iv, tag, body } = encrypt(key, aad, plaintext);
  return `v1.${iv.toString('base64url')}.${Buffer.concat([body, tag]).toString('base64url')}`;
}

export function openText(key: Buffer, sealed: string, aad: string): string {
  const [version, iv, rest] = sealed.split('.');
  if (version !== 'v1' || !iv || !rest) throw new SecretsError('unknown sealed format');
  const data = Buffer.from(rest, 'base64url');
  const body = data.subarray(0, data.length - TAG_LENGTH);
  return decrypt(key, aad, { iv: Buffer.from(iv, 'base64url'), tag: data.subarray(data.length - TAG_LENGTH), body });
}
