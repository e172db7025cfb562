// After a crash, a timeout or a dropped connection, a signal may be left 'placing' (sent, maybe)
// or 'unknown'. Reconciliation looks its order up at the broker and records what it finds; it
// never sends the order again. Found: its status (credit kept unless the broker rejected it).
// Proven absent: 'failed', credit released (the signal is older than any broker call of any
// instance can run). The broker cannot tell: 'unknown', credit held, its answer telling the user
// to check the broker account, and not asked about again. Like pg-boss's jobs, signals are
// claimed with a lease in one short statement (FOR UPDATE SKIP LOCKED inside it, so two instances
// never claim one signal), looked up outside any transaction, and their outcomes written fenced
// by the claim (owner and attempt): a claim that outlived its lease loses to the one that took
// over.

import type { OrderLookupResult } from '@router/brokers';
import { findConnectorById } from '../../db/repositories/connectors.repository.ts';
import { logUnloggedSignals } from '../../db/repositories/hook-activity.repository.ts';
import {
  type ClaimedSignal,
  claimUnfinishedSignals,
  deleteExpiredSignalKeys,
  markSignalsUnconfirmed,
  retryClaimedSignals,
  type Unconfirmed,
} from '../../db/repositories/signal-reconcile.repository.ts';
import { recordSignalOutcomes, type SignalOutcome } from '../../db/repositories/signals.repository.ts';
import type { Services } from '../../services.ts';
import { reportBrokerFailure } from '../connectors/broker-failure.ts';
import { accepted, refusal, unconfirmed } from './answers.ts';
import type { InFlight } from './in-flight.ts';
import { STORED, storedFrom, storedState, transition } from './lifecycle.ts';
import { lookUpAll, lookUpOrder, sharedByTerms } from './order-lookup.ts';
import { type PeriodicPass, startPeriodicPass } from './periodic.ts';

/**
 * `runOnce(staleAfterMs)` overrides the option for that pass (tests). `stop()` waits for the pass
 * running, which ends after the batch in hand: before, a pass still running at shutdown went on
 * using the pool (and the brokers' clients) after they were closed, its claims left half done.
 */
export type Reconciler = PeriodicPass<[staleAfterMs?: number]>;

export interface ReconcilerOptions {
  /** This instance's name on its claims. */
  owner: string;
  inFlight: Pick<InFlight<unknown>, 'ids'>;
  /** A signal younger than this may still have a broker call running somewhere. */
  staleAfterMs: number;
  intervalMs: number;
  /** Once aborted, the pass ends after the batch in hand (its outcomes written). */
  signal?: AbortSignal;
}

const BATCH = 10;
const CONCURRENCY = 5;
/** Longer than a batch's lookups: two rounds of CONCURRENCY, each at most 10 s (order-lookup.ts). */
const LEASE_MS = 30_000;
const MAX_BATCHES = 100;

/** A claimed signal's move (sent | unknown → reconciled | unknown) to write, or a retry later. */
interface Finding {
  write?: SignalOutcome;
  unconfirmed?: Unconfirmed;
  retry?: true;
}

/** sent | unknown → reconciled: the write, fenced by the status it moves from and by the claim. */
function reconciled(
  s: ClaimedSignal,
  owner: string,
  change: Pick<SignalOutcome, 'status' | 'releaseCredit'> & Partial<SignalOutcome>,
): SignalOutcome {
  const from = storedState(s.status);
  transition(from, 'reconcile');
  return {
    id: s.id,
    from: storedFrom(from),
    brokerOrderId: null,
    price: null,
    response: null,
    elapsedMs: null,
    leaseOwner: owner,
    attempt: s.attempts,
    ...change,
  };
}

const titleOf = (services: Services, s: ClaimedSignal) =>
  services.brokers.descriptor(s.provider_name)?.title ?? s.provider_name;

/**
 * What a signal whose order the broker proves it never got changed: nothing, but for a close of
 * the whole position, which at most brokers cancels the symbol's open orders before it sends the
 * closing order (a flat position keeps no exits): those may be gone, and the position is still open.
 */
function notPlaced(stored: unknown): string {
  const { action, quantity, symbol } = (stored ?? {}) as { action?: unknown; quantity?: unknown; symbol?: unknown };
  if (action !== 'close' || (quantity !== undefined && quantity !== null) || typeof symbol !== 'string')
    return 'the order was not found at the broker; nothing was placed';
  return `the closing order was not found at the broker, so it was not placed and the position is still open; open orders of ${symbol} may have been canceled before it (check them at the broker)`;
}

