// After a crash, a timeout or a dropped connection, a signal may be left 'placing' or 'unknown'.
// Reconciliation asks the broker for the order by its client order id (our signal id) and
// records what it says; it never sends the order again. Found: its status (the credit is kept
// unless the broker rejected it). Not found: 'failed' and the credit released, since the signal
// is older than any broker call of any instance can run and the broker says it has no such order.
// Broker errors leave the signal for the next pass. Runs at start and every 30 s; the rows are
// claimed FOR UPDATE SKIP LOCKED, so instances never reconcile the same signal twice.

import type { OrderResponse } from '@router/orders';
import {
  deleteExpiredSignalKeys,
  findConnectorById,
  lockUnfinishedSignals,
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

async function lookUp(services: Services, signal: UnfinishedSignal): Promise<OrderResponse | null | undefined> {
  const connector = await findConnectorById(services.db, Number(signal.connector_id));
  if (!connector) return undefined;
  try {
    return await withBrokerSession(
      services,
      connector,
      ({ broker, ctx, session }) => broker.getOrder(ctx, session, signal.account_id, signal.id),
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
      const found = await lookUp(services, signal);
      if (found === undefined) continue;
      await recordSignalOutcomes(client, [
        {
          id: signal.id,
          status: found ? found.status : 'failed',
          brokerOrderId: found?.id || null,
          price: typeof found?.price === 'number' ? found.price : null,
          response: null,
          elapsedMs: null,
          releaseCredit: !found || found.status === 'rejected',
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
