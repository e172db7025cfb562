// Finding an E*TRADE order again (core/find-order.ts picks the route). E*TRADE never returns the
// clientOrderId, so an order is read by its id (`details` URL: /orders/{orderId}.json), or, after
// a lost answer, found among the orders of the send's days by the terms we would have sent and
// its placedTime. The list pages with marker/next, at most 100 a page; no orders is HTTP 204.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { isBrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder, RecentOrdersQuery } from '../../core/lookup.ts';
import type { EtradeApi } from './api.ts';
import { easternDate } from './eastern.ts';
import { type EtradeInstrument, type EtradeOrderRequest, toEtradeOrder } from './mapper.ts';
import { accountPath } from './orders.ts';
import { type ListedEtradeOrder, ordersOf, toOrderResponse } from './reader.ts';

const PAGE_SIZE = 100;
/** Pages read at most per lookup (1,000 orders in the window). */
const MAX_PAGES = 10;

export async function findById(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  orderId: string,
): Promise<OrderResponse | null> {
  const path = `${accountPath(session, accountId)}/orders/${encodeURIComponent(orderId)}.json`;
  try {
    const { body } = await api.call(ctx, session, { path });
    const [order] = ordersOf(body).orders;
    return order ? toOrderResponse(order.order) : null;
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'OrderNotFound') return null;
    throw error;
  }
}

export interface OrdersQuery {
  from: number;
  to: number;
  status?: string;
  symbol?: string;
}

/**
 * The orders of the New York days from..to (status and symbol filters as E*TRADE takes them);
 * `complete` is false when the list went on past the pages read.
 */
export async function listOrders(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  query: OrdersQuery,
): Promise<{ orders: ListedEtradeOrder[]; complete: boolean }> {
  const path = `${accountPath(session, accountId)}/orders.json`;
  const found: ListedEtradeOrder[] = [];
  let marker: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { body } = await api.call(ctx, session, {
      path,
      query: {
        count: PAGE_SIZE,
        fromDate: easternDate(query.from),
        toDate: easternDate(query.to),
        ...(query.status ? { status: query.status } : {}),
        ...(query.symbol ? { symbol: query.symbol } : {}),
        ...(marker ? { marker } : {}),
      },
    });
    const answer = ordersOf(body);
    found.push(...answer.orders);
    marker = answer.marker;
    if (!marker) break;
  }
  return { orders: found, complete: !marker };
}

const same = (a: number | undefined, b: number | undefined) => Math.abs((a ?? 0) - (b ?? 0)) < 1e-6;

function sameInstrument(listed: JsonRecord, sent: EtradeInstrument): boolean {
  const product = asRecord(listed.Product);
  const wanted = sent.Product;
  const option =
    wanted.securityType !== 'OPTN' ||
    (stringField(product, 'callPut') === wanted.callPut &&
      decimalField(product, 'expiryYear') === wanted.expiryYear &&
      decimalField(product, 'expiryMonth') === wanted.expiryMonth &&
      decimalField(product, 'expiryDay') === wanted.expiryDay &&
      same(decimalField(product, 'strikePrice'), wanted.strikePrice));
  return (
    option &&
    stringField(product, 'symbol') === wanted.symbol &&
    stringField(product, 'securityType') === wanted.securityType &&
    stringField(listed, 'orderAction') === sent.orderAction &&
    (decimalField(listed, 'orderedQuantity') ?? decimalField(listed, 'quantity')) === sent.quantity
  );
}

/** Whether a listed order is the one we would have sent: strategy, price type, prices and legs. */
export function matchesSent(listed: ListedEtradeOrder, sent: EtradeOrderRequest): boolean {
  const [wanted] = sent.Order;
  const { detail } = listed;
  if (stringField(listed.order, 'orderType') !== sent.orderType) return false;
  if (stringField(detail, 'priceType') !== wanted.priceType) return false;
  if (!same(decimalField(detail, 'limitPrice'), wanted.limitPrice)) return false;
  if (!same(decimalField(detail, 'stopPrice'), wanted.stopPrice)) return false;
  const legs = listOf(detail?.Instrument);
  const unmatched = [...legs];
  return (
    legs.length === wanted.Instrument.length &&
    wanted.Instrument.every((instrument) => {
      const index = unmatched.findIndex((leg) => sameInstrument(leg, instrument));
      return index >= 0 && unmatched.splice(index, 1).length === 1;
    })
  );
}

/**
 * The orders placed in the window with the terms of the order we sent; null when the window
 * holds more orders than are read (nothing is proved).
 */
export async function listMatching(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  query: RecentOrdersQuery,
): Promise<ListedOrder[] | null> {
  if (!query.order) return [];
  const sent = toEtradeOrder(query.order, query.clientOrderId);
  const listed = await listOrders(api, ctx, session, query.accountId, { from: query.from, to: query.to });
  const found = listed.orders
    .filter((item) => item.placedTime !== undefined && item.placedTime >= query.from && item.placedTime <= query.to)
    .filter((item) => matchesSent(item, sent))
    .map((item): ListedOrder => ({ order: toOrderResponse(item.order), match: 'terms' }));
  // Past the pages read the list may hold the order, or a second one with its terms.
  return listed.complete ? found : null;
}
