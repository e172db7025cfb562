// A close of part of a Trading 212 position. A pending sell (a stop loss, a take profit) holds
// the shares it would sell: they are not available for trading, and a sell larger than what is
// available is refused. Trading 212 cannot change a pending order's quantity (there is no modify
// endpoint), so when the exits leave too few shares free, each exit larger than what the close
// leaves (it would sell, once triggered, what is no longer held) is canceled first, the part
// sold, and the exit placed again, with its terms, for what is left (as much as the exits that
// still fit leave free); the answer names them. When canceling those would still not free enough
// shares, nothing is canceled and the close is refused, saying so. The close stands whatever
// placing the exits again comes to: a failure there is told, not thrown.
import type { OrderResponse } from '@router/orders';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { closeFailedAfterCancel, cutEach } from '../../core/exits-cut.ts';
import type { HttpClient } from '../../core/http.ts';
import { decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import { TRADING212_TITLE } from './descriptor.ts';
import { marketRequest, type Trading212Request, tickerOf } from './mapper.ts';

/** Statuses (Order.status) of an order with nothing to cancel: done, or its cancel under way. */
const DONE_STATUSES = new Set(['CANCELLING', 'CANCELLED', 'FILLED', 'REJECTED', 'REPLACED']);
const EPSILON = 1e-9;

/** The pending orders of `ticker` (those done or being canceled passed over). */
export async function openOrders(client: HttpClient, ticker: string): Promise<JsonRecord[]> {
  const { body } = await client.request({ path: '/api/v0/equity/orders' });
  return listOf(body).filter(
    (order) => tickerOf(order) === ticker && !DONE_STATUSES.has(stringField(order, 'status') ?? ''),
  );
}

/** Cancels each of `orders` of `ticker`; the ids canceled. */
export function cancelOrders(client: HttpClient, ticker: string, orders: readonly JsonRecord[]): Promise<string[]> {
  const ids = orders.map((order) => stringField(order, 'id')).filter((id): id is string => id !== undefined);
  return cancelEach(ids, ticker, (id) => client.request({ method: 'DELETE', path: `/api/v0/equity/orders/${id}` }));
}

/** The shares a pending sell still holds (0 for a buy). */
function sellingOf(order: JsonRecord): number {
  const quantity = decimalField(order, 'quantity') ?? 0;
  const sells = quantity < 0 || stringField(order, 'side') === 'SELL';
  if (!sells) return 0;
  return Math.max(0, Math.abs(quantity) - Math.abs(decimalField(order, 'filledQuantity') ?? 0));
}

export interface HeldShares {
  owned: number;
  /** Free of pending sells. */
  available: number;
  /** Outside pies: what a sell through the API can reach. */
  outsidePies: number;
}

/** Sells `part` (less than all) of `ticker`, making room for it as above. */
export async function closeSome(
  client: HttpClient,
  ticker: string,
  held: HeldShares,
  part: number,
  submit: (request: Trading212Request) => Promise<OrderResponse>,
): Promise<OrderResponse> {
  const request = marketRequest(ticker, -part);
  if (held.available + EPSILON >= part) return submit(request);
  const left = Number((held.outsidePies - part).toFixed(8));
  const exits = (await openOrders(client, ticker)).filter((order) => sellingOf(order) > 0);
  const tooLarge = exits.filter((order) => sellingOf(order) > left + EPSILON);
  // What the exits that fit keep of what is left: the rest is free for the ones placed again.
  const kept = exits.filter((order) => !tooLarge.includes(order)).reduce((sum, order) => sum + sellingOf(order), 0);
  const freed = tooLarge.reduce((sum, order) => sum + sellingOf(order), 0);
  // Less than asked would be sold, not said: refused instead, with nothing canceled.
  if (held.available + freed + EPSILON < part)
    throw new BrokerError(
      'InvalidOrder',
      TRADING212_TITLE,
      `only ${Math.max(0, held.available)} of the ${held.owned} ${ticker} held are free of pending orders: close all of it, or cancel them first`,
    );
  const canceled = await cancelOrders(client, ticker, tooLarge);
  const answer = await submit(request).catch((error: unknown) => {
    throw closeFailedAfterCancel(error, ticker, canceled);
  });
  if (answer.status === 'rejected' && canceled.length) {
    const told = `the exits of ${ticker} canceled before it (${canceled.join(', ')}) are gone: check the position and its exits at the broker`;
    return { ...answer, status_description: `${answer.status_description ?? 'Close rejected'}; ${told}` };
  }
  return placeAgain(client, answer, { ticker, left, free: left - kept }, tooLarge, canceled);
}

const TIME_VALIDITY = new Set(['DAY', 'GOOD_TILL_CANCEL']);

/** The request placing `exit` again for `quantity` shares, with its terms; undefined when one is not listed. */
function againFor(exit: JsonRecord, ticker: string, quantity: number): Trading212Request | undefined {
  const type = stringField(exit, 'type') ?? '';
  const limitPrice = decimalField(exit, 'limitPrice');
  const stopPrice = decimalField(exit, 'stopPrice');
  const timeValidity = stringField(exit, 'timeInForce') ?? stringField(exit, 'timeValidity') ?? '';
  const needsLimit = type === 'LIMIT' || type === 'STOP_LIMIT';
  const needsStop = type === 'STOP' || type === 'STOP_LIMIT';
  if (!(needsLimit || needsStop) || !TIME_VALIDITY.has(timeValidity)) return undefined;
  if ((needsLimit && limitPrice === undefined) || (needsStop && stopPrice === undefined)) return undefined;
  return {
    path: `/api/v0/equity/orders/${type.toLowerCase()}`,
    body: {
      ticker,
      quantity: -quantity,
      ...(needsStop && stopPrice !== undefined ? { stopPrice } : {}),
      ...(needsLimit && limitPrice !== undefined ? { limitPrice } : {}),
      timeValidity,
    },
  };
}

/**
 * After the close, each canceled exit placed again for what is left (`free`: what the exits that
 * stayed leave of it, shared out in turn); the close's `answer` tells what came of it.
 */
async function placeAgain(
  client: HttpClient,
  answer: OrderResponse,
  rest: { ticker: string; left: number; free: number },
  exits: readonly JsonRecord[],
  canceled: readonly string[],
): Promise<OrderResponse> {
  let free = rest.free;
  const outcome = await cutEach(
    async () => exits.filter((exit) => canceled.includes(stringField(exit, 'id') ?? '')),
    async (exit) => {
      const id = stringField(exit, 'id') ?? '';
      const size = Number(Math.min(sellingOf(exit), free).toFixed(8));
      if (size <= EPSILON) return `${id} canceled`;
      const again = againFor(exit, rest.ticker, size);
      if (!again)
        throw new BrokerError('InvalidOrder', TRADING212_TITLE, `the terms of order ${id} are not all listed`);
      const { body } = await client.request({ method: 'POST', path: again.path, json: again.body });
      free -= size;
      return `${id} → ${stringField(body, 'id') ?? 'placed'}`;
    },
  );
  const described = answer.status_description ?? 'Close placed';
  const why = "Trading 212 cannot change a pending order's quantity: canceled before the close";
  const done = outcome.done.length ? `: ${outcome.done.join(', ')}` : '';
  if (!outcome.failed)
    return { ...answer, status_description: `${described}; exits cut to the ${rest.left} left (${why})${done}` };
  const reason = outcome.failed.error instanceof BrokerError ? outcome.failed.error.brokerMessage : 'no answer';
  return {
    ...answer,
    status_description: `${described}; exits larger than the ${rest.left} left were canceled (${canceled.join(', ')}) and not all placed again${done ? ` (only${done.slice(1)})` : ''} (${reason}): check them at the broker`,
  };
}
