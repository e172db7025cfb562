// After a crash, a timeout or a dropped connection, a signal may be left 'placing' or 'unknown'.
// Reconciliation asks the broker for the order with everything the signal row knows (our signal
// id as client order id, the broker's id, the order sent and when: findOrder in @router/brokers
// picks the broker's strongest route) and records what it says; it never sends the order again.
// Found (exactly, or by its terms): its status (the credit is kept unless the broker rejected
// it). Proven absent: 'failed' and the credit released, since the signal is older than any broker
// call of any instance can run. The broker cannot tell: the signal stays 'unknown', its credit
// held, with a message to check the broker account, and is not asked about again. Broker errors
// leave the signal for the next pass. Runs at start and every 30 s; the rows are claimed FOR
// UPDATE SKIP LOCKED, so instances never reconcile the same signal twice.
import { findOrder, type OrderLookupResult } from '@router/brokers';
import type { Order } from '@router/orders';
import {
  deleteExpiredSignalKeys,
  findConnectorById,
  lockUnfinishedSignals,
  markSignalUnconfirmed,
  type UnfinishedSignal,
} from '../../db/repositories/signal-reconcile.repository.ts';
import { recordSignalOutcomes } from '../../db/repositories/signals.repository.ts';
import type { Services } from '../../services.ts';
import { reportBrokerFailure } from '../connectors/broker-failure.ts';
import { withBrokerSession } from '../connectors/index.ts';
import type { InFlight } from './in-flight.ts';

export interface Reconciler {
  /** `staleAfterMs` overrides the option for this pass (tests). */
  runOnce(staleAfterMs?: number): Promise<number>;
  stop(): void;
}

export interface ReconcilerOptions {
  inFlight: Pick<InFlight<unknown>, 'ids'>;
  /** A signal younger than this may still have a broker call running somewhere. */
  staleAfterMs: number;
  intervalMs?: number;
  batch?: number;
}

const LOOKUP_TIMEOUT_MS = 10_000;

/** The normalized order place-signal stored (a JSON object naming at least symbol and action). */
function storedOrder(value: unknown): Order | undefined {
  const order = value as Partial<Order> | null;
  return order && typeof order.symbol === 'string' && typeof order.action === 'string' ? (order as Order) : undefined;
}

/** The signal's answer once its broker cannot tell: a repeat gets it too. */
export function unconfirmedAnswer(signalId: string, title: string): Record<string, unknown> {
  return {
    id: signalId,
    status: 'accepted',
    status_description: `${title}: the order's outcome could not be confirmed; check your ${title} account`,
  };
}

async function lookUp(
  services: Services,
  signal: UnfinishedSignal,
): Promise<{ found: OrderLookupResult; title: string } | undefined> {
  const connector = await findConnectorById(services.db, Number(signal.connector_id));
  if (!connector) return undefined;
  const order = storedOrder(signal.order);
  try {
    return await withBrokerSession(
      services,
      connector,
      async ({ broker, ctx, session }) => ({
        title: broker.descriptor.title,
        found: await findOrder(broker, ctx, session, {
          accountId: signal.account_id,
          clientOrderId: signal.id,
          ...(signal.broker_order_id ? { brokerOrderId: signal.broker_order_id } : {}),
          ...(order ? { order } : {}),
          sentAt: signal.created_at.getTime(),
        }),
      }),
      { signal: AbortSignal.timeout(LOOKUP_TIMEOUT_MS) },
    );
  } catch (error) {
    reportBrokerFailure(
      services,
      error,
      signal.provider_name,
      { signalId: signal.id },
      'reconciliation: order lookup failed, will retry',
    );
    return undefined;
  }
}

/** One pass: returns how many signals got a final status. */
export async function reconcileOnce(services: Services, options: ReconcilerOptions): Promise<number> {
  const client = await services.db.$client.connect();
  let done = 0;
  try {
    await client.query('begin');
    const skip = options.inFlight.ids();
    const rows = await lockUnfinishedSignals(client, options.staleAfterMs, skip, options.batch ?? 20);
    for (const signal of rows) {
      const looked = await lookUp(services, signal);
      if (looked === undefined) continue;
      const { found, title } = looked;
      if (found.match === 'unknown') {
        services.log.warn({ signalId: signal.id, reason: found.reason }, 'reconciliation: outcome cannot be confirmed');
        await markSignalUnconfirmed(client, signal.id, JSON.stringify(unconfirmedAnswer(signal.id, title)));
        done++;
        continue;
      }
      const order = found.match === 'none' ? null : found.order;
      await recordSignalOutcomes(client, [
        {
          id: signal.id,
          status: order ? order.status : 'failed',
          brokerOrderId: order?.id || null,
          price: typeof order?.price === 'number' ? order.price : null,
          response: null,
          elapsedMs: null,
          releaseCredit: !order || order.status === 'rejected',
        },
      ]);
      done++;
    }
    await client.query('commit');
    client.release();
  } catch (error) {
    await client.query('rollback').catch(() => {});
    client.release(true);
    throw error;
  }
  await deleteExpiredSignalKeys(services.db.$client, 5_000);
  return done;
}

export function startReconciler(services: Services, options: ReconcilerOptions): Reconciler {
  let running: Promise<number> | undefined;
  const runOnce = (staleAfterMs = options.staleAfterMs) =>
    (running ??= reconcileOnce(services, { ...options, staleAfterMs })
      .catch((error: unknown) => {
        services.log.error({ err: error }, 'reconciliation pass failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      }));
  void runOnce();
  const timer = setInterval(() => void runOnce(), options.intervalMs ?? 30_000);
  timer.unref();
  return {
    runOnce,
    stop: () => clearInterval(timer),
  };
}
