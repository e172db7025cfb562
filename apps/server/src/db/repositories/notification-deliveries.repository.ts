// The delivery queue and log (notification_deliveries). A worker claims due rows by locking them
// (FOR UPDATE SKIP LOCKED) in a transaction that stays open while it sends them and records the
// results: other instances pass them by, and a worker that dies lets them go with its
// connection, due again at once. No claim is written, so a delivery costs one update (its
// result) instead of two, and no lease has to run out before a crashed claim is retried.
import { NOTIFICATION_TYPE } from '@router/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor, Transaction } from './executor.ts';
import { NO_LONGER_WANTED, settingWantsSql } from './notifications.repository.ts';

/**
 * A FROM item making the worker's round commit asynchronously (`synchronous_commit = off` for its
 * transaction, set before the commit reads it): recording results never waits for a WAL flush.
 * Losing such a write in a crash only sends a delivery again (same webhook-id), which
 * at-least-once allows; events and deliveries themselves are written by the emitters' durable
 * commits.
 */
const ASYNC_COMMIT = sql.raw(`(select set_config('synchronous_commit', 'off', true)) as async_commit`);

export interface ClaimedDelivery {
  id: number;
  attempts: number;
  createdAt: Date;
  /** When it was due: later than `createdAt` for a delivery never tried that waited for a digest. */
  dueAt: Date;
  eventId: string;
  eventType: string;
  eventAt: Date;
  data: Record<string, unknown>;
  notificationId: number;
  notificationKey: string;
  userId: number;
  connectorId: number;
  accountId: string;
  channel: number;
  metadata: { email?: string; url?: string };
  secret: Buffer | null;
  secretKeyId: string | null;
  secretRotatedAt: Date | null;
  /** The setting's endpoint has failed since then (null: its last attempt succeeded). */
  failingSince: Date | null;
  /**
   * False for a disabled setting (its webhook failed for 3 days), whose deliveries are due only
   * through a re-send: one attempt, never the retry schedule.
   */
  isEnabled: boolean;
}

/** Whether the setting `n` still asks for the delivery `d`'s event. */
const WANTED = sql.raw(settingWantsSql('n', 'd.type'));

// (No SQL comment here: pg_stat_activity keeps a statement's first 1 KB, which the crash drills
// search.)
const CLAIMED = sql`
  select d.id::float8 as id, d.attempts, d.created_at as "createdAt", d.next_attempt_at as "dueAt",
    e.id as "eventId", e.type as "eventType", e.created_at as "eventAt", e.data,
    n.id::int as "notificationId", n.key as "notificationKey", n.user_id::int as "userId",
    n.connector_id::int as "connectorId", n.account_id as "accountId", n.type as channel, n.metadata,
    n.secret, n.secret_key_id as "secretKeyId", n.secret_rotated_at as "secretRotatedAt",
    n.failing_since as "failingSince", n.is_enabled as "isEnabled"
  from notification_deliveries d
  join notification_events e on e.id = d.event_id
  join notifications n on n.id = d.notification_id
  cross join ${ASYNC_COMMIT}`;

/**
 * Gives up, of `claimed`, an event's delivery never tried nor touched by the user (no attempt, no
 * error: not a retry, not a re-send) whose setting no longer asks for its event; returns their ids.
 * Its event's statement read the setting's old events list (its snapshot taken before a save that
 * unticked the event committed) and wrote it after that save had given up the waiting ones
 * (dropUnwantedDeliveries). Only rows whose setting lists events without theirs are asked about.
 */
async function giveUpUnwanted(tx: Transaction, claimed: readonly ClaimedDelivery[]): Promise<Set<number>> {
  const maybe = claimed.filter((d) => {
    const events = (d.metadata as { events?: unknown }).events;
    return d.attempts === 0 && Array.isArray(events) && !events.includes(d.eventType);
  });
  if (maybe.length === 0) return new Set();
  const { rows } = await tx.execute<{ id: number }>(sql`update notification_deliveries d
    set status = 'failed', next_attempt_at = null, error = ${NO_LONGER_WANTED}
    from notifications n
    where d.id = any(${sql.param(maybe.map((m) => m.id))}::bigint[]) and n.id = d.notification_id
      and d.attempts = 0 and d.error is null and not ${WANTED}
    returning d.id::float8 as id`);
  return new Set(rows.map((row) => row.id));
}

