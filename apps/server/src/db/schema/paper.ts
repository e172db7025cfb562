import { sql } from 'drizzle-orm';
import {
  bigint,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// The paper broker's state (packages/brokers PaperStore), so simulated accounts, positions and
// resting orders survive restarts. The simulator's data is kept as it is (JSON); only what
// the store looks up by is a column. A placement reads its symbol's row and the open orders a
// price range reached (the reach indexes), never every resting order.

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
    /** PaperOrder.symbol (a multi-leg order's first leg). Null only on rows older than the column. */
    symbol: text('symbol'),
    /** Open orders execute when the lowest price reaches down to reach_low, or the highest up to reach_high (matching.ts reachLevels). */
    reachLow: doublePrecision('reach_low'),
    reachHigh: doublePrecision('reach_high'),
    /** Day orders: PaperOrder.expiresAt (ms). */
    expiresAt: bigint('expires_at', { mode: 'number' }),
    /** Filled orders: PaperOrder.filledAt (ms), for the account's recent fills. */
    filledAt: bigint('filled_at', { mode: 'number' }),
    data: jsonb('data').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.id] }),
    uniqueIndex('paper_orders_client_idx').on(t.accountId, t.clientOrderId).where(sql`${t.clientOrderId} is not null`),
    index('paper_orders_open_idx').on(t.accountId, t.symbol, t.createdAt).where(sql`${t.status} = 'open'`),
    index('paper_orders_reach_low_idx').on(t.accountId, t.symbol, t.reachLow).where(sql`${t.status} = 'open'`),
    index('paper_orders_reach_high_idx').on(t.accountId, t.symbol, t.reachHigh).where(sql`${t.status} = 'open'`),
    index('paper_orders_fills_idx').on(t.accountId, t.filledAt).where(sql`${t.status} = 'filled'`),
  ],
);

/** Per account and symbol with resting orders: `data` is the PaperSymbolState; `open` its count of open orders. */
export const paperSymbols = pgTable(
  'paper_symbols',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => paperAccounts.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    open: integer('open').notNull(),
    data: jsonb('data').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.symbol] }),
    index('paper_symbols_active_idx').on(t.accountId).where(sql`${t.open} > 0`),
  ],
);
