// The paper broker's PaperStore on PostgreSQL: one database transaction per store transaction,
// serialized per account by a transaction-level advisory lock (the account row may not exist
// yet when `connect` creates it, so a row lock would not do).
import type { PaperAccount, PaperOrder, PaperStoreTransaction } from '@router/brokers';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { paperAccounts, paperOrders } from '../schema/index.ts';
import type { Transaction } from './executor.ts';

/** Namespace of the advisory locks (first key of the two-key form): 'PAPR'. */
const LOCK_CLASS = 0x50415052;

function transactionOn(tx: Transaction, accountId: string): PaperStoreTransaction {
  const ofAccount = eq(paperOrders.accountId, accountId);
  return {
    async getAccount() {
      const [row] = await tx
        .select({ data: paperAccounts.data })
        .from(paperAccounts)
        .where(eq(paperAccounts.id, accountId));
      return row ? (row.data as PaperAccount) : null;
    },
    async putAccount(account) {
      if (account.id !== accountId) throw new Error(`account ${account.id} written in a transaction on ${accountId}`);
      await tx
        .insert(paperAccounts)
        .values({ id: accountId, data: account })
        .onConflictDoUpdate({ target: paperAccounts.id, set: { data: account, updatedAt: sql`now()` } });
    },
    async getOrder(orderId) {
      const [row] = await tx
        .select({ data: paperOrders.data })
        .from(paperOrders)
        .where(and(ofAccount, eq(paperOrders.id, orderId)));
      return row ? (row.data as PaperOrder) : null;
    },
    async findOrderByClientId(clientOrderId) {
      const [row] = await tx
        .select({ data: paperOrders.data })
        .from(paperOrders)
        .where(and(ofAccount, eq(paperOrders.clientOrderId, clientOrderId)));
      return row ? (row.data as PaperOrder) : null;
    },
    async listOpenOrders() {
      const rows = await tx
        .select({ data: paperOrders.data })
        .from(paperOrders)
        .where(and(ofAccount, eq(paperOrders.status, 'open')))
        .orderBy(asc(paperOrders.createdAt), asc(paperOrders.id));
      return rows.map((row) => row.data as PaperOrder);
    },
    async putOrder(order) {
      if (order.accountId !== accountId)
        throw new Error(`order of ${order.accountId} written in a transaction on ${accountId}`);
      const columns = {
        clientOrderId: order.clientOrderId ?? null,
        status: order.status,
        createdAt: order.createdAt,
        data: order,
      };
      // A second order with a used client order id fails on paper_orders_client_idx.
      await tx
        .insert(paperOrders)
        .values({ accountId, id: order.id, ...columns })
        .onConflictDoUpdate({ target: [paperOrders.accountId, paperOrders.id], set: columns });
    },
  };
}

/** Runs `work` in a database transaction holding the account's advisory lock. */
export function paperTransaction<T>(
  db: Database,
  accountId: string,
  work: (tx: PaperStoreTransaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${accountId}))`);
    return work(transactionOn(tx, accountId));
  });
}
