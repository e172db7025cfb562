// Signed Webull OpenAPI calls (signer.ts) over the shared HTTP client. Every request carries the
// signing headers, `x-version: v2`, the 2FA `x-access-token` where the account has one, and on
// order placement `category` (US_EQUITY, US_OPTION, …). The signature covers the exact JSON sent:
// the body is serialized here and the client sends the same JSON.stringify of the same object.
// Errors: {"error_code": "…", "message": "…"}; 404 means no such order; 417 a business rule.
import { randomUUID } from 'node:crypto';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { type EnvironmentKind, environmentBaseUrl } from '../../core/environments.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { createHttpClient, type HttpMethod, type HttpResponse, isInconclusiveStatus } from '../../core/http.ts';
import { messageOf } from '../../core/http-errors.ts';
import { stringField } from '../../core/json-read.ts';
import { resendWithStoredToken } from '../../core/oauth-tokens.ts';
import { retryReadAfterRateLimit } from '../../core/read-retry.ts';
import { WEBULL_ENVIRONMENTS, WEBULL_TITLE, webullDescriptor } from './descriptor.ts';
import { createQueryPacer, isOrderQuery } from './query-pacing.ts';
import { algorithmFor, signature, signingHeaders, webullTimestamp } from './signer.ts';

export interface WebullKeys {
  appKey: string;
  appSecret: string;
  /** The 2FA access token, for accounts with two-factor authentication. */
  accessToken?: string;
}

export interface WebullRequest {
  method?: HttpMethod;
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  /** `<market>_<instrument type>` on order placement. */
  category?: string;
  accept?: readonly number[];
  /** A POST that changes nothing (preview, the 2FA token calls); default: every method but GET. */
  mutating?: boolean;
}

/**
 * What a status means at Webull when the descriptor's table did not name the message. A 403 on a
 * trade call is a refusal of that order (no options or futures permission, market data not
 * subscribed: WIRE.md §8), and a 403 on an account's assets (balance, positions) a refusal of that
 * read, not of the keys: those are refused with 401 or named in the table.
 */
function webullError(response: HttpResponse, mutating: boolean, path: string): BrokerError | undefined {
  // Webull's message as it is (the shared reader skips text that looks like markup, "<…>").
  const text =
    stringField(response.body, 'message') ??
    messageOf(response.body) ??
    stringField(response.body, 'error_code') ??
    `HTTP ${response.status}`;
  const { status } = response;
  // Webull refuses a token in JSON; a page (or nothing) in its place is a proxy's or a CDN's, an
  // outage the shared client reads before this (http.ts).
  if (status === 404) return new BrokerError('OrderNotFound', WEBULL_TITLE, text);
  if (status === 403 && (path.startsWith('/openapi/trade/') || path.startsWith('/openapi/assets/')))
    return new BrokerError('InvalidOrder', WEBULL_TITLE, text);
  if (status === 401 || status === 403) return new BrokerError('AuthenticationError', WEBULL_TITLE, text);
  if (status >= 500 || isInconclusiveStatus(status))
    return new BrokerError('BrokerUnavailable', WEBULL_TITLE, text, { outcomeUnknown: mutating });
  if (status === 429) return undefined;
  return new BrokerError('InvalidOrder', WEBULL_TITLE, text);
}

/**
 * Beyond this, this server's clock and Webull's disagree: Webull refuses a request whose
 * x-timestamp is off its clock (WIRE.md §1, §8: in a 401 like bad keys, with a message and an
 * error_code Webull does not publish), so such a refusal says nothing of the user's keys.
 */
const CLOCK_TOLERANCE_MS = 30_000;

/**
 * A refusal of the keys answered (its HTTP Date, Webull's clock) far from the x-timestamp signed:
 * this server's clock is off, not the keys. Nothing was done: an outage the operator fixes, no
 * reason to deactivate. The clocks are compared, not Webull's words (unpublished, and not telling).
 */
function requestRefusal(error: unknown, signedAt: number, answeredAt: number | undefined): unknown {
  if (!(error instanceof BrokerError) || error.kind !== 'AuthenticationError') return error;
  if (answeredAt === undefined || Math.abs(answeredAt - signedAt) <= CLOCK_TOLERANCE_MS) return error;
  return new BrokerError(
    'BrokerUnavailable',
    WEBULL_TITLE,
    `${error.brokerMessage} (this server's clock is ${Math.round((signedAt - answeredAt) / 1000)} s off Webull's; nothing was done)`,
    { cause: error, outcomeUnknown: false },
  );
}

