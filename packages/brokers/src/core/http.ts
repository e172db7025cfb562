// The HTTP client broker adapters share: fetch with a deadline, and failures mapped to typed
// BrokerErrors. It never retries: a resent order could be a second order, so the caller
// (reconciliation by client order id) decides what happens after an unknown outcome.
import { BrokerError, type BrokerErrorKind } from './errors.ts';
import { type ExceptionTable, matchException } from './exceptions.ts';
import { errorCodeOf, isErrorPage, messageOf, parseRetryAfter } from './http-errors.ts';
import { recordBrokerRequest } from './wire-log.ts';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Params = Record<string, string | number | boolean | undefined>;

export interface HttpRequest {
  method?: HttpMethod;
  /** Relative to the base URL ('/v2/orders'), or absolute. */
  path: string;
  query?: Params;
  headers?: Record<string, string>;
  /** Sent as application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (OAuth token endpoints). */
  form?: Params;
  timeoutMs?: number;
  /** Statuses handed back instead of thrown, e.g. 404 for a lookup that may find nothing. */
  accept?: readonly number[];
  /** Whether the call can change state at the broker; default: any method but GET and HEAD. */
  mutating?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, else the text; undefined when empty. Adapters validate it. */
  body: unknown;
}

export interface HttpClientOptions {
  brokerTitle: string;
  baseUrl: string;
  /** The caller's deadline (BrokerContext.signal). */
  signal?: AbortSignal;
  /** Per-request limit when the request names none. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** The descriptor's table of the broker's messages; consulted first for every error answer. */
  exceptions?: ExceptionTable;
  /**
   * The adapter's reading of an error answer the table did not name (a message in another
   * field, a status with a broker-specific meaning, a status whose meaning depends on the call:
   * `request.path`). Undefined falls back to the mapping by status.
   */
  mapError?: (response: HttpResponse, mutating: boolean, request: HttpRequest) => BrokerError | undefined;
  /**
   * The broker itself refuses credentials with an empty 401/403 (Saxo, saxo/WIRE.md §8; Trading
   * 212's spec gives its 401 and 403 no body): an empty one is then the broker's refusal, and only
   * an HTML page is a proxy's.
   */
  emptyAuthRefusals?: boolean;
}

export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Errors raised before a byte was sent: the broker cannot have acted on the request. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ERR_INVALID_URL',
]);

function urlOf(baseUrl: string, path: string, query?: Params): URL {
  const url = /^https?:\/\//.test(path)
    ? new URL(path)
    : new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  for (const [key, value] of Object.entries(query ?? {}))
    if (value !== undefined) url.searchParams.set(key, String(value));
  return url;
}

function encodeForm(form: Params): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) if (value !== undefined) params.set(key, String(value));
  return params.toString();
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      if (type.includes('json')) throw new SyntaxError('invalid JSON in the answer', { cause: error });
    }
  }
  return text;
}

/** The error the descriptor's table names for this answer's message, if any. */
function tableError(
  title: string,
  table: ExceptionTable | undefined,
  response: HttpResponse,
  mutating: boolean,
): BrokerError | undefined {
  const message = messageOf(response.body);
  const kind = matchException(table, message);
  if (!kind || !message) return undefined;
  return namedError(title, kind, message, response.status, mutating);
}

/** Retry-After as said: seconds, or an HTTP date; nothing when it is neither. */
function retryAfterText(headers: Headers): string {
  const said = parseRetryAfter(headers.get('retry-after'));
  if (!said) return '';
  return 'seconds' in said ? `, retry after ${said.seconds} s` : `, retry after ${new Date(said.at).toISOString()}`;
}

/** A rate limit keeps the answer's Retry-After, so that a read waits as long as the broker asks. */
function withRetryAfter(error: BrokerError, headers: Headers): BrokerError {
  const retryAfter = headers.get('retry-after')?.trim();
  if (error.kind !== 'RateLimited' || !retryAfter || error.retryAfter !== undefined) return error;
  const { cause, outcomeUnknown } = error;
  return new BrokerError(error.kind, error.brokerTitle, error.brokerMessage, { cause, outcomeUnknown, retryAfter });
}

/**
 * 4xx statuses that do not prove the broker refused the request: a gateway or load balancer
 * gave up waiting (408 Request Timeout, 499 client closed) or sent it to the wrong place (421
 * Misdirected), a server declined an early replay (425 Too Early), or the request met another
 * one (409 Conflict, e.g. the same client order id). The order may stand at the broker: for a
 * submission the outcome is unknown, settled by looking the order up, never credit given back.
 */
const NOT_REFUSED_STATUSES = new Set([408, 409, 421, 425, 499]);

/** Whether a 4xx status is no proof of a refusal (NOT_REFUSED_STATUSES), for adapters' own mappings. */
export const isInconclusiveStatus = (status: number): boolean => NOT_REFUSED_STATUSES.has(status);

