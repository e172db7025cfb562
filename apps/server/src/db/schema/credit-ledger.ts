import { CREDIT_CAUSES } from '@router/shared';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Every change of a user's signal credits, one row each: append-only (triggers of migration 0005
 * refuse UPDATE, DELETE and TRUNCATE; rows go only with their user), so an account's balance is
 * the sum of its rows' `credits`. No foreign key: a live signal writes a row on the hook path
 * (see signals.ts); deleting a user deletes its rows (trigger credit_ledger_user_deleted).
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    /**
     * When the row was written: clock_timestamp(), taken while the account row is locked, so a
     * user's rows are in the order of their changes (now() is the transaction's start).
     */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    /** The signed change of the balance. */
    credits: integer('credits').notNull(),
    /** The part of `credits` that changed recurringCredits (the rest changed credits). */
    recurring: integer('recurring').notNull().default(0),
    cause: text('cause').notNull(),
    /**
     * What caused it: the signal id, a Stripe invoice or session id, an admin action… Unique per
     * cause when given, so the same grant or refund is never recorded twice.
     */
    reference: text('reference'),
    /**
     * What an operator should know about the change beyond its cause: a reversal that found
     * fewer credits left than it was due says so here.
     */
    note: text('note'),
    /** The balance after this change. */
    balanceAfter: integer('balance_after').notNull(),
  },
  (t) => [
    index('credit_ledger_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc()),
    // The last grant (low-credit banner) without reading the user's spends.
    index('credit_ledger_grants_idx')
      .on(t.userId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.credits} > 0 and ${t.cause} not in ('refund', 'adjustment')`),
    uniqueIndex('credit_ledger_reference_idx').on(t.cause, t.reference).where(sql`${t.reference} is not null`),
    check('credit_ledger_cause_check', sql.raw(`cause in (${CREDIT_CAUSES.map((c) => `'${c}'`).join(', ')})`)),
    check(
      'credit_ledger_recurring_check',
      sql`abs(${t.recurring}) <= abs(${t.credits}) and sign(${t.recurring}) * sign(${t.credits}) >= 0`,
    ),
  ],
);
