// The notification outbox: events written in the emitter's own transaction, fanned out at once
// to the enabled settings that want them (one delivery per destination). An event no setting
// wants writes nothing, so emitting costs a settings lookup and no rows for most users.
import { sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';
import type { Queryable } from './signals.repository.ts';

/**
 * CTEs emitting one event per row of `source`, a relation (CTE or table) with the columns
 * `user_id bigint, connector_id bigint, account_id text, type text, data jsonb`; connector_id
 * and account_id may be null (an event of the whole connector, or of the user). Put them after
 * the statement's own CTEs (`with mine as (…), source as (…), ${notificationEventCtes('source')}
 * select …`); `notify_events` and `notify_deliveries` return the ids written.
 *
 * Matching settings: the user's enabled EMAIL and HOOK settings of that connector and account
 * (any account when the event has none, any connector when it has none) whose `events` list
 * is absent or holds the type. One delivery per event and webhook setting (each signed with
 * its setting's own secret, its receiver's to verify, and in its setting's log, though two settings
 * share a URL) and per email address (case-insensitively), due now, or when the digest its
 * setting and kind is collecting for goes. The deliveries are numbered in the order of `source`'s
 * rows (the order the events were emitted: a batch of refusals, a signal's order.placed before
 * its order.filled), which is the order the worker claims, sends and lists them in; they share
 * one `now()`, so without it their order was that of their random event ids. `at`: an SQL
 * expression over the source row `s` for when the event happened (default: the statement's now()).
 */
export function notificationEventCtes(source: string, at = 'now()'): string {
  return `notify_source as materialized (
      select 'msg_' || replace(gen_random_uuid()::text, '-', '') as event_id, row_number() over () as seq,
        s.user_id::bigint as user_id, s.connector_id::bigint as connector_id, s.account_id::text as account_id,
        s.type::text as type, s.data::jsonb as data, ${at} as created_at
      from ${source} s
    ), notify_targets as (
      select distinct on (e.seq, n.type, case when n.type = 2 then lower(n.metadata->>'email') else n.id::text end)
        e.event_id, e.seq, n.id as notification_id, e.type
      from notify_source e
      join notifications n on n.user_id = e.user_id
        and (e.connector_id is null or n.connector_id = e.connector_id)
        and (e.account_id is null or n.account_id = e.account_id)
      where n.is_enabled and n.type in (1, 2)
        and (n.metadata->'events' is null or n.metadata->'events' ? e.type)
      order by e.seq, n.type, case when n.type = 2 then lower(n.metadata->>'email') else n.id::text end, n.id
    ), notify_events as (
      insert into notification_events (id, user_id, connector_id, account_id, type, data, created_at)
      select e.event_id, e.user_id, e.connector_id, e.account_id, e.type, e.data, e.created_at from notify_source e
      where exists (select 1 from notify_targets t where t.event_id = e.event_id)
      returning id
    ), notify_deliveries as (
      -- Due now, or when the digest its kind is collecting for goes (notification_digests).
      insert into notification_deliveries (event_id, notification_id, type, next_attempt_at)
      select t.event_id, t.notification_id, t.type, greatest(now(), (select g.collecting_until
          from notification_digests g where g.notification_id = t.notification_id and g.type = t.type))
      from notify_targets t
      order by t.seq, t.notification_id
      returning id
    )`;
}

/** The columns of emitEvents' JSON input rows (json_to_recordset); created_at may be null (now). */
const SOURCE_COLUMNS =
  'user_id bigint, connector_id bigint, account_id text, type text, data jsonb, created_at timestamptz, quiet boolean';

/**
 * A select of source rows from `param`, a JSON parameter holding events (eventsJson of events.ts).
 * A `quiet` one (a refusal told once a minute per hook, reason and message; each instance keeps
 * that minute in process too) is left out when one instance or another wrote the same within the minute
 * before it (notification_events_connector_idx): a flood over several instances is told as
 * seldom as over one.
 */
export const jsonEventSource = (param: string) =>
  `select * from json_to_recordset(${param}::json) as t(${SOURCE_COLUMNS})
    where t.quiet is not true or not exists (select 1 from notification_events e
      where e.connector_id = t.connector_id and e.type = t.type
        and e.created_at > coalesce(t.created_at, now()) - interval '1 minute'
        and e.data->'hook'->>'key' is not distinct from t.data->'hook'->>'key'
        and e.data->>'reason' is not distinct from t.data->>'reason'
        and e.data->>'message' is not distinct from t.data->>'message')`;

/**
 * notificationEventCtes of a jsonEventSource: each event at its own time when it has one (a
 * refusal queued by the hook's batch writer, written up to a batch, or an outage, later).
 */
export const jsonEventCtes = (source: string) => notificationEventCtes(source, 'coalesce(s.created_at, now())');

const EMIT_TAIL = `${jsonEventCtes('source')}
  select (select count(*) from notify_deliveries)::int as deliveries`;

/** insertEventsOn's statement text, built once (pg compares a named statement's text each call). */
const EMIT_ON_TEXT = `with source as (${jsonEventSource('$1')}), ${EMIT_TAIL}`;

/**
 * Emits the events of `input`, a JSON array of `{user_id, connector_id, account_id, type, data}`
 * that jsonb accepts, in a Drizzle transaction (or on the database); returns the deliveries queued.
 */
export async function insertEvents(db: Executor, input: string): Promise<number> {
  const { rows } = await db.execute<{ deliveries: number }>(
    sql`with source as (select * from json_to_recordset(${input}::json) as t(${sql.raw(SOURCE_COLUMNS)})),
      ${sql.raw(EMIT_TAIL)}`,
  );
  return rows[0]?.deliveries ?? 0;
}

/** The same on a pg pool or client (the hook's batched statements run there). */
export async function insertEventsOn(db: Queryable, input: string): Promise<number> {
  const { rows } = await db.query<{ deliveries: number }>({
    name: 'notification_emit',
    text: EMIT_ON_TEXT,
    values: [input],
  });
  return rows[0]?.deliveries ?? 0;
}

/** The test notification: one event for one setting, whatever its events (and enabled or not). */
export async function insertTestEvent(
  db: Executor,
  notification: { id: number; userId: number; connectorId: number; accountId: string },
  type: string,
  data: Record<string, unknown>,
): Promise<number> {
  const { rows } = await db.execute<{ id: number }>(sql`
    with event as (
      insert into notification_events (id, user_id, connector_id, account_id, type, data)
      values ('msg_' || replace(gen_random_uuid()::text, '-', ''), ${notification.userId}, ${notification.connectorId},
        ${notification.accountId}, ${type}, ${JSON.stringify(data)}::jsonb)
      returning id
    )
    insert into notification_deliveries (event_id, notification_id, type)
    select id, ${notification.id}, ${type} from event
    returning id::float8 as id`);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error('test notification insert returned nothing');
  return id;
}
