// Finding a Schwab order again (core/find-order.ts picks the route). Schwab keeps no client
// order id and no free tag, so our id cannot be searched for. With the broker order id (from the
// Location header) the order is read directly; after a lost answer, the orders entered around
// the send time are compared with the order we would have sent: same type, prices and legs.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { isBrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder, RecentOrdersQuery } from '../../core/lookup.ts';
import type { SchwabApi } from './api.ts';
import { type SchwabOrder, toSchwabOrder } from './mapper.ts';
import { toOrderResponse } from './reader.ts';

function sameNumber(a: unknown, b: string | undefined): boolean {
  if (b === undefined) return a === undefined;
  return typeof a === 'number' || typeof a === 'string' ? Math.abs(Number(a) - Number(b)) < 1e-6 : false;
}

/** Whether a listed order is the one we sent (entry level: type, prices, legs). */
function matchesSent(listed: unknown, sent: SchwabOrder): boolean {
  const order = asRecord(listed);
  if (!order) return false;
  if (stringField(order, 'orderType') !== sent.orderType) return false;
  if (stringField(order, 'orderStrategyType') !== sent.orderStrategyType) return false;
  if (!sameNumber(order.price, sent.price) || !sameNumber(order.stopPrice, sent.stopPrice)) return false;
  const legs = listOf(order.orderLegCollection);
  const wanted = sent.orderLegCollection ?? [];
  return (
    legs.length === wanted.length &&
    wanted.every((leg, index) => {
      const listedLeg = legs[index];
      const symbol = stringField(asRecord(listedLeg?.instrument), 'symbol');
      return (
        stringField(listedLeg, 'instruction') === leg.instruction &&
        decimalField(listedLeg, 'quantity') === leg.quantity &&
        symbol?.trim() === leg.instrument.symbol.trim()
      );
    })
  );
}

const ordersPath = (accountId: string) => `/trader/v1/accounts/${encodeURIComponent(accountId)}/orders`;

export async function findById(
  api: SchwabApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  orderId: string,
): Promise<OrderResponse | null> {
  try {
    const { body } = await api.call(ctx, session, { path: `${ordersPath(accountId)}/${encodeURIComponent(orderId)}` });
    return toOrderResponse(body, orderId);
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'OrderNotFound') return null;
    throw error;
  }
}

/** The orders entered in the window with the terms of the order we sent (Schwab lists a year back). */
export async function listMatching(
  api: SchwabApi,
  ctx: BrokerContext,
  session: BrokerSession,
  query: RecentOrdersQuery,
): Promise<ListedOrder[]> {
  if (!query.order) return [];
  const sent = toSchwabOrder(query.order);
  const { body } = await api.call(ctx, session, {
    path: ordersPath(query.accountId),
    query: { fromEnteredTime: new Date(query.from).toISOString(), toEnteredTime: new Date(query.to).toISOString() },
  });
  return listOf(body)
    .filter((order) => matchesSent(order, sent))
    .map((order) => ({ order: toOrderResponse(order), match: 'terms' }));
}
