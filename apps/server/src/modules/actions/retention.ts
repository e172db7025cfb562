// The activity log's retention: entries older than ACTIVITY_RETENTION_DAYS go. The table is
// partitioned by month (UTC), so a pass creates the coming months, drops whole months past the
// cutoff, and deletes what is left before it (the month it falls in) in batches. Runs at start
// and every hour, one instance at a time (an advisory lock), never on the hook's path; a pass that
// failed (the database down) is tried again a minute later, not an hour. At shutdown the running
// pass ends after the batch in hand.
import {
  createActionMonth,
  deleteActionsBefore,
  dropActionMonthsBefore,
  withRetentionLock,
} from '../../db/repositories/action-retention.repository.ts';
import type { Services } from '../../services.ts';
import { startPeriodicPass } from '../signals/periodic.ts';

const DAY_MS = 86_400_000;
/** Months created ahead of the current one. */
const MONTHS_AHEAD = 2;
const BATCH = 5_000;
const INTERVAL_MS = 3_600_000;
/** After a failed pass. */
const RETRY_MS = 60_000;

export interface RetentionPass {
  monthsCreated: number;
  monthsDropped: number;
  rowsDeleted: number;
}

/** The first instant of the UTC month `offset` months after the one holding `at`. */
function monthStart(at: Date, offset: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/** One pass; null when another instance is running one. Once `stopping` is aborted it ends after the batch in hand. */
export async function runRetention(
  services: Pick<Services, 'db' | 'config'>,
  now = new Date(),
  { batch = BATCH, stopping }: { batch?: number; stopping?: AbortSignal } = {},
): Promise<RetentionPass | null> {
  const cutoff = new Date(now.getTime() - services.config.ACTIVITY_RETENTION_DAYS * DAY_MS);
  return withRetentionLock(services.db.$client, async (client) => {
    let monthsCreated = 0;
    for (let offset = 0; offset <= MONTHS_AHEAD; offset++) {
      if (await createActionMonth(client, monthStart(now, offset))) monthsCreated++;
    }
    const monthsDropped = await dropActionMonthsBefore(client, cutoff);
    let rowsDeleted = 0;
    for (;;) {
      const deleted = await deleteActionsBefore(client, cutoff, batch);
      rowsDeleted += deleted;
      if (deleted < batch || stopping?.aborted) break;
    }
    return { monthsCreated, monthsDropped, rowsDeleted };
  });
}

/**
 * Runs a pass now and every hour (`intervalMs`), a failed one again after `retryMs`; the returned
 * function stops it: the running pass ends after its batch in hand, and is waited for.
 */
export function startActivityRetention(
  services: Pick<Services, 'db' | 'config' | 'log'>,
  { intervalMs = INTERVAL_MS, retryMs = RETRY_MS }: { intervalMs?: number; retryMs?: number } = {},
): () => Promise<void> {
  /** When the last pass that did not fail began (performance.now()). */
  let lastDone: number | undefined;
  const periodic = startPeriodicPass<[]>(services.log, {
    intervalMs: retryMs,
    failure: 'activity retention pass failed',
    async pass(stopping) {
      const startedAt = performance.now();
      if (lastDone !== undefined && startedAt - lastDone < intervalMs) return 0;
      const result = await runRetention(services, new Date(), { stopping });
      lastDone = startedAt;
      if (result && (result.monthsDropped || result.rowsDeleted)) services.log.info(result, 'activity retention');
      return result?.rowsDeleted ?? 0;
    },
    timerArgs: [],
  });
  void periodic.runOnce();
  return periodic.stop;
}
