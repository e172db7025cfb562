import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * SPEC §3 Action: the activity log ('Last actions'). Partitioned by month of created_at
 * (migration 0006; drizzle-kit does not express partitioning): the retention job drops whole
 * months and creates the coming ones (modules/actions/retention.ts). Hence the primary key holds
 * created_at, and the id comes from a sequence (identity columns need PostgreSQL 17 there).
 */
export const actions = pgTable(
  'actions',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
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
    primaryKey({ name: 'actions_pkey', columns: [t.id, t.createdAt] }),
    index('actions_user_created_idx').on(t.userId, sql`${t.createdAt} desc`),
    // `actions(code: ...)`, e.g. the dashboard's ConnectorActivate look-up among many Order rows.
    index('actions_user_code_created_idx').on(t.userId, t.code, t.createdAt),
    // Refused hook calls (no signal row): the chart's refused series and a webhook's error rate.
    // The predicate is REFUSED of stats.repository.ts.
    index('actions_user_refused_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.code} = 'Order' and not (${t.metadata} ? 'signalId')`),
    // The entries of one signal (a notification's link, `actions(signalId:)`): its own call and
    // its repeats, wherever they are in the history. Its predicate is repeated in the signalId
    // condition of action-query.repository.ts, so the planner can use it.
    index('actions_signal_idx').on(sql`(${t.metadata} ->> 'signalId')`).where(sql`${t.metadata} ? 'signalId'`),
  ],
);
