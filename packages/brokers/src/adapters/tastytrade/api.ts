// Authorized tastytrade calls: `Authorization: Bearer`, the User-Agent every call needs, and
// tastytrade's error envelope read into typed errors:
//   {"error":{"code":"preflight_check_failure","message":"One or more preflight checks failed",
//             "errors":[{"code":"cant_buy_for_credit","message":"You cannot buy for a credit."}]}}
// → "tastytrade: One or more preflight checks failed: You cannot buy for a credit."
// Tokens are kept fresh by core/oauth-tokens.ts. Orders are never sent twice: a 401 or 429 on one
// is reported. Reads that meet a 401 refresh once and try again; after a 429 they try once more
// (core/read-retry.ts: after the Retry-After tastytrade says, else a second, within the cap and
// the caller's deadline).
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { createHttpClient, type HttpRequest, type HttpResponse } from '../../core/http.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import { createTokenKeeper } from '../../core/oauth-tokens.ts';
import { retryReadAfterRateLimit } from '../../core/read-retry.ts';
import { TASTYTRADE_TITLE, tastytradeDescriptor } from './descriptor.ts';
import { REFRESH_MARGIN_MS, refreshTokens, TASTYTRADE_USER_AGENT, type TastyTokens, tokensOf } from './oauth.ts';

/** "message: nested message; …" of tastytrade's error envelope, and its code. */
export function errorOf(body: unknown): { code?: string; message?: string } {
  const error = asRecord(asRecord(body)?.error);
  if (!error) return {};
  const head = stringField(error, 'message');
  const nested = listOf(error.errors)
    .map((item) => stringField(item, 'message'))
    .filter((text): text is string => !!text && text !== head);
  const message = [head, nested.join('; ')].filter(Boolean).join(': ') || undefined;
  const code = stringField(error, 'code');
  return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
}

function tastytradeError(response: HttpResponse, mutating: boolean): BrokerError | undefined {
  const { code, message } = errorOf(response.body);
  const text = message ?? code;
  const { status } = response;
  if (status === 404) return new BrokerError('OrderNotFound', TASTYTRADE_TITLE, text ?? 'not found');
  if (status === 401) return new BrokerError('AuthenticationError', TASTYTRADE_TITLE, text ?? 'not authorized');
  // 403: the grant's scope or the account's permissions (options level, futures approval).
  if (status === 400 || status === 403 || status === 422) {
    const kind = matchException(tastytradeDescriptor.exceptions, text) ?? 'InvalidOrder';
    return new BrokerError(kind, TASTYTRADE_TITLE, text ?? `order refused (HTTP ${status})`);
  }
  if (status >= 500 && text) {
    return new BrokerError('BrokerUnavailable', TASTYTRADE_TITLE, text, { outcomeUnknown: mutating });
  }
  return undefined;
}

export interface TastyApi {
  /** `order`: a submission, never sent twice; a read retries once after a 401 or a 429. */
  call(
    ctx: BrokerContext,
    session: BrokerSession,
    request: HttpRequest,
    kind?: 'read' | 'order',
  ): Promise<HttpResponse>;
  /** Renews the access token now (the server's refresh). */
  refresh(ctx: BrokerContext, session: BrokerSession): Promise<TastyTokens>;
}

export function createTastyApi(options: { now: (ctx: BrokerContext) => number; fetch?: typeof fetch }): TastyApi {
  const tokens = createTokenKeeper<TastyTokens>({
    now: options.now,
    read: (session) => tokensOf(session.secrets),
    renew: (ctx, current, now) => refreshTokens(ctx, current, now, options.fetch),
    marginMs: REFRESH_MARGIN_MS,
  });

  const send = (ctx: BrokerContext, session: BrokerSession, request: HttpRequest, kind: 'read' | 'order') =>
    tokens.authorized(ctx, session, kind, (fresh) =>
      createHttpClient({
        brokerTitle: TASTYTRADE_TITLE,
        baseUrl: ctx.baseUrl,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        headers: { authorization: `Bearer ${fresh.accessToken}`, 'user-agent': TASTYTRADE_USER_AGENT },
        mapError: tastytradeError,
      }).request(request),
    );

  return {
    refresh: tokens.refresh,
    call: (ctx, session, request, kind = 'read') =>
      retryReadAfterRateLimit(ctx, kind, () => send(ctx, session, request, kind)),
  };
}