/** Claims by `query` (a CLAIMED select), less the deliveries giveUpUnwanted gives up. */
async function claim(tx: Transaction, query: SQL): Promise<ClaimedDelivery[]> {
  const { rows } = await tx.execute<ClaimedDelivery & Record<string, unknown>>(query);
  const claimed = rows.map((row) => ({
    ...row,
    createdAt: new Date(row.createdAt),
    dueAt: new Date(row.dueAt),
    eventAt: new Date(row.eventAt),
    secretRotatedAt: row.secretRotatedAt ? new Date(row.secretRotatedAt) : null,
    failingSince: row.failingSince ? new Date(row.failingSince) : null,
  }));
  const given = await giveUpUnwanted(tx, claimed);
  return given.size === 0 ? claimed : claimed.filter((d) => !given.has(d.id));
}

/**
 * Locks up to `limit` due deliveries, oldest due first, in `tx`, which must stay open until their
 * results are recorded (recordDeliveryResults) in it.
 *
 * Walks the due index in order and stops at `limit`. Expecting few due rows, the planner would
 * rather read them all through a bitmap and sort: that reads every entry the delivered rows left in
 * the index until vacuum (a flood's worth, each round). An ordered index scan passes them once
 * and marks them dead for the next rounds (notification-deliveries.repository.test.ts).
 */
export async function claimDueDeliveries(
  tx: Transaction,
  limit: number,
  /** Settings to pass by (their deliveries being sent by another round of this worker). */
  passing: readonly number[] = [],
  /** Only the deliveries of this channel's settings (HOOK or EMAIL). */
  channel?: number,
  /** Only those of settings whose endpoint is failing now (true) or is not (false). */
  failing?: boolean,
): Promise<ClaimedDelivery[]> {
  await tx.execute(sql`set local enable_bitmapscan = off`);
  const passed = passing.length > 0 ? sql`and d.notification_id <> all(${`{${passing.join(',')}}`}::bigint[])` : sql``;
  const only = channel === undefined ? sql`` : sql`and n.type = ${channel}`;
  const health =
    failing === undefined ? sql`` : failing ? sql`and n.failing_since is not null` : sql`and n.failing_since is null`;
  return claim(
    tx,
    sql`${CLAIMED}
    where d.status = 'pending' and d.next_attempt_at <= now() ${passed} ${only} ${health}
    order by d.next_attempt_at, d.id
    limit ${limit}
    for update of d skip locked`,
  );
}

/**
 * One user's email address (lower case) and event type: a digest's scope. The settings of that
 * user sending to that address (one per connector account) share it, so a flood through several
 * of them reaches the inbox as one flood: the first mails, then one digest a minute.
 */
export interface DigestGroup {
  userId: number;
  email: string;
  type: string;
}

/** The ids of the email settings a digest group spans: the user's settings mailing that address. */
const groupSettings = (group: DigestGroup) =>
  sql`select n.id from notifications n where n.user_id = ${group.userId}
    and n.type = ${NOTIFICATION_TYPE.EMAIL} and lower(n.metadata->>'email') = ${group.email}`;

/**
 * Holds the digests of these groups until `tx` ends (transaction-level advisory locks, taken in
 * one order so two rounds cannot wait on each other): a round of another instance (or lane)
 * holding part of the same flood waits, then finds the digest sent and its share waiting for the
 * next one, instead of both deciding on a digest and each mailing its part of the flood.
 */
export async function lockDigestGroups(tx: Transaction, groups: readonly DigestGroup[]): Promise<void> {
  if (groups.length === 0) return;
  const keys = groups.map((g) => JSON.stringify(['notification-digest', g.userId, g.email, g.type]));
  await tx.execute(sql`
    select pg_advisory_xact_lock(l.id) from (
      select distinct hashtextextended(k, 0) as id from json_array_elements_text(${JSON.stringify(keys)}::json) k
      order by 1
    ) l`);
}

/**
 * Locks, as claimDueDeliveries, the other waiting deliveries of one digest group (due or not),
 * oldest first: a digest takes the whole flood, not only the round's share.
 */
