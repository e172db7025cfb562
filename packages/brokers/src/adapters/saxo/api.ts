// Authorized Saxo OpenAPI calls and Saxo's error bodies (WIRE.md §8), branching on ErrorCode:
//   400 {"ErrorCode":"InvalidModelState","Message":"One or more properties of the request are invalid!",
//        "ModelState":{"Orders":["Stop leg of OCO order must have OrderType of either: …"]}}
//   400 {"ErrorInfo":{"ErrorCode":"IllegalInstrumentId","Message":"Instrument ID is invalid"}}
//   401 with an empty body; 403 the app is not enabled for trading; 404 gone; 409 a duplicate
//   order within 15 s; 429 rate limited (X-RateLimit-<Dimension>-Reset: seconds to wait)
// → "Saxo: <message>". Tokens are kept fresh by core/oauth-tokens.ts; a read refused 401 renews
// once and tries again. A 429 answers nothing was done: a read or an order is sent once more when
// the limit resets within 2 seconds and before the caller's deadline (an order repeated within
// 15 s with the same X-Request-ID is refused 409 by Saxo, never placed twice).
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, type BrokerErrorKind } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import {
  createHttpClient,
  type HttpRequest,
  type HttpResponse,
  isUndecidedStatus,
  kindForStatus,
  leavesUndecided,
} from '../../core/http.ts';
import { asRecord, stringField } from '../../core/json-read.ts';
import { createTokenKeeper } from '../../core/oauth-tokens.ts';
import { SAXO_TITLE, saxoDescriptor } from './descriptor.ts';
import { REFRESH_MARGIN_MS, refreshTokens, type SaxoTokens, tokensOf } from './oauth.ts';

/** The longest wait for a rate limit to reset before a second try. */
const MAX_RATE_WAIT_MS = 2_000;

/** ErrorCode and message of an error body: top level, or wrapped in ErrorInfo. */
export function errorOf(body: unknown): { code?: string; message?: string } {
  const record = asRecord(body);
  const info = asRecord(record?.ErrorInfo) ?? record;
  const code = stringField(info, 'ErrorCode');
  const head = stringField(info, 'Message');
  const details = Object.values(asRecord(record?.ModelState) ?? {}).flatMap((value) =>
    Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [],
  );
  const message = [head, ...details].filter(Boolean).join(': ') || undefined;
  return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
}

/** A refusal carrying Saxo's ErrorCode and the whole body (partly placed related orders). */
export class SaxoError extends BrokerError {
  readonly code: string | undefined;
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
  constructor(
    kind: BrokerErrorKind,
    message: string,
    response: HttpResponse,
    code: string | undefined,
    outcomeUnknown: boolean,
    retryAfter?: string,
  ) {
    super(kind, SAXO_TITLE, message, { outcomeUnknown, ...(retryAfter !== undefined ? { retryAfter } : {}) });
    this.code = code;
    this.status = response.status;
    this.body = response.body;
    this.headers = response.headers;
  }
}

function kindOf(status: number, code: string | undefined, message: string | undefined): BrokerErrorKind {
  const table = saxoDescriptor.exceptions;
  const named = (code && matchException(table, code)) || matchException(table, message);
  if (named) return kindForStatus(named, status);
  if (status === 401) return 'AuthenticationError';
  if (status === 404) return 'OrderNotFound';
  if (status === 409) return 'DuplicateOrder';
  if (status === 429) return 'RateLimited';
  // A gateway's 408, 421, 425 or 499 proves no refusal (its own 409 above is Saxo’s, WIRE.md §8).
  if (isUndecidedStatus(status)) return 'BrokerUnavailable';
  return 'InvalidOrder';
}

export function saxoError(response: HttpResponse, mutating: boolean): BrokerError {
  const { code, message } = errorOf(response.body);
  const { status } = response;
  const fallback =
    status === 401
      ? 'not authorized; connect again'
      : status === 403
        ? 'not allowed (HTTP 403): the app must be enabled for trading'
        : status === 409
          ? 'the same order was sent within 15 seconds (HTTP 409)'
          : `HTTP ${status}`;
  const kind = kindOf(status, code, message);
  // Words the table names on a 5xx or a gateway's inconclusive 4xx decide nothing (Saxo's own 409 does).
  const undecided = status === 409 ? kind === 'BrokerUnavailable' : leavesUndecided(kind, status);
  // The wait Saxo names (X-RateLimit-<Dimension>-Reset, WIRE.md §9) goes back as Retry-After.
  const reset = kind === 'RateLimited' ? resetMs(response.headers) : undefined;
  const retryAfter = reset !== undefined ? String(Math.max(1, Math.ceil(reset / 1000))) : undefined;
  return new SaxoError(kind, message ?? code ?? fallback, response, code, mutating && undecided, retryAfter);
}

/** Seconds until the exhausted limit resets (X-RateLimit-<Dimension>-Reset), the longest named. */
function resetMs(headers: Headers): number | undefined {
  let longest: number | undefined;
  headers.forEach((value, name) => {
    if (/^x-ratelimit-.+-reset$/i.test(name) && Number.isFinite(Number(value)))
      longest = Math.max(longest ?? 0, Number(value) * 1000);
  });
  return longest;
}

export interface SaxoApi {
  /** `order`: a placement, renewed before but never after a 401. */
  call(
    ctx: BrokerContext,
    session: BrokerSession,
    request: HttpRequest,
    kind?: 'read' | 'order',
  ): Promise<HttpResponse>;
  refresh(ctx: BrokerContext, session: BrokerSession): Promise<SaxoTokens>;
}

/** true after `ms`, false when the caller's deadline comes first. */
const wait = (ms: number, signal?: AbortSignal) => sleep(ms, true, signal ? { signal } : {}).catch(() => false);

export function createSaxoApi(options: { now: (ctx: BrokerContext) => number; fetch?: typeof fetch }): SaxoApi {
  const tokens = createTokenKeeper<SaxoTokens>({
    now: options.now,
    read: (session) => tokensOf(session.secrets),
    renew: (ctx, current, now) => refreshTokens(ctx, current, now, options.fetch),
    marginMs: REFRESH_MARGIN_MS,
    forgetAt: (kept) => kept.refreshExpiresAt,
  });
  const send = (ctx: BrokerContext, session: BrokerSession, request: HttpRequest, kind: 'read' | 'order') =>
    tokens.authorized(ctx, session, kind, (fresh) =>
      createHttpClient({
        brokerTitle: SAXO_TITLE,
        baseUrl: ctx.baseUrl,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        headers: { authorization: `Bearer ${fresh.accessToken}` },
        mapError: saxoError,
        // Saxo refuses a token 401 with an empty body (WIRE.md §8).
        emptyAuthRefusals: true,
      }).request(request),
    );

  return {
    refresh: tokens.refresh,
    async call(ctx, session, request, kind = 'read') {
      try {
        return await send(ctx, session, request, kind);
      } catch (error) {
        if (!(error instanceof SaxoError) || error.status !== 429) throw error;
        const reset = resetMs(error.headers) ?? 1_000;
        if (reset > MAX_RATE_WAIT_MS || !(await wait(reset, ctx.signal))) throw error;
        return send(ctx, session, request, kind);
      }
    },
  };
}
