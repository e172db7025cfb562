// The REST API's reads of signals as orders (GET /api/v1/…/orders), always scoped to the caller:
// a signal of another user is never found. Pages are keyed by (created_at, id), newest first.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { connectors, signals } from '../schema/index.ts';
import type { Executor } from './executor.ts';

const orderView = {
  id: signals.id,
  connectorId: signals.connectorId,
  /** Null once the connection is deleted (signals keep no foreign key). */
  connectorKey: connectors.key,
  accountId: signals.accountId,
  providerName: signals.providerName,
  isTest: signals.isTest,
  status: signals.status,
  order: signals.order,
  response: signals.response,
  brokerOrderId: signals.brokerOrderId,
  price: signals.price,
  createdAt: signals.createdAt,
};
export type OrderRow = Awaited<ReturnType<typeof findUserSignal>> & {};

export async function findUserSignal(db: Executor, userId: number, id: string) {
  const [row] = await db
    .select(orderView)
    .from(signals)
    .leftJoin(connectors, eq(connectors.id, signals.connectorId))
    .where(and(eq(signals.userId, userId), eq(signals.id, id)))
    .limit(1);
  return row;
}

export interface AccountOrdersQuery {
  userId: number;
  connectorId: number;
  accountId: string;
  limit: number;
  /** The id of the last order of the previous page. */
  after?: string;
}

/** One page (newest first) of an account's orders, one more than `limit` to tell if more follow. */
export async function listAccountSignals(db: Executor, q: AccountOrdersQuery): Promise<Array<OrderRow>> {
  // Compared in the database: created_at has microseconds, a JavaScript Date only milliseconds.
  const after = q.after
    ? sql`(${signals.createdAt}, ${signals.id}) < (select s.created_at, s.id from signals s
        where s.id = ${q.after} and s.user_id = ${q.userId})`
    : undefined;
  return db
    .select(orderView)
    .from(signals)
    .leftJoin(connectors, eq(connectors.id, signals.connectorId))
    .where(
      and(
        eq(signals.userId, q.userId),
        eq(signals.connectorId, q.connectorId),
        eq(signals.accountId, q.accountId),
        after,
      ),
    )
    .orderBy(desc(signals.createdAt), desc(signals.id))
    .limit(q.limit + 1);
}

/** Records a cancellation the broker confirmed, unless another outcome moved the order meanwhile. */
export async function markSignalCanceled(db: Executor, id: string, from: readonly string[]): Promise<boolean> {
  const rows = await db
    .update(signals)
    .set({ status: 'canceled', completedAt: sql`coalesce(${signals.completedAt}, now())` })
    .where(and(eq(signals.id, id), inArray(signals.status, [...from])))
    .returning({ id: signals.id });
  return rows.length > 0;
}