export function claimWaitingDeliveries(
  tx: Transaction,
  group: DigestGroup & { claimed: readonly number[] },
  limit: number,
): Promise<ClaimedDelivery[]> {
  return claim(
    tx,
    sql`${CLAIMED}
    where d.notification_id in (${groupSettings(group)})
      and d.status = 'pending' and d.type = ${group.type}
      and d.id <> all(${`{${group.claimed.join(',')}}`}::bigint[])
    order by d.created_at, d.id
    limit ${limit}
    for update of d skip locked`,
  );
}

export interface DeliveryResult {
  id: number;
  ok: boolean;
  responseCode: number | null;
  error: string | null;
  /** When to try again after a failure; null gives up ('failed'). */
  retryInMs: number | null;
  inDigest: boolean;
  /**
   * A failure of this server's or the setting's own setup (a signing secret it cannot open:
   * another SECRETS_KEY; a setting without one), the receiver never called: it says nothing of
   * the endpoint's health.
   */
  ownSetup?: boolean;
}

/** Ends the error of a failed attempt not tried again because the setting no longer asks for its event. */
export const NOT_RETRIED_UNWANTED = 'not tried again: the setting no longer asks for this event';

/**
 * Records attempts of deliveries claimed in the same transaction; returns the ids written. A
 * failed one whose setting no longer asks for its event (its `events` changed while it was being
 * sent: dropUnwantedDeliveries passed it by) is given up instead of tried again.
 */
export async function recordDeliveryResults(db: Executor, results: readonly DeliveryResult[]): Promise<number[]> {
  if (results.length === 0) return [];
  const { rows } = await db.execute<{ id: number }>(sql`
    update notification_deliveries d set
      status = case when r.ok then 'delivered' when r.retry_in_ms is null or not ${WANTED} then 'failed'
        else 'pending' end,
      attempts = d.attempts + 1,
      -- The wait runs from now, when the attempt ended, not from the round's start (now()): a
      -- receiver answering at the 10 s timeout was tried again at once instead of 5 s later.
      next_attempt_at = case when r.ok or r.retry_in_ms is null or not ${WANTED} then null
        else clock_timestamp() + r.retry_in_ms * interval '1 millisecond' end,
      response_code = r.response_code,
      error = case when r.ok or r.retry_in_ms is null or ${WANTED} then r.error
        else concat_ws('; ', r.error, ${NOT_RETRIED_UNWANTED}::text) end,
      in_digest = r.in_digest,
      last_attempt_at = now()
    from json_to_recordset(${JSON.stringify(
      results.map((r) => ({
        id: r.id,
        ok: r.ok,
        response_code: r.responseCode,
        error: r.error,
        retry_in_ms: r.retryInMs,
        in_digest: r.inDigest,
      })),
    )}::json) as r(id bigint, ok boolean, response_code int, error text, retry_in_ms bigint, in_digest boolean),
      notifications n, ${ASYNC_COMMIT}
    where d.id = r.id and n.id = d.notification_id
    returning d.id::float8 as id`);
  return rows.map((row) => row.id);
}

/**
 * An email digest collecting until `until`: puts the claimed deliveries of the group back to wait
 * until then, and records it for each setting of the group (notification_digests), so deliveries
 * of that kind written meanwhile are due then too instead of each being claimed and put back.
 */
export async function collectDigest(
  tx: Transaction,
  group: DigestGroup,
  claims: readonly { id: number }[],
  until: Date,
) {
  const at = until.toISOString();
  await tx.execute(sql`
    with collecting as (
      insert into notification_digests (notification_id, type, collecting_until)
      select s.id, ${group.type}, ${at}::timestamptz from (${groupSettings(group)}) s
      on conflict (notification_id, type) do update set collecting_until = excluded.collecting_until
    )
    update notification_deliveries d set next_attempt_at = ${at}::timestamptz
    from json_to_recordset(${JSON.stringify(claims.map((c) => ({ id: c.id })))}::json) as c(id bigint)
    where d.id = c.id`);
}

export interface DigestState extends DigestGroup {
  /** Deliveries of this group created within the window (counted up to a cap). */
  arrived: number;
  /** Of those, the ones written before the group's oldest (`before`; all of them without it). */
  earlier: number;
  /** Its deliveries waiting (due or collecting for a digest), this round's included (up to a cap). */
  waiting: number;
  lastDigestAt: Date | null;
  oldestPendingAt: Date | null;
  now: Date;
}

