// Places queued signals (queue.ts) when their window opens: a pass runs at the instant the next
// one is due (known from the last pass, or told by queue.ts when it queues one), besides the
// regular passes every few seconds, and takes every due row, batch after batch, so a market
// open's backlog goes out at the opening and not 20 per pass. Each batch claims the due rows with
// a lease (one statement, FOR UPDATE SKIP LOCKED inside it: two instances never claim one row) and
// sends each through the signal path with its queued idempotency key; the row's end is written
// fenced by the claim. A crash between placing and writing leaves the row claimed until the lease
// runs out; the next claim finds the signal the lost one stored (its id is derived from the
// queued id) and writes its answer, placing nothing: the key's window (HOOK_DEDUPE_WINDOW_S, 60 s
// by default, 0 allowed) may have run out by then, so a repeat of the key is not enough. It also
// logs the placement when the lost claim's activity entry (written in batches) is not there.
// A refusal's entry and signal.refused are written in the transaction ending the claim, so a
// claim lost before its end told nothing, and the next claim tells it once.
import { performance } from 'node:perf_hooks';
import { hasSignalAction, insertActions } from '../../db/repositories/hook-activity.repository.ts';
import {
  claimDueQueuedSignals,
  finishQueuedSignal,
  nextQueuedRelease,
  type QueuedSignalRow,
} from '../../db/repositories/queued-signals.repository.ts';
import { findSignalState } from '../../db/repositories/signals.repository.ts';
import { checkWindow } from '../hooks/rules/index.ts';
import { nextOpening } from '../hooks/rules/next-opening.ts';
import { ActivityWriter } from './activity-writer.ts';
import { ruleRefused } from './answers.ts';
import { type PeriodicPass, startPeriodicPass } from './periodic.ts';
import { repeatAnswer } from './repeat.ts';
import type { SignalRuntime } from './runtime.ts';
import { queuedSignalId } from './signal-id.ts';
import { refuse, submitSignal } from './submit.ts';
import type { Answer } from './types.ts';

/** `runOnce(at)`: one pass as if it were `at` (tests move it to a window's opening); how many were claimed. */
export interface QueueSweeper extends PeriodicPass<[at?: Date]> {
  /** A signal is due at `releaseAt`: when that is before the next regular pass, a pass runs then. */
  wake(releaseAt: Date): void;
  /** When the pass `wake` set up runs (tests), or null. */
  wakesAt(): Date | null;
}

/** Longer than one placement can take: the hook's deadline, then the broker's call limit. */
const LEASE_MS = 60_000;
const BATCH = 20;
/** Batches per pass (1,000 signals); a longer backlog goes on in the next pass. */
const MAX_BATCHES = 50;
/** Our own outage (nothing stored): tried again this much later. */
const RETRY_MS = 10_000;
/** A woken pass runs this long after the instant, so a timer's rounding never runs it before. */
const WAKE_MARGIN_MS = 5;

export function startQueueSweeper(rt: SignalRuntime, owner: string, intervalMs: number): QueueSweeper {
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let stopped = false;
  const periodic = startPeriodicPass<[at?: Date]>(rt.services.log, {
    intervalMs,
    failure: 'queued signals not swept',
    pass: async (stopping, at = new Date()) => {
      const done = await sweep(rt, owner, at, stopping);
      if (stopping.aborted) return done;
      const next = await nextQueuedRelease(rt.services.db.$client, new Date());
      if (next) wake(next);
      return done;
    },
    timerArgs: [],
  });
  function wake(releaseAt: Date): void {
    const at = releaseAt.getTime();
    const wait = at - Date.now();
    // Already due: the pass running or the next regular one takes it. Later than the next regular
    // pass, or than a pass already set up: that pass's look-up sets this one up.
    if (stopped || wait <= 0 || wait > intervalMs || at >= timerAt) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timerAt = Number.POSITIVE_INFINITY;
      timer = undefined;
      void periodic.runOnce();
    }, wait + WAKE_MARGIN_MS);
    timer.unref();
  }
  return {
    runOnce: periodic.runOnce,
    wake,
    wakesAt: () => (timer ? new Date(timerAt) : null),
    async stop() {
      // No pass sets up another once stopped (wake checks it).
      stopped = true;
      clearTimeout(timer);
      await periodic.stop();
    },
  };
}

async function sweep(rt: SignalRuntime, owner: string, at: Date, stopping: AbortSignal): Promise<number> {
  let done = 0;
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const claimed = await claimDueQueuedSignals(rt.services.db.$client, { owner, leaseMs: LEASE_MS, at, limit: BATCH });
    await Promise.all(
      claimed.map((row) =>
        placeQueued(rt, owner, row, at).catch((error: unknown) =>
          rt.services.log.error({ err: error, queuedId: row.id }, 'queued signal not placed'),
        ),
      ),
    );
    done += claimed.length;
    // Stopping: the rest waits, claimed by nobody, for the next pass of any instance.
    if (claimed.length < BATCH || stopping.aborted) break;
  }
  return done;
}

