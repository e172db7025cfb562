// A webhook's health since a moment (issue #21: calls today, error rate): its stored signals, of
// which those rejected or failed, and its refused calls (Order entries naming no signal).
import { sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';
import { REFUSED_CALL } from './stats.repository.ts';

export interface HookHealthRow {
  /** Stored signals (test drafts included). */
  signals: number;
  /** Stored signals the broker rejected or that failed before reaching it. */
  errors: number;
  /** Calls refused before anything was stored. */
  refused: number;
}

export async function hookHealth(
  db: Executor,
  hook: { userId: number; id: number; shortKey: string },
  since: number,
): Promise<HookHealthRow> {
  const from = sql`to_timestamp(${since}::float8 / 1000)`;
  const { rows } = await db.execute<HookHealthRow & Record<string, unknown>>(sql`
    select
      (select count(*)::int from signals s where s.hook_id = ${hook.id} and s.created_at >= ${from}) as signals,
      (select count(*)::int from signals s where s.hook_id = ${hook.id} and s.created_at >= ${from}
        and s.status in ('rejected', 'failed')) as errors,
      (select count(*)::int from actions a where a.user_id = ${hook.userId} and a.created_at >= ${from} and ${REFUSED_CALL}
        and a.metadata -> 'hook' ->> 'shortKey' = ${hook.shortKey}) as refused`);
  return rows[0] ?? { signals: 0, errors: 0, refused: 0 };
}