/**
 * What the digest rule needs per digest group, summed over its settings. Each figure is read per
 * setting through an index and stops early (arrivals are counted up to `countUpTo`, enough for
 * the rule), so a setting's long history or a flood's backlog does not make every round slower.
 */
export async function digestStates(
  db: Executor,
  /** `before`: the id of the group's oldest delivery, which `earlier` counts up to. */
  groups: readonly (DigestGroup & { before?: number })[],
  windowMs: number,
  countUpTo: number,
): Promise<DigestState[]> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    select g.user_id::int as "userId", g.email, g.type, now() as now,
      least(sum(f.arrived), ${countUpTo})::int as arrived, least(sum(f.earlier), ${countUpTo})::int as earlier,
      least(sum(f.waiting), ${countUpTo})::int as waiting,
      max(f.last_digest_at) as "lastDigestAt", min(f.oldest_pending_at) as "oldestPendingAt"
    from json_to_recordset(${JSON.stringify(
      groups.map((g) => ({
        user_id: g.userId,
        email: g.email,
        type: g.type,
        before_id: g.before ?? null,
      })),
    )}::json)
      as g(user_id bigint, email text, type text, before_id bigint)
    cross join lateral (select coalesce((select d.created_at from notification_deliveries d where d.id = g.before_id),
      'infinity') as created_at) b
    join notifications s on s.user_id = g.user_id and s.type = ${NOTIFICATION_TYPE.EMAIL}
      and lower(s.metadata->>'email') = g.email
    cross join lateral (select
      (select count(*) from (select 1 from notification_deliveries d
        where d.notification_id = s.id and d.type = g.type
          and d.created_at > now() - ${windowMs} * interval '1 millisecond'
        order by d.created_at desc nulls last limit ${countUpTo}) arrivals) as arrived,
      (select count(*) from (select 1 from notification_deliveries d
        where d.notification_id = s.id and d.type = g.type
          and d.created_at > now() - ${windowMs} * interval '1 millisecond'
          and (d.created_at, d.id) < (b.created_at, g.before_id)
        order by d.created_at desc nulls last limit ${countUpTo}) earlier) as earlier,
      (select count(*) from (select 1 from notification_deliveries d
        where d.notification_id = s.id and d.type = g.type and d.status = 'pending'
        limit ${countUpTo}) waiting) as waiting,
      (select d.last_attempt_at from notification_deliveries d
        where d.notification_id = s.id and d.type = g.type and d.in_digest and d.status = 'delivered'
        order by d.last_attempt_at desc nulls last limit 1) as last_digest_at,
      (select d.created_at from notification_deliveries d
        where d.notification_id = s.id and d.type = g.type and d.status = 'pending'
        order by d.created_at limit 1) as oldest_pending_at) f
    group by g.user_id, g.email, g.type`);
  const date = (value: unknown) => (value ? new Date(value as string) : null);
  return rows.map((row) => ({
    userId: Number(row.userId),
    email: String(row.email),
    type: String(row.type),
    arrived: Number(row.arrived),
    earlier: Number(row.earlier),
    waiting: Number(row.waiting),
    lastDigestAt: date(row.lastDigestAt),
    oldestPendingAt: date(row.oldestPendingAt),
    now: new Date(row.now as string),
  }));
}

/**
 * Webhook outcomes per setting: a success ends a failure streak, a failure starts one. A failure
 * more than `breakAfterMs` after the streak's last one starts a new streak: an endpoint that
 * failed once and then had nothing to deliver for days was not seen failing meanwhile (it may
 * have been fixed the next day). Settings failing for longer than `disableAfterMs` are disabled
 * (their waiting deliveries given up); returns the ids disabled now.
 */
export async function recordEndpointHealth(
  db: Executor,
  outcomes: readonly { notificationId: number; ok: boolean }[],
  disableAfterMs: number,
  reason: string,
  breakAfterMs: number,
): Promise<number[]> {
  if (outcomes.length === 0) return [];
  const { rows } = await db.execute<{ id: number }>(sql`
    with outcome as (
      select notification_id, bool_or(ok) as ok
      from json_to_recordset(${JSON.stringify(outcomes.map((o) => ({ notification_id: o.notificationId, ok: o.ok })))}::json)
        as o(notification_id bigint, ok boolean)
      group by notification_id
    ), judged as (
      -- The streak a failure continues: none when its last failure was too long ago. A first
      -- failure has no streak yet (failing_since null): not disabled (false, never null, which
      -- would fail the update below and lose every setting's health of the round).
      select n.id, o.ok, s.failing_since, coalesce(not o.ok and n.is_enabled
        and s.failing_since <= now() - ${disableAfterMs} * interval '1 millisecond', false) as disable
      from outcome o join notifications n on n.id = o.notification_id
      cross join lateral (select case when n.last_failed_at > now() - ${breakAfterMs} * interval '1 millisecond'
        then n.failing_since end as failing_since) s
    ), updated as (
      update notifications n set
        failing_since = case when j.ok then null else coalesce(j.failing_since, now()) end,
        last_failed_at = case when j.ok then null else now() end,
        is_enabled = n.is_enabled and not j.disable,
        disabled_at = case when j.disable then now() else n.disabled_at end,
        disabled_reason = case when j.disable then ${reason} else n.disabled_reason end
      from judged j where n.id = j.id
      returning n.id, j.disable
    ), given_up as (
      update notification_deliveries d set status = 'failed', next_attempt_at = null, error = ${reason}
      from updated u where u.disable and d.notification_id = u.id and d.status = 'pending'
    )
    select id::int as id from updated where disable`);
  return rows.map((row) => row.id);
}

export interface DeliveryLogRow {
  id: number;
  notificationKey: string;
  channel: number;
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
  responseCode: number | null;
  error: string | null;
  inDigest: boolean;
  createdAt: Date;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
}

const LOG_COLUMNS = sql`d.id::float8 as id, n.key as "notificationKey", n.type as channel, e.id as "eventId",
  e.type as "eventType", d.status, d.attempts, d.response_code as "responseCode", d.error, d.in_digest as "inDigest",
  d.created_at as "createdAt", d.last_attempt_at as "lastAttemptAt", d.next_attempt_at as "nextAttemptAt"`;

function toLogRow(row: Record<string, unknown>): DeliveryLogRow {
  const date = (value: unknown) => (value ? new Date(value as string) : null);
  return {
    ...(row as unknown as DeliveryLogRow),
    createdAt: new Date(row.createdAt as string),
    lastAttemptAt: date(row.lastAttemptAt),
    nextAttemptAt: date(row.nextAttemptAt),
  };
}

/** The newest deliveries of one connector account's settings. */
export async function listDeliveries(
  db: Executor,
  scope: { userId: number; connectorId: number; accountId: string },
  limit: number,
): Promise<DeliveryLogRow[]> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    select ${LOG_COLUMNS}
    from notifications n
    cross join lateral (
      select * from notification_deliveries d where d.notification_id = n.id
      order by d.created_at desc nulls last, d.id desc limit ${limit}
    ) d
    join notification_events e on e.id = d.event_id
    where n.user_id = ${scope.userId} and n.connector_id = ${scope.connectorId} and n.account_id = ${scope.accountId}
    order by d.created_at desc nulls last, d.id desc
    limit ${limit}`);
  return rows.map(toLogRow);
}

