// Placing and canceling one Kite order. A placement answers only the order id (HTTP 200 means
// "received"); RMS rejections follow within moments, so its state is read once right after and
// answered (a read that fails keeps "received": the order stands). A cancel is
// DELETE /orders/{variety}/{order_id}, a cover order's stop leg naming its parent_order_id.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { type JsonRecord, stringField } from '../../core/json-read.ts';
import type { KiteApi } from './api.ts';
import { orderState } from './lookup.ts';
import { fromKiteOrder, placed, received } from './reader.ts';

export async function submitOrder(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  variety: string,
  form: Record<string, string>,
): Promise<OrderResponse> {
  const data = await api.call(ctx, session, { method: 'POST', path: `/orders/${variety}`, form }, 'order');
  const { id, slices } = placed(data);
  const state = await orderState(api, ctx, session, id).catch(() => undefined);
  if (!state) return received(id, slices);
  const current = fromKiteOrder(state);
  return { ...current, status_description: `${current.status_description}${slices}` };
}

/** Cancels one order as the book or its history describes it; returns its id. */
export async function cancelKiteOrder(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  order: JsonRecord,
): Promise<string> {
  const id = stringField(order, 'order_id') ?? '';
  const variety = stringField(order, 'variety') ?? 'regular';
  const parent = stringField(order, 'parent_order_id');
  await api.call(
    ctx,
    session,
    {
      method: 'DELETE',
      path: `/orders/${encodeURIComponent(variety)}/${encodeURIComponent(id)}`,
      ...(parent ? { query: { parent_order_id: parent } } : {}),
    },
    'order',
  );
  return id;
}
