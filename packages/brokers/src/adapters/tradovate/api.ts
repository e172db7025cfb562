// Tradovate over the shared HTTP client. Tradovate answers most failures with HTTP 200 and a
// body to read (WIRE.md §5, §8):
//   {"errorText": "…"}                              sign-in refused, some actions
//   {"failureReason": "InvalidContract", "failureText": "Unknown symbol ESX9"}   orders, commands
//   {"violations": [...]}                           a body that breaks the schema
//   {"p-ticket": "…", "p-time": 15, "p-captcha": false}   the penalty-ticket rate limit
// A penalty ticket means the request was not carried out: it is sent again, once, with the
// ticket added, after the wait Tradovate asks for, when that wait fits the request's patience
// (an order: the hook's answer deadline; a sign-in: longer) and the caller's deadline; otherwise
// it is reported as RateLimited, with that wait as its Retry-After, and nothing was placed.
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError, type BrokerErrorKind } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { createHttpClient, type HttpResponse } from '../../core/http.ts';
import { asRecord, decimalField, type JsonRecord, stringField } from '../../core/json-read.ts';
import { TRADOVATE_TITLE, tradovateDescriptor } from './descriptor.ts';

/** The longest penalty wait sat out for orders and reads: inside the hook's 2.5 s answer. */
export const PENALTY_WAIT_S = 2;
/** For sign-in and renewal (10 a minute at most), which no hook waits for. */
export const AUTH_PENALTY_WAIT_S = 20;

export interface TradovateRequest {
  method?: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number>;
  json?: JsonRecord;
  /** Statuses handed back instead of thrown (404 for a lookup that may find nothing). */
  accept?: readonly number[];
  /** What an errorText body means here: a refused sign-in, or a refused request (default). */
  refusal?: BrokerErrorKind;
  /** The longest penalty-ticket wait (seconds) sat out before sending again; default PENALTY_WAIT_S. */
  patienceS?: number;
}

/** A rate limit, with the seconds Tradovate asks to wait (p-time, WIRE.md §8) as its Retry-After when known. */
const rateLimited = (message: string, waitS?: number) =>
  new BrokerError('RateLimited', TRADOVATE_TITLE, message, {
    ...(waitS !== undefined ? { retryAfter: String(Math.max(1, Math.ceil(waitS))) } : {}),
  });
/** The block a 429 means lasts about an hour (WIRE.md §8). */
const BLOCK_S = 3600;

/** 423 and an empty 429 are Tradovate's escalations after repeated penalty tickets. */
// Tradovate refuses a sign-in in a 200 body and a token with 401 "Access is denied": a page (or
// nothing) in their place is a proxy's or a CDN's, an outage the shared client reads (http.ts).
function statusError(response: HttpResponse): BrokerError | undefined {
  if (response.status === 429)
    return rateLimited('blocked after too many requests; Tradovate lifts the block after about an hour', BLOCK_S);
  if (response.status === 423)
    return rateLimited('locked after repeated rate-limit violations; wait before trying again');
  return undefined;
}

function kindOf(...texts: Array<string | undefined>): BrokerErrorKind | undefined {
  for (const text of texts) {
    const kind = matchException(tradovateDescriptor.exceptions, text);
    if (kind) return kind;
  }
  return undefined;
}

/**
 * failureReasons that decide nothing: the risk check ran out of time with the order in it, so the
 * order may still go on (reconciliation finds it by its clOrdId).
 */
const UNDECIDED = new Set(['RiskCheckTimeout']);

/**
 * The failure a 200 body reports, if it reports one. The token of a 200 was accepted (a refused
 * one is a 401, WIRE.md §8): a read (positions, an order lookup) answered with words the table
 * reads as credentials ("Access is denied") concerns that account and that read, and refuses it
 * without ending the connection (whose other accounts still work); a sign-in's refusal and an
 * order's stay as read. (AccountClosed is one account's refusal everywhere: the table says so.)
 */
