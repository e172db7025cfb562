// Finding an order again. By its id: GET /accounts/{n}/orders/{id} (404: tastytrade has none).
// By ours: tastytrade keeps no lookup by client id, but every order echoes the
// external-identifier we sent, and the order history is listed by entry time:
//   GET /accounts/{n}/orders?start-at=…&end-at=…&per-page=200&page-offset=0
//   → {"data":{"items":[…orders…]},"pagination":{"page-offset":0,"total-pages":1,…}}
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { isBrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, type JsonRecord, stringField } from '../../core/json-read.ts';
import type { ListedOrder, RecentOrdersQuery } from '../../core/lookup.ts';
import type { TastyApi } from './api.ts';
import { externalIdFor } from './mapper.ts';
import { dataOf, itemsOf, toOrderResponse } from './reader.ts';

const PER_PAGE = 200;
/** More than any real window holds; past it nothing is proved (the order may be further on). */
const MAX_PAGES = 10;
/** tastytrade's page of the day's live orders when none is asked for (its reference: 100). */
const LIVE_PER_PAGE = 100;
/** A day's orders, 100 a page: more than an account places in a day. */
const MAX_LIVE_PAGES = 100;

const ordersPath = (accountId: string) => `/accounts/${encodeURIComponent(accountId)}/orders`;

export async function findById(
  api: TastyApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  orderId: string,
): Promise<OrderResponse | null> {
  try {
    const { body } = await api.call(ctx, session, { path: `${ordersPath(accountId)}/${encodeURIComponent(orderId)}` });
    const order = dataOf(body);
    return order ? toOrderResponse(order, orderId) : null;
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'OrderNotFound') return null;
    throw error;
  }
}

/**
 * Every order of GET /accounts/{n}/orders/live: today's, of every status (the working ones among
 * them), page after page at tastytrade's default size (100); reading only the first, a working
 * stop past it went unseen by a cancel or a close.
 */
export async function liveOrders(
  api: TastyApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
): Promise<JsonRecord[]> {
  const orders: JsonRecord[] = [];
  for (let page = 0; page < MAX_LIVE_PAGES; page++) {
    // The first page is the plain request (the recorded one, tastytrade's default page size); only
    // a busy day asks for the next.
    const { body } = await api.call(ctx, session, {
      path: `${ordersPath(accountId)}/live`,
      ...(page === 0 ? {} : { query: { 'page-offset': page } }),
    });
    const items = itemsOf(body);
    orders.push(...items);
    const pages = decimalField(asRecord(asRecord(body)?.pagination), 'total-pages');
    if (pages !== undefined ? page + 1 >= pages : items.length < LIVE_PER_PAGE) break;
  }
  return orders;
}

/**
 * The working order carrying our id, for a cancel by our id: only today's live orders can be
 * canceled, and tastytrade lists them without a time window.
 */
export async function liveOrderIdByOurs(
  api: TastyApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  clientOrderId: string,
): Promise<string | undefined> {
  const ours = externalIdFor(clientOrderId);
  const order = (await liveOrders(api, ctx, session, accountId)).find(
    (item) => stringField(item, 'external-identifier') === ours,
  );
  return stringField(order, 'id');
}

/** The orders entered since the window opened that carry our id; null when the listing did not end. */
export async function listById(
  api: TastyApi,
  ctx: BrokerContext,
  session: BrokerSession,
  query: RecentOrdersQuery,
  now: number,
): Promise<ListedOrder[] | null> {
  const ours = externalIdFor(query.clientOrderId);
  const found: ListedOrder[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const { body } = await api.call(ctx, session, {
      path: ordersPath(query.accountId),
      query: {
        'start-at': new Date(query.from).toISOString(),
        // Up to now, not the window's end: should tastytrade filter by updated-at, an order sent in
        // the window and filled or canceled since would be missed (our id alone picks ours).
        'end-at': new Date(Math.max(query.to, now)).toISOString(),
        'per-page': PER_PAGE,
        'page-offset': page,
      },
    });
    const items = itemsOf(body);
    for (const order of items) {
      if (stringField(order, 'external-identifier') === ours)
        found.push({ order: toOrderResponse(order), match: 'id' });
    }
    const pages = decimalField(asRecord(asRecord(body)?.pagination), 'total-pages');
    const last = pages !== undefined ? page + 1 >= pages : items.length < PER_PAGE;
    if (found.length > 0 || last) return found;
  }
  return null;
}
