// Authorized Trader API calls. The server stores the session and refreshes it at refreshAt; in
// between, an access token renewed here is kept in memory (by refresh token) so the following
// calls use it too. Refreshing does not invalidate the stored tokens: Schwab keeps the refresh
// token. Reads that meet a 401 refresh once and retry; order submissions never retry.
// Errors come as {"message":"...","errors":["..."]}.
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { createHttpClient, type HttpRequest, type HttpResponse } from '../../core/http.ts';
import { messageOf } from '../../core/http-errors.ts';
import { asRecord } from '../../core/json-read.ts';
import { SCHWAB_TITLE, schwabDescriptor } from './descriptor.ts';
import { REFRESH_MARGIN_MS, refreshTokens, type SchwabTokens, tokensOf } from './oauth.ts';

function schwabError(response: HttpResponse, mutating: boolean): BrokerError | undefined {
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
  const renewed = new Map<string, SchwabTokens>();
  const pending = new Map<string, Promise<SchwabTokens>>();

  function current(session: BrokerSession): SchwabTokens {
    const stored = tokensOf(session.secrets, session.expiresAt);
    const cached = renewed.get(stored.refreshToken);
    return cached && cached.accessExpiresAt > stored.accessExpiresAt ? cached : stored;
  }

  function refresh(ctx: BrokerContext, session: BrokerSession): Promise<SchwabTokens> {
    const tokens = current(session);
    // One refresh at a time per connection: concurrent calls share it.
    const running = pending.get(tokens.refreshToken);
    if (running) return running;
    const next = refreshTokens(ctx, tokens, options.now(ctx), options.fetch)
      .then((fresh) => {
        // Connections whose sign-in has lapsed are dropped, so the map stays small.
        for (const [key, known] of renewed) if (known.refreshExpiresAt <= options.now(ctx)) renewed.delete(key);
        renewed.set(tokens.refreshToken, fresh);
        return fresh;
      })
      .finally(() => pending.delete(tokens.refreshToken));
    pending.set(tokens.refreshToken, next);
    return next;
  }

  function send(ctx: BrokerContext, tokens: SchwabTokens, request: HttpRequest): Promise<HttpResponse> {
    return createHttpClient({
      brokerTitle: SCHWAB_TITLE,
      baseUrl: ctx.baseUrl,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      headers: { authorization: `Bearer ${tokens.accessToken}` },
      mapError: schwabError,
    }).request(request);
  }

  return {
    refresh,
    async call(ctx, session, request, kind = 'read') {
      let tokens = current(session);
      // Proactive: an order must never meet an expired token, since it is not sent twice.
      if (options.now(ctx) >= tokens.accessExpiresAt - REFRESH_MARGIN_MS) tokens = await refresh(ctx, session);
      try {
        return await send(ctx, tokens, request);
      } catch (error) {
        if (kind === 'order' || !isBrokerError(error) || error.kind !== 'AuthenticationError') throw error;
        // Revoked or expired early: one refresh, one retry, for calls that change nothing.
        return send(ctx, await refresh(ctx, session), request);
      }
    },
  };
}
