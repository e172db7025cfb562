// Reconciliation's SQL: unfinished signals claimed with a lease (pg-boss's pattern: the rows are
// picked FOR UPDATE SKIP LOCKED inside one short UPDATE, and the lease columns are the claim, so
// no lock outlives the statement), retries, moved accounts' signals, and the expired idempotency keys.
import { and, eq, inArray } from 'drizzle-orm';
import { signals } from '../schema/index.ts';
import type { Executor } from './executor.ts';
import { activityChangedSql } from './live.repository.ts';
import { notificationEventCtes } from './notification-outbox.repository.ts';
import { signalEventSource } from './signal-events.sql.ts';
import type { Queryable } from './signals.repository.ts';

export interface ClaimedSignal {
  id: string;
  connector_id: string;
  provider_name: string;
  account_id: string;
  status: string;
  broker_order_id: string | null;
  /** The normalized order as stored (JSON). */
  order: unknown;
  /** When it was stored, just before the broker call (ms since epoch). */
  stored_at: number;
  /** This claim's number: the fence its outcome is written with. */
  attempts: number;
}

export interface ClaimOptions {
  owner: string;
  leaseMs: number;
  /** Only signals older than this (no broker call of any instance can still be running). */
  olderThanMs: number;
  /** In flight here: never claimed. */
  skip: readonly string[];
  limit: number;
}

/**
 * Claims up to `limit` signals still 'placing' or 'unknown' (younger than a week, not given up
 * on: an 'unknown' its broker cannot tell about has completed_at set), not leased or
 * whose lease ran out, for `owner` until `leaseMs` from now. Rows another instance is claiming at
 * this moment are skipped; a row claimed and committed meanwhile no longer matches.
 */
export async function claimUnfinishedSignals(db: Queryable, o: ClaimOptions): Promise<ClaimedSignal[]> {
  const { rows } = await db.query<ClaimedSignal>({
    name: 'signals_claim_unfinished',
    // 'received' is never stored; it stays in the list to match the partial index signals_unfinished_idx.
    text: `update signals s set lease_owner = $1, lease_until = now() + $2 * interval '1 millisecond',
        attempts = s.attempts + 1
      where s.id in (
        select id from signals
        where status in ('received', 'placing', 'unknown') and completed_at is null
          and created_at < now() - $3 * interval '1 millisecond'
          and created_at > now() - interval '7 days'
          and (lease_until is null or lease_until < now())
          and id <> all($4::text[])
        order by created_at limit $5
        for update skip locked)
      returning s.id, s.connector_id, s.provider_name, s.account_id, s.status, s.broker_order_id, s."order",
        (extract(epoch from s.created_at) * 1000)::float8 as stored_at, s.attempts`,
    values: [o.owner, o.leaseMs, o.olderThanMs, o.skip, o.limit],
  });
  return rows;
}

/**
 * What other signals on a signal's broker account tell about its lookup: its user's, and those of
 * every user whose connection holds that account too (the broker lists their orders to it as well).
 * Only the broker lookup and the count below read them; nothing of them reaches this user.
 */
export interface OtherSignals {
  /** The broker's order ids they stored: orders known to be theirs (an answer naming several, '1,2', gives each). */
  orderIds: string[];
  /**
   * How many are still unresolved ('placing' or 'unknown', no order id of theirs) and alike (same
   * symbol and side, and the same quantity, or none, where both give a fixed one): an order found by terms
   * may be one of theirs, so it cannot be given to this signal.
   */
  alikeUnresolved: number;
}

