// Everything the signal path keeps in process: the hook cache and its LISTEN connection, the
// batched writers (signals, outcomes, activity), the signals in flight, and the reconciler.
// Started when the app is ready, stopped (in-flight broker calls given time to finish) on close.
import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_TTL_S } from '@router/shared/api';
import { GroupCommit } from '../../db/group-commit.ts';
import { recordSignalOutcomes, type SignalOutcome } from '../../db/repositories/signals.repository.ts';
import type { Services } from '../../services.ts';
import { sessionChangeHandlers } from '../auth/session-changes.ts';
import { HookCache, type HookListener, keepHookCache, listenHookChanges, loadHookEntry } from '../hooks/index.ts';
import { ActivityWriter } from './activity-writer.ts';
import { type FillFollower, startFillFollower } from './follow-fills.ts';
import { InFlight } from './in-flight.ts';
import { type QueueSweeper, startQueueSweeper } from './queue-sweeper.ts';
import { type Reconciler, startReconciler } from './reconcile.ts';
import { SignalStore } from './signal-store.ts';
import { SignalTimings } from './timings.ts';
import type { Answer } from './types.ts';

/** How long a broker's outcome waits for others to be written with (GroupCommit linger). */
const OUTCOME_LINGER_MS = 20;

/** How often queued signals whose window opened are looked for (windows open on the minute). */
const QUEUE_SWEEP_MS = 5_000;

/** A broker call still running after this is aborted and its signal left 'unknown'. */
const CALL_LIMIT_MS = 30_000;

export interface SignalRuntime {
  services: Services;
  /** shortKey → hook entry, kept coherent by hook_changed. */
  hooks: HookCache;
  inFlight: InFlight<Answer>;
  writer: ActivityWriter;
  signals: SignalStore;
  /**
   * Signals under the REST API's own Idempotency-Key (`i:` keys, used by nothing else): the same
   * statement with the key's 24 hours instead of the hook's window, so a retry an hour later is
   * still the first order's. Kept apart so the hook's store (and its batches) stay as they are.
   */
  keyed: SignalStore;
  /** Brokers' outcomes, written in batches after the answers. */
  outcomes: GroupCommit<SignalOutcome, void>;
  /** How long a broker call may run in the background before it is aborted and left 'unknown'. */
  callLimitMs: number;
  /** Per-phase timings (HOOK_TIMINGS). */
  timings: SignalTimings;
  /** Runs a reconciliation pass now (tests; a timer runs them). */
  reconcile(staleAfterMs?: number): Promise<number>;
  /** Runs a pass of the fill follower now (tests; a timer runs them). */
  followFills(minAgeMs?: number): Promise<number>;
  /** Places the queued signals due at `at` (default now; tests; a timer runs it every few seconds). */
  sweepQueue(at?: Date): Promise<number>;
  /** A signal was queued until `releaseAt`: placed then, not at the next regular pass. */
  wakeQueue(releaseAt: Date): void;
  /** When the next woken pass runs (tests), or null. */
  queueWakesAt(): Date | null;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createSignalRuntime(services: Services): SignalRuntime {
  const { config, log } = services;
  const pool = services.db.$client;
  const inFlight = new InFlight<Answer>();
  const writer = new ActivityWriter(pool, log);
  const hooks = new HookCache((shortKey) => loadHookEntry(services, shortKey));
  keepHookCache(services, hooks);
  let listener: HookListener | undefined;
  let reconciler: Reconciler | undefined;
  let follower: FillFollower | undefined;
  let queue: QueueSweeper | undefined;
  const owner = randomUUID();
  const runtime: SignalRuntime = {
    services,
    hooks,
    inFlight,
    writer,
    signals: new SignalStore(pool, config.HOOK_DEDUPE_WINDOW_S),
    keyed: new SignalStore(pool, Math.max(IDEMPOTENCY_KEY_TTL_S, config.HOOK_DEDUPE_WINDOW_S)),
    // Outcomes are written after the answers (a repeat meanwhile finds its answer in InFlight, a
    // crash leaves the row 'placing' for reconciliation), so they wait a little to share commits
    // with each other instead of competing with the stores senders wait for.
    outcomes: new GroupCommit(
      async (batch: SignalOutcome[]) => {
        await recordSignalOutcomes(pool, batch);
        return batch.map(() => undefined);
      },
      500,
      OUTCOME_LINGER_MS,
    ),
    callLimitMs: CALL_LIMIT_MS,
    // Also measured for /metrics (METRICS_TOKEN): recording is an array increment.
    timings: new SignalTimings(config.HOOK_TIMINGS || config.METRICS_TOKEN !== undefined),
    reconcile: (staleAfterMs) => (reconciler ? reconciler.runOnce(staleAfterMs) : Promise.resolve(0)),
    followFills: (minAgeMs) => (follower ? follower.runOnce(minAgeMs) : Promise.resolve(0)),
    sweepQueue: (at) => (queue ? queue.runOnce(at) : Promise.resolve(0)),
    wakeQueue: (releaseAt) => queue?.wake(releaseAt),
    queueWakesAt: () => queue?.wakesAt() ?? null,
    async start() {
      listener = listenHookChanges(pool, log, hooks, [sessionChangeHandlers(services.identity.sessions)]);
      await listener.ready;
      // Default 35 s: older than any broker call of any instance can run (CALL_LIMIT_MS). Lower
      // values are safe with one instance only (its own calls in flight are skipped).
      const staleAfterMs = config.HOOK_RECONCILE_AFTER_MS;
      reconciler = startReconciler(services, {
        owner,
        inFlight,
        staleAfterMs,
        intervalMs: Math.min(30_000, staleAfterMs),
      });
      follower = startFillFollower(services, owner);
      queue = startQueueSweeper(runtime, owner, QUEUE_SWEEP_MS);
    },
    async stop() {
      // Told at once, each ending after its batch in hand: one after the other, the queue went on
      // placing batches while the follower's lookups finished.
      await Promise.all([follower?.stop(), reconciler?.stop(), queue?.stop()]);
      await inFlight.drain(config.HOOK_DEADLINE_MS + 2_000);
      await writer.flush();
      writer.close();
      await listener?.close();
    },
  };
  return runtime;
}
