// Questrade API calls for one account, on the API host of the session's token. General errors
// are non-2xx {"code": 3139, "message": "Invalid route"} (WIRE.md §8); 401 is a refused token.
// Order calls refused for want of trading access (personal apps are read-only, WIRE.md's access
// caveat) say so; 429 tells when Questrade's window resets (X-RateLimit-Reset, Unix seconds).
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { createHttpClient, type HttpClient, type HttpRequest, type HttpResponse } from '../../core/http.ts';
import { stringField } from '../../core/json-read.ts';
import { sendingWithStoredToken } from '../../core/oauth-tokens.ts';
import { QUESTRADE_TITLE, questradeDescriptor } from './descriptor.ts';
import { tokensOf } from './oauth.ts';

export const TRADING_ACCESS =
  'placing orders through the API needs Questrade partner (trading) access for this app; personal apps are read-only';

/** Market data calls (WIRE.md §9): symbols, quotes, markets, candles. */
const MARKET_DATA = /^\/v1\/(symbols|markets)(\/|$)/;
/** Calls of one account (`/v1/accounts/{number}/…`), not the account list of connecting. */
const ACCOUNT_CALL = /^\/v1\/accounts\/[^/]+\//;

function questradeError(response: HttpResponse, mutating: boolean, request: HttpRequest): BrokerError | undefined {
  const message = stringField(response.body, 'message');
  const { status } = response;
  if (status === 401) return new BrokerError('AuthenticationError', QUESTRADE_TITLE, message ?? 'access token refused');
  if (status === 403 && mutating)
    return new BrokerError('InvalidOrder', QUESTRADE_TITLE, `${message ?? 'forbidden'}: ${TRADING_ACCESS}`);
  // The token was accepted (a refused one is 401): market data this app or user may not read
  // refuses the order that needed it, not the connection.
  if (status === 403 && MARKET_DATA.test(request.path))
    return new BrokerError('InvalidOrder', QUESTRADE_TITLE, `market data refused: ${message ?? 'forbidden'}`);
  // …nor does one account's refused read (positions, balances, orders: holdings, a close, a lookup).
  if (status === 403 && ACCOUNT_CALL.test(request.path))
    return new BrokerError('InvalidOrder', QUESTRADE_TITLE, message ?? 'forbidden');
  if (status === 404) return new BrokerError('OrderNotFound', QUESTRADE_TITLE, message ?? 'not found');
  if (status === 429) {
    // Unix seconds: also the error's Retry-After (an HTTP date), which callers are told to wait for.
    const reset = Number(response.headers.get('x-ratelimit-reset'));
    const at = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000) : undefined;
    const when = at ? `; Questrade resets it at ${at.toISOString()}` : '';
    return new BrokerError('RateLimited', QUESTRADE_TITLE, `rate limit reached${when}`, {
      ...(at ? { retryAfter: at.toUTCString() } : {}),
    });
  }
  return undefined;
}

export interface AccountApi {
  http: HttpClient;
  /** `/v1/accounts/{number}` */
  path: string;
  accountNumber: string;
}

export function accountApi(ctx: BrokerContext, session: BrokerSession, accountNumber: string): AccountApi {
  checkAccountInConnection(QUESTRADE_TITLE, session, accountNumber);
  return { http: apiClient(ctx, session), path: `/v1/accounts/${encodeURIComponent(accountNumber)}`, accountNumber };
}

/**
 * The API host and access token of the session (refreshed by the server before they run out). A
 * refresh elsewhere ends the token it replaces: a request refused with 401 (before Questrade reads
 * it, WIRE.md §8) goes once more with the stored session's token and host.
 */
export function apiClient(ctx: BrokerContext, session: BrokerSession): HttpClient {
  tokensOf(session.secrets);
  const request = sendingWithStoredToken(
    ctx,
    session,
    (stored) => stored.secrets.accessToken,
    (used, sent: HttpRequest) => {
      const tokens = tokensOf(used.secrets);
      return createHttpClient({
        brokerTitle: QUESTRADE_TITLE,
        baseUrl: tokens.apiServer,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        headers: { authorization: `Bearer ${tokens.accessToken}` },
        exceptions: questradeDescriptor.exceptions,
        mapError: questradeError,
      }).request(sent);
    },
  );
  return { request };
}
