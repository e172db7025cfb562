// Finding an order again (WIRE.md §6). No request finds one by clientOrderId, but every order
// carries it: pending orders come from ProtoOAReconcileReq, the rest from ProtoOAOrderListReq
// from the window's start up to now; ours is the one whose clientOrderId is our (derived) id. By
// cTrader's id, ProtoOAOrderDetailsReq answers with the order and its deals.
import type { OrderResponse } from '@router/orders';
import { isBrokerError } from '../../core/errors.ts';
import { asRecord, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder, RecentOrdersQuery } from '../../core/lookup.ts';
import { type AccountClient, expectAnswer } from './client.ts';
import { clientOrderIdFor } from './mapper.ts';
import { reconcile } from './orders.ts';
import { orderResponse } from './reader.ts';

export async function findById(client: AccountClient, orderId: string): Promise<OrderResponse | null> {
  if (!/^\d+$/.test(orderId)) return null;
  try {
    const answer = await client.call('ProtoOAOrderDetailsReq', { orderId: Number(orderId) });
    const payload = expectAnswer(answer, 'ProtoOAOrderDetailsRes');
    const deals = listOf(payload.deal);
    return orderResponse(asRecord(payload.order) ?? {}, deals[deals.length - 1]);
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'OrderNotFound') return null;
    throw error;
  }
}

/**
 * The pending order carrying our id (ProtoOAReconcileRes lists every pending order with its
 * clientOrderId): what a cancel by our id needs, with no send time to bound a history search.
 */
export async function pendingOrderId(client: AccountClient, clientOrderId: string): Promise<string | undefined> {
  const ours = clientOrderIdFor(clientOrderId);
  const order = (await reconcile(client)).orders.find((item) => stringField(item, 'clientOrderId') === ours);
  return stringField(order, 'orderId');
}

/**
 * Orders of the window carrying our id: pending ones first, then the history. cTrader searches its
 * order lists by last update (ProtoOAOrderListByPositionIdReq says so), not by creation: an order
 * sent in the window but filled or canceled after it is listed only up to that update, so the
 * history is read from the window's start up to now. A history cut short (hasMore) without ours
 * proves nothing: null; nor does a close's or a cancel's lookup, whose orders carry no id of ours.
 */
export async function listMatching(
  client: AccountClient,
  query: RecentOrdersQuery,
  now: number,
): Promise<ListedOrder[] | null> {
  // A close (ProtoOAClosePositionReq) and a cancel carry no clientOrderId: not finding ours proves nothing.
  if (query.order?.action === 'close' || query.order?.action === 'cancel') return null;
  const ours = clientOrderIdFor(query.clientOrderId);
  const isOurs = (order: JsonRecord) => stringField(order, 'clientOrderId') === ours;
  const pending = (await reconcile(client)).orders.filter(isOurs);
  if (pending.length > 0) return pending.map((order) => ({ order: orderResponse(order), match: 'id' }));
  const answer = await client.call('ProtoOAOrderListReq', {
    fromTimestamp: query.from,
    toTimestamp: Math.max(query.to, now),
  });
  const payload = expectAnswer(answer, 'ProtoOAOrderListRes');
  const found = listOf(payload.order).filter(isOurs);
  if (found.length === 0 && payload.hasMore === true) return null;
  return found.map((order) => ({ order: orderResponse(order), match: 'id' }));
}
