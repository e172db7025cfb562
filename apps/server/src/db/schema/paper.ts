import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

// The paper broker's state (packages/brokers PaperStore), so simulated accounts, positions and
// resting orders survive restarts. The simulator's data is kept as it is (JSON); only what
// the store looks up by is a column.

/** One simulated cash account; `data` is the whole PaperAccount. */
export const paperAccounts = pgTable('paper_accounts', {
  id: text('id').primaryKey(),
  data: jsonb('data').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Orders of a paper account; `data` is the whole PaperOrder. Ids are unique per account. */
export const paperOrders = pgTable(
  'paper_orders',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => paperAccounts.id, { onDelete: 'cascade' }),
    id: text('id').notNull(),
    /** Our signal id; one order per client order id and account. */
    clientOrderId: text('client_order_id'),
    status: text('status').notNull(),
    /** PaperOrder.createdAt (ms): open orders are evaluated oldest first. */
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    data: jsonb('data').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.id] }),
    uniqueIndex('paper_orders_client_idx').on(t.accountId, t.clientOrderId).where(sql`${t.clientOrderId} is not null`),
    index('paper_orders_open_idx').on(t.accountId, t.createdAt).where(sql`${t.status} = 'open'`),
  ],
);
