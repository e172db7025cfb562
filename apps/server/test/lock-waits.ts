// Statements of the test's database waiting on a lock, for tests that hold a row and need the
// code under test to be waiting on it before they let go. Asked through a pool, one autocommit
// query per look: within a transaction PostgreSQL lists pg_stat_activity's sessions as the
// transaction's first read found them (only their wait states stay live), so a holder asking on
// its own connection never sees a session opened after that.
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

export async function lockWaiters(pool: Queryable): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
  );
  return rows[0]?.n ?? 0;
}

/** Resolves once at least `count` statements wait on a lock; fails, saying how many did, after `timeoutMs`. */
export async function untilLockWaiters(pool: Queryable, count = 1, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const waiting = await lockWaiters(pool);
    if (waiting >= count) return;
    if (Date.now() > until)
      throw new Error(`expected ${count} statement(s) waiting on a lock, saw ${waiting} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
