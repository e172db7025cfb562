// OAuth 1.0a at IBKR (WIRE.md §1): POST /oauth/live_session_token, signed RSA-SHA256 with a
// Diffie-Hellman challenge, answers
//   {"diffie_hellman_response":"74d2…","live_session_token_signature":"7125…","live_session_token_expiration":1714669716258}
// from which the live session token (LST, about 24 hours) is computed and checked; every other
// request is signed HMAC-SHA256 with the LST over its method, URL and query.
import { randomBytes } from 'node:crypto';
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { createHttpClient } from '../../core/http.ts';
import { decimalField, stringField } from '../../core/json-read.ts';
import { decryptAccessTokenSecret, type OAuthCredentials } from './credentials.ts';
import { IBKR_TITLE } from './descriptor.ts';
import {
  authorizationHeader,
  baseString,
  hexBigInt,
  hmacSignature,
  liveSessionToken,
  liveSessionTokenSignature,
  modPow,
  oauthNonce,
  rsaSignature,
  sameText,
} from './oauth-crypto.ts';

export interface LiveSession {
  token: string;
  /** ms since epoch, as IBKR answers it. */
  expiresAt: number;
}

/** IBKR's paper-trading test consumer signs in another realm. */
export const realmOf = (consumerKey: string) => (consumerKey === 'TESTCONS' ? 'test_realm' : 'limited_poa');

function oauthParams(credentials: OAuthCredentials, method: string, now: number): Record<string, string> {
  return {
    oauth_consumer_key: credentials.consumerKey,
    oauth_nonce: oauthNonce(),
    oauth_signature_method: method,
    oauth_timestamp: String(Math.floor(now / 1000)),
    oauth_token: credentials.accessToken,
  };
}

/** The Authorization header of a request to `url` (no query) with these query parameters. */
export function signedAuthorization(
  credentials: OAuthCredentials,
  token: string,
  request: { method: string; url: string; query: Record<string, string> },
  now: number,
): string {
  const params = oauthParams(credentials, 'HMAC-SHA256', now);
  const signature = hmacSignature(baseString(request.method, request.url, { ...params, ...request.query }), token);
  return authorizationHeader({ ...params, oauth_signature: signature }, realmOf(credentials.consumerKey));
}

const failed = (message: string) => new BrokerError('AuthenticationError', IBKR_TITLE, message);

export async function requestLiveSessionToken(
  ctx: BrokerContext,
  credentials: OAuthCredentials,
  now: number,
  fetchImpl?: typeof fetch,
): Promise<LiveSession> {
  const secret = decryptAccessTokenSecret(credentials.accessTokenSecret, credentials.encryptionKey);
  if (!secret) throw failed('the access token secret does not decrypt with the encryption key');
  const prime = credentials.dhPrime;
  const random = BigInt(`0x${randomBytes(32).toString('hex')}`);
  const challenge = modPow(credentials.dhGenerator, random, prime).toString(16);
  const url = `${ctx.baseUrl}/oauth/live_session_token`;
  const params = { ...oauthParams(credentials, 'RSA-SHA256', now), diffie_hellman_challenge: challenge };
  // The base string is prefixed by the hex of the decrypted secret, which only we and IBKR know.
  const signature = rsaSignature(baseString('POST', url, params, secret.toString('hex')), credentials.signatureKey);
  const client = createHttpClient({
    brokerTitle: IBKR_TITLE,
    baseUrl: ctx.baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    headers: {
      authorization: authorizationHeader({ ...params, oauth_signature: signature }, realmOf(credentials.consumerKey)),
    },
    // IBKR refuses credentials in JSON; a 401 that is an HTML page or empty is a proxy's or a
    // CDN's, no refusal: an outage the shared client reads (http.ts), so a refresh meeting one
    // does not deactivate the connection.
  });
  // A token request changes nothing a retry could duplicate.
  const { body } = await client.request({ method: 'POST', path: '/oauth/live_session_token', mutating: false });
  const response = stringField(body, 'diffie_hellman_response');
  const check = stringField(body, 'live_session_token_signature');
  const expiresAt = decimalField(body, 'live_session_token_expiration');
  if (!response || !check || expiresAt === undefined)
    throw new BrokerError('BrokerUnavailable', IBKR_TITLE, 'unexpected live session token answer');
  const token = liveSessionToken(modPow(hexBigInt(response), random, prime), secret);
  if (!sameText(liveSessionTokenSignature(token, credentials.consumerKey), check))
    throw failed('the live session token does not validate: check the access token secret, keys and prime');
  return { token, expiresAt };
}
