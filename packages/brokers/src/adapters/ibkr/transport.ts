// One request to the Web API, signed the connection's way (OAuth 1.0a HMAC-SHA256 with the live
// session token, or nothing through a Client Portal Gateway), and IBKR's answers read: refusals
// come as HTTP 200 {"error": "…"} (WIRE.md §8), "no bridge" (400) and 401 mean the brokerage
// session is gone, 429 that the pacing limit was hit. Statuses the caller handles come back.
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { createHttpClient, type HttpRequest, type HttpResponse, isInconclusiveStatus } from '../../core/http.ts';
import { messageOf } from '../../core/http-errors.ts';
import { asRecord } from '../../core/json-read.ts';
import type { Credentials } from './credentials.ts';
import { IBKR_TITLE, ibkrDescriptor } from './descriptor.ts';
import { signedAuthorization } from './oauth.ts';

export interface Signer {
  credentials: Credentials;
  /** The live session token (OAuth only). */
  token?: string;
}

/** The refusal in a 200 body ({"error": "Order not confirmed "}), if it is one. */
export function errorInBody(body: unknown): string | undefined {
  const error = asRecord(body)?.error;
  return typeof error === 'string' && error.trim() !== '' ? error.trim() : undefined;
}

export function refusalOf(message: string): BrokerError {
  return new BrokerError(matchException(ibkrDescriptor.exceptions, message) ?? 'InvalidOrder', IBKR_TITLE, message);
}

/** The answer's kind when it tells the brokerage session is gone, so it can be opened again. */
export function sessionLost(response: HttpResponse): 'unauthorized' | 'no bridge' | undefined {
  if (response.status === 401) return 'unauthorized';
  if (response.status === 400 && /no bridge/i.test(messageOf(response.body) ?? '')) return 'no bridge';
  return undefined;
}

function queryOf(request: HttpRequest): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.query ?? {})) if (value !== undefined) query[key] = String(value);
  return query;
}

/** Sends one request; 400, 401 and 429 come back to the caller with whatever it accepts. */
export function send(
  ctx: BrokerContext,
  signer: Signer,
  request: HttpRequest,
  now: number,
  fetchImpl?: typeof fetch,
): Promise<HttpResponse> {
  const method = request.method ?? (request.json !== undefined ? 'POST' : 'GET');
  const headers: Record<string, string> = {};
  if (signer.credentials.mode === 'oauth') {
    if (!signer.token) throw new BrokerError('AuthenticationError', IBKR_TITLE, 'no live session token; connect again');
    const url = ctx.baseUrl.replace(/\/+$/, '') + request.path;
    const target = { method, url, query: queryOf(request) };
    headers.authorization = signedAuthorization(signer.credentials, signer.token, target, now);
  }
  return createHttpClient({
    brokerTitle: IBKR_TITLE,
    baseUrl: ctx.baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    headers,
    exceptions: ibkrDescriptor.exceptions,
    // A refused token or session is a 401 (WIRE.md §8); any other refusal (a 403 on one account's
    // call) is that call's, never the connection's.
    mapError: (response, mutating) => failure(response, mutating),
  }).request({ ...request, method, accept: [400, 401, 429, ...(request.accept ?? [])] });
}

/** An answer the caller did not accept, as the error it is. */
export function failure(response: HttpResponse, mutating: boolean): BrokerError {
  const message = messageOf(response.body) ?? `HTTP ${response.status}`;
  if (response.status === 401) return new BrokerError('AuthenticationError', IBKR_TITLE, message);
  if (response.status === 429) {
    // Pacing refuses before anything is processed (WIRE.md §8-9): nothing was placed. A wait the
    // answer names is handed back as the error's Retry-After.
    const retryAfter = response.headers.get('retry-after')?.trim();
    return new BrokerError('RateLimited', IBKR_TITLE, 'rate limit reached; nothing was sent, try again in a minute', {
      ...(retryAfter ? { retryAfter } : {}),
    });
  }
  if (response.status === 400 && sessionLost(response)) {
    return new BrokerError('BrokerUnavailable', IBKR_TITLE, 'the brokerage session is not open (no bridge)');
  }
  if (response.status >= 500 || isInconclusiveStatus(response.status))
    return new BrokerError('BrokerUnavailable', IBKR_TITLE, message, { outcomeUnknown: mutating });
  return refusalOf(message);
}
