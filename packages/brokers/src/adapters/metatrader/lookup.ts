// Finding an order again (core/find-order.ts picks the route). MetaApi keeps our clientId on the
// order, its history entry and its position, but has no query by it: with the broker's order id
// (the ticket) the open order or its history entry is read; after a lost answer, the open orders
// and the history since the window's start are searched for the clientIds the signal may carry.
//   MetatraderOrder: {"id":"46648037","type":"ORDER_TYPE_BUY","state":"ORDER_STATE_FILLED",
//    "symbol":"AUDNZD","volume":0.01,"openPrice":1.05782,"clientId":"AS_AUDNZD_3zfxXl3RvJ",…}
import type { OrderResponse } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import type { HttpClient } from '../../core/http.ts';
import { decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder, RecentOrdersQuery } from '../../core/lookup.ts';
import { accountPath, fail, type MetaApiLink, tradingClient } from './client.ts';
import { clientIdsOf } from './mapper.ts';

/** History pages read at most: past that the window cannot be searched completely. */
const MAX_HISTORY_PAGES = 5;
const PAGE_SIZE = 1000;

const STATUSES: Record<string, OrderResponse['status']> = {
  ORDER_STATE_FILLED: 'filled',
  ORDER_STATE_CANCELED: 'canceled',
  ORDER_STATE_EXPIRED: 'canceled',
  ORDER_STATE_REJECTED: 'rejected',
};

export function fromMetatraderOrder(order: unknown): OrderResponse {
  const id = stringField(order, 'id');
  const state = stringField(order, 'state');
  if (!id || !state) throw fail('BrokerUnavailable', 'unexpected order answer');
  const status = STATUSES[state] ?? 'accepted';
  const price = decimalField(order, 'openPrice');
  const volume = decimalField(order, 'volume');
  const left = decimalField(order, 'currentVolume');
  const progress =
    state === 'ORDER_STATE_PARTIAL' && volume !== undefined && left !== undefined
      ? `, ${Number((volume - left).toFixed(8))} of ${volume} lots filled`
      : '';
  return {
    id,
    status,
    status_description: `MetaTrader order ${id} ${state
      .replace(/^ORDER_STATE_/, '')
      .toLowerCase()
      .replace(/_/g, ' ')}${progress}`,
    ...(status === 'filled' && price !== undefined ? { price } : {}),
  };
}

export async function findTicket(ctx: BrokerContext, link: MetaApiLink, ticket: string): Promise<OrderResponse | null> {
  const http = tradingClient(ctx, link);
  const path = accountPath(link.metaApiId);
  const open = await http.request({ path: `${path}/orders/${encodeURIComponent(ticket)}`, accept: [404] });
  if (open.status !== 404) return fromMetatraderOrder(open.body);
  const done = await http.request({ path: `${path}/history-orders/ticket/${encodeURIComponent(ticket)}` });
  const order = listOf(done.body).find((item) => stringField(item, 'id') === ticket);
  return order ? fromMetatraderOrder(order) : null;
}

/** The history from `from` until now, page by page; null when it is longer than we read. */
async function historySince(http: HttpClient, path: string, from: number, to: number) {
  const orders = [];
  const range = `${new Date(from).toISOString()}/${new Date(to).toISOString()}`;
  for (let page = 0; page < MAX_HISTORY_PAGES; page++) {
    const { body } = await http.request({
      path: `${path}/history-orders/time/${range}`,
      query: { offset: page * PAGE_SIZE, limit: PAGE_SIZE },
    });
    const items = listOf(body);
    orders.push(...items);
    if (items.length < PAGE_SIZE) return orders;
  }
  return null;
}

/**
 * Orders carrying one of the signal's clientIds: open ones, and those in the history since the
 * window opened (until now: a pending order entered in the window may have filled since). Failing
 * those, a position carrying it (WIRE.md §6: open orders, positions and history are scanned): a
 * filled market order whose history entry MetaApi has not listed yet is ours all the same, filled
 * (the position's id is the ticket of the order that opened it).
 */
export async function listByClientId(
  ctx: BrokerContext,
  link: MetaApiLink,
  query: RecentOrdersQuery,
): Promise<ListedOrder[] | null> {
  const http = tradingClient(ctx, link);
  const path = accountPath(link.metaApiId);
  const ids = clientIdsOf(query.clientOrderId);
  const [open, history, positions] = await Promise.all([
    http.request({ path: `${path}/orders` }),
    historySince(http, path, query.from, Math.max(query.to, (ctx.now ?? Date.now)())),
    http.request({ path: `${path}/positions` }),
  ]);
  const ours = (item: unknown) => ids.has(stringField(item, 'clientId') ?? '');
  const seen = new Set<string>();
  const orders = [...listOf(open.body), ...(history ?? [])].filter(ours).filter((order) => {
    const id = stringField(order, 'id') ?? '';
    return !seen.has(id) && Boolean(seen.add(id));
  });
  if (orders.length === 0) {
    const held = listOf(positions.body).filter(ours);
    if (held.length)
      return held.map((position) => ({
        order: fromMetatraderOrder({ ...position, state: 'ORDER_STATE_FILLED' }),
        match: 'id' as const,
      }));
  }
  if (history === null) return null;
  return orders.map((order) => ({ order: fromMetatraderOrder(order), match: 'id' as const }));
}
