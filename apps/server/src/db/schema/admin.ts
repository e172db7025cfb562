import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * SPEC §3 Referrer link: a referral campaign. Its link is /signup/{code}; a user who signs up
 * through it gets `credits` when the email is confirmed. Deleting sets `deletedAt` (the code stays
 * taken, so an old link says it was deleted, and the campaign keeps its statistics).
 */
export const referrers = pgTable(
  'referrers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Lower case letters and digits. */
    code: text('code').notNull().unique(),
    name: text('name'),
    providerName: text('provider_name'),
    credits: integer('credits').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [check('referrers_credits_check', sql`${t.credits} > 0`)],
);

/** The campaign a user signed up through (one at most); gone with the user. */
export const referralSignups = pgTable(
  'referral_signups',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    referrerId: bigint('referrer_id', { mode: 'number' })
      .notNull()
      .references(() => referrers.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('referral_signups_referrer_idx').on(t.referrerId)],
);

/**
 * What administrators did: their actions and every mutation taken while proxied. Append-only
 * (triggers of migration 0014 refuse UPDATE, DELETE and TRUNCATE); no foreign keys, and the
 * emails are copied, so the record outlives the users it names.
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    adminId: bigint('admin_id', { mode: 'number' }).notNull(),
    adminEmail: text('admin_email').notNull(),
    targetId: bigint('target_id', { mode: 'number' }),
    targetEmail: text('target_email'),
    /** AUDIT_ACTIONS of @router/shared. */
    action: text('action').notNull(),
    /** The values: credits, campaign, the proxied mutation and its arguments (secrets redacted). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('admin_audit_log_created_idx').on(t.createdAt.desc(), t.id.desc())],
);
