// The REST API's reads of signals as orders (GET /api/v1/…/orders), always scoped to the caller:
// a signal of another user is never found. Pages are keyed by (created_at, id), newest first.
import { and, desc, eq, sql } from 'drizzle-orm';
import { connectors, signals } from '../schema/index.ts';
import type { Executor } from './executor.ts';
import { activityChangedSql } from './live.repository.ts';
import { notificationEventCtes } from './notification-outbox.repository.ts';
import { signalEventSource } from './signal-events.sql.ts';
import type { Queryable } from './signals.repository.ts';

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

/**
 * Records a cancellation the broker confirmed, unless another outcome moved the order meanwhile.
 * An order never told of yet (still 'placing', or 'unknown' and not given up on: no outcome write
 * will come once it reads 'canceled') tells order.placed now, with status 'canceled': the broker
 * had it, as its cancel says. One already told (placed, or unknown and given up on, which told
 * order.placed with status 'unknown') tells nothing more. Open screens are told either way
 * (activityChangedSql): the order's status on the dashboard changed.
 */
export async function markSignalCanceled(db: Queryable, id: string, from: readonly string[]): Promise<boolean> {
  const { rows } = await db.query<{ n: number }>({
    name: 'signals_api_cancel',
    text: `with updated as (
        update signals s set status = 'canceled', completed_at = coalesce(o.completed_at, now())
        from (select id, status, completed_at from signals where id = $1 and status = any($2::text[]) for update) o
        where s.id = o.id
        returning s.id, s.user_id, s.hook_id, s.connector_id, s.account_id, s.provider_name, s.is_test, s.status,
          s."order", s.broker_order_id, s.price, null::text as message,
          case when o.status in ('placing', 'unknown') and o.completed_at is null then array['order.placed']
            else array[]::text[] end as types
      ), told as (${activityChangedSql('updated')}),
      order_events as (${signalEventSource('updated')}),
      ${notificationEventCtes('order_events')}
      select (select count(*)::int from updated) as n, (select count(*) from told) as told`,
    values: [id, [...from]],
  });
  return (rows[0]?.n ?? 0) > 0;
}
