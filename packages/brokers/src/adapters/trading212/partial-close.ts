// A close of part of a Trading 212 position. A pending sell (a stop loss, a take profit) holds
// the shares it would sell: they are not available for trading, and a sell larger than what is
// available is refused. Trading 212 cannot change a pending order's quantity (there is no modify
// endpoint), so when the exits leave too few shares free, each exit larger than what the close
// leaves (it would sell, once triggered, what is no longer held) is canceled first, and the
// answer names them; the exits that still fit stay. When canceling those would still not free
// enough shares, nothing is canceled and the close is refused, saying so.
import type { OrderResponse } from '@router/orders';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { closeFailedAfterCancel, exitsCanceledOutcome } from '../../core/exits-cut.ts';
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
  const tooLarge = (await openOrders(client, ticker)).filter((order) => sellingOf(order) > left + EPSILON);
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
  return exitsCanceledOutcome(answer, `the ${left} left`, "Trading 212 cannot change a pending order's quantity", {
    done: canceled,
  });
}
