// The activity log's months (partitions of `actions`, migration 0006) and its retention.
import type pg from 'pg';
import { trySessionLock } from './session-lock.ts';
import type { Queryable } from './signals.repository.ts';

/** Arbitrary, fixed: one retention pass at a time across instances (a session advisory lock). */
const RETENTION_LOCK = 7_301_365;

/** Runs `work` on one connection holding the retention lock; null when another instance holds it. */
export function withRetentionLock<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T | null> {
  return trySessionLock(pool, [RETENTION_LOCK], work);
}

/** Creates the month (UTC) holding `at` unless it exists (moving its rows out of actions_default). */
export async function createActionMonth(db: Queryable, at: Date): Promise<boolean> {
  const { rows } = await db.query<{ created: boolean }>('select actions_create_month($1) as created', [at]);
  return rows[0]?.created ?? false;
}

/** Drops whole months that end at or before `cutoff`. */
export async function dropActionMonthsBefore(db: Queryable, cutoff: Date): Promise<number> {
  const { rows } = await db.query<{ dropped: number }>('select actions_drop_months_before($1) as dropped', [cutoff]);
  return rows[0]?.dropped ?? 0;
}

/** Deletes at most `limit` entries older than `cutoff` (the month the cutoff falls in, the default). */
export async function deleteActionsBefore(db: Queryable, cutoff: Date, limit: number): Promise<number> {
  const result = await db.query(
    `delete from actions where (id, created_at) in (
       select id, created_at from actions where created_at < $1 limit $2)`,
    [cutoff, limit],
  );
  return result.rowCount ?? 0;
}
