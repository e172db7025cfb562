import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** SPEC §3 Action: the activity log ('Last actions'). */
export const actions = pgTable(
  'actions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    /** The client address the action came from. */
    address: text('address'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('actions_user_created_idx').on(t.userId, sql`${t.createdAt} desc`),
    // `actions(code: ...)`, e.g. the dashboard's ConnectorActivate look-up among many Order rows.
    index('actions_user_code_created_idx').on(t.userId, t.code, t.createdAt),
  ],
);
