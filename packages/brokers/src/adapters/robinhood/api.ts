// Signed calls to Robinhood's Crypto Trading API. Every request is signed over the bytes that go
// out (a fetch wrapper sees the final URL and body), takes its turn in the rate limit, and has
// its errors read from Robinhood's envelope:
//   {"type": "validation_error", "errors": [{"attr": "client_order_id", "detail": "Must be a valid UUID."}]}
// → "Robinhood: client_order_id: Must be a valid UUID.". Orders are never sent twice; a read that
// meets a 429 waits a second and tries once more, within the caller's deadline.
import type { KeyObject } from 'node:crypto';
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { createHttpClient, type HttpRequest, type HttpResponse, isInconclusiveStatus } from '../../core/http.ts';
import { messageOf } from '../../core/http-errors.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import { retryReadAfterRateLimit } from '../../core/read-retry.ts';
import { ROBINHOOD_TITLE, robinhoodDescriptor } from './descriptor.ts';
import { type RateLimiter, rateLimited } from './rate-limit.ts';
import { signedHeaders } from './signing.ts';

export interface RobinhoodKeys {
  apiKey: string;
  privateKey: KeyObject;
}

/** "attr: detail; …" of Robinhood's error envelope (non_field_errors and null attrs unnamed). */
export function envelopeMessage(body: unknown): string | undefined {
  const parts = listOf(asRecord(body)?.errors).flatMap((error) => {
    const detail = stringField(error, 'detail');
    if (!detail) return [];
    const attr = stringField(error, 'attr');
    return [attr && attr !== 'non_field_errors' ? `${attr}: ${detail}` : detail];
  });
  return parts.length ? parts.join('; ') : messageOf(body);
}

function robinhoodError(response: HttpResponse, mutating: boolean, request?: Pick<HttpRequest, 'path'>): BrokerError {
  const { status } = response;
  const message = envelopeMessage(response.body) ?? `HTTP ${status}`;
  if (status === 404) return new BrokerError('OrderNotFound', ROBINHOOD_TITLE, message);
  // Robinhood's token bucket refuses before anything is processed.
  if (status === 429) {
    // A cancel refused so left its order working.
    const cancel = request?.path.endsWith('/cancel/') === true;
    return rateLimited(
      !mutating ? 'try again in a minute' : cancel ? 'the order was not canceled' : 'the order was not placed',
    );
  }
  // 403 is a key without the permission (WIRE.md §2): on an order or a cancel, a refusal of that
  // one, which leaves the connection (its reads) alone, as a bad key (401) does not.
  if (status === 403 && mutating)
    return new BrokerError('InvalidOrder', ROBINHOOD_TITLE, `${message} (HTTP 403: the API key may not trade)`);
  if (status === 401 || status === 403) return new BrokerError('AuthenticationError', ROBINHOOD_TITLE, message);
  if (status >= 500 || isInconclusiveStatus(status))
    return new BrokerError('BrokerUnavailable', ROBINHOOD_TITLE, message, { outcomeUnknown: mutating });
  const kind = matchException(robinhoodDescriptor.exceptions, message) ?? 'InvalidOrder';
  return new BrokerError(kind, ROBINHOOD_TITLE, message);
}

/** fetch that signs the request it is handed: the final path with its query, and the body as sent. */
function signingFetch(keys: RobinhoodKeys, now: () => number, base: typeof fetch): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = typeof init?.body === 'string' ? init.body : '';
    const signed = signedHeaders(
      {
        apiKey: keys.apiKey,
        timestamp: Math.floor(now() / 1000),
        path: `${url.pathname}${url.search}`,
        method: init?.method ?? 'GET',
        body,
      },
      keys.privateKey,
    );
    return base(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...signed } });
  };
}

export interface RobinhoodApi {
  /** `order`: a submission, never sent twice; a read retries once after a 429. */
  call(ctx: BrokerContext, keys: RobinhoodKeys, request: HttpRequest, kind?: 'read' | 'order'): Promise<HttpResponse>;
}

export function createRobinhoodApi(options: {
  now: (ctx: BrokerContext) => number;
  limiter: RateLimiter;
  fetch?: typeof fetch;
}): RobinhoodApi {
  const send = async (ctx: BrokerContext, keys: RobinhoodKeys, request: HttpRequest) => {
    await options.limiter.take(keys.apiKey, options.now(ctx), ctx.signal);
    return createHttpClient({
      brokerTitle: ROBINHOOD_TITLE,
      baseUrl: ctx.baseUrl,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      fetch: signingFetch(keys, () => options.now(ctx), options.fetch ?? fetch),
      mapError: robinhoodError,
    }).request(request);
  };
  return {
    call: (ctx, keys, request, kind = 'read') => retryReadAfterRateLimit(ctx, kind, () => send(ctx, keys, request)),
  };
}