export function bodyError(
  body: unknown,
  refusal: BrokerErrorKind = 'InvalidOrder',
  read = false,
): BrokerError | undefined {
  const record = asRecord(body);
  if (!record) return undefined;
  const ofThis = (kind: BrokerErrorKind) =>
    kind === 'AuthenticationError' && read && refusal !== 'AuthenticationError' ? refusal : kind;
  const reason = stringField(record, 'failureReason');
  if (reason && reason !== 'Success') {
    const text = stringField(record, 'failureText')?.trim();
    const message = text ? `${text} (${reason})` : reason;
    // Words of the text such as "Access is denied" refuse this order or command, whose token
    // was accepted: only a reason the table names could end the connection.
    const byReason = kindOf(reason);
    const byText = kindOf(text);
    const kind = byReason ?? (byText === 'AuthenticationError' ? undefined : byText) ?? 'InvalidOrder';
    // An order id beside the failure: the order exists at Tradovate, whatever became of it.
    const orderId = read ? undefined : stringField(record, 'orderId');
    return new BrokerError(ofThis(kind), TRADOVATE_TITLE, message, {
      outcomeUnknown: UNDECIDED.has(reason) || orderId !== undefined,
      ...(orderId !== undefined ? { brokerOrderId: orderId } : {}),
    });
  }
  const errorText = stringField(record, 'errorText')?.trim();
  if (errorText) return new BrokerError(ofThis(kindOf(errorText) ?? refusal), TRADOVATE_TITLE, errorText);
  if (Array.isArray(record.violations) && record.violations.length > 0) {
    const details = record.violations.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
    return new BrokerError('InvalidOrder', TRADOVATE_TITLE, `request refused: ${details.join('; ')}`);
  }
  if (record.ok === false) return new BrokerError(refusal, TRADOVATE_TITLE, 'request refused');
  return undefined;
}

/** Waits `ms`, or throws `onAbort()` when the caller's deadline comes first. */
function pause(ms: number, signal: AbortSignal | undefined, onAbort: () => BrokerError): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

export interface TradovateAnswer {
  status: number;
  body: unknown;
}

/** One Tradovate call on `baseUrl` (…/v1), with the access token when signed in. */
export async function tradovateCall(
  ctx: BrokerContext,
  baseUrl: string,
  accessToken: string | undefined,
  request: TradovateRequest,
): Promise<TradovateAnswer> {
  const http = createHttpClient({
    brokerTitle: TRADOVATE_TITLE,
    baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    headers: accessToken ? { authorization: `Bearer ${accessToken}` } : {},
    exceptions: tradovateDescriptor.exceptions,
    mapError: statusError,
  });
  const send = async (json: JsonRecord | undefined, ticketed: boolean): Promise<TradovateAnswer> => {
    const method = request.method ?? (json ? 'POST' : 'GET');
    const answer = await http.request({
      method,
      path: request.path,
      // A sign-in or a renewal places nothing: a lost answer to one leaves no order's outcome unknown.
      ...(request.path.startsWith('/auth/') ? { mutating: false } : {}),
      ...(request.query ? { query: request.query } : {}),
      ...(json ? { json } : {}),
      ...(request.accept ? { accept: request.accept } : {}),
    });
    const ticket = stringField(answer.body, 'p-ticket');
    if (ticket === undefined) {
      const failure = answer.status < 300 ? bodyError(answer.body, request.refusal, method === 'GET') : undefined;
      if (failure) throw failure;
      return { status: answer.status, body: answer.body };
    }
    const seconds = Math.max(0, decimalField(answer.body, 'p-time') ?? 0);
    if (asRecord(answer.body)?.['p-captcha'] === true)
      throw rateLimited(
        'too many requests: Tradovate wants a captcha solved; sign in at trader.tradovate.com, then try again later',
      );
    // Only a JSON body can carry the ticket back (WIRE.md §8); one ticket per request.
    if (!json || ticketed || seconds > (request.patienceS ?? PENALTY_WAIT_S))
      throw rateLimited(`too many requests; Tradovate asks to wait ${seconds} s`, seconds);
    await pause(seconds * 1000, ctx.signal, () =>
      rateLimited(`too many requests; the ${seconds} s wait Tradovate asks for outlasts the deadline`, seconds),
    );
    return send({ ...json, 'p-ticket': ticket }, true);
  };
  return send(request.json, false);
}