async function placeQueued(rt: SignalRuntime, owner: string, row: QueuedSignalRow, at: Date): Promise<void> {
  const pool = rt.services.db.$client;
  const claim = { id: row.id, owner, attempt: row.attempts };
  let entry = await rt.hooks.get(row.short_key);
  // Deleting the hook deletes its queued signals; one deleted this instant has nowhere to go.
  if (!entry) {
    await finishQueuedSignal(pool, claim, {
      status: 'refused',
      response: { status: 'Error', message: 'Webhook not found' },
    });
    return;
  }
  const id = queuedSignalId(row.id);
  // Claimed before and not finished: a claim may have stored it and died before writing so.
  if (row.attempts > 1 && (await findSignalState(pool, id))) {
    const start = performance.now();
    const deadlineAt = start + rt.services.config.HOOK_DEADLINE_MS;
    const answer = await repeatAnswer(rt, entry, id, deadlineAt);
    // The lost claim may have died before its activity entry was written: the log must show the
    // placement, once.
    if (
      (await finishQueuedSignal(pool, claim, { status: 'placed', response: answer.body })) &&
      !(await hasSignalAction(pool, entry.userId, id))
    ) {
      rt.writer.order({
        hook: entry,
        address: row.address,
        signalId: id,
        response: answer.body,
        elapsedMs: Math.round(performance.now() - start),
        at: new Date(),
      });
    }
    return;
  }
  // The windows may have changed since it was queued: still closed, it waits for the new opening.
  let closed = entry.rules ? checkWindow(entry.rules, at) : undefined;
  if (closed) {
    // Saving the settings moved it (hookUpdate) maybe before this instance dropped its cached
    // hook: judged on the hook as stored, not on the windows it had.
    rt.hooks.invalidate(row.short_key);
    entry = (await rt.hooks.get(row.short_key)) ?? entry;
    closed = entry.rules ? checkWindow(entry.rules, at) : undefined;
  }
  if (entry.rules && closed) {
    const opens = entry.rules.settings.outsideWindow === 'queue' ? nextOpening(entry.rules, at) : undefined;
    if (opens) {
      await finishQueuedSignal(pool, claim, { status: 'queued', releaseAt: opens });
      return;
    }
    // A signal that becomes no order is told (signal.refused) and logged, as one refused on
    // arrival is: its activity entry ends the one that read 'queued'.
    const held = ActivityWriter.held(pool, rt.services.log);
    const input = { entry, body: row.request, address: row.address ?? '', receivedAt: performance.now() };
    const { answer } = refuse({ ...rt, writer: held }, input, ruleRefused(closed.rule, closed.message), row.request);
    await finishRefused(rt, claim, answer, held);
    return;
  }
  // Its refusal's entry and event are kept (held) to be written with the claim's end.
  const held = ActivityWriter.held(pool, rt.services.log);
  const { answer, signalId } = await submitSignal(
    { ...rt, writer: held },
    {
      entry,
      body: row.request,
      address: row.address ?? '',
      receivedAt: performance.now(),
      queuedKey: row.key,
      signalId: id,
    },
  );
  if (!signalId && answer.statusCode !== 503) {
    await finishRefused(rt, claim, answer, held);
    return;
  }
  held.handTo(rt.writer);
  if (answer.statusCode === 503) {
    await finishQueuedSignal(pool, claim, { status: 'queued', releaseAt: new Date(Date.now() + RETRY_MS) });
    return;
  }
  // Stored: placed, drafted, or rejected by its broker (the answer says).
  await finishQueuedSignal(pool, claim, { status: 'placed', response: answer.body });
}

/**
 * Ends the claim refused and writes its refusal's activity entry and signal.refused (what `held`
 * was given) in one transaction: a claim that dies before, or whose end fails, told nothing, and
 * the next claim tells it once; a claim fenced out (another took the row) writes nothing.
 */
async function finishRefused(
  rt: SignalRuntime,
  claim: { id: string; owner: string; attempt: number },
  answer: Answer,
  held: ActivityWriter,
): Promise<void> {
  const { rows, events } = held.take();
  held.handTo(rt.writer);
  const client = await rt.services.db.$client.connect();
  try {
    await client.query('begin');
    if (await finishQueuedSignal(client, claim, { status: 'refused', response: answer.body })) {
      await insertActions(client, rows, events);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
