// Finding a Trading 212 order again. Trading 212 keeps no client order id, so our id cannot be
// searched for. With its order id: the pending order, else the history. After a lost answer:
// the pending and historical orders of the instrument created around the send time that match
// the request we would have sent. One match is the order; none is null; several throw.
import type { OrderResponse } from '@router/orders';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import type { HttpClient } from '../../core/http.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import { ORDER_HINT_WINDOW_AFTER_MS, ORDER_HINT_WINDOW_BEFORE_MS, type OrderHint } from '../../core/order-hint.ts';
import { TRADING212_TITLE } from './descriptor.ts';
import { matchesRequest, toOrderResponse, toTrading212Request } from './mapper.ts';

interface Listed {
  order: Record<string, unknown>;
  fill?: unknown;
}

async function history(client: HttpClient, ticker?: string): Promise<Listed[]> {
  const { body } = await client.request({ path: '/api/v0/equity/history/orders', query: { ticker, limit: 50 } });
  return listOf(asRecord(body)?.items).flatMap((item) => {
    const order = asRecord(item.order);
    return order ? [{ order, fill: item.fill }] : [];
  });
}

export async function findOrder(
  client: HttpClient,
  hint: OrderHint | undefined,
  resolveTicker: (symbol: string) => Promise<string>,
): Promise<OrderResponse | null> {
  const id = hint?.brokerOrderId;
  if (id) {
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
  if (!hint?.order || hint.sentAt === undefined) return null;
  const sent = toTrading212Request(hint.order, await resolveTicker(hint.order.symbol));
  const from = hint.sentAt - ORDER_HINT_WINDOW_BEFORE_MS;
  const to = hint.sentAt + ORDER_HINT_WINDOW_AFTER_MS;
  const pending: Listed[] = listOf((await client.request({ path: '/api/v0/equity/orders' })).body).map((order) => ({
    order,
  }));
  const done = await history(client, String(sent.body.ticker));
  const matches = [...pending, ...done].filter(({ order }) => {
    const created = Date.parse(stringField(order, 'createdAt') ?? '');
    return created >= from && created <= to && matchesRequest(order, sent);
  });
  const unique = [...new Map(matches.map((item) => [stringField(item.order, 'id'), item])).values()];
  if (unique.length > 1) {
    const ids = unique.map((item) => stringField(item.order, 'id')).join(', ');
    throw new BrokerError(
      'DuplicateOrder',
      TRADING212_TITLE,
      `${unique.length} orders match (${ids}); check them at Trading 212`,
    );
  }
  const [match] = unique;
  return match ? toOrderResponse(match.order, match.fill) : null;
}
