// E*TRADE's three-legged OAuth 1.0a (WIRE.md §1), every call signed (oauth1.ts):
//   GET /oauth/request_token  oauth_callback="oob"  → oauth_token=…&oauth_token_secret=…&oauth_callback_confirmed=true
//   the user approves at us.etrade.com/e/t/etws/authorize?key={consumer key}&token={request token};
//   E*TRADE redirects to the callback registered for the consumer key with oauth_token and oauth_verifier
//   GET /oauth/access_token   oauth_token=request token, oauth_verifier → oauth_token=…&oauth_token_secret=…
//   GET /oauth/renew_access_token  reactivates a token idle for 2 hours
// Request tokens live 5 minutes. Access tokens end at midnight US Eastern time, whatever is done.
import type { BrokerContext, BrokerSecrets } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { createHttpClient } from '../../core/http.ts';
import { isErrorPage, messageOf } from '../../core/http-errors.ts';
import { asRecord } from '../../core/json-read.ts';
import { ETRADE_BASE_URL, ETRADE_SANDBOX_URL, ETRADE_TITLE } from './descriptor.ts';
import { nextEasternMidnight } from './eastern.ts';
import { authorizationHeader, type OAuthSigner } from './oauth1.ts';

/** A token unused this long is inactive until renewed. */
export const IDLE_LIMIT_MS = 2 * 60 * 60_000;
/** Renew this long before the idle limit, so no order meets an inactive token. */
export const RENEW_MARGIN_MS = 10 * 60_000;
/**
 * When a token is due for renewal: before it turns idle, or at midnight Eastern when it is active
 * until then (due 10 minutes before, every use in those minutes would renew it again).
 */
export function renewDueAt(tokens: Pick<EtradeTokens, 'accessExpiresAt' | 'expiresAt'>): number {
  return tokens.accessExpiresAt >= tokens.expiresAt ? tokens.expiresAt : tokens.accessExpiresAt - RENEW_MARGIN_MS;
}

const AUTHORIZE_PAGE = 'https://us.etrade.com/e/t/etws/authorize';

export interface EtradeTokens {
  accessToken: string;
  tokenSecret: string;
  /** The token keeper's key: OAuth 1.0a has no refresh token, the access token is renewed itself. */
  refreshToken: string;
  /** When the token turns inactive unless renewed (the idle limit after the last renewal). */
  accessExpiresAt: number;
  /** Midnight US Eastern after the sign-in. */
  expiresAt: number;
}

const authError = (message: string) => new BrokerError('AuthenticationError', ETRADE_TITLE, message);

/**
 * OAuth problems (RFC 5849's Problem Reporting words, WIRE.md §8) that refuse this server's
 * request, not the user's token: its clock, a reused nonce, the operator's consumer key. A call
 * meeting one is an outage: deactivating would make every user sign in again for nothing.
 */
const SERVER_PROBLEM =
  /oauth_problem=(timestamp_refused|nonce_used|consumer_key_(unknown|rejected|refused)|signature_method_rejected|version_rejected)\b/;
export const isServerProblem = (text: string | undefined): boolean => SERVER_PROBLEM.test(text ?? '');

/**
 * The app's consumer key and secret, which sign every call. Missing, it is this server's setup,
 * no refusal of the user's tokens: a call meeting it does not deactivate the connection.
 */
export function consumerOf(ctx: BrokerContext): { consumerKey: string; consumerSecret: string } {
  const { clientId, clientSecret } = ctx;
  if (!clientId || !clientSecret)
    throw new BrokerError('BrokerUnavailable', ETRADE_TITLE, 'ETRADE_CLIENT_ID and ETRADE_CLIENT_SECRET are not set');
  return { consumerKey: clientId, consumerSecret: clientSecret };
}

export function tokensOf(secrets: BrokerSecrets): EtradeTokens {
  const { accessToken, tokenSecret } = secrets;
  if (!accessToken || !tokenSecret) throw authError('not signed in; connect again');
  return {
    accessToken,
    tokenSecret,
    refreshToken: accessToken,
    accessExpiresAt: Number(secrets.accessExpiresAt ?? 0),
    expiresAt: Number(secrets.expiresAt ?? 0),
  };
}

export function secretsOf(tokens: EtradeTokens): BrokerSecrets {
  return {
    accessToken: tokens.accessToken,
    tokenSecret: tokens.tokenSecret,
    accessExpiresAt: String(tokens.accessExpiresAt),
    expiresAt: String(tokens.expiresAt),
  };
}

/** The consent page: E*TRADE's for its own origins, the fake's (or a gateway's) otherwise. */
export function authorizePage(baseUrl: string): string {
  return baseUrl === ETRADE_BASE_URL || baseUrl === ETRADE_SANDBOX_URL
    ? AUTHORIZE_PAGE
    : `${baseUrl}/e/t/etws/authorize`;
}

