// Referral campaigns (referrers), who signed up through them (referral_signups), and their figures.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { referralSignups, referrers } from '../schema/index.ts';
import { type Executor, isUniqueViolation } from './executor.ts';

export type ReferrerRow = typeof referrers.$inferSelect;

export interface NewReferrer {
  code: string;
  name: string | null;
  providerName: string | null;
  credits: number;
  createdBy: number;
}

/** Null when the code is taken. */
export async function insertReferrer(db: Executor, referrer: NewReferrer): Promise<ReferrerRow | null> {
  try {
    // A savepoint: a taken code must not abort the caller's transaction.
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(referrers).values(referrer).returning();
      return row ?? null;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Deleted campaigns too (their links say so). `code` is lower case. */
export async function findReferrerByCode(db: Executor, code: string): Promise<ReferrerRow | undefined> {
  const [row] = await db.select().from(referrers).where(eq(referrers.code, code)).limit(1);
  return row;
}

/** False when it was deleted already. */
export async function markReferrerDeleted(db: Executor, id: number): Promise<boolean> {
  const rows = await db
    .update(referrers)
    .set({ deletedAt: new Date() })
    .where(and(eq(referrers.id, id), isNull(referrers.deletedAt)))
    .returning({ id: referrers.id });
  return rows.length === 1;
}

export async function recordReferralSignup(db: Executor, userId: number, referrerId: number): Promise<void> {
  await db.insert(referralSignups).values({ userId, referrerId }).onConflictDoNothing();
}

/** The campaign the user signed up through, if any. */
export async function findReferrerOfUser(db: Executor, userId: number): Promise<ReferrerRow | undefined> {
  const [row] = await db
    .select({ referrer: referrers })
    .from(referralSignups)
    .innerJoin(referrers, eq(referrers.id, referralSignups.referrerId))
    .where(eq(referralSignups.userId, userId))
    .limit(1);
  return row?.referrer;
}

export interface ReferrerStatsRow {
  name: string | null;
  code: string;
  providerName: string | null;
  deletedAt: string | null;
  signups: number;
  confirmedSignups: number;
  /**
   * Signed-up users who paid something: a pack, a plan period or professional status (every Stripe
   * payment is a row of `payments`; professional status alone grants no credits), and kept it: a
   * payment given back in full (refunds, a lost dispute: `refunded`) does not count.
   */
  payingUsers: number;
  /** Live signals (test hooks excluded) of the signed-up users. */
  signalsSent: number;
  /** The 'referral' grants the signed-up users received. */
  creditsGranted: number;
}

/** One row per campaign (deleted ones included), oldest first. */
export async function referrerStats(db: Executor): Promise<ReferrerStatsRow[]> {
  const { rows } = await db.execute<ReferrerStatsRow & Record<string, unknown>>(sql`
    select r.name, r.code, r.provider_name as "providerName",
      to_char(r.deleted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "deletedAt",
      count(s.user_id)::int as signups,
      count(u.email_confirmed_at)::int as "confirmedSignups",
      (count(s.user_id) filter (where exists (
        select 1 from payments p where p.user_id = s.user_id and p.price > p.refunded
      )))::int as "payingUsers",
      coalesce(sum((select count(*) from signals g where g.user_id = s.user_id and not g.is_test)), 0)::int
        as "signalsSent",
      coalesce(sum((select sum(l.credits) from credit_ledger l where l.user_id = s.user_id and l.cause = 'referral')), 0)::int
        as "creditsGranted"
    from referrers r
    left join referral_signups s on s.referrer_id = r.id
    left join users u on u.id = s.user_id
    group by r.id
    order by r.created_at, r.id`);
  return rows;
}
