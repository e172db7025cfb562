// Kite Connect's login (WIRE.md §1): the user signs in at kite.zerodha.com/connect/login, Kite
// redirects to the app's registered URL (`${PUBLIC_URL}/callback/zerodha`) with a request_token,
// and the app exchanges it with the SHA-256 checksum of api_key + request_token + api_secret:
//   POST /session/token  api_key=…&request_token=…&checksum=…   (form)
//   → {"status":"success","data":{"user_id":"AB1234","user_name":"…","access_token":"…","login_time":"…",…}}
// Kite passes `redirect_params` back on the redirect, which carries our state. The token lasts
// until 6 AM IST the next morning; ordinary apps cannot renew it, so the user signs in daily.
import { createHash } from 'node:crypto';
import type { AuthorizationRequest, BrokerAccount, BrokerContext } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { asRecord, stringField } from '../../core/json-read.ts';
import { requestTokens } from '../../core/oauth-tokens.ts';
import { KITE_VERSION } from './api.ts';
import { KITE_API_URL, KITE_LOGIN_URL, ZERODHA_TITLE } from './descriptor.ts';
import { sessionExpiry } from './kite-time.ts';

const authError = (message: string) => new BrokerError('AuthenticationError', ZERODHA_TITLE, message);

function appCredentials(ctx: BrokerContext): { apiKey: string; apiSecret: string } {
  const { clientId: apiKey, clientSecret: apiSecret } = ctx;
  if (!apiKey || !apiSecret) throw authError('ZERODHA_CLIENT_ID (api_key) and ZERODHA_CLIENT_SECRET are not set');
  return { apiKey, apiSecret };
}

/** The login page: Kite's own, or the one a fake or gateway serves at `<base>/connect/login`. */
function loginOrigin(baseUrl: string): string {
  return baseUrl === KITE_API_URL ? KITE_LOGIN_URL : baseUrl;
}

export function authorizationUrl(ctx: BrokerContext, state: string): AuthorizationRequest {
  const { apiKey } = appCredentials(ctx);
  const url = new URL(`${loginOrigin(ctx.baseUrl)}/connect/login`);
  url.search = new URLSearchParams({
    v: KITE_VERSION,
    api_key: apiKey,
    redirect_params: new URLSearchParams({ state }).toString(),
  }).toString();
  return { requestUrl: url.toString() };
}

/** hex(SHA-256(api_key + request_token + api_secret)), Kite's proof that the app holds its secret. */
export function kiteChecksum(apiKey: string, requestToken: string, apiSecret: string): string {
  return createHash('sha256')
    .update(apiKey + requestToken + apiSecret)
    .digest('hex');
}

/**
 * Kite's refusals of the app's own credentials at the exchange: the checksum proves the server's
 * api_secret (a fresh request token's checksum fails only on a wrong secret), the api_key is the
 * server's too. Signing in again cannot help: an outage until the operator corrects them.
 */
const APP_REFUSALS = new Set(['Invalid `checksum`.', 'Invalid `api_key`.']);

function appRefused(error: unknown): BrokerError | undefined {
  if (!isBrokerError(error) || !APP_REFUSALS.has(error.brokerMessage)) return undefined;
  return new BrokerError(
    'BrokerUnavailable',
    ZERODHA_TITLE,
    `the broker connection is misconfigured on this server's side: its app credentials were refused (${error.brokerMessage}). Please contact support.`,
    { cause: error },
  );
}

export interface KiteLogin {
  apiKey: string;
  accessToken: string;
  account: BrokerAccount;
  expiresAt: number;
}

/** Exchanges the request token for the day's access token and the user it belongs to. */
export async function exchangeRequestToken(
  ctx: BrokerContext,
  requestToken: string,
  now: number,
  fetchImpl?: typeof fetch,
): Promise<KiteLogin> {
  const { apiKey, apiSecret } = appCredentials(ctx);
  const expiresAt = sessionExpiry(now);
  const answer = await requestTokens({
    brokerTitle: ZERODHA_TITLE,
    ctx,
    path: '/session/token',
    form: { api_key: apiKey, request_token: requestToken, checksum: kiteChecksum(apiKey, requestToken, apiSecret) },
    headers: { 'x-kite-version': KITE_VERSION },
    defaultLifetimeMs: expiresAt - now,
    unwrap: (body) => asRecord(body)?.data,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  }).catch((error: unknown) => {
    throw appRefused(error) ?? error;
  });
  const user = asRecord(answer.body)?.data;
  const userId = stringField(user, 'user_id');
  if (!userId) throw new BrokerError('BrokerUnavailable', ZERODHA_TITLE, 'no user in the session answer');
  const userName = stringField(user, 'user_name');
  return {
    apiKey,
    accessToken: answer.accessToken,
    expiresAt,
    account: {
      id: userId,
      name: `Zerodha ${userId}`,
      dataTitle: userName || userId,
      dataType: stringField(user, 'user_type') ?? 'individual',
      dataCurrency: 'INR',
      demo: false,
    },
  };
}
