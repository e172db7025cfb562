// One-time credits held by live signals (credit_held, waiting on the broker) that a pack's
// reversal takes back when too few are left in the account (credits.ts reverseCredits): each such
// signal gets a 0-credit 'reversal' row referenced by the signal's id (a claim), so that its
// order failing gives back its period credit only (the hook's refund statement and credits.ts
// refundCredits withhold the rest: claimedSql). A 'restore' row of the same reference (the
// refund failed later: credits.ts restoreReversal) ends the claim, and gives back what was
// withheld when the order had failed meanwhile.
import { sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';

/** The note of a claim row of the reversal `reference`: how restoreReversal finds its claims. */
export const claimNote = (reference: string) => `credit held by this signal taken back by ${reference}`;

/**
 * SQL: whether the signal `id` (an SQL expression) has its one-time credit claimed by a reversal
 * not given back: two lookups of credit_ledger_reference_idx, cheap enough for the hook's path.
 */
export const claimedSql = (id: string) =>
  `(exists (select 1 from credit_ledger k where k.cause = 'reversal' and k.reference = ${id})
    and not exists (select 1 from credit_ledger g where g.cause = 'restore' and g.reference = ${id}))`;

/**
 * Up to `limit` live signals of the locked account's user holding a one-time credit no reversal
 * claimed yet, oldest first, locked: one whose outcome is being written now (its row locked by the
 * hook's statement, which waits for the account) is skipped, not waited for (no deadlock).
 */
export async function heldOneTimeSignals(db: Executor, userId: number, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const { rows } = await db.execute<{ id: string }>(sql`
    select s.id from signals s join credit_ledger l on l.cause = 'signal' and l.reference = s.id
    where s.user_id = ${userId} and s.credit_held and not s.is_test and l.credits < l.recurring
      and not exists (select 1 from credit_ledger k where k.cause = 'reversal' and k.reference = s.id)
    order by s.created_at, s.id limit ${limit} for update of s skip locked`);
  return rows.map((r) => r.id);
}

/**
 * The claims of the reversal `reference` not ended, each with the one-time credit withheld from
 * its signal's refund (0 while the order has not failed, or when it was placed).
 */
export async function claimsOf(
  db: Executor,
  userId: number,
  reference: string,
): Promise<{ id: string; withheld: number }[]> {
  const { rows } = await db.execute<{ id: string; withheld: number }>(sql`
    select k.reference as id, case when exists (select 1 from credit_ledger f where f.cause = 'refund'
      and f.reference = k.reference) then greatest(l.recurring - l.credits, 0) else 0 end as withheld
    from credit_ledger k join credit_ledger l on l.cause = 'signal' and l.reference = k.reference
    where k.user_id = ${userId} and k.cause = 'reversal' and k.note = ${claimNote(reference)}
      and not exists (select 1 from credit_ledger g where g.cause = 'restore' and g.reference = k.reference)
    order by k.id`);
  return rows;
}

/** Whether the signal's one-time credit is claimed by a reversal not given back (claimedSql). */
export async function isClaimed(db: Executor, id: string): Promise<boolean> {
  const { rows } = await db.execute<{ claimed: boolean }>(
    sql`select ${sql.raw(claimedSql('r.id'))} as claimed from (select ${id}::text as id) r`,
  );
  return rows[0]?.claimed === true;
}
