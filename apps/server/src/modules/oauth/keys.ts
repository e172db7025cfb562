// The provider's key material. The ID-token signing key (RSA, RS256: what every client accepts)
// is made once, sealed with SECRETS_KEY and kept in the database, so every instance and every
// restart signs with the same key. Cookie keys are derived from SECRETS_KEY.
import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { deriveKey } from '../../crypto/derive.ts';
import { openText, sealText } from '../../crypto/secrets.ts';
import { findOidc, insertOidcIfAbsent } from '../../db/repositories/oidc.repository.ts';
import type { Services } from '../../services.ts';

const KIND = 'ProviderKey';
const ID = 'signing';
const AAD = 'oidc_payloads:ProviderKey:signing';

export async function signingKey(services: Services): Promise<JsonWebKey> {
  let row = await findOidc(services.db, KIND, ID);
  if (!row) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = { ...privateKey.export({ format: 'jwk' }), alg: 'RS256', use: 'sig' };
    await insertOidcIfAbsent(services.db, KIND, ID, {
      sealed: sealText(services.secretsKey, JSON.stringify(jwk), AAD),
    });
    row = await findOidc(services.db, KIND, ID);
  }
  const sealed = row?.payload.sealed;
  if (typeof sealed !== 'string') throw new Error('the OAuth signing key is missing');
  return JSON.parse(openText(services.secretsKey, sealed, AAD)) as JsonWebKey;
}

/** Signs the provider's cookies (interaction and session ids). */
export function cookieKeys(services: Services): string[] {
  return [deriveKey(services.secretsKey, 'oidc-cookies').toString('base64url')];
}
