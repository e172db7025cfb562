// What GET /metrics reads from the database at scrape time.
import type { Queryable } from './signals.repository.ts';

/** Signals not finished yet: the reconciliation backlog (partial index signals_unfinished_idx). */
export async function countUnfinishedSignals(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>({
    name: 'metrics_signals_unfinished',
    text: `select count(*)::int as n from signals where status in ('received', 'placing', 'unknown')`,
  });
  return rows[0]?.n ?? 0;
}
