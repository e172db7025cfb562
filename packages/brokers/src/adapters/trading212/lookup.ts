// Finding a Trading 212 order again (core/find-order.ts picks the route). Trading 212 keeps no
// client order id, so our id cannot be searched for. With its order id: the pending order, else
// the history. After a lost answer: the pending and historical orders of the instrument created
// around the send time that match the request we would have sent.
import type { OrderResponse } from '@router/orders';
import { isBrokerError } from '../../core/errors.ts';
import type { HttpClient } from '../../core/http.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder, RecentOrdersQuery } from '../../core/lookup.ts';
import { matchesRequest, toOrderResponse, toTrading212Request } from './mapper.ts';

const HISTORY_PAGE = 50;

interface Listed {
  order: Record<string, unknown>;
  fill?: unknown;
}

async function history(client: HttpClient, ticker?: string): Promise<Listed[]> {
  const { body } = await client.request({
    path: '/api/v0/equity/history/orders',
    query: { ticker, limit: HISTORY_PAGE },
  });
  return listOf(asRecord(body)?.items).flatMap((item) => {
    const order = asRecord(item.order);
    return order ? [{ order, fill: item.fill }] : [];
  });
}

export async function findById(client: HttpClient, id: string): Promise<OrderResponse | null> {
  try {
    const { body } = await client.request({ path: `/api/v0/equity/orders/${encodeURIComponent(id)}` });
    return toOrderResponse(body);
  } catch (error) {
    if (!isBrokerError(error) || error.kind !== 'OrderNotFound') throw error;
  }
  // No longer pending: filled, cancelled or rejected, so in the history.
  const done = (await history(client)).find((item) => stringField(item.order, 'id') === id);
  return done ? toOrderResponse(done.order, done.fill) : null;
}

/**
 * The pending and historical orders of the instrument created in the window with the terms of
 * the request we would have sent; null when the history page ends after the window's start.
 */
export async function listMatching(
  client: HttpClient,
  query: RecentOrdersQuery,
  resolveTicker: (symbol: string) => Promise<string>,
): Promise<ListedOrder[] | null> {
  if (!query.order) return [];
  const sent = toTrading212Request(query.order, await resolveTicker(query.order.symbol));
  const pending: Listed[] = listOf((await client.request({ path: '/api/v0/equity/orders' })).body).map((order) => ({
    order,
  }));
  const done = await history(client, String(sent.body.ticker));
  const createdAt = (item: Listed) => Date.parse(stringField(item.order, 'createdAt') ?? '');
  const oldest = done.at(-1);
  if (done.length >= HISTORY_PAGE && oldest && createdAt(oldest) > query.from) return null;
  const matches = [...pending, ...done].filter(
    (item) => createdAt(item) >= query.from && createdAt(item) <= query.to && matchesRequest(item.order, sent),
  );
  const unique = [...new Map(matches.map((item) => [stringField(item.order, 'id'), item])).values()];
  return unique.map((item) => ({ order: toOrderResponse(item.order, item.fill), match: 'terms' }));
}
