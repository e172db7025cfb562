// Finding a Kite order again (core/find-order.ts picks the route). With Kite's order id, its
// history (GET /orders/{id}). Without it, our tag in the day's order book (GET /orders): Kite has
// no lookup by tag, and the book holds the current trading day only. An order carrying our tag is
// ours wherever it sits in the book; no such order proves absence only when the book surely
// covers the window: it holds an order entered before the window began (so no new book was
// started since), or the window starts after the current book's earliest start (kite-time.ts).
// A close of a cover order position sends no order of ours: it deletes the stop leg (exits.ts),
// which Kite then fills at market. A lost close is found by that leg, final within the window, by
// terms and time (probable): without it, no tag proves the close was not made.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { isBrokerError } from '../../core/errors.ts';
import { type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder, RecentOrdersQuery } from '../../core/lookup.ts';
import type { KiteApi } from './api.ts';
import { bookCoverageStart, parseKiteTime } from './kite-time.ts';
import { kiteTag } from './mapper.ts';
import { carriesTag, currentState, fromKiteOrder, isFinal } from './reader.ts';
import { kiteInstrument } from './symbols.ts';

/** The order's current state; undefined when Kite does not know the id. */
export async function orderState(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  orderId: string,
): Promise<JsonRecord | undefined> {
  try {
    return currentState(await api.call(ctx, session, { path: `/orders/${encodeURIComponent(orderId)}` }));
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'OrderNotFound') return undefined;
    throw error;
  }
}

export async function findById(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  orderId: string,
): Promise<OrderResponse | null> {
  const state = await orderState(api, ctx, session, orderId);
  return state ? fromKiteOrder(state) : null;
}

/** The day's order book (every order of the user, any app), oldest first. */
export async function orderBook(api: KiteApi, ctx: BrokerContext, session: BrokerSession): Promise<JsonRecord[]> {
  return listOf(await api.call(ctx, session, { path: '/orders' }));
}

/** Of the orders with our tag, the entry (a cover order's stop leg and autoslice children follow it). */
export function taggedEntry(book: JsonRecord[], clientOrderId: string): JsonRecord | undefined {
  const tag = kiteTag(clientOrderId);
  const ours = book.filter((order) => carriesTag(order, tag));
  return ours.find((order) => !stringField(order, 'parent_order_id')) ?? ours[0];
}

/** Our order in the book, by tag: `[]` proves there is none, null when the book cannot tell. */
export async function listByTag(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  query: RecentOrdersQuery,
  now: number,
): Promise<ListedOrder[] | null> {
  const book = await orderBook(api, ctx, session);
  const entry = taggedEntry(book, query.clientOrderId);
  if (entry) return [{ order: fromKiteOrder(entry), match: 'id' }];
  const exits = coverExits(book, query);
  if (exits.length) return exits.map((leg) => ({ order: fromKiteOrder(leg), match: 'terms' }));
  const olderInBook = book.some(
    (order) => (parseKiteTime(stringField(order, 'order_timestamp')) ?? Infinity) <= query.from,
  );
  return olderInBook || query.from >= bookCoverageStart(now) ? [] : null;
}

/** For a close, the cover order stop legs of its instrument that went final within the window. */
function coverExits(book: JsonRecord[], query: RecentOrdersQuery): JsonRecord[] {
  if (query.order?.action !== 'close') return [];
  const { exchange, tradingsymbol } = kiteInstrument(query.order);
  return book.filter((order) => {
    if (stringField(order, 'variety') !== 'co' || !stringField(order, 'parent_order_id') || !isFinal(order))
      return false;
    if (stringField(order, 'exchange') !== exchange || stringField(order, 'tradingsymbol') !== tradingsymbol)
      return false;
    const at = parseKiteTime(
      stringField(order, 'exchange_update_timestamp') ?? stringField(order, 'exchange_timestamp'),
    );
    return at !== undefined && at >= query.from && at <= query.to;
  });
}

/** Our live order (not final) in the book, for a cancel by our id. */
export async function liveByTag(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  clientOrderId: string,
): Promise<JsonRecord | undefined> {
  const entry = taggedEntry(await orderBook(api, ctx, session), clientOrderId);
  return entry && !isFinal(entry) ? entry : undefined;
}
