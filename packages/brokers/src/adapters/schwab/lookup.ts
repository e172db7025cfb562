// Finding a Schwab order again. Schwab keeps no client order id and no free tag, so our id
// cannot be searched for. With the broker order id (from the Location header) the order is read
// directly; after a lost answer, the orders entered around the send time are compared with the
// order we would have sent: same type, prices and legs. Exactly one match is the order; none is
// null; several throw, because picking one could be picking the user's own order.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import { ORDER_HINT_WINDOW_AFTER_MS, ORDER_HINT_WINDOW_BEFORE_MS, type OrderHint } from '../../core/order-hint.ts';
import type { SchwabApi } from './api.ts';
import { SCHWAB_TITLE } from './descriptor.ts';
import { type SchwabOrder, toSchwabOrder } from './mapper.ts';
import { toOrderResponse } from './reader.ts';

function sameNumber(a: unknown, b: string | undefined): boolean {
  if (b === undefined) return a === undefined;
  return typeof a === 'number' || typeof a === 'string' ? Math.abs(Number(a) - Number(b)) < 1e-6 : false;
}

/** Whether a listed order is the one we sent (entry level: type, prices, legs). */
export function matchesSent(listed: unknown, sent: SchwabOrder): boolean {
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

export async function findOrder(
  api: SchwabApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  hint: OrderHint | undefined,
): Promise<OrderResponse | null> {
  const base = `/trader/v1/accounts/${encodeURIComponent(accountId)}/orders`;
  if (hint?.brokerOrderId) {
    try {
      const { body } = await api.call(ctx, session, { path: `${base}/${encodeURIComponent(hint.brokerOrderId)}` });
      return toOrderResponse(body, hint.brokerOrderId);
    } catch (error) {
      if (isBrokerError(error) && error.kind === 'OrderNotFound') return null;
      throw error;
    }
  }
  if (!hint?.order || hint.sentAt === undefined) return null;
  const sent = toSchwabOrder(hint.order);
  const { body } = await api.call(ctx, session, {
    path: base,
    query: {
      fromEnteredTime: new Date(hint.sentAt - ORDER_HINT_WINDOW_BEFORE_MS).toISOString(),
      toEnteredTime: new Date(hint.sentAt + ORDER_HINT_WINDOW_AFTER_MS).toISOString(),
    },
  });
  const matches = listOf(body).filter((order) => matchesSent(order, sent));
  if (matches.length > 1) {
    throw new BrokerError(
      'DuplicateOrder',
      SCHWAB_TITLE,
      `${matches.length} orders match (${matches.map((order) => stringField(order, 'orderId')).join(', ')}); check them at Schwab`,
    );
  }
  return matches[0] ? toOrderResponse(matches[0]) : null;
}
