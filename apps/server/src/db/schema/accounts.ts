import { bigint, integer, jsonb, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** SPEC §3 Account type: BASE 1, RECURRING 3. */
export const ACCOUNT_TYPE = { BASE: 1, RECURRING: 3 } as const;
export const DEFAULT_CREDITS = 5;

/** SPEC §3 Account: one per user; `balance` is the signals left (credits). */
export const accounts = pgTable('accounts', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  userId: bigint('user_id', { mode: 'number' })
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  type: integer('type').notNull().default(ACCOUNT_TYPE.BASE),
  balance: integer('balance').notNull().default(DEFAULT_CREDITS),
  /** One-off credits granted so far (sign-up, rewards, purchases). */
  credits: integer('credits').notNull().default(DEFAULT_CREDITS),
  recurringCredits: integer('recurring_credits').notNull().default(0),
  recurringPeriodCredits: integer('recurring_period_credits').notNull().default(0),
  recurringPeriodEnd: timestamp('recurring_period_end', { withTimezone: true }),
  /** SPEC §3: creditsTotal, recurring.cancelAt, payments[]; sign-up codes until billing uses them. */
  metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
