import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { hooks } from './hooks.ts';
import { leaseColumns } from './lease-columns.ts';
import { users } from './users.ts';

/**
 * A signal that arrived outside every trading window of a hook set to `outsideWindow: "queue"`
 * (modules/signals/queue.ts): kept here until `release_at`, the window's opening, then placed
 * once through the signal path with `key` as its idempotency key, so a second placement of it is
 * a repeat, never a second order.
 * status: 'queued' → 'placed' | 'refused' (the signal path refused it then) | 'cancelled'.
 * Claimed with a lease (lease_owner, lease_until, attempts) like reconciliation's signals.
 */
export const queuedSignals = pgTable(
  'queued_signals',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Deleted with the hook: a queued signal has nowhere to go without it. */
    hookId: bigint('hook_id', { mode: 'number' })
      .notNull()
      .references(() => hooks.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** The body as received (text: it is sent through the signal path again as received). */
    request: text('request').notNull(),
    /** The order as read on arrival, to show what will be placed. */
    order: jsonb('order').notNull(),
    address: text('address'),
    status: text('status').notNull().default('queued'),
    releaseAt: timestamp('release_at', { withTimezone: true }).notNull(),
    /** The signal path's answer at placement (or why it was cancelled). */
    response: jsonb('response'),
    ...leaseColumns(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('queued_signals_due_idx').on(t.releaseAt).where(sql`${t.status} = 'queued'`),
    index('queued_signals_user_idx').on(t.userId, t.createdAt.desc()),
    // A repeat of a signal while it is queued is answered with the queued one.
    uniqueIndex('queued_signals_waiting_key_idx').on(t.hookId, t.key).where(sql`${t.status} = 'queued'`),
  ],
);
