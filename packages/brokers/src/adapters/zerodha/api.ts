// Authorized Kite Connect calls: `Authorization: token api_key:access_token` and
// `X-Kite-Version: 3` on every request. Answers are {"status": "success", "data": …}; errors
// {"status": "error", "message": "…", "error_type": "InputException", "data": null} with a 4xx or
// 5xx, read by `error_type` through the descriptor's table (WIRE.md §8). A read refused with 429
// waits a second and tries once more; an order never is (Kite counts it, and it was not placed).
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { createHttpClient, type HttpRequest, type HttpResponse, namedError } from '../../core/http.ts';
import { messageOf } from '../../core/http-errors.ts';
import { asRecord, stringField } from '../../core/json-read.ts';
import { retryReadAfterRateLimit } from '../../core/read-retry.ts';
import { ZERODHA_TITLE, zerodhaDescriptor } from './descriptor.ts';

export const KITE_VERSION = '3';

/** The error a Kite error body names, by its `error_type` (429: by status, whatever it names). */
export function kiteError(
  response: HttpResponse,
  mutating: boolean,
  request?: Pick<HttpRequest, 'method'>,
): BrokerError | undefined {
  const message = messageOf(response.body);
  if (response.status === 429) {
    // A cancel (DELETE) refused so left the order working: it was not canceled.
    const what = !mutating
      ? ''
      : request?.method === 'DELETE'
        ? '; the order was not canceled'
        : '; the order was not placed';
    return new BrokerError(
      'RateLimited',
      ZERODHA_TITLE,
      `rate limit reached (${message ?? 'too many requests'})${what}`,
    );
  }
  const errorType = stringField(response.body, 'error_type');
  const kind = matchException(zerodhaDescriptor.exceptions, errorType);
  if (!kind) return undefined;
  // error_type names the kind, the status whether Kite decided (core/http.ts namedError).
  return namedError(ZERODHA_TITLE, kind, message ?? errorType ?? `HTTP ${response.status}`, response.status, mutating);
}

/** The session's app key and access token (secrets as connect stored them). */
export function kiteAuthorization(session: BrokerSession): string {
  const { apiKey, accessToken } = session.secrets;
  if (!apiKey || !accessToken) throw new BrokerError('AuthenticationError', ZERODHA_TITLE, 'not signed in; reconnect');
  return `token ${apiKey}:${accessToken}`;
}

/** The account a call names must be the session's (one Kite user per connection). */
export function checkAccount(session: BrokerSession, accountId: string): void {
  checkAccountInConnection(ZERODHA_TITLE, session, accountId);
}

export interface KiteApi {
  /** `data` of a successful answer. `order`: a placement or cancel, never sent twice. */
  call(ctx: BrokerContext, session: BrokerSession, request: HttpRequest, kind?: 'read' | 'order'): Promise<unknown>;
}

export function createKiteApi(options: { fetch?: typeof fetch } = {}): KiteApi {
  async function send(ctx: BrokerContext, session: BrokerSession, request: HttpRequest): Promise<unknown> {
    const http = createHttpClient({
      brokerTitle: ZERODHA_TITLE,
      baseUrl: ctx.baseUrl,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
      headers: { authorization: kiteAuthorization(session), 'x-kite-version': KITE_VERSION },
      exceptions: zerodhaDescriptor.exceptions,
      mapError: kiteError,
    });
    const { body, status, headers } = await http.request(request);
    const record = asRecord(body);
    if (record?.status === 'success') return record.data;
    // Kite never sends an error with a 2xx; should it, or send something else, it is read as one.
    const method = request.method ?? (request.form || request.json !== undefined ? 'POST' : 'GET');
    const mutating = request.mutating ?? method !== 'GET';
    throw (
      kiteError({ status, headers, body }, mutating, request) ??
      new BrokerError('BrokerUnavailable', ZERODHA_TITLE, 'unexpected answer', { outcomeUnknown: mutating })
    );
  }

  return {
    call: (ctx, session, request, kind = 'read') =>
      retryReadAfterRateLimit(ctx, kind, () => send(ctx, session, request)),
  };
}
