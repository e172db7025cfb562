import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The identity operations' rate limits, shared by every instance on the database: one counter
 * per (hashed key and window, window number). Unlogged (see its migration): after a database crash
 * the counters start again at zero, which a rate limit can afford, and they cost no WAL.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    /** SHA-256 of the limited key (an address, an email) and the window length: no personal data. */
    key: text('key').notNull(),
    /** Window number: floor(epoch ms / window ms). */
    bucket: bigint('bucket', { mode: 'number' }).notNull(),
    hits: integer('hits').notNull(),
    /** When the row can no longer count (the end of the next window): removed by the sweep. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.bucket] }), index('rate_limits_expires_at_idx').on(t.expiresAt)],
);
