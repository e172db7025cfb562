// Authorized Trader API calls; tokens kept fresh between the server's refreshes by
// core/oauth-tokens.ts. Refreshing does not invalidate the stored tokens: Schwab keeps the
// refresh token. Reads that meet a 401 refresh once and retry; order submissions never retry.
// Errors come as {"message":"...","errors":["..."]}.
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { createHttpClient, type HttpRequest, type HttpResponse } from '../../core/http.ts';
import { messageOf } from '../../core/http-errors.ts';
import { asRecord } from '../../core/json-read.ts';
import { createTokenKeeper } from '../../core/oauth-tokens.ts';
import { SCHWAB_TITLE, schwabDescriptor } from './descriptor.ts';
import { REFRESH_MARGIN_MS, refreshTokens, type SchwabTokens, tokensOf } from './oauth.ts';

/** Order calls: place, preview, cancel, replace and the order lookups of an account. */
const ORDER_PATH = /\/accounts\/[^/]+\/(orders|previewOrder)(\/|$)/;
/** Any call of one account (its positions, orders, transactions); not the account list of connecting. */
const ACCOUNT_PATH = /\/accounts\/(?!accountNumbers(\/|$))[^/]+(\/|$)/;

/**
 * Schwab's error answer. Schwab refuses the token (or an app without the account) with 401; a 403
 * on an order call is a refusal of that order (the account may not trade it), and one on another
 * call of an account (its holdings) a refusal of that read, not of the connection.
 */
function schwabError(response: HttpResponse, mutating: boolean, path: string): BrokerError | undefined {
  const record = asRecord(response.body);
  const errors = Array.isArray(record?.errors)
    ? record.errors.map((item) => messageOf(item) ?? '').filter(Boolean)
    : [];
  const head = typeof record?.message === 'string' ? record.message : undefined;
  const message = [head, ...errors.filter((error) => error !== head)].filter(Boolean).join(': ') || undefined;
  const { status } = response;
  if (status === 404) return new BrokerError('OrderNotFound', SCHWAB_TITLE, message ?? 'not found');
  if (status === 400 || status === 422) {
    // The descriptor's table reads the whole message: Schwab's reason is often in `errors`.
    const kind = matchException(schwabDescriptor.exceptions, message) ?? 'InvalidOrder';
    return new BrokerError(kind, SCHWAB_TITLE, message ?? 'order refused');
  }
  if (status === 401) return new BrokerError('AuthenticationError', SCHWAB_TITLE, message ?? 'not authorized');
  if (status === 403 && ACCOUNT_PATH.test(path)) {
    const fallback = ORDER_PATH.test(path)
      ? 'the order is not allowed for this account'
      : 'not allowed for this account';
    return new BrokerError('InvalidOrder', SCHWAB_TITLE, message ?? fallback);
  }
  if (status >= 500 && message)
    return new BrokerError('BrokerUnavailable', SCHWAB_TITLE, message, { outcomeUnknown: mutating });
  return undefined;
}

export interface SchwabApi {
  /** `order`: a submission, never retried; anything else refreshes once on a 401. */
  call(
    ctx: BrokerContext,
    session: BrokerSession,
    request: HttpRequest,
    kind?: 'read' | 'order',
  ): Promise<HttpResponse>;
  /** Renews the access token now (the server's refresh). */
  refresh(ctx: BrokerContext, session: BrokerSession): Promise<SchwabTokens>;
}

export function createSchwabApi(options: { now: (ctx: BrokerContext) => number; fetch?: typeof fetch }): SchwabApi {
  const tokens = createTokenKeeper<SchwabTokens>({
    now: options.now,
    read: (session) => tokensOf(session.secrets, session.expiresAt),
    renew: (ctx, current, now) => refreshTokens(ctx, current, now, options.fetch),
    marginMs: REFRESH_MARGIN_MS,
    // Kept until the weekly sign-in lapses.
    forgetAt: (kept) => kept.refreshExpiresAt,
  });

  return {
    refresh: tokens.refresh,
    call: (ctx, session, request, kind = 'read') =>
      tokens.authorized(ctx, session, kind, (fresh) =>
        createHttpClient({
          brokerTitle: SCHWAB_TITLE,
          baseUrl: ctx.baseUrl,
          ...(ctx.signal ? { signal: ctx.signal } : {}),
          ...(options.fetch ? { fetch: options.fetch } : {}),
          headers: { authorization: `Bearer ${fresh.accessToken}` },
          mapError: (response, mutating, { path }) => schwabError(response, mutating, path),
        }).request(request),
      ),
  };
}
