// Reconciliation's SQL: unfinished signals claimed with FOR UPDATE SKIP LOCKED (so several
// instances never work on the same one), their connector, and the expired idempotency keys.
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { connectors } from '../schema/index.ts';
import type { Executor } from './executor.ts';
import type { Queryable } from './signals.repository.ts';

export interface UnfinishedSignal {
  id: string;
  user_id: string;
  connector_id: string;
  account_id: string;
  provider_name: string;
  status: string;
  /** What the lookup takes: the broker's id if an answer gave one, the order sent and when. */
  broker_order_id: string | null;
  order: unknown;
  created_at: Date;
}

/**
 * Signals still 'placing' or 'unknown', older than `olderThanMs` (no broker call of any
 * instance can still be running for them), younger than a week, not among `skip` (in flight
 * here), not given up on (an 'unknown' the broker cannot settle has completed_at set);
 * locked until the caller's transaction ends.
 */
export async function lockUnfinishedSignals(
  client: pg.PoolClient,
  olderThanMs: number,
  skip: readonly string[],
  limit: number,
): Promise<UnfinishedSignal[]> {
  const { rows } = await client.query<UnfinishedSignal>({
    name: 'signals_unfinished_lock',
    text: `select id, user_id, connector_id, account_id, provider_name, status, broker_order_id, "order", created_at
      from signals
      where status in ('received', 'placing', 'unknown') and completed_at is null
        and created_at < now() - $1 * interval '1 millisecond'
        and created_at > now() - interval '7 days'
        and id <> all($2::text[])
      order by created_at limit $3
      for update skip locked`,
    values: [olderThanMs, skip, limit],
  });
  return rows;
}

/**
 * The broker cannot tell whether the order exists: the signal stays 'unknown' with its credit
 * held, `response` tells the user to check the broker account, and reconciliation stops asking.
 */
export async function markSignalUnconfirmed(client: Queryable, id: string, response: string): Promise<void> {
  await client.query({
    name: 'signals_unconfirmed',
    text: `update signals set status = 'unknown', response = $2::jsonb, completed_at = now()
      where id = $1 and status in ('received', 'placing', 'unknown')`,
    values: [id, response],
  });
}

export async function findConnectorById(db: Executor, id: number) {
  const [row] = await db.select().from(connectors).where(eq(connectors.id, id)).limit(1);
  return row;
}

/** Idempotency keys past their window; deleted in slices to keep each statement short. */
export async function deleteExpiredSignalKeys(db: Queryable, limit: number): Promise<number> {
  const result = await db.query({
    name: 'signal_keys_expire',
    text: `delete from signal_keys where ctid = any(array(
        select ctid from signal_keys where expires_at < now() limit $1))`,
    values: [limit],
  });
  return result.rowCount ?? 0;
}
