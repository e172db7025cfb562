// Placing one Webull placement, and finding an order by our id. Webull refuses a client_order_id
// it has seen (its error code is not published): a refused placement whose id Webull knows was a
// repeat, and the order placed first is the answer.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { isBrokerError } from '../../core/errors.ts';
import type { WebullApi } from './api.ts';
import type { WebullPlacement } from './mapper.ts';
import { webullClientId } from './mapper.ts';
import { detailOrder, fromWebullOrder, placedOrder } from './reader.ts';

/** The order with our id (its master, for a bracket); null when Webull has none (404). */
export async function findByClientId(
  api: WebullApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  clientOrderId: string,
): Promise<OrderResponse | null> {
  const clientId = webullClientId(clientOrderId);
  const answer = await api.call(ctx, session, {
    path: '/openapi/trade/order/detail',
    query: { account_id: accountId, client_order_id: clientId },
    accept: [404],
  });
  const order = answer.status === 404 ? undefined : detailOrder(answer.body, clientId);
  return order ? fromWebullOrder(order) : null;
}

/** Sends the placement once; `clientOrderId` (ours) answers a refused repeat with the first order. */
export async function submitPlacement(
  api: WebullApi,
  ctx: BrokerContext,
  session: BrokerSession,
  { body, category }: WebullPlacement,
  clientOrderId?: string,
): Promise<OrderResponse> {
  try {
    const request = { method: 'POST' as const, path: '/openapi/trade/order/place', json: body, category };
    return placedOrder((await api.call(ctx, session, request, 'order')).body);
  } catch (error) {
    if (clientOrderId && isBrokerError(error) && (error.kind === 'DuplicateOrder' || error.kind === 'InvalidOrder')) {
      const existing = await findByClientId(api, ctx, session, body.account_id, clientOrderId);
      if (existing) return existing;
    }
    throw error;
  }
}
