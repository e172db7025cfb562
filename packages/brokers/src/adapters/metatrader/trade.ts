// POST …/accounts/:id/trade and what its answer means (WIRE §5). MetaApi answers HTTP 200 with
// {numericCode, stringCode, message, orderId?, positionId?} for accepted and refused trades
// alike: only 0, 10008, 10009, 10010 and 10025 are success. A code that does not prove a refusal
// (-11 disconnected during the trade, a timeout, a processing error, MT4's "no result") may have
// reached the broker with an unknown outcome: reconciliation finds out, nothing is resent. What
// cannot have created an order is sent once more: -10 (disconnected before the trade) at once,
// a 429 when MetaApi asks to wait at most half a second; a longer wait is reported with it.
// WIRE §5 leaves open whether MetaApi also sends a 4xx status with a trade answer: a 4xx body
// that carries the answer's codes is decided by them like a 200, never by the status (a -11 on a
// 400 is no refusal). A 4xx without them, an auth or inconclusive 4xx and a 5xx keep the shared mapping.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { type HttpClient, isInconclusiveStatus } from '../../core/http.ts';
import { decimalField, stringField } from '../../core/json-read.ts';
import { accountPath, errorOf, fail, type MetaApiLink, pause, retryAfterMs } from './client.ts';
import { METATRADER_TITLE, metatraderDescriptor } from './descriptor.ts';
import type { MetatraderTrade } from './mapper.ts';

export const SUCCESS_CODES: ReadonlySet<number> = new Set([0, 10008, 10009, 10010, 10025]);
/**
 * Codes that leave the trade's fate open: -11 TRADE_RETCODE_DISCONNECTED_DURING_TRADE, MT5's
 * 10011 TRADE_RETCODE_ERROR (request processing error), 10012 TRADE_RETCODE_TIMEOUT (the terminal
 * stopped waiting, the server may still execute), 10028 TRADE_RETCODE_LOCKED (locked for
 * processing), MT4's 1 ERR_NO_RESULT (result unknown) and 128 ERR_TRADE_TIMEOUT.
 */
const OUTCOME_UNKNOWN: ReadonlySet<number> = new Set([-11, 1, 128, 10011, 10012, 10028]);
const NOT_DELIVERED = -10;
const FILLED_CODES = new Set([0, 10009]);
/**
 * 4xx statuses whose body is read here: every one but the credentials' (401, 403: the client's
 * own mapping) and those that prove no refusal whatever the body says (core/http.ts).
 */
const READ_STATUSES: readonly number[] = Array.from({ length: 100 }, (_, i) => 400 + i).filter(
  (status) => status !== 401 && status !== 403 && !isInconclusiveStatus(status),
);
/** A 429 is sent again only when MetaApi asks for a short wait (a longer one is reported). */
const MAX_RETRY_WAIT_MS = 500;

export interface TradeResult {
  numericCode: number;
  stringCode: string;
  message: string;
  orderId?: string;
  positionId?: string;
}

/** The answer as a result; an answer that cannot be read may still have placed the order. */
export function readResult(body: unknown): TradeResult {
  const numericCode = decimalField(body, 'numericCode');
  if (numericCode === undefined) throw fail('BrokerUnavailable', 'unexpected answer to the trade', true);
  const orderId = stringField(body, 'orderId');
  const positionId = stringField(body, 'positionId');
  return {
    numericCode,
    stringCode: stringField(body, 'stringCode') ?? String(numericCode),
    message: stringField(body, 'message') ?? 'no message',
    ...(orderId ? { orderId } : {}),
    ...(positionId ? { positionId } : {}),
  };
}

/** A refused trade as the error it names; a code that proves no refusal as an unknown outcome. */
export function refusal(result: TradeResult) {
  const text = `${result.message} (${result.stringCode})`;
  if (OUTCOME_UNKNOWN.has(result.numericCode)) return fail('BrokerUnavailable', text, true);
  return fail(matchException(metatraderDescriptor.exceptions, result.stringCode) ?? 'InvalidOrder', text);
}

/**
 * MetaApi's 429 (WIRE.md §9) after `waitMs` (NaN: MetaApi said no time): the wait travels as the
 * error's Retry-After, for the caller to be told when to try again.
 */
function rateLimited(waitMs: number): BrokerError {
  const message = "MetaApi's rate limit was reached";
  if (!Number.isFinite(waitMs)) return fail('RateLimited', message);
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new BrokerError('RateLimited', METATRADER_TITLE, `${message}; retry after ${seconds} s`, {
    retryAfter: String(seconds),
  });
}

/** Sends one trade request; resends only what MetaApi says never reached the broker. */
export async function sendTrade(
  ctx: BrokerContext,
  http: HttpClient,
  link: MetaApiLink,
  trade: MetatraderTrade,
): Promise<TradeResult> {
  const now = ctx.now ?? Date.now;
  for (let attempt = 0; ; attempt++) {
    const answer = await http.request({
      method: 'POST',
      path: `${accountPath(link.metaApiId)}/trade`,
      json: trade,
      accept: READ_STATUSES,
    });
    const again = attempt === 0 && !ctx.signal?.aborted;
    if (answer.status === 429) {
      const wait = retryAfterMs(answer, now(), Number.NaN);
      if (again && wait <= MAX_RETRY_WAIT_MS) {
        await pause(wait, ctx.signal);
        continue;
      }
      throw rateLimited(wait);
    }
    if (answer.status >= 400 && decimalField(answer.body, 'numericCode') === undefined) throw errorOf(answer, true);
    const result = readResult(answer.body);
    if (result.numericCode === NOT_DELIVERED && again) continue;
    if (!SUCCESS_CODES.has(result.numericCode)) throw refusal(result);
    return result;
  }
}

/** A placed order's answer: filled for an executed market order, else accepted (pending, partial). */
export function placedOrder(result: TradeResult, pending: boolean, fallbackId: string): OrderResponse {
  const filled = !pending && FILLED_CODES.has(result.numericCode);
  const position = result.positionId ? `, position ${result.positionId}` : '';
  return {
    id: result.orderId ?? result.positionId ?? fallbackId,
    status: filled ? 'filled' : 'accepted',
    status_description: `${result.message} (${result.stringCode})${position}`,
  };
}
