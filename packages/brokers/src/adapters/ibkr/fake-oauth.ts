// The IBKR side of OAuth 1.0a for the protocol fake (WIRE.md §1): a consumer as IBKR's
// self-service portal issues it (keys, access token, the secret encrypted to the consumer's
// encryption key, a DH prime), the live session token endpoint answering the consumer's DH
// challenge, and every other request's HMAC-SHA256 signature checked against a live token.
// Nonces are single-use and timestamps must be within 5 minutes, as OAuth 1.0a servers require.
import {
  constants,
  createVerify,
  generateKeyPairSync,
  getDiffieHellman,
  type KeyObject,
  publicEncrypt,
  randomBytes,
} from 'node:crypto';
import {
  baseString,
  hexBigInt,
  hmacSignature,
  liveSessionToken,
  liveSessionTokenSignature,
  modPow,
  sameText,
} from './oauth-crypto.ts';

const SKEW_MS = 5 * 60_000;

export interface FakeConsumer {
  consumerKey: string;
  accessToken: string;
  /** The connect form's values for this consumer. */
  credentials: Record<string, string>;
  /** POST /oauth/live_session_token: the answer, or why it is refused. */
  liveSessionToken(
    method: string,
    url: string,
    authorization: string | undefined,
  ): { body: unknown } | { problem: string };
  /** Why a signed request is refused; undefined when its signature holds. */
  verify(method: string, url: string, authorization: string | undefined): string | undefined;
  /** Makes every live session token invalid (IBKR revoked the access token). */
  revoke(): void;
}

/** `OAuth realm="limited_poa", k="v", …` → its parameters. */
export function parseAuthorization(header: string | undefined): Record<string, string> | undefined {
  if (!header?.startsWith('OAuth ')) return undefined;
  const params: Record<string, string> = {};
  for (const match of header.slice(6).matchAll(/([a-z_]+)="([^"]*)"/g)) params[match[1] ?? ''] = match[2] ?? '';
  return params;
}

export function createFakeConsumer(now: () => number, lifetimeMs: number): FakeConsumer {
  const signature = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const encryption = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const group = getDiffieHellman('modp14');
  const prime = hexBigInt(group.getPrime('hex'));
  const secret = randomBytes(32);
  const consumerKey = 'ROUTERCON';
  const accessToken = randomBytes(10).toString('hex');
  const encrypted = publicEncrypt({ key: encryption.publicKey, padding: constants.RSA_PKCS1_PADDING }, secret);
  const tokens = new Map<string, number>();
  const nonces = new Set<string>();

  /** The request's OAuth parameters when consumer, token, timestamp and nonce are acceptable. */
  function checked(authorization: string | undefined, method: string) {
    const params = parseAuthorization(authorization);
    if (!params) return 'no OAuth authorization header';
    const { realm, oauth_signature: sent, ...signed } = params;
    if (realm !== 'limited_poa') return `unknown realm ${realm}`;
    if (signed.oauth_consumer_key !== consumerKey || signed.oauth_token !== accessToken)
      return 'unknown consumer or token';
    if (signed.oauth_signature_method !== method) return `signature method must be ${method}`;
    if (Math.abs(Number(signed.oauth_timestamp) * 1000 - now()) > SKEW_MS) return 'timestamp out of range';
    if (!signed.oauth_nonce || nonces.has(signed.oauth_nonce)) return 'nonce reused';
    nonces.add(signed.oauth_nonce);
    return { signed, sent: sent ?? '' };
  }

  const pem = (key: KeyObject, type: 'pkcs1' | 'pkcs8') => String(key.export({ type, format: 'pem' }));

  return {
    consumerKey,
    accessToken,
    credentials: {
      consumerKey,
      accessToken,
      accessTokenSecret: encrypted.toString('base64'),
      signaturePrivateKey: pem(signature.privateKey, 'pkcs8'),
      // IBKR's portal hands out PKCS#1 keys as often as PKCS#8: both are read.
      encryptionPrivateKey: pem(encryption.privateKey, 'pkcs1'),
      dhPrime: group.getPrime('hex'),
    },

    liveSessionToken(method, url, authorization) {
      const result = checked(authorization, 'RSA-SHA256');
      if (typeof result === 'string') return { problem: result };
      const { signed, sent } = result;
      const challenge = signed.diffie_hellman_challenge;
      if (!challenge) return { problem: 'no diffie_hellman_challenge' };
      const base = baseString(method, url, signed, secret.toString('hex'));
      const signatureBytes = Buffer.from(decodeURIComponent(sent.replace(/\+/g, ' ')), 'base64');
      if (!createVerify('sha256').update(base, 'utf8').verify(signature.publicKey, signatureBytes))
        return { problem: 'RSA signature mismatch' };
      const random = hexBigInt(randomBytes(32).toString('hex'));
      const token = liveSessionToken(modPow(hexBigInt(challenge), random, prime), secret);
      const expiresAt = now() + lifetimeMs;
      tokens.set(token, expiresAt);
      return {
        body: {
          diffie_hellman_response: modPow(2n, random, prime).toString(16),
          live_session_token_signature: liveSessionTokenSignature(token, consumerKey),
          live_session_token_expiration: expiresAt,
        },
      };
    },

    verify(method, url, authorization) {
      const result = checked(authorization, 'HMAC-SHA256');
      if (typeof result === 'string') return result;
      const parsed = new URL(url);
      const query = Object.fromEntries(parsed.searchParams);
      const base = baseString(method, `${parsed.origin}${parsed.pathname}`, { ...result.signed, ...query });
      for (const [token, expiresAt] of tokens) {
        if (expiresAt <= now()) tokens.delete(token);
        else if (sameText(hmacSignature(base, token), result.sent)) return undefined;
      }
      return 'signature does not match a live session token';
    },

    revoke() {
      tokens.clear();
    },
  };
}