/**
 * Whether an error status leaves a submission undecided, whatever words come with it: a 5xx or an
 * inconclusive 4xx. The words may name the kind ("internal error: not enough resources"), never
 * that the broker decided.
 */
export const isUndecidedStatus = (status: number): boolean => status >= 500 || isInconclusiveStatus(status);

/**
 * The kind a broker's table named, as far as the status lets it stand: a refusal of the
 * credentials in a 5xx or an inconclusive 4xx proves none (a server in trouble, a gateway saying
 * "unauthorized upstream"), and an AuthenticationError deactivates the connection: an outage.
 */
export const kindForStatus = (kind: BrokerErrorKind, status: number): BrokerErrorKind =>
  kind === 'AuthenticationError' && isUndecidedStatus(status) ? 'BrokerUnavailable' : kind;

/** Whether an error of `kind` answered with `status` leaves a submission undecided: an outage's kind, or an undecided status. */
export const leavesUndecided = (kind: BrokerErrorKind, status: number): boolean =>
  kind === 'BrokerUnavailable' || isUndecidedStatus(status);

/** An error answer whose words the table names: the words give the kind, the status whether the broker decided. */
export function namedError(
  title: string,
  named: BrokerErrorKind,
  message: string,
  status: number,
  mutating: boolean,
): BrokerError {
  const kind = kindForStatus(named, status);
  return new BrokerError(kind, title, message, { outcomeUnknown: mutating && leavesUndecided(kind, status) });
}

function statusError(title: string, response: HttpResponse, mutating: boolean): BrokerError {
  const { status } = response;
  const message = messageOf(response.body) ?? `HTTP ${status}`;
  if (status === 429)
    return new BrokerError('RateLimited', title, `rate limit reached${retryAfterText(response.headers)}`);
  if (status === 401 || status === 403) return new BrokerError('AuthenticationError', title, message);
  if (isUndecidedStatus(status))
    return new BrokerError('BrokerUnavailable', title, message, { outcomeUnknown: mutating });
  return new BrokerError('InvalidOrder', title, message);
}

/**
 * A 401 or 403 that is an HTML page or nothing comes from a CDN, a firewall or a proxy in the
 * broker's place, not from the broker refusing the credentials (brokers refuse in words): an
 * outage, which keeps the connection, never a refused sign-in that deactivates it.
 */
function pageInBrokersPlace(
  title: string,
  response: HttpResponse,
  mutating: boolean,
  emptyAuthRefusals: boolean | undefined,
): BrokerError | undefined {
  const { status, body } = response;
  if ((status !== 401 && status !== 403) || !isErrorPage(body)) return undefined;
  if (emptyAuthRefusals && (body === undefined || (typeof body === 'string' && !body.trim()))) return undefined;
  return new BrokerError('BrokerUnavailable', title, `HTTP ${status}`, {
    outcomeUnknown: mutating,
  });
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const title = options.brokerTitle;
  const fetchImpl = options.fetch ?? fetch;

  return {
    async request(request) {
      const method = request.method ?? (request.json !== undefined || request.form ? 'POST' : 'GET');
      const mutating = request.mutating ?? !(method === 'GET' || method === 'HEAD');
      const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers, ...request.headers };
      let body: string | undefined;
      if (request.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(request.json);
      } else if (request.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = encodeForm(request.form);
      }

      let response: HttpResponse;
      try {
        const url = urlOf(options.baseUrl, request.path, request.query);
        // Redacted as it is recorded, for the trade's detail view (wire-log.ts).
        recordBrokerRequest({ method, path: url.pathname + url.search, headers, body, mutating });
        const answer = await fetchImpl(url, { method, headers, body, signal, redirect: 'error' });
        response = { status: answer.status, headers: answer.headers, body: await readBody(answer) };
      } catch (error) {
        if (timeout.aborted) {
          throw new BrokerError('BrokerUnavailable', title, `no answer within ${timeoutMs} ms`, {
            cause: error,
            outcomeUnknown: mutating,
          });
        }
        if (options.signal?.aborted) {
          throw new BrokerError('BrokerUnavailable', title, 'no answer before the deadline', {
            cause: error,
            outcomeUnknown: mutating,
          });
        }
        const code = errorCodeOf(error);
        const notSent = code !== undefined && NOT_SENT_CODES.has(code);
        const message = notSent
          ? 'cannot reach the broker'
          : error instanceof SyntaxError
            ? 'unreadable answer'
            : 'connection lost';
        throw new BrokerError('BrokerUnavailable', title, message, {
          cause: error,
          outcomeUnknown: mutating && !notSent,
        });
      }
      if ((response.status >= 200 && response.status < 300) || request.accept?.includes(response.status))
        return response;
      throw withRetryAfter(
        tableError(title, options.exceptions, response, mutating) ??
          pageInBrokersPlace(title, response, mutating, options.emptyAuthRefusals) ??
          options.mapError?.(response, mutating, request) ??
          statusError(title, response, mutating),
        response.headers,
      );
    },
  };
}
