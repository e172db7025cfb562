import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BASE62, newShortKey, randomBase62 } from './random.ts';
import { openSecrets, openText, SecretsError, sealSecrets, sealText, secretsKeyId } from './secrets.ts';

const key = Buffer.alloc(32, 7);
const secrets = { accessToken: 'tok-123', refreshToken: 'ref-456' };

describe('broker secrets at rest', () => {
  it('round-trips, with a key id of 8 hex digits and no plaintext in the blob', () => {
    const sealed = sealSecrets(key, 'conn-1', secrets);
    expect(sealed.keyId).toMatch(/^[0-9a-f]{8}$/);
    expect(sealed.keyId).toBe(secretsKeyId(key));
    expect(sealed.data.toString('latin1')).not.toContain('tok-123');
    expect(openSecrets(key, 'conn-1', sealed)).toEqual(secrets);
  });

  it('uses a fresh IV: sealing twice gives different blobs', () => {
    expect(sealSecrets(key, 'c', secrets).data.equals(sealSecrets(key, 'c', secrets).data)).toBe(false);
  });

  it('refuses a tampered ciphertext or auth tag', () => {
    const sealed = sealSecrets(key, 'conn-1', secrets);
    for (const index of [1, 20, sealed.data.length - 1]) {
      const data = Buffer.from(sealed.data);
      data[index] = (data[index] ?? 0) ^ 1;
      expect(() => openSecrets(key, 'conn-1', { ...sealed, data })).toThrow(SecretsError);
    }
  });

  it('refuses another connector key as AAD, another key, or a truncated blob', () => {
    const sealed = sealSecrets(key, 'conn-1', secrets);
    expect(() => openSecrets(key, 'conn-2', sealed)).toThrow(SecretsError);
    const other = Buffer.alloc(32, 8);
    expect(() => openSecrets(other, 'conn-1', sealed)).toThrow(/sealed with key/);
    expect(() => openSecrets(other, 'conn-1', { ...sealed, keyId: secretsKeyId(other) })).toThrow(SecretsError);
    expect(() => openSecrets(key, 'conn-1', { ...sealed, data: sealed.data.subarray(0, 10) })).toThrow(SecretsError);
  });
});

describe('text secrets at rest', () => {
  it('round-trips bound to their row, and refuses another row or a tampered body', () => {
    const sealed = sealText(key, 'JBSWY3DPEHPK3PXP', 'user:1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('JBSWY3DP');
    expect(openText(key, sealed, 'user:1')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => openText(key, sealed, 'user:2')).toThrow();
    expect(() => openText(key, `${sealed.slice(0, -2)}AA`, 'user:1')).toThrow();
    expect(() => openText(key, 'v2.a.b', 'user:1')).toThrow(SecretsError);
  });

  it('opens what was stored before: v1.<iv>.<ciphertext then tag>', () => {
    const iv = Buffer.alloc(12, 3);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from('user:9'));
    const body = Buffer.concat([cipher.update('stored secret', 'utf8'), cipher.final(), cipher.getAuthTag()]);
    expect(openText(key, `v1.${iv.toString('base64url')}.${body.toString('base64url')}`, 'user:9')).toBe(
      'stored secret',
    );
  });
});

describe('random identifiers', () => {
  it('are base62 of the asked length', () => {
    for (let i = 0; i < 200; i++) expect(newShortKey()).toMatch(/^[0-9A-Za-z]{22}$/);
  });

  it('use every character about equally often (no modulo bias)', () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(62 * 2000);
    for (const ch of sample) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const ch of BASE62) {
      // Expected 2000 each; a biased mapping of 256 bytes would give the first 8 about 2400.
      expect(counts.get(ch)).toBeGreaterThan(1750);
      expect(counts.get(ch)).toBeLessThan(2250);
    }
  });
});
