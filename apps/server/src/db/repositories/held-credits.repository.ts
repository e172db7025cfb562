// One-time credits held by live signals (credit_held, status placing or unknown) that a pack's
// reversal takes back when too few are left in the account (credits.ts reverseCredits): each such
// signal gets a 0-credit 'reversal' row referenced by the signal's claim slot (a claim), so that
// its order failing gives back its period credit only (the hook's refund statement and credits.ts
// refundCredits withhold the rest, by the signal row's mark). A 'restore' row of the same reference (the
// refund failed later: credits.ts restoreReversal) ends the claim, and gives back what was
// withheld when the order had failed meanwhile. A reference is booked once per cause, so a
// signal's claims take turns on slots: its id, then `<id>:2`, `<id>:3`… each opened by the
// restore of the one before (claimSlotSql), and a later refund claims it again. The signal's row
// carries the claim (credit_claimed: markClaimed, unmarkClaimed, in the claim's own transaction), which
// is what is read: the hook's outcome statement may have started before that transaction committed.
import { sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';

/** The note of a claim row of the reversal `reference`: how restoreReversal finds its claims. */
export const claimNote = (reference: string) => `credit held by this signal taken back by ${reference}`;

/**
 * SQL: the signal `id`'s (an SQL expression) claim slot now: the first of its id, `<id>:2`,
 * `<id>:3`… without a 'restore' row (signal ids have no ':'). Lookups of credit_ledger_reference_idx,
 * one per claim ended (none for almost every signal).
 */
const claimSlotSql = (id: string) =>
  `(with recursive c(ref, n) as (
      select ${id}::text, 1
      union all
      select ${id}::text || ':' || (c.n + 1), c.n + 1 from c
      where exists (select 1 from credit_ledger g where g.cause = 'restore' and g.reference = c.ref)
    ) select ref from c order by n desc limit 1)`;

/**
 * A live signal that may hold a credit a reversal needs is locked by a statement writing its
 * outcome, which waits for the account the reversal holds: the reversal's transaction must end
 * (and be run again, the outcome written by then) rather than skip it or wait (a deadlock).
 */
export class HeldSignalBusy extends Error {
  constructor() {
    super("a live signal's outcome is being written; the reversal is run again");
  }
}

// Only a signal whose outcome may still give its credit back: one on its way to the broker or
// whose outcome is unknown (lifecycle.ts). A placed one keeps credit_held and spent its credit for
// good: claiming it took nothing back (and its claim left a failing one unclaimed).
const HELD_SQL = (userId: number) => sql`
    select s.id, ${sql.raw(claimSlotSql('s.id'))} as ref
    from signals s join credit_ledger l on l.cause = 'signal' and l.reference = s.id
    where s.user_id = ${userId} and s.credit_held and not s.is_test and s.status in ('placing', 'unknown')
      and l.credits < l.recurring
      and not s.credit_claimed
    order by s.created_at, s.id`;

/**
 * Up to `limit` live signals of the locked account's user holding a one-time credit no reversal
 * claims now, oldest first, locked, each with its claim slot (the reference of its claim row).
 * One whose outcome is being written now (its row locked by the hook's statement, which waits for
 * the account) is not waited for (a deadlock), nor skipped (its order failing would give the
 * credit back unclaimed): HeldSignalBusy is thrown when fewer than `limit` were found without it.
 */
export async function heldOneTimeSignals(
  db: Executor,
  userId: number,
  limit: number,
): Promise<{ id: string; ref: string }[]> {
  if (limit <= 0) return [];
  const { rows } = await db.execute<{ id: string; ref: string }>(
    sql`${HELD_SQL(userId)} limit ${limit} for update of s skip locked`,
  );
  if (rows.length < limit) {
    const locked = new Set(rows.map((r) => r.id));
    const all = await db.execute<{ id: string }>(sql`${HELD_SQL(userId)} limit ${limit}`);
    if (all.rows.some((r) => !locked.has(r.id))) throw new HeldSignalBusy();
  }
  return rows;
}

/**
 * Marks the claimed signals `ids` (locked by heldOneTimeSignals) on their rows (signals.credit_claimed):
 * an outcome statement waiting for such a row reads the mark as the commit left it, where it reads
 * the ledger as of its own start (READ COMMITTED), so it withholds the credit claimed.
 */
export async function markClaimed(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`update signals set credit_claimed = true where id = any(${sql.param(ids)}::text[])`);
}

/**
 * Clears the claim marks of the signals of the claim slots `refs` whose claims end: each row is
 * locked first, none waited for (an outcome statement writing one waits for the account the caller
 * holds: a deadlock). One being written now must not be passed by either (its outcome would read
 * the claim open and withhold the credit): HeldSignalBusy, the transaction is run again.
 */
export async function unmarkClaimed(db: Executor, refs: string[]): Promise<void> {
  if (refs.length === 0) return;
  const { rows } = await db.execute<{ marked: number; existing: number }>(sql`
    with ids as (select distinct split_part(ref, ':', 1) as id from unnest(${sql.param(refs)}::text[]) as r(ref)),
    locked as (select s.id from signals s join ids on ids.id = s.id for update of s skip locked),
    marked as (update signals s set credit_claimed = false from locked l where s.id = l.id returning s.id)
    select (select count(*) from marked)::int as marked,
      (select count(*) from signals s join ids on ids.id = s.id)::int as existing`);
  if ((rows[0]?.marked ?? 0) < (rows[0]?.existing ?? 0)) throw new HeldSignalBusy();
}

/**
 * The claims of the reversal `reference` not ended (`id`: the claim slot), each with the one-time
 * credit withheld from its signal's refund (0 while the order has not failed, or when it was placed).
 */
export async function claimsOf(
  db: Executor,
  userId: number,
  reference: string,
): Promise<{ id: string; withheld: number }[]> {
  const { rows } = await db.execute<{ id: string; withheld: number }>(sql`
    select k.reference as id, case when exists (select 1 from credit_ledger f where f.cause = 'refund'
      and f.reference = l.reference) then greatest(l.recurring - l.credits, 0) else 0 end as withheld
    from credit_ledger k join credit_ledger l on l.cause = 'signal'
      and l.reference = split_part(k.reference, ':', 1)
    where k.user_id = ${userId} and k.cause = 'reversal' and k.note = ${claimNote(reference)}
      and not exists (select 1 from credit_ledger g where g.cause = 'restore' and g.reference = k.reference)
    order by k.id`);
  return rows;
}

/** Whether the signal's one-time credit is claimed by a reversal not given back (its row's mark). */
export async function isClaimed(db: Executor, id: string): Promise<boolean> {
  const { rows } = await db.execute<{ claimed: boolean }>(
    sql`select credit_claimed as claimed from signals where id = ${id}`,
  );
  return rows[0]?.claimed === true;
}
