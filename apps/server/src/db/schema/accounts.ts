import { ACCOUNT_TYPE } from '@router/shared';
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** SPEC §3 Account type (shared with the web app). */
export { ACCOUNT_TYPE };

/**
 * SPEC §3 Account: one per user, its signal credits. Every change of them is a row of
 * credit_ledger (credit-ledger.ts): change them only through modules/accounts/credits.ts or the
 * hook's statements (signals.repository.ts), which write both.
 * The trigger accounts_balance (migration 0005) keeps `balance` = `credits` + `recurringCredits`
 * (checked by accounts_balance_check); a direct SQL write of `balance` alone is taken as a change
 * of one-time credits and recorded in the ledger as an 'adjustment'.
 */
export const accounts = pgTable(
  'accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: integer('type').notNull().default(ACCOUNT_TYPE.BASE),
    /** Signals left: always `credits + recurringCredits`. */
    balance: integer('balance').notNull().default(0),
    /** One-time credits left (sign-up, packs, rewards, referrals); they never expire. */
    credits: integer('credits').notNull().default(0),
    /** The current period's plan credits left; spent before `credits`, reset each period. */
    recurringCredits: integer('recurring_credits').notNull().default(0),
    /** The plan's credits per period. */
    recurringPeriodCredits: integer('recurring_period_credits').notNull().default(0),
    recurringPeriodEnd: timestamp('recurring_period_end', { withTimezone: true }),
    /** Live signals that kept their credit (spent, less refunds): "signals spent in total". */
    signalsSpent: integer('signals_spent').notNull().default(0),
    /** SPEC §3: creditsTotal (credits granted in total), recurring.cancelAt, payments[]; sign-up codes. */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** SPEC §3 Account.product: the plan of the running subscription ({type, name, credits, price, …}). */
    product: jsonb('product').$type<Record<string, unknown>>(),
    /** The Stripe customer of this user, made with the first payment session. */
    stripeCustomerId: text('stripe_customer_id'),
    /** The Stripe subscription whose periods set the plan credits. */
    stripeSubscriptionId: text('stripe_subscription_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('accounts_stripe_customer_idx').on(t.stripeCustomerId),
    check('accounts_balance_check', sql`${t.balance} = ${t.credits} + ${t.recurringCredits}`),
    check(
      'accounts_credits_check',
      sql`${t.credits} >= 0 and ${t.recurringCredits} >= 0 and ${t.recurringPeriodCredits} >= 0`,
    ),
  ],
);