/** The fetch used, noting the Date of each answer in `answered`. */
function noteDate(fetchImpl: typeof fetch, answered: { at?: number }): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    const date = Date.parse(response.headers.get('date') ?? '');
    answered.at = Number.isNaN(date) ? undefined : date;
    return response;
  };
}

export interface WebullClientOptions {
  now: () => number;
  fetch?: typeof fetch;
  /** Order queries' window (query-pacing.ts; tests shorten it). */
  orderQueryWindowMs?: number;
}

const methodOf = (request: WebullRequest): HttpMethod =>
  request.method ?? (request.json === undefined ? 'GET' : 'POST');

/** One signed request to `baseUrl`. */
export function signedRequest(
  ctx: BrokerContext,
  baseUrl: string,
  keys: WebullKeys,
  request: WebullRequest,
  options: WebullClientOptions,
): Promise<HttpResponse> {
  const host = new URL(baseUrl).hostname;
  const algorithm = algorithmFor(host);
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  const signedAt = options.now();
  const signed = { algorithm, appKey: keys.appKey, timestamp: webullTimestamp(signedAt), nonce: randomUUID() };
  const answered: { at?: number } = {};
  const query = request.query ?? {};
  const headers: Record<string, string> = {
    ...signingHeaders(signed),
    'x-signature': signature({ ...signed, appSecret: keys.appSecret, host, path: request.path, query, body }),
    'x-version': 'v2',
    ...(keys.accessToken ? { 'x-access-token': keys.accessToken } : {}),
    ...(request.category ? { category: request.category } : {}),
  };
  return createHttpClient({
    brokerTitle: WEBULL_TITLE,
    baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    fetch: noteDate(options.fetch ?? fetch, answered),
    headers,
    exceptions: webullDescriptor.exceptions,
    mapError: (response, mutating) => webullError(response, mutating, request.path),
  })
    .request({
      method: methodOf(request),
      path: request.path,
      query,
      ...(request.json !== undefined ? { json: request.json } : {}),
      ...(request.accept ? { accept: request.accept } : {}),
      ...(request.mutating !== undefined ? { mutating: request.mutating } : {}),
    })
    .catch((error: unknown) => {
      throw requestRefusal(error, signedAt, answered.at);
    });
}

export function keysOf(session: BrokerSession): WebullKeys {
  const { appKey, appSecret, accessToken } = session.secrets;
  if (!appKey || !appSecret) throw new BrokerError('AuthenticationError', WEBULL_TITLE, 'keys missing; reconnect');
  return { appKey, appSecret, ...(accessToken ? { accessToken } : {}) };
}

export function checkAccount(session: BrokerSession, accountId: string): void {
  checkAccountInConnection(WEBULL_TITLE, session, accountId);
}

export interface WebullApi {
  /** A call of the session's environment; `order`: never sent twice. */
  call(
    ctx: BrokerContext,
    session: BrokerSession,
    request: WebullRequest,
    kind?: 'read' | 'order',
  ): Promise<HttpResponse>;
}

export function createWebullApi(options: WebullClientOptions): WebullApi {
  const pacer = createQueryPacer(options.orderQueryWindowMs);
  return {
    call(ctx, session, request, kind = 'read') {
      const environment: EnvironmentKind = session.secrets.environment === 'demo' ? 'demo' : 'live';
      const baseUrl = environmentBaseUrl(ctx, WEBULL_ENVIRONMENTS, environment);
      const now = ctx.now ?? options.now;
      // A 2FA token ended by a renewal elsewhere (another instance) is refused with 401 before
      // Webull reads the request (WIRE.md §8): sent once more with the stored one.
      return resendWithStoredToken(
        ctx,
        session,
        (stored) => stored.secrets.accessToken,
        (used) =>
          retryReadAfterRateLimit(ctx, kind, async () => {
            const keys = keysOf(used);
            if (isOrderQuery(methodOf(request), request.path)) {
              await pacer.take(keys.appKey, ctx.signal).catch((cause: unknown) => {
                throw new BrokerError('BrokerUnavailable', WEBULL_TITLE, 'no answer before the deadline', { cause });
              });
            }
            return signedRequest(ctx, baseUrl, keys, request, { ...options, now });
          }),
      );
    },
  };
}
