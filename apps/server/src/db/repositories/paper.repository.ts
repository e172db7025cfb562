// The paper broker's accounts and orders: reads for a store transaction, and the writes of a
// batch of them in two statements. Callers hold the account's transaction-level advisory lock
// (the account row may not exist yet when `connect` creates it, so a row lock would not do).
import type { PaperAccount, PaperChanges, PaperOrder, PaperSource } from '@router/brokers';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { paperAccounts, paperOrders } from '../schema/index.ts';
import type { Transaction } from './executor.ts';

/** Namespace of the advisory locks (first key of the two-key form): 'PAPR'. */
const LOCK_CLASS = 0x50415052;

/** Runs `fn` in a database transaction holding the account's advisory lock. */
export function paperTransaction<T>(db: Database, accountId: string, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, hashtext(${accountId}))`);
    return fn(tx);
  });
}

/** The account's state as the database holds it. */
export function paperSource(tx: Transaction, accountId: string): PaperSource {
  const ofAccount = eq(paperOrders.accountId, accountId);
  return {
    async getAccount() {
      const [row] = await tx
        .select({ data: paperAccounts.data })
        .from(paperAccounts)
        .where(eq(paperAccounts.id, accountId));
      return row ? (row.data as PaperAccount) : null;
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
  };
}

/** Upserts the account (first: orders reference it), then all orders in one statement. */
/** The account's orders carrying any of these client order ids. */
export async function findOrdersByClientIds(
  tx: Transaction,
  accountId: string,
  clientOrderIds: string[],
): Promise<PaperOrder[]> {
  const rows = await tx
    .select({ data: paperOrders.data })
    .from(paperOrders)
    .where(and(eq(paperOrders.accountId, accountId), inArray(paperOrders.clientOrderId, clientOrderIds)));
  return rows.map((row) => row.data as PaperOrder);
}

export async function savePaperChanges(tx: Transaction, accountId: string, changes: PaperChanges): Promise<void> {
  const { account, orders } = changes;
  if (account) {
    await tx
      .insert(paperAccounts)
      .values({ id: accountId, data: account })
      .onConflictDoUpdate({ target: paperAccounts.id, set: { data: account, updatedAt: sql`now()` } });
  }
  if (orders.length === 0) return;
  // The orders as one JSON array, in order of first write: one parameter however many there
  // are. A client order id used twice fails on paper_orders_client_idx.
  await tx.execute(sql`
    insert into ${paperOrders} (account_id, id, client_order_id, status, created_at, data)
    select ${accountId}, o->>'id', o->>'clientOrderId', o->>'status', (o->>'createdAt')::bigint, o
    from jsonb_array_elements(${JSON.stringify(orders)}::jsonb) with ordinality as x(o, n)
    order by n
    on conflict (account_id, id) do update set
      client_order_id = excluded.client_order_id, status = excluded.status,
      created_at = excluded.created_at, data = excluded.data`);
}
