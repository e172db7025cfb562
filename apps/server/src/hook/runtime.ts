// Everything the hook endpoint keeps in process: the hook cache and its LISTEN connection, the
// rate limiters, the batched writers (signals, outcomes, activity), the signals in flight,
// timings, and the reconciler.
// Started when the app is ready, stopped (in-flight broker calls given time to finish) on close.
import type { FastifyInstance } from 'fastify';
import { GroupCommit } from '../db/group-commit.ts';
import type { HookForSignal } from '../db/repositories/hooks.repository.ts';
import { recordSignalOutcomes, type SignalOutcome } from '../db/repositories/signals.repository.ts';
import { findHookForSignal } from '../modules/hooks/index.ts';
import { ActivityWriter } from '../modules/signals/activity-writer.ts';
import { InFlight } from '../modules/signals/in-flight.ts';
import type { SignalDeps } from '../modules/signals/place-signal.ts';
import { type Reconciler, startReconciler } from '../modules/signals/reconcile.ts';
import { SignalStore } from '../modules/signals/signal-store.ts';
import type { Answer, HookEntry } from '../modules/signals/types.ts';
import type { Services } from '../services.ts';
import { HookCache } from './hook-cache.ts';
import { type HookListener, listenHookChanges } from './hook-listener.ts';
import { RateLimiter } from './rate-limit.ts';
import { HookTimings } from './timings.ts';

/** How long a broker's outcome waits for others to be written with (GroupCommit linger). */
const OUTCOME_LINGER_MS = 20;

/** A broker call still running after this is aborted and its signal left 'unknown'. */
const CALL_LIMIT_MS = 30_000;

export interface HookRuntime extends SignalDeps {
  timings: HookTimings;
  cache: HookCache;
  byHook: RateLimiter<number>;
  byAddress: RateLimiter<string>;
  /** Runs a reconciliation pass now (tests; the timer runs it every 30 s). */
  reconcile(staleAfterMs?: number): Promise<number>;
}

export function toHookEntry(services: Services, row: HookForSignal): HookEntry {
  const broker = services.brokers.get(row.connector.providerName);
  return {
    hookId: row.hookId,
    hookKey: row.hookKey,
    shortKey: row.shortKey,
    name: row.name,
    userId: row.userId,
    accountId: row.accountId,
    isActive: row.isActive,
    isTest: row.isTest,
    deactivatedReason: row.deactivatedReason,
    connectorId: row.connector.id,
    connectorKey: row.connector.key,
    connectorActive: row.connector.isActive,
    providerName: row.connector.providerName,
    broker,
    title: broker?.descriptor.title ?? row.connector.providerName,
    connector: row.connector,
  };
}

export function createHookRuntime(app: FastifyInstance, services: Services): HookRuntime {
  const { config, log } = services;
  const pool = services.db.$client;
  const cache = new HookCache(async (shortKey) => {
    const row = await findHookForSignal(services, shortKey);
    return row ? toHookEntry(services, row) : null;
  });
  const inFlight = new InFlight<Answer>();
  const writer = new ActivityWriter(pool, log);
  // Outcomes are written after the answers (a repeat meanwhile finds its answer in InFlight, a
  // crash leaves the row 'placing' for reconciliation), so they wait a little to share commits
  // with each other instead of competing with the stores senders wait for.
  const outcomes = new GroupCommit(
    async (batch: SignalOutcome[]) => {
      await recordSignalOutcomes(pool, batch);
      return batch.map(() => undefined);
    },
    500,
    OUTCOME_LINGER_MS,
  );
  let listener: HookListener | undefined;
  let reconciler: Reconciler | undefined;
  const runtime: HookRuntime = {
    services,
    inFlight,
    writer,
    signals: new SignalStore(pool, config.HOOK_DEDUPE_WINDOW_S),
    outcomes,
    // Also measured for /metrics (METRICS_TOKEN): recording is an array increment.
    timings: new HookTimings(config.HOOK_TIMINGS || config.METRICS_TOKEN !== undefined),
    callLimitMs: CALL_LIMIT_MS,
    cache,
    byHook: new RateLimiter(config.HOOK_RATE_PER_HOOK),
    byAddress: new RateLimiter(config.HOOK_RATE_PER_ADDRESS),
    reconcile: (staleAfterMs) => (reconciler ? reconciler.runOnce(staleAfterMs) : Promise.resolve(0)),
  };
  app.addHook('onReady', async () => {
    listener = listenHookChanges(pool, log, cache);
    await listener.ready;
    // Default 35 s: older than any broker call of any instance can run (CALL_LIMIT_MS). Lower
    // values are safe with one instance only (its own calls in flight are skipped).
    const staleAfterMs = config.HOOK_RECONCILE_AFTER_MS;
    reconciler = startReconciler(services, { inFlight, staleAfterMs, intervalMs: Math.min(30_000, staleAfterMs) });
  });
  app.addHook('onClose', async () => {
    reconciler?.stop();
    await inFlight.drain(config.HOOK_DEADLINE_MS + 2_000);
    await writer.flush();
    await listener?.close();
  });
  return runtime;
}
