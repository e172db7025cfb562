// Finding a signal's order at its broker, with everything its row knows: the client order id (our
// signal id), the broker's order id when the call answered one, the order and when it was sent
// (Schwab and Trading 212 keep no client order id and need the latter to find it). The answer has
// the shape of the broker contract's findOrder; until that lands, getOrder with its OrderHint.
import type { OrderHint } from '@router/brokers';
import type { OrderResponse } from '@router/orders';
import type { ClaimedSignal } from '../../db/repositories/signal-reconcile.repository.ts';
import type { Services } from '../../services.ts';
import { type BrokerCall, type SessionConnector, withBrokerSession } from '../connectors/index.ts';

export type OrderLookup =
  | { match: 'exact' | 'probable'; order: OrderResponse }
  | { match: 'none' }
  /** The broker cannot tell whether it has the order. */
  | { match: 'unknown'; reason: string };

const LOOKUP_TIMEOUT_MS = 10_000;

/** getOrder as the adapters of brokers without client order ids implement it: a fifth argument. */
type GetOrderWithHint = (
  ctx: BrokerCall['ctx'],
  session: BrokerCall['session'],
  accountId: string,
  clientOrderId: string,
  hint?: OrderHint,
) => Promise<OrderResponse | null>;

function hintOf(signal: ClaimedSignal): OrderHint {
  return {
    ...(signal.broker_order_id ? { brokerOrderId: signal.broker_order_id } : {}),
    ...(signal.order ? { order: signal.order } : {}),
    sentAt: signal.stored_at,
  };
}

/** Throws what the broker or the session threw (the caller retries later); at most 10 s. */
export async function lookUpOrder(
  services: Services,
  connector: SessionConnector,
  signal: ClaimedSignal,
): Promise<OrderLookup> {
  const found = await withBrokerSession(
    services,
    connector,
    ({ broker, ctx, session }) => {
      const getOrder: GetOrderWithHint = broker.getOrder;
      return getOrder.call(broker, ctx, session, signal.account_id, signal.id, hintOf(signal));
    },
    { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) },
  );
  return found ? { match: 'exact', order: found } : { match: 'none' };
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