export async function findDelivery(db: Executor, userId: number, id: number): Promise<DeliveryLogRow | undefined> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    select ${LOG_COLUMNS}
    from notification_deliveries d
    join notifications n on n.id = d.notification_id
    join notification_events e on e.id = d.event_id
    where d.id = ${id} and n.user_id = ${userId}`);
  return rows[0] ? toLogRow(rows[0]) : undefined;
}

/**
 * Makes one of the user's deliveries due now (same event, same webhook-id), queued anew: the
 * log, newest first, shows it on top (before, it kept the place of its first queueing, past the
 * last 50 for an older one, so the re-send the user asked for could not be seen). One being
 * sent at this moment (locked by a worker's round) is left alone. False when not found.
 */
export async function resendDelivery(db: Executor, userId: number, id: number): Promise<boolean> {
  const { rows } = await db.execute<{ id: number }>(sql`
    update notification_deliveries d
    set status = 'pending', next_attempt_at = now(), in_digest = false, created_at = now()
    from notifications n
    where d.id = (select id from notification_deliveries where id = ${id} for update skip locked)
      and n.id = d.notification_id and n.user_id = ${userId}
    returning d.id::float8 as id`);
  if (rows.length > 0) return true;
  return (await findDelivery(db, userId, id)) !== undefined;
}
