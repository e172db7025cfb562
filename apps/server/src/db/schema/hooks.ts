import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { connectors } from './connectors.ts';
import { users } from './users.ts';

/** A webhook (SPEC §3 Hook): `{PUBLIC_URL}/hook/{shortKey}` places orders on one broker account. */
export const hooks = pgTable(
  'hooks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull().unique(),
    /** 22 base62 characters: the hook's only secret, never logged. */
    shortKey: text('short_key').notNull().unique(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectorId: bigint('connector_id', { mode: 'number' })
      .notNull()
      .references(() => connectors.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    isTest: boolean('is_test').notNull().default(false),
    /**
     * The REST API's way into the signal path for one account (`POST /api/v1/accounts/{id}/orders`):
     * made on the first API order, never listed, and its short key (`api_…`) is no hook URL.
     */
    isApi: boolean('is_api').notNull().default(false),
    deactivatedReason: text('deactivated_reason'),
    /** Invalid requests in the current hour window; the hook is deactivated past the threshold. */
    invalidCount: integer('invalid_count').notNull().default(0),
    invalidWindowStart: timestamp('invalid_window_start', { withTimezone: true }),
    calledAt: timestamp('called_at', { withTimezone: true }),
    /** Risk controls (docs/RISK-CONTROLS.md), validated whole by hookUpdate; null when none. */
    rules: jsonb('rules'),
    /** Set by the kill switch (hooksPause): signals are refused with this reason until hooksResume. */
    pausedReason: text('paused_reason'),
    /** The pause is an administrator's of everyone: only their resume of everyone lifts it, never the owner's. */
    pausedByAdmin: boolean('paused_by_admin').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('hooks_user_idx').on(t.userId),
    index('hooks_connector_idx').on(t.connectorId),
    uniqueIndex('hooks_api_account_idx').on(t.connectorId, t.accountId).where(sql`${t.isApi}`),
  ],
);

/**
 * Signals of a hook that passed every rule, for maxOrdersPerMinute / maxOrdersPerDay: one row per
 * hook, taken under its row lock by one statement, so two server instances count together.
 * `recent` holds the last minute's instants (at most maxOrdersPerMinute of them).
 */
export const hookOrderCounts = pgTable(
  'hook_order_counts',
  {
    hookId: bigint('hook_id', { mode: 'number' })
      .notNull()
      .references(() => hooks.id, { onDelete: 'cascade' }),
    recent: timestamp('recent', { withTimezone: true }).array().notNull().default([]),
    /** The day `dayCount` counts: from the rules' dayStartsAt in their dayTimeZone (midnight UTC without them). */
    day: date('day', { mode: 'string' }).notNull(),
    dayCount: integer('day_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.hookId] })],
);

/**
 * Kill switches in force (hooksPause until hooksResume): a row per user who paused their own
 * webhooks, and one with no user for an administrator's pause of everyone. Kept apart from the
 * hooks, so a webhook made while a pause is in force is born paused even when its user had no
 * webhook (or none left) when the pause began.
 */
export const hookPauses = pgTable(
  'hook_pauses',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Null: an administrator's pause of everyone. */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // One per user, and one of everyone.
  (t) => [uniqueIndex('hook_pauses_scope_idx').on(sql`coalesce(${t.userId}, 0)`)],
);
