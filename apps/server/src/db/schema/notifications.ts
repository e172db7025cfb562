import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { connectors } from './connectors.ts';
import { users } from './users.ts';

/** SPEC §3 Notification: type flags HOOK 1, EMAIL 2, PUSH 4, SMS 8; metadata {email} or {url}. */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull().unique(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectorId: bigint('connector_id', { mode: 'number' })
      .notNull()
      .references(() => connectors.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    type: integer('type').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    metadata: jsonb('metadata').$type<{ email?: string; url?: string }>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_connector_idx').on(t.connectorId, t.accountId),
    /** One setting per type and account: creating it again updates it. */
    uniqueIndex('notifications_type_idx').on(t.connectorId, t.accountId, t.type),
  ],
);
