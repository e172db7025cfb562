// Signed E*TRADE API calls (JSON through the ".json" paths) and E*TRADE's error envelope:
//   400 {"Error":{"code":100,"message":"Account key does not belong to user"}}
//   401 {"Error":{"message":"oauth_problem=token_rejected"}} or the text "oauth_problem=token_expired"
//   400 "Number of requests exceeded the rate limit set" (E*TRADE does not answer 429)
// → "E*TRADE: <message>", the kind from the descriptor's table (codes, then the message). The token
// is renewed before it turns idle (core/oauth-tokens.ts keeps the renewal between the server's
// refreshes); a read refused 401 renews once and tries again, an order never.
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import {
  createHttpClient,
  type HttpRequest,
  type HttpResponse,
  isUndecidedStatus,
  kindForStatus,
  leavesUndecided,
} from '../../core/http.ts';
import { messageOf, xmlField } from '../../core/http-errors.ts';
import { asRecord, stringField } from '../../core/json-read.ts';
import { createTokenKeeper } from '../../core/oauth-tokens.ts';
import { ETRADE_TITLE, etradeDescriptor } from './descriptor.ts';
import { authorizationHeader } from './oauth1.ts';
import { consumerOf, type EtradeTokens, isServerProblem, renewAccessToken, renewDueAt, tokensOf } from './tokens.ts';

/** E*TRADE's code and message of an error answer. */
export function errorOf(body: unknown): { code?: string; message?: string } {
  const error = asRecord(asRecord(body)?.Error);
  if (!error) {
    // XML, E*TRADE's default format: <Error><code>100</code><message>…</message></Error>; else a
    // gateway's answer: its message clipped (a long text page is not shown whole), none from HTML.
    const code = typeof body === 'string' ? xmlField(body, 'code') : undefined;
    const message = messageOf(body);
    return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
  }
  const code = stringField(error, 'code');
  const message = stringField(error, 'message');
  return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
}

/** A refusal with E*TRADE's error code (101: the preview went stale). */
export class EtradeError extends BrokerError {
  readonly code: string | undefined;
  constructor(kind: BrokerError['kind'], message: string, code: string | undefined, outcomeUnknown: boolean) {
    super(kind, ETRADE_TITLE, message, { outcomeUnknown });
    this.code = code;
  }
}

/**
 * E*TRADE's error answer as a BrokerError. E*TRADE refuses its OAuth tokens with 401
 * "oauth_problem=…" (WIRE.md §8), so a 403 on an order call (place, cancel, lookup) is a refusal
 * of that order, not of the connection; so is one on another call of one account (its portfolio
 * or balance: a refusal of that read) and one on a market quote (the quote an order is valued
 * with: market data the user may not be entitled to).
 */
export function etradeError(response: HttpResponse, mutating: boolean, path = ''): BrokerError {
  const { code, message } = errorOf(response.body);
  const { status } = response;
  const text = message ?? (code ? `error ${code}` : `HTTP ${status}`);
  const table = etradeDescriptor.exceptions;
  // The server's clock or consumer key refused (401), not the user's token: nothing was done.
  if (status === 401 && isServerProblem(message)) return new EtradeError('BrokerUnavailable', text, code, false);
  const said = (code && matchException(table, code)) || matchException(table, message);
  const named = said ? kindForStatus(said, status) : undefined;
  // An account's calls (orders, portfolio, balance): not the account list of connecting.
  const accountCall = /^\/v1\/accounts\/(?!list\.json$)[^/]+\//.test(path);
  const callRefusal = accountCall || path.startsWith('/v1/market/');
  const kind: BrokerError['kind'] =
    named ||
    (status === 403 && callRefusal
      ? 'InvalidOrder'
      : status === 401 || status === 403
        ? 'AuthenticationError'
        : status === 404
          ? 'OrderNotFound'
          : status === 429
            ? 'RateLimited'
            : isUndecidedStatus(status)
              ? 'BrokerUnavailable'
              : 'InvalidOrder');
  // Words the table names on a 5xx or an inconclusive 4xx decide nothing (core/http.ts isUndecidedStatus).
  return new EtradeError(kind, text, code, mutating && leavesUndecided(kind, status));
}

export interface EtradeApi {
  /** `order`: a placement, never sent twice; a read renews once after a 401 and tries again. */
  call(
    ctx: BrokerContext,
    session: BrokerSession,
    request: HttpRequest,
    kind?: 'read' | 'order',
  ): Promise<HttpResponse>;
  /** Renews the access token now (the server's refresh). */
  refresh(ctx: BrokerContext, session: BrokerSession): Promise<EtradeTokens>;
}

function fullUrl(baseUrl: string, request: HttpRequest): URL {
  const url = new URL(`${baseUrl}${request.path}`);
  for (const [key, value] of Object.entries(request.query ?? {}))
    if (value !== undefined) url.searchParams.set(key, String(value));
  return url;
}

export function createEtradeApi(options: { now: (ctx: BrokerContext) => number; fetch?: typeof fetch }): EtradeApi {
  const tokens = createTokenKeeper<EtradeTokens>({
    now: options.now,
    read: (session) => tokensOf(session.secrets),
    renew: (ctx, current, now) => renewAccessToken(ctx, current, now, options.fetch),
    dueAt: renewDueAt,
    forgetAt: (kept) => kept.expiresAt,
  });

  return {
    refresh: tokens.refresh,
    call: (ctx, session, request, kind = 'read') =>
      tokens.authorized(ctx, session, kind, (fresh) => {
        const method = request.method ?? (request.json !== undefined ? 'POST' : 'GET');
        const signer = { ...consumerOf(ctx), token: fresh.accessToken, tokenSecret: fresh.tokenSecret };
        const authorization = authorizationHeader(method, fullUrl(ctx.baseUrl, request), signer, options.now(ctx));
        return createHttpClient({
          brokerTitle: ETRADE_TITLE,
          baseUrl: ctx.baseUrl,
          ...(ctx.signal ? { signal: ctx.signal } : {}),
          ...(options.fetch ? { fetch: options.fetch } : {}),
          headers: { authorization },
          mapError: (response, mutating, { path }) => etradeError(response, mutating, path),
        }).request({ ...request, method });
      }),
  };
}
