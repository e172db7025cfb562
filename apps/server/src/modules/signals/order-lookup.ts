// Finding a signal's order at its broker with everything its row knows (contract v2's findOrder
// picks the broker's strongest route): the client order id (our signal id), the broker's order
// id when the call answered one, the order and when it was sent (brokers that keep no client
// order id find it by terms and time).
import { findOrder, LOOKUP_WINDOW_AFTER_MS, LOOKUP_WINDOW_BEFORE_MS, type OrderLookupResult } from '@router/brokers';
import type { Order } from '@router/orders';
import { type ClaimedSignal, otherSignals } from '../../db/repositories/signal-reconcile.repository.ts';
import type { Services } from '../../services.ts';
import { holdsAccount } from '../connectors/holds-account.ts';
import { type SessionConnector, withBrokerSession } from '../connectors/index.ts';

const LOOKUP_TIMEOUT_MS = 10_000;

/** The normalized order the row keeps (a JSON object naming at least symbol and action). */
function storedOrder(value: unknown): Order | undefined {
  const order = value as Partial<Order> | null;
  return order && typeof order.symbol === 'string' && typeof order.action === 'string' ? (order as Order) : undefined;
}

/** Throws what the broker or the session threw (the caller retries later); at most 10 s. */
export function lookUpOrder(
  services: Services,
  connector: SessionConnector,
  signal: ClaimedSignal,
): Promise<OrderLookupResult> {
  // Its account left the connection at a reconnect: nothing can be asked about it through this
  // connection (the adapter refuses such an account), so what became of the order is unknown.
  if (!holdsAccount(connector, signal.account_id)) {
    return Promise.resolve({ match: 'unknown', reason: 'its account is no longer part of the broker connection' });
  }
  const order = storedOrder(signal.order);
  // Orders other signals placed around then: one with this order's terms is theirs, not this one's
  // (two alike signals, one answered, one lost: the answered one's order proves nothing here).
  const reach = LOOKUP_WINDOW_BEFORE_MS + LOOKUP_WINDOW_AFTER_MS;
  const others = otherSignals(services.db.$client, signal.id, signal.stored_at - reach, signal.stored_at + reach);
  return others.then(async ({ orderIds, alikeUnresolved }) => {
    const found = await withBrokerSession(
      services,
      connector,
      ({ broker, ctx, session }) =>
        findOrder(broker, ctx, session, {
          accountId: signal.account_id,
          clientOrderId: signal.id,
          ...(signal.broker_order_id ? { brokerOrderId: signal.broker_order_id } : {}),
          ...(order ? { order } : {}),
          sentAt: signal.stored_at,
          otherOrderIds: orderIds,
        }),
      // The fill follower's and reconciliation's look-ups: an ended session is left 'expired'.
      { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS), background: true },
    );
    // Alike signals still unresolved (in this batch, a later one, or given up on as unknown) may
    // own the order found by terms: whichever took it first, the other would be wrong.
    if (found.match !== 'probable' || alikeUnresolved === 0) return found;
    const reason = `its order's terms match order ${found.order.id}, which ${alikeUnresolved} other unresolved alike signal(s) may own`;
    return { match: 'unknown', reason };
  });
}

/** Lookups of one pass at `limit` at a time, each settled on its own (a failure is its own). */
export async function lookUpAll<T, R>(
  items: readonly T[],
  limit: number,
  look: (item: T) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      try {
        results[i] = { status: 'fulfilled', value: await look(items[i] as T) };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * One order found by terms for several signals of the batch (alike signals, all lost, fewer of them
 * placed): it cannot be told whose it is, so it is none of theirs. lookUpOrder already holds back
 * an order alike unresolved signals may own; this also covers signals whose stored orders differ
 * but that the broker matches to one order. `(i)` → the unknown for the
 * i-th signal when its probable order is shared, else undefined.
 */
export function sharedByTerms(claimed: readonly ClaimedSignal[], results: PromiseSettledResult<OrderLookupResult>[]) {
  const keyOf = (i: number) => {
    const result = results[i];
    if (result?.status !== 'fulfilled' || result.value.match !== 'probable') return undefined;
    const s = claimed[i] as ClaimedSignal;
    return `${s.connector_id} ${s.account_id} ${result.value.order.id}`;
  };
  const counts = new Map<string, number>();
  for (const i of results.keys()) {
    const key = keyOf(i);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return (i: number): OrderLookupResult | undefined => {
    const key = keyOf(i);
    if (!key || (counts.get(key) ?? 0) < 2) return undefined;
    return { match: 'unknown', reason: `its order's terms match one order for ${counts.get(key)} lost signals` };
  };
}