/** What a lookup means for a claimed signal. */
function finding(services: Services, s: ClaimedSignal, owner: string, found: OrderLookupResult): Finding {
  switch (found.match) {
    case 'exact':
    case 'probable': {
      const { order } = found;
      const rejected = order.status === 'rejected';
      const write = reconciled(s, owner, {
        status: order.status,
        brokerOrderId: order.id || null,
        price: typeof order.price === 'number' && Number.isFinite(order.price) ? order.price : null,
        releaseCredit: rejected,
        message:
          rejected || order.status === 'canceled'
            ? `${titleOf(services, s)}: ${order.status_description || `order ${order.status}`}`
            : null,
      });
      return { write };
    }
    case 'none': {
      // Older than any call of any instance can run, and the broker has no such order.
      const message = `${titleOf(services, s)}: ${notPlaced(s.order)}`;
      return { write: reconciled(s, owner, { status: STORED.failed, releaseCredit: true, message }) };
    }
    case 'unknown': {
      // Credit held, never resent: a 'placing' one is lost (→ unknown), an 'unknown' one stays.
      const from = storedState(s.status);
      if (from !== 'unknown') transition(from, 'lose');
      const response = JSON.stringify(unconfirmed(s.id, titleOf(services, s)).body);
      return { unconfirmed: { id: s.id, from: storedFrom(from), leaseOwner: owner, attempt: s.attempts, response } };
    }
  }
}

async function reconcileBatch(services: Services, owner: string, claimed: ClaimedSignal[], retryMs: number) {
  const connectors = new Map<string, ReturnType<typeof findConnectorById>>();
  const connectorOf = (s: ClaimedSignal) => {
    let found = connectors.get(s.connector_id);
    if (!found) {
      found = findConnectorById(services.db, Number(s.connector_id));
      connectors.set(s.connector_id, found);
    }
    return found;
  };
  const results = await lookUpAll(claimed, CONCURRENCY, async (s): Promise<OrderLookupResult> => {
    const connector = await connectorOf(s);
    return connector
      ? await lookUpOrder(services, connector, s)
      : { match: 'unknown', reason: 'the broker connection was deleted' };
  });
  const shared = sharedByTerms(claimed, results);
  const writes: SignalOutcome[] = [];
  const unknown: Unconfirmed[] = [];
  const retries: Array<{ id: string; attempt: number }> = [];
  for (const [i, result] of results.entries()) {
    const s = claimed[i] as ClaimedSignal;
    let f: Finding | undefined;
    let failure: unknown = result.status === 'rejected' ? result.reason : undefined;
    if (result.status === 'fulfilled') {
      const found = shared(i) ?? result.value;
      if (found.match === 'unknown') {
        services.log.warn({ signalId: s.id, reason: found.reason }, 'reconciliation: the broker cannot tell');
      }
      try {
        f = finding(services, s, owner, found);
      } catch (error) {
        failure = error;
      }
    }
    if (!f) {
      reportBrokerFailure(
        services,
        failure,
        s.provider_name,
        { signalId: s.id },
        'reconciliation: order lookup failed, will retry',
      );
      f = { retry: true };
    }
    if (f.write) writes.push(f.write);
    if (f.unconfirmed) unknown.push(f.unconfirmed);
    if (f.retry) retries.push({ id: s.id, attempt: s.attempts });
  }
  const pool = services.db.$client;
  if (writes.length > 0) await recordSignalOutcomes(pool, writes);
  await markSignalsUnconfirmed(pool, unknown);
  await logUnloggedSignals(pool, [
    ...writes.map((w) => ({ id: w.id, response: settledAnswer(w) })),
    ...unknown.map((u) => ({ id: u.id, response: JSON.parse(u.response) as Record<string, unknown> })),
  ]);
  await retryClaimedSignals(pool, owner, retries, retryMs);
  return writes.length + unknown.length;
}

/** The answer a settled signal's entry shows, as the hook would have answered that outcome. */
function settledAnswer(w: SignalOutcome): Record<string, unknown> {
  if (w.status === STORED.rejected || w.status === STORED.failed) {
    return refusal(400, 'ExecutionError', w.message ?? `order ${w.status}`).body;
  }
  const status = w.status as Parameters<typeof accepted>[1]['status'];
  return accepted(w.id, {
    id: w.brokerOrderId ?? '',
    status,
    ...(w.message ? { status_description: w.message } : {}),
    ...(w.price !== null ? { price: w.price } : {}),
  }).body;
}

/** One pass, batch after batch while there are claimable signals: how many it settled. */
export async function reconcileOnce(
  services: Services,
  options: ReconcilerOptions,
  staleAfterMs = options.staleAfterMs,
) {
  let done = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const claimed = await claimUnfinishedSignals(services.db.$client, {
      owner: options.owner,
      leaseMs: LEASE_MS,
      olderThanMs: staleAfterMs,
      skip: options.inFlight.ids(),
      limit: BATCH,
    });
    if (claimed.length > 0) done += await reconcileBatch(services, options.owner, claimed, options.intervalMs / 2);
    if (claimed.length < BATCH || options.signal?.aborted) break;
  }
  await deleteExpiredSignalKeys(services.db.$client, 5_000);
  return done;
}

export function startReconciler(services: Services, options: ReconcilerOptions): Reconciler {
  const periodic = startPeriodicPass<[staleAfterMs?: number]>(services.log, {
    intervalMs: options.intervalMs,
    failure: 'reconciliation pass failed',
    pass: (signal, staleAfterMs = options.staleAfterMs) =>
      reconcileOnce(services, { ...options, signal }, staleAfterMs),
    timerArgs: [],
  });
  void periodic.runOnce();
  return periodic;
}
