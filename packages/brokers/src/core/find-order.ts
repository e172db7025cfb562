// The one place that decides how an order is found again and what the answer proves. Routes,
// strongest first, as far as the descriptor's `has` declares them:
//   1. by our client order id (the broker stores it): found → exact, not found → none (unknown
//      for a cancel or close signal, whose cancels and closing orders may carry no id of ours);
//   2. by the broker's order id, when we have it: found → exact, not found → unknown (the broker
//      gave us that id, so "no such order" contradicts it and proves nothing);
//   3. a list of the orders entered around `sentAt`: one carrying our id → exact; else one with
//      the order's terms → probable (one another signal is known to have placed never counts);
//      several → unknown; none at all → none.
// No route that can prove absence → unknown, never none: reconciliation then holds the credit.
import type { Order } from '@router/orders';
import type { Broker, BrokerContext, BrokerSession } from './broker.ts';
import { echoesClientOrderId } from './capabilities.ts';
import { BrokerError } from './errors.ts';
import {
  type CancelTarget,
  LOOKUP_WINDOW_AFTER_MS,
  LOOKUP_WINDOW_BEFORE_MS,
  type OrderLookup,
  type OrderLookupResult,
} from './lookup.ts';

const unknown = (reason: string): OrderLookupResult => ({ match: 'unknown', reason });

/** Terms can be compared only for an order that names what it trades (not close or cancel). */
function hasTerms(order: Order | undefined): boolean {
  return order !== undefined && order.quantity !== undefined && order.action !== 'close' && order.action !== 'cancel';
}

async function byRecentOrders(
  broker: Broker,
  list: NonNullable<Broker['listRecentOrders']>,
  ctx: BrokerContext,
  session: BrokerSession,
  lookup: OrderLookup,
): Promise<OrderLookupResult> {
  const { title, clientOrderId } = broker.descriptor;
  if (lookup.sentAt === undefined) return unknown(`${title} lists recent orders only, and the send time is not known`);
  if (!echoesClientOrderId(broker.descriptor) && !hasTerms(lookup.order)) {
    const why = clientOrderId === null ? 'keeps no client order id' : 'does not return the client order id';
    return unknown(`${title} ${why}, and the order's terms cannot be compared`);
  }
  const listed = await list.call(broker, ctx, session, {
    ...lookup,
    from: lookup.sentAt - LOOKUP_WINDOW_BEFORE_MS,
    to: lookup.sentAt + LOOKUP_WINDOW_AFTER_MS,
  });
  if (!listed) return unknown(`${title} no longer lists the orders of that time`);
  const byId = listed.find((item) => item.match === 'id');
  if (byId) return { match: 'exact', order: byId.order };
  // An order with our terms that another signal placed (its id known) is not ours.
  const theirs = new Set(lookup.otherOrderIds ?? []);
  const byTerms = listed.filter((item) => item.match === 'terms' && !theirs.has(item.order.id));
  if (byTerms.length > 1) {
    const ids = byTerms.map((item) => item.order.id).join(', ');
    return unknown(`${byTerms.length} orders at ${title} match (${ids})`);
  }
  if (byTerms[0]) return { match: 'probable', order: byTerms[0].order };
  // A cancel signal places no order, so none carries our id: not listing one proves nothing
  // (it may have canceled all it named), as by our id above.
  if (lookup.order?.action === 'cancel') return unknown(`${title} keeps no id of ours on what a cancel signal sends`);
  return { match: 'none' };
}

/** Finds the order `lookup` describes by the strongest route the broker has. Broker failures throw. */
export async function findOrder(
  broker: Broker,
  ctx: BrokerContext,
  session: BrokerSession,
  lookup: OrderLookup,
): Promise<OrderLookupResult> {
  const { has, title } = broker.descriptor;
  const { accountId, brokerOrderId } = lookup;
  if (has.findOrderByClientId && broker.findByClientId) {
    const order = await broker.findByClientId(ctx, session, accountId, lookup.clientOrderId);
    if (order) return { match: 'exact', order };
    // A cancel signal places no order, and a close may place none with our id (Alpaca's
    // DELETE /v2/positions, ccxt's closing order: the broker names them) after canceling the
    // symbol's orders: not finding ours proves nothing (it may have canceled or closed all it named).
    const action = lookup.order?.action;
    if (action === 'cancel' || action === 'close')
      return unknown(`${title} may keep no id of ours on what a ${action} signal sends`);
    // The broker named its own id for the order (an unknown outcome's answer): it exists, whatever
    // our id finds; that id is asked next, and not finding it proves nothing either.
    if (!brokerOrderId) return { match: 'none' };
    if (!has.findOrderByBrokerId || !broker.findByBrokerId)
      return unknown(`${title} does not find its own order ${brokerOrderId} by our id`);
  }
  if (has.findOrderByBrokerId && broker.findByBrokerId && brokerOrderId) {
    const order = await broker.findByBrokerId(ctx, session, accountId, brokerOrderId);
    return order ? { match: 'exact', order } : unknown(`${title} does not know its own order ${brokerOrderId}`);
  }
  if (has.listRecentOrders && broker.listRecentOrders) {
    return byRecentOrders(broker, broker.listRecentOrders, ctx, session, lookup);
  }
  return unknown(`${title} cannot look an order up ${brokerOrderId ? 'by its id' : 'without its order id'}`);
}

/** The broker's id of the order a cancel names: given, or found exactly by our client order id. */
export async function orderIdToCancel(
  broker: Broker,
  ctx: BrokerContext,
  session: BrokerSession,
  target: CancelTarget,
): Promise<string> {
  if (target.brokerOrderId) return target.brokerOrderId;
  const { title } = broker.descriptor;
  if (!target.clientOrderId) throw new BrokerError('InvalidOrder', title, 'no order id to cancel');
  const found = await findOrder(broker, ctx, session, {
    accountId: target.accountId,
    clientOrderId: target.clientOrderId,
  });
  // A probable match may be the user's own order: only an exact one is canceled.
  if (found.match === 'exact') return found.order.id;
  throw new BrokerError('OrderNotFound', title, `no order with client order id ${target.clientOrderId}`);
}
