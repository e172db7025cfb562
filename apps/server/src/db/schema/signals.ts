import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { leaseColumns } from './lease-columns.ts';

// signals and signal_keys take every signal, so they carry no foreign keys: a foreign key check
// locks the parent row and cost ~80 % of a batched insert (EXPLAIN ANALYZE: 4 ms of 4.4 ms for
// 50 keys). Deletions of users and hooks reach them through triggers instead (migration 0004).
// Their ids are identities, never reused, so a row left pointing at a deleted parent (inserted
// in the same instant as the deletion) matches nothing; expired keys are swept anyway.

/**
 * One signal received on a hook: stored before the broker is called, so that after a crash an
 * unfinished one is reconciled with the broker by client order id (the signal id), never re-sent.
 * status: the stored form of its state (modules/signals/lifecycle.ts, STORED_STATUS): 'placing'
 * (accepted or sent), the broker's order status (placed), 'rejected' | 'failed', 'unknown',
 * 'draft' for test hooks.
 */
export const signals = pgTable(
  'signals',
  {
    /** Also the broker's client order id. */
    id: text('id').primaryKey(),
    /** Deleted with the user (trigger signals_user_deleted; no foreign key, see below). */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    /** Null once the hook is deleted (trigger hooks_deleted): the signal stays, for the activity log and statistics. */
    hookId: bigint('hook_id', { mode: 'number' }),
    connectorId: bigint('connector_id', { mode: 'number' }).notNull(),
    accountId: text('account_id').notNull(),
    providerName: text('provider_name').notNull(),
    isTest: boolean('is_test').notNull().default(false),
    status: text('status').notNull(),
    /** The body as received (parsed JSON, or the raw text when it did not parse). */
    request: jsonb('request'),
    /** The normalized order sent to the broker. */
    order: jsonb('order'),
    /** The answer given to the sender (SPEC §8 body). */
    response: jsonb('response'),
    brokerOrderId: text('broker_order_id'),
    price: doublePrecision('price'),
    /** A signal credit is held while placing, kept on success, released on failure. */
    creditHeld: boolean('credit_held').notNull().default(false),
    /**
     * Its one-time credit is claimed by a pack's refund (held-credits.repository.ts): set and
     * cleared with the claim's ledger rows, on this row, so that the hook's outcome statement,
     * waiting for the row while the refund commits, reads the claim as it stands after the commit.
     */
    creditClaimed: boolean('credit_claimed').notNull().default(false),
    address: text('address'),
    /**
     * Who placed a REST API order (ApiPrincipal.caller: the application's name, or `API token
     * "name"`), told in its notifications; null for a webhook's signal.
     */
    via: text('via'),
    /**
     * When the hook's maxOrdersPer* limits counted it (null: no count taken, or given back): a
     * signal that placed nothing gives back its day's count once, with the write of its outcome.
     */
    dayCountedAt: timestamp('day_counted_at', { withTimezone: true }),
    elapsedMs: integer('elapsed_ms'),
    /** Reconciliation's lease (modules/signals/reconcile.ts), also the fill follower's. */
    ...leaseColumns(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    // (user_id, created_at) lookups use signals_user_stats_idx below: one index less per insert.
    index('signals_hook_created_idx').on(t.hookId, t.createdAt.desc()),
    index('signals_unfinished_idx').on(t.createdAt).where(sql`${t.status} in ('received', 'placing', 'unknown')`),
    // Resting live orders the fill follower polls (modules/signals/follow-fills.ts), by when due.
    index('signals_resting_idx').on(t.leaseUntil).where(sql`${t.status} = 'accepted' and not ${t.isTest}`),
    // Order counters and stats (stats.repository.ts) read only these two, as index-only scans.
    index('signals_user_stats_idx').on(t.userId, t.createdAt, t.hookId, t.isTest, t.providerName),
    index('signals_user_errors_idx')
      .on(t.userId, t.createdAt, t.hookId, t.providerName)
      .where(sql`not ${t.isTest} and ${t.status} in ('rejected', 'failed')`),
    // A live signal on its way to the broker holds a credit. The hook's single store statement
    // relies on it: with no credit to take, this check aborts the whole statement (nothing stored).
    check('signals_live_credit_check', sql`${t.isTest} or ${t.creditHeld} or ${t.status} <> 'placing'`),
  ],
);

/**
 * Idempotency keys per hook: `client_id` when the signal has one, else a hash of the body.
 * A key owns a signal until `expires_at` (the dedupe window); a repeat inside it returns the
 * first signal's answer and places nothing.
 */
export const signalKeys = pgTable(
  'signal_keys',
  {
    /** Deleted with the hook (trigger hooks_deleted). */
    hookId: bigint('hook_id', { mode: 'number' }).notNull(),
    key: text('key').notNull(),
    signalId: text('signal_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.hookId, t.key] }), index('signal_keys_expires_idx').on(t.expiresAt)],
);