/** One signed GET to an /oauth endpoint; its form-encoded answer. */
async function oauthCall(
  ctx: BrokerContext,
  path: string,
  signer: OAuthSigner,
  now: number,
  extra: Record<string, string>,
  fetchImpl: typeof fetch | undefined,
  /** Signed by this server's consumer key and secret alone (request_token): a refusal is its setup. */
  appOnly = false,
): Promise<URLSearchParams> {
  const url = new URL(`${ctx.baseUrl}${path}`);
  const client = createHttpClient({
    brokerTitle: ETRADE_TITLE,
    baseUrl: ctx.baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    headers: { authorization: authorizationHeader('GET', url, signer, now, extra) },
    // E*TRADE answers OAuth refusals 401 "oauth_problem=…"; a 400 here is a refused sign-in too,
    // unless it is the rate limit (a 400 as well) or a problem of this server's request. An HTML
    // page or an empty answer is a proxy's or a CDN's, no refusal: an outage.
    mapError: (response) => {
      if (response.status !== 400 && response.status !== 401) return undefined;
      if (isErrorPage(response.body))
        return new BrokerError('BrokerUnavailable', ETRADE_TITLE, `HTTP ${response.status}`);
      // E*TRADE's words ("oauth_problem=…", a JSON error's message), clipped; never an object as text.
      const text = messageOf(asRecord(response.body)?.Error ?? response.body) ?? `HTTP ${response.status}`;
      if (isServerProblem(text))
        return new BrokerError('BrokerUnavailable', ETRADE_TITLE, `${text}: this server's request was refused`);
      if (/exceeded the rate limit/i.test(text)) return new BrokerError('RateLimited', ETRADE_TITLE, text);
      if (appOnly)
        return new BrokerError(
          'BrokerUnavailable',
          ETRADE_TITLE,
          `the broker connection is misconfigured on this server's side: its consumer key was refused (${text}). Please contact support.`,
        );
      return authError(`sign-in refused (${text}); connect again`);
    },
  });
  const { body } = await client.request({ path, headers: { accept: 'application/x-www-form-urlencoded' } });
  return new URLSearchParams(typeof body === 'string' ? body : '');
}

export interface RequestToken {
  token: string;
  tokenSecret: string;
}

export async function requestToken(ctx: BrokerContext, now: number, fetchImpl?: typeof fetch): Promise<RequestToken> {
  const consumer = consumerOf(ctx);
  // "Must always be set to 'oob', whether using a callback or not" (E*TRADE's request_token page).
  const answer = await oauthCall(
    ctx,
    '/oauth/request_token',
    consumer,
    now,
    { oauth_callback: 'oob' },
    fetchImpl,
    true,
  );
  const token = answer.get('oauth_token');
  const tokenSecret = answer.get('oauth_token_secret');
  if (!token || !tokenSecret)
    throw new BrokerError('BrokerUnavailable', ETRADE_TITLE, 'no request token in the answer');
  return { token, tokenSecret };
}

export async function accessToken(
  ctx: BrokerContext,
  request: RequestToken,
  verifier: string,
  now: number,
  fetchImpl?: typeof fetch,
): Promise<EtradeTokens> {
  const signer = { ...consumerOf(ctx), token: request.token, tokenSecret: request.tokenSecret };
  const answer = await oauthCall(ctx, '/oauth/access_token', signer, now, { oauth_verifier: verifier }, fetchImpl);
  const token = answer.get('oauth_token');
  const tokenSecret = answer.get('oauth_token_secret');
  if (!token || !tokenSecret) throw new BrokerError('BrokerUnavailable', ETRADE_TITLE, 'no access token in the answer');
  return {
    accessToken: token,
    tokenSecret,
    refreshToken: token,
    accessExpiresAt: now + IDLE_LIMIT_MS,
    expiresAt: nextEasternMidnight(now),
  };
}

/** Reactivates the token for another 2 hours; refused after midnight Eastern (sign in again). */
export async function renewAccessToken(
  ctx: BrokerContext,
  tokens: EtradeTokens,
  now: number,
  fetchImpl?: typeof fetch,
): Promise<EtradeTokens> {
  if (now >= tokens.expiresAt) throw authError('the connection ended at midnight US Eastern time; connect again');
  const signer = { ...consumerOf(ctx), token: tokens.accessToken, tokenSecret: tokens.tokenSecret };
  await oauthCall(ctx, '/oauth/renew_access_token', signer, now, {}, fetchImpl);
  return { ...tokens, accessExpiresAt: Math.min(now + IDLE_LIMIT_MS, tokens.expiresAt) };
}
