// After a crash, a timeout or a dropped connection, a signal may be left 'placing' (sent, maybe)
// or 'unknown'. Reconciliation looks its order up at the broker and records what it finds; it
// never sends the order again. Like pg-boss's jobs, signals are claimed with a lease in one short
// statement (FOR UPDATE SKIP LOCKED inside it, so two instances never claim one signal), looked up
// outside any transaction, and their outcomes written fenced by the claim (owner and attempt): a
// claim that outlived its lease loses to the one that took over.
import {
  type ClaimedSignal,
  claimUnfinishedSignals,
  deleteExpiredSignalKeys,
  findConnectorById,
  retryClaimedSignals,
} from '../../db/repositories/signal-reconcile.repository.ts';
import { recordSignalOutcomes, type SignalOutcome } from '../../db/repositories/signals.repository.ts';
import type { Services } from '../../services.ts';
import type { InFlight } from './in-flight.ts';
import { type SignalEvent, STORED, storedFrom, storedState, transition } from './lifecycle.ts';
import { lookUpAll, lookUpOrder, type OrderLookup } from './order-lookup.ts';

export interface Reconciler {
  /** `staleAfterMs` overrides the option for this pass (tests). */
  runOnce(staleAfterMs?: number): Promise<number>;
  stop(): void;
}

export interface ReconcilerOptions {
  /** This instance's name on its claims. */
  owner: string;
  inFlight: Pick<InFlight<unknown>, 'ids'>;
  /** A signal younger than this may still have a broker call running somewhere. */
  staleAfterMs: number;
  intervalMs: number;
}

const BATCH = 10;
const CONCURRENCY = 5;
/** Longer than a batch's lookups: two rounds of CONCURRENCY, each at most 10 s (order-lookup.ts). */
const LEASE_MS = 30_000;
/** A broker that cannot tell is asked again after this. */
const CANNOT_TELL_RETRY_MS = 5 * 60_000;
const MAX_BATCHES = 100;

/** A claimed signal's move (sent | unknown → reconciled | unknown) to write, and/or a later retry. */
interface Finding {
  write?: SignalOutcome;
  retryAfterMs?: number;
}

function move(s: ClaimedSignal, owner: string, event: SignalEvent, change: Partial<SignalOutcome>): SignalOutcome {
  const from = storedState(s.status);
  transition(from, event);
  const write: SignalOutcome = {
    id: s.id,
    from: storedFrom(from),
    status: STORED.unknown,
    brokerOrderId: null,
    price: null,
    response: null,
    elapsedMs: null,
    releaseCredit: false,
    leaseOwner: owner,
    attempt: s.attempts,
    ...change,
  };
  return write;
}

/** What a lookup means for a claimed signal. */
function finding(s: ClaimedSignal, owner: string, found: OrderLookup): Finding {
  switch (found.match) {
    case 'exact':
    case 'probable': {
      const { order } = found;
      const write = move(s, owner, 'reconcile', {
        status: order.status,
        brokerOrderId: order.id || null,
        price: typeof order.price === 'number' && Number.isFinite(order.price) ? order.price : null,
        releaseCredit: order.status === 'rejected',
      });
      return { write };
    }
    case 'none':
      // Older than any call of any instance can run, and the broker has no such order.
      return { write: move(s, owner, 'reconcile', { status: STORED.failed, releaseCredit: true }) };
    case 'unknown':
      // Credit held, never resent: a 'placing' one becomes 'unknown'; both are asked again later.
      return s.status === STORED.placing
        ? { write: move(s, owner, 'lose', {}), retryAfterMs: CANNOT_TELL_RETRY_MS }
        : { retryAfterMs: CANNOT_TELL_RETRY_MS };
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
  const results = await lookUpAll(claimed, CONCURRENCY, async (s) => {
    const connector = await connectorOf(s);
    const found: OrderLookup = connector
      ? await lookUpOrder(services, connector, s)
      : { match: 'unknown', reason: 'the broker connection was deleted' };
    if (found.match === 'unknown') {
      services.log.warn({ signalId: s.id, reason: found.reason }, 'reconciliation: the broker cannot tell');
    }
    return finding(s, owner, found);
  });
  const writes: SignalOutcome[] = [];
  const retries = new Map<number, Array<{ id: string; attempt: number }>>();
  for (const [i, result] of results.entries()) {
    const s = claimed[i] as ClaimedSignal;
    let f: Finding;
    if (result.status === 'fulfilled') f = result.value;
    else {
      services.log.warn({ err: result.reason, signalId: s.id }, 'reconciliation: order lookup failed, will retry');
      f = { retryAfterMs: retryMs };
    }
    if (f.write) writes.push(f.write);
    if (f.retryAfterMs !== undefined) {
      retries.set(f.retryAfterMs, [...(retries.get(f.retryAfterMs) ?? []), { id: s.id, attempt: s.attempts }]);
    }
  }
  const pool = services.db.$client;
  if (writes.length > 0) await recordSignalOutcomes(pool, writes);
  for (const [afterMs, claims] of retries) await retryClaimedSignals(pool, owner, claims, afterMs);
  return writes.filter((w) => w.status !== STORED.unknown).length;
}

/** One pass, batch after batch while there are claimable signals: how many got a final status. */
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
    if (claimed.length < BATCH) break;
  }
  await deleteExpiredSignalKeys(services.db.$client, 5_000);
  return done;
}

export function startReconciler(services: Services, options: ReconcilerOptions): Reconciler {
  let running: Promise<number> | undefined;
  const runOnce = (staleAfterMs = options.staleAfterMs) =>
    (running ??= reconcileOnce(services, options, staleAfterMs)
      .catch((error: unknown) => {
        services.log.error({ err: error }, 'reconciliation pass failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      }));
  void runOnce();
  const timer = setInterval(() => void runOnce(), options.intervalMs);
  timer.unref();
  return { runOnce, stop: () => clearInterval(timer) };
}
