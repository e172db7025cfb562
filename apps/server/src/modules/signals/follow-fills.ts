// Resting orders followed to their fill (issue #17: order.filled where the broker reports fills).
// A limit or stop order that rests at a live broker answers 'accepted' and fills later, when no
// call of ours is running. For accounts with a setting that wants order.filled or order.rejected
// (a broker may reject an order it had accepted: a setting wanting only failures hears of it too),
// this looks such orders up through the broker's own look-up (findOrder: client order id, broker order id or
// recent orders), often at first and then less (a quarter of the order's age, 5 s to 15 min),
// until the order is final or its horizon passed (a day, or 30 days for orders that outlive the
// day: no market calendars here). Claims use reconciliation's lease columns, so two instances
// never follow one order at once; the final status is written by the outcome statement, fenced
// by the status it moves from and the claim, which emits order.filled (or order.rejected) exactly
// once. Partial fills are not told: the broker contract reports them as 'accepted' (with the
// progress in the description), and the one order.filled comes with the complete fill.
import type { OrderLookupResult } from '@router/brokers';
import { findConnectorById } from '../../db/repositories/connectors.repository.ts';
import { claimRestingSignals, scheduleNextLookups } from '../../db/repositories/signal-follow.repository.ts';
import type { ClaimedSignal } from '../../db/repositories/signal-reconcile.repository.ts';
import { recordSignalOutcomes, type SignalOutcome } from '../../db/repositories/signals.repository.ts';
import type { Services } from '../../services.ts';
import { reportBrokerFailure } from '../connectors/broker-failure.ts';
import { lookUpAll, lookUpOrder } from './order-lookup.ts';
import { type PeriodicPass, startPeriodicPass } from './periodic.ts';

/** `runOnce(minAgeMs)`: one pass now (tests: `minAgeMs` 0 follows orders placed a moment ago). */
export type FillFollower = PeriodicPass<[minAgeMs?: number]>;

const BATCH = 10;
const CONCURRENCY = 5;
const MAX_BATCHES = 10;
const LEASE_MS = 30_000;
const MIN_AGE_MS = 5_000;
const NEXT_MIN_MS = 5_000;
const NEXT_MAX_MS = 15 * 60_000;
const IDLE_MS = 10 * 60_000;
const DAY_MS = 24 * 3_600_000;
const LONG_MS = 30 * DAY_MS;
const INTERVAL_MS = 5_000;

const FINAL = new Set(['filled', 'rejected', 'canceled']);

/** The write for an order found final, or undefined while it rests (or cannot be told). */
function finalOutcome(services: Services, s: ClaimedSignal, owner: string, found: OrderLookupResult) {
  if (found.match !== 'exact' && found.match !== 'probable') return undefined;
  const { order } = found;
  if (!FINAL.has(order.status)) return undefined;
  const title = services.brokers.descriptor(s.provider_name)?.title ?? s.provider_name;
  const outcome: SignalOutcome = {
    id: s.id,
    from: s.status,
    status: order.status,
    brokerOrderId: order.id || null,
    price: typeof order.price === 'number' && Number.isFinite(order.price) ? order.price : null,
    response: null,
    elapsedMs: null,
    // It was placed: the credit stays spent whatever became of the order.
    releaseCredit: false,
    message: order.status === 'rejected' ? `${title}: ${order.status_description || 'order rejected'}` : null,
    leaseOwner: owner,
    attempt: s.attempts,
  };
  return outcome;
}

async function followBatch(services: Services, owner: string, claimed: ClaimedSignal[]): Promise<number> {
  const results = await lookUpAll(claimed, CONCURRENCY, async (s) => {
    const connector = await findConnectorById(services.db, Number(s.connector_id));
    return connector ? finalOutcome(services, s, owner, await lookUpOrder(services, connector, s)) : undefined;
  });
  const writes: SignalOutcome[] = [];
  const later: Array<{ id: string; attempt: number }> = [];
  for (const [i, result] of results.entries()) {
    const s = claimed[i] as ClaimedSignal;
    if (result.status === 'rejected') {
      reportBrokerFailure(services, result.reason, s.provider_name, { signalId: s.id }, 'fill follower: lookup failed');
    }
    const write = result.status === 'fulfilled' ? result.value : undefined;
    if (write) writes.push(write);
    else later.push({ id: s.id, attempt: s.attempts });
  }
  const pool = services.db.$client;
  if (writes.length > 0) await recordSignalOutcomes(pool, writes);
  await scheduleNextLookups(pool, owner, later, NEXT_MIN_MS, NEXT_MAX_MS);
  return writes.length;
}

/** One pass, batch after batch while full: how many orders it found final. */
async function followOnce(services: Services, owner: string, minAgeMs: number, stopping: AbortSignal): Promise<number> {
  let done = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const { claimed, scanned } = await claimRestingSignals(services.db.$client, {
      owner,
      leaseMs: LEASE_MS,
      minAgeMs,
      dayMs: DAY_MS,
      longMs: LONG_MS,
      idleMs: IDLE_MS,
      limit: BATCH,
    });
    if (claimed.length > 0) done += await followBatch(services, owner, claimed);
    if (scanned < BATCH || stopping.aborted) break;
  }
  return done;
}

export function startFillFollower(services: Services, owner: string): FillFollower {
  // A test's pass goes after the timer's, never merged into it (which skips orders younger than MIN_AGE_MS).
  return startPeriodicPass<[minAgeMs?: number]>(services.log, {
    intervalMs: INTERVAL_MS,
    failure: 'fill follower pass failed',
    pass: (stopping, minAgeMs = MIN_AGE_MS) => followOnce(services, owner, minAgeMs, stopping),
    timerArgs: [],
  });
}