/** The other signals stored between `from` and `to` (ms since epoch): see OtherSignals. */
export async function otherSignals(db: Queryable, signalId: string, from: number, to: number): Promise<OtherSignals> {
  const { rows } = await db.query<{ broker_order_id: string | null; alike: boolean }>({
    name: 'signals_other_signals',
    text: `select o.broker_order_id,
        o.broker_order_id is null and o."order"->'symbol' = s."order"->'symbol'
          and o."order"->'action' = s."order"->'action'
          and (o."order"->'quantity' is not distinct from s."order"->'quantity'
            or coalesce(o."order"->>'quantity_type', '') <> 'fixed'
            or coalesce(s."order"->>'quantity_type', '') <> 'fixed') as alike
      from signals s
      join signals o on o.user_id = some (array(select s.user_id union select c.user_id from connectors c
          where c.provider_name = s.provider_name
            and exists (select 1 from jsonb_array_elements(c.accounts) a where a->>'id' = s.account_id)))
        and o.created_at between to_timestamp($2::float8 / 1000) and to_timestamp($3::float8 / 1000)
        and o.provider_name = s.provider_name and o.account_id = s.account_id and o.id <> s.id
        and (o.broker_order_id is not null or o.status in ('placing', 'unknown'))
      where s.id = $1`,
    values: [signalId, from, to],
  });
  return {
    orderIds: rows.flatMap((row) => row.broker_order_id?.split(',').filter(Boolean) ?? []),
    alikeUnresolved: rows.filter((row) => row.alike).length,
  };
}

/** Hands claimed signals back for a later pass, in `afterMs` (the look-up failed or could not tell). */
export async function retryClaimedSignals(
  db: Queryable,
  owner: string,
  claims: ReadonlyArray<{ id: string; attempt: number }>,
  afterMs: number,
): Promise<void> {
  if (claims.length === 0) return;
  await db.query({
    name: 'signals_claim_retry',
    text: `update signals s set lease_until = now() + $3 * interval '1 millisecond'
      from unnest($2::text[], $4::int[]) as c(id, attempt)
      where s.id = c.id and s.lease_owner = $1 and s.attempts = c.attempt`,
    values: [owner, claims.map((c) => c.id), afterMs, claims.map((c) => c.attempt)],
  });
}

export interface Unconfirmed {
  id: string;
  /** The status it must still have, and the claim it must still belong to. */
  from: string;
  leaseOwner: string;
  attempt: number;
  /** JSON text of the answer telling the user to check the broker account. */
  response: string;
}

/**
 * The broker cannot tell whether the order exists: the signals stay 'unknown' with their credit
 * held, their answer tells the user to check the broker account, and they are not asked about again.
 * Their settings are told so (order.placed with status 'unknown' and that message): nothing else
 * will ever be, and the order may be live at the broker.
 */
export async function markSignalsUnconfirmed(db: Queryable, signals: readonly Unconfirmed[]): Promise<void> {
  if (signals.length === 0) return;
  await db.query({
    name: 'signals_unconfirmed',
    text: `with updated as (
        update signals s set status = 'unknown', response = i.response::jsonb, completed_at = now()
        from json_to_recordset($1::json) as i(id text, "from" text, "leaseOwner" text, attempt int, response text)
        where s.id = i.id and s.status = i."from" and s.lease_owner = i."leaseOwner" and s.attempts = i.attempt
        returning s.id, s.user_id, s.hook_id, s.connector_id, s.account_id, s.provider_name, s.is_test, s.status,
          s."order", s.broker_order_id, s.price, s.response->>'status_description' as message,
          array['order.placed'] as types
      ), told as (${activityChangedSql('updated')}),
      order_events as (${signalEventSource('updated')}),
      ${notificationEventCtes('order_events')}
      select (select count(*) from told)`,
    values: [JSON.stringify(signals)],
  });
}

/**
 * The signals of accounts a reconnect moved from connection `fromId` to `toId` (their orders,
 * resting or finished), moved with them: the orders still unfinished or resting are looked up
 * through the connection that serves the account now (reconciliation, the fill follower), their
 * events reach the account's settings, which moved too, and the account's order list (REST API)
 * keeps its history. Read by the user's index (signals_user_stats_idx).
 */
export async function moveAccountSignals(
  db: Executor,
  userId: number,
  fromId: number,
  toId: number,
  accountIds: readonly string[],
): Promise<void> {
  if (accountIds.length === 0) return;
  await db
    .update(signals)
    .set({ connectorId: toId })
    .where(
      and(eq(signals.userId, userId), eq(signals.connectorId, fromId), inArray(signals.accountId, [...accountIds])),
    );
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
