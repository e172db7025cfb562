// FOREX.com's CIAPI over HTTP (WIRE.md §1, §9): a session from POST /session (user name, password,
// AppKey), then `UserName` and `Session` headers on every call. Its lifetime is not documented:
// the session is renewed hourly (core/oauth-tokens.ts keeps the renewed one between the server's
// refreshes), and once more whenever FOREX.com answers ErrorCode 4011 InvalidSession. Errors come
// as {"HttpStatus": 401, "ErrorMessage": "Session is not valid", "ErrorCode": 4011}.
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { createHttpClient, type HttpRequest, type HttpResponse } from '../../core/http.ts';
import { asRecord, decimalField, stringField } from '../../core/json-read.ts';
import { type AccessTokens, createTokenKeeper } from '../../core/oauth-tokens.ts';
import { retryReadAfterRateLimit } from '../../core/read-retry.ts';
import { FOREX_TITLE } from './descriptor.ts';

/** How long a session is used before a new logon (FOREX.com documents no lifetime). */
export const SESSION_RENEW_MS = 60 * 60_000;
const MARGIN_MS = 60_000;
/** The cause of an InvalidSession refusal: the session is renewed, the request sent again. */
const INVALID_SESSION = Symbol('InvalidSession');

export interface ForexLogin {
  userName: string;
  password: string;
  appKey: string;
}

export interface ForexTokens extends AccessTokens, ForexLogin {}

const MARKET_DATA = ['/market/', '/cfd/markets', '/spread/markets'];
const isMarketData = (path: string) => MARKET_DATA.some((prefix) => path.startsWith(prefix));

/**
 * ErrorCode → kind (schema.json ErrorCode): what a code means at FOREX.com. A login or session is
 * refused with 4010 InvalidCredentials or 4011 InvalidSession (WIRE.md §9): a 403 on a market's
 * prices or information, or on the market search of an account (/cfd/markets, /spread/markets:
 * the market an order is valued or traded on) refuses that market's data to this login, not the
 * connection.
 */
function forexError(response: HttpResponse, mutating: boolean, request: HttpRequest): BrokerError | undefined {
  const body = asRecord(response.body);
  const code = decimalField(body, 'ErrorCode');
  const message = stringField(body, 'ErrorMessage') ?? `HTTP ${response.status}`;
  // FOREX.com refuses a logon in JSON (ErrorCode 4010): a page (or nothing) in its place is a
  // proxy's or a CDN's, an outage the shared client reads before this (http.ts).
  if (code === 4011) return new BrokerError('AuthenticationError', FOREX_TITLE, message, { cause: INVALID_SESSION });
  if ((code === 403 || response.status === 403) && isMarketData(request.path))
    return new BrokerError('InvalidOrder', FOREX_TITLE, `market data refused (${message}); nothing was placed`);
  if (code === 4010 || code === 403 || response.status === 401 || response.status === 403)
    return new BrokerError('AuthenticationError', FOREX_TITLE, message);
  if (code === 5002) {
    // Throttled before anything is processed.
    const detail = !mutating
      ? 'try again in a minute'
      : request.path === '/order/cancel'
        ? 'the order was not canceled'
        : 'the order was not placed';
    return new BrokerError('RateLimited', FOREX_TITLE, `throttled (${message}); ${detail}`);
  }
  if (code === 5001 || response.status === 404) return new BrokerError('OrderNotFound', FOREX_TITLE, message);
  if (code === 500 || response.status >= 500)
    return new BrokerError('BrokerUnavailable', FOREX_TITLE, message, { outcomeUnknown: mutating });
  if (response.status >= 400) return new BrokerError('InvalidOrder', FOREX_TITLE, message);
  return undefined;
}

const isInvalidSession = (error: unknown) => isBrokerError(error) && error.cause === INVALID_SESSION;

export function forexClient(ctx: BrokerContext, headers: Record<string, string>, fetchImpl?: typeof fetch) {
  return createHttpClient({
    brokerTitle: FOREX_TITLE,
    baseUrl: ctx.baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    headers,
    mapError: forexError,
  });
}

/** POST /session: a new session token for the login. */
export async function logOn(ctx: BrokerContext, login: ForexLogin, now: number, fetchImpl?: typeof fetch) {
  const { body } = await forexClient(ctx, {}, fetchImpl).request({
    method: 'POST',
    path: '/session',
    json: {
      UserName: login.userName,
      Password: login.password,
      AppKey: login.appKey,
      AppVersion: '1.0',
      AppComments: 'signal router',
    },
    // A logon changes nothing a retry could duplicate.
    mutating: false,
  });
  const session = stringField(body, 'Session');
  if (!session) throw new BrokerError('BrokerUnavailable', FOREX_TITLE, 'no session in the logon answer');
  if (asRecord(body)?.PasswordChangeRequired === true)
    throw new BrokerError(
      'AuthenticationError',
      FOREX_TITLE,
      'FOREX.com asks for a new password: change it there, then reconnect',
    );
  if (asRecord(body)?.AllowedAccountOperator === false)
    throw new BrokerError('AuthenticationError', FOREX_TITLE, 'this login may not use the trading API');
  return tokensFor(login, session, now);
}

export function tokensFor(login: ForexLogin, session: string, sessionAt: number): ForexTokens {
  return {
    ...login,
    accessToken: session,
    // The keeper's key for a connection's renewed sessions (in memory only).
    refreshToken: `${login.userName}\n${login.appKey}`,
    accessExpiresAt: sessionAt + SESSION_RENEW_MS,
  };
}

/** The tokens a stored session holds. */
export function tokensOf(session: BrokerSession): ForexTokens {
  const { userName, password, appKey, session: token, sessionAt } = session.secrets;
  if (!userName || !password || !appKey || !token)
    throw new BrokerError('AuthenticationError', FOREX_TITLE, 'reconnect: login missing');
  return tokensFor({ userName, password, appKey }, token, Number(sessionAt) || 0);
}

export interface ForexApi {
  /** `order`: a submission; resent once only after an InvalidSession refusal (nothing was placed). */
  call(
    ctx: BrokerContext,
    session: BrokerSession,
    request: HttpRequest,
    kind?: 'read' | 'order',
  ): Promise<HttpResponse>;
  /** A new session now (the server's refresh). */
  refresh(ctx: BrokerContext, session: BrokerSession): Promise<ForexTokens>;
}

export function createForexApi(options: { now: (ctx: BrokerContext) => number; fetch?: typeof fetch }): ForexApi {
  const keeper = createTokenKeeper<ForexTokens>({
    now: options.now,
    read: tokensOf,
    renew: (ctx, current, now) => logOn(ctx, current, now, options.fetch),
    marginMs: MARGIN_MS,
  });
  const send = (ctx: BrokerContext, tokens: ForexTokens, request: HttpRequest) =>
    forexClient(ctx, { UserName: tokens.userName, Session: tokens.accessToken }, options.fetch).request(request);

  return {
    refresh: keeper.refresh,
    async call(ctx, session, request, kind = 'read') {
      try {
        return await retryReadAfterRateLimit(ctx, kind, () =>
          keeper.authorized(ctx, session, kind, (tokens) => send(ctx, tokens, request)),
        );
      } catch (error) {
        if (kind !== 'order' || !isInvalidSession(error)) throw error;
        // FOREX.com refuses an expired session before it reads the order: nothing was placed.
        return send(ctx, await keeper.refresh(ctx, session), request);
      }
    },
  };
}
