import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * SPEC §3 UserApp: a professional's developer application, an OAuth client of our provider.
 * `key` is its `client_id`; only the SHA-256 of its client secret is kept.
 */
export const userApps = pgTable(
  'user_apps',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull().unique(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** The one redirect URI, matched exactly by the provider. */
    redirectUrl: text('redirect_url').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_apps_user_idx').on(t.userId)],
);
