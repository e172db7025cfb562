// The activity log's retention: entries older than ACTIVITY_RETENTION_DAYS go. The table is
// partitioned by month (UTC), so a pass creates the coming months, drops whole months past the
// cutoff, and deletes what is left before it (the month it falls in) in batches. Runs at start
// and every hour, one instance at a time (an advisory lock), never on the hook's path.
import {
  createActionMonth,
  deleteActionsBefore,
  dropActionMonthsBefore,
  withRetentionLock,
} from '../../db/repositories/action-retention.repository.ts';
import type { Services } from '../../services.ts';

const DAY_MS = 86_400_000;
/** Months created ahead of the current one. */
const MONTHS_AHEAD = 2;
const BATCH = 5_000;
const INTERVAL_MS = 3_600_000;

export interface RetentionPass {
  monthsCreated: number;
  monthsDropped: number;
  rowsDeleted: number;
}

/** The first instant of the UTC month `offset` months after the one holding `at`. */
function monthStart(at: Date, offset: number): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/** One pass; null when another instance is running one. */
export async function runRetention(
  services: Pick<Services, 'db' | 'config'>,
  now = new Date(),
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
      const deleted = await deleteActionsBefore(client, cutoff, BATCH);
      rowsDeleted += deleted;
      if (deleted < BATCH) break;
    }
    return { monthsCreated, monthsDropped, rowsDeleted };
  });
}

/** Runs a pass now and every hour; the returned function stops it (after a running pass). */
export function startActivityRetention(services: Pick<Services, 'db' | 'config' | 'log'>): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const pass = () => {
    running = runRetention(services).then(
      (result) => {
        if (result && (result.monthsDropped || result.rowsDeleted)) services.log.info(result, 'activity retention');
      },
      (error: unknown) => services.log.error({ err: error }, 'activity retention pass failed'),
    );
  };
  pass();
  const timer = setInterval(pass, INTERVAL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    return running;
  };
}
