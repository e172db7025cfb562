// What a partial close's answer says of the exits it kept: after the close is placed, each open
// exit on the closing side larger than what is left is cut to it (Zerodha, Tradier, Webull, the
// ccxt venues that amend). The close stands either way: a failure here is told, not thrown.
import type { OrderResponse } from '@router/orders';
import { BrokerError } from './errors.ts';

const described = (answer: OrderResponse) => answer.status_description ?? 'Close placed';

/** `rest`: what the exits were cut to ('the 5 left', 'what is left'); `cut`: the orders cut. */
export function exitsCutAnswer(answer: OrderResponse, rest: string, cut: readonly string[]): OrderResponse {
  if (!cut.length) return answer;
  return { ...answer, status_description: `${described(answer)}; exits cut to ${rest}: ${cut.join(', ')}` };
}

/** Cutting failed with `error`, `after` the orders cut before it (when the answer names them). */
export function exitsNotCutAnswer(
  answer: OrderResponse,
  rest: string,
  error: unknown,
  after: readonly string[] = [],
): OrderResponse {
  const reason = error instanceof BrokerError ? error.brokerMessage : 'no answer';
  const done = after.length ? ` after ${after.join(', ')}` : '';
  return {
    ...answer,
    status_description: `${described(answer)}; the open exits could not be cut to ${rest}${done} (${reason})`,
  };
}

/** What cutting the exits came to: the ones cut, and the error that stopped it, if one did. */
export interface ExitsCut {
  done: string[];
  failed?: { error: unknown };
}

/**
 * Cuts each of the `exits` (listed when called) with `cut`, which names what it did ('id',
 * 'id → new id') or answers undefined when there was nothing to cut (filled or canceled
 * meanwhile). Stops at the first failure: nothing is thrown.
 */
export async function cutEach<T>(
  exits: () => Promise<readonly T[]>,
  cut: (exit: T) => Promise<string | undefined>,
): Promise<ExitsCut> {
  const done: string[] = [];
  try {
    for (const exit of await exits()) {
      const what = await cut(exit);
      if (what !== undefined) done.push(what);
    }
  } catch (error) {
    return { done, failed: { error } };
  }
  return { done };
}

/** The close's `answer` telling what cutting its exits to `rest` came to. */
export const exitsCutOutcome = (answer: OrderResponse, rest: string, { done, failed }: ExitsCut): OrderResponse =>
  failed ? exitsNotCutAnswer(answer, rest, failed.error, done) : exitsCutAnswer(answer, rest, done);

/**
 * The close's `answer` telling what canceling its exits larger than `rest` came to, at a broker
 * that cannot cut an open order's size (`why`): the ones canceled, or that canceling failed.
 */
export function exitsCanceledOutcome(
  answer: OrderResponse,
  rest: string,
  why: string,
  { done, failed }: ExitsCut,
): OrderResponse {
  if (!failed && !done.length) return answer;
  const reason = failed && (failed.error instanceof BrokerError ? failed.error.brokerMessage : 'no answer');
  const after = done.length ? ` after ${done.join(', ')}` : '';
  const told = failed
    ? `the open exits larger than ${rest} could not all be canceled${after} (${reason}): check them at the broker`
    : `exits larger than ${rest} canceled (${why}): ${done.join(', ')}`;
  return { ...answer, status_description: `${described(answer)}; ${told}` };
}

/**
 * After a partial close (`answer`, unless it was rejected), its exits are cut (cutEach) and the
 * answer tells which were, or that cutting failed and after which ones: the close stands either way.
 */
export async function cutExits<T>(
  answer: OrderResponse,
  rest: string,
  exits: () => Promise<readonly T[]>,
  cut: (exit: T) => Promise<string | undefined>,
): Promise<OrderResponse> {
  if (answer.status === 'rejected') return answer;
  return exitsCutOutcome(answer, rest, await cutEach(exits, cut));
}

/**
 * A close of the whole position refused (or its outcome unknown) after the symbol's open orders
 * were canceled for it: the error says so, since the position is still open and its stop loss or
 * take profit gone. Any other error is handed back as is.
 */
export function closeFailedAfterCancel(error: unknown, symbol: string, canceled: readonly string[]): unknown {
  if (!(error instanceof BrokerError) || canceled.length === 0) return error;
  const { kind, brokerTitle, brokerMessage, outcomeUnknown, retryAfter, brokerOrderId } = error;
  const told = `${brokerMessage}; the open orders of ${symbol} were canceled before the close (${canceled.join(', ')}): check the position and its exits at the broker`;
  return new BrokerError(kind, brokerTitle, told, {
    cause: error,
    outcomeUnknown,
    ...(retryAfter !== undefined ? { retryAfter } : {}),
    ...(brokerOrderId !== undefined ? { brokerOrderId } : {}),
  });
}
