// What the hook writes after answering: activity entries and called_at in batches, invalid
// request counting (and the deactivation past the threshold, with its hook_changed notification).
import { HOOK_CHANGED_CHANNEL } from './hooks.repository.ts';
import { jsonEventCtes, jsonEventSource } from './notification-outbox.repository.ts';
import type { Queryable } from './signals.repository.ts';

export interface ActionRow {
  userId: number;
  code: string;
  address: string | null;
  /** JSON text, already made storable (no \u0000, no lone surrogates). */
  metadata: string;
  createdAt: Date;
}

/** insertActions' statement, built once (not a fresh string per batch). */
const ACTIONS_BATCH = `with added as (
    insert into actions (user_id, code, address, metadata, created_at)
    select user_id, code, address, metadata, created_at from json_to_recordset($1::json)
      as t(user_id bigint, code text, address text, metadata jsonb, created_at timestamptz)
  ), events as (${jsonEventSource('$2')}), ${jsonEventCtes('events')}
  select 1`;

/**
 * One statement for a batch of activity entries and the notification events they report
 * (`events`: JSON of events.ts' eventsJson, e.g. the refusals among them): both or neither.
 */
export async function insertActions(db: Queryable, rows: readonly ActionRow[], events = '[]'): Promise<void> {
  if (rows.length === 0 && events === '[]') return;
  await db.query({
    name: 'actions_batch',
    text: ACTIONS_BATCH,
    values: [rowsJson(rows), events],
  });
}

/**
 * The rows as one JSON array, each metadata inserted as the JSON text it already is: pg's array
 * parameters escaped every character of every entry in JavaScript (~2 % of the server's CPU at
 * the test hook's saturation).
 */
function rowsJson(rows: readonly ActionRow[]): string {
  const items = rows.map(
    (r) =>
      `{"user_id":${r.userId},"code":${JSON.stringify(r.code)},"address":${JSON.stringify(r.address)},` +
      `"metadata":${r.metadata},"created_at":"${r.createdAt.toISOString()}"}`,
  );
  return `[${items.join(',')}]`;
}

/** Sets called_at of many hooks at once (never moving it back). */
export async function touchHooks(db: Queryable, calls: ReadonlyMap<number, Date>): Promise<void> {
  if (calls.size === 0) return;
  await db.query({
    name: 'hooks_touch',
    text: `update hooks h set called_at = v.t from unnest($1::bigint[], $2::timestamptz[]) as v(id, t)
      where h.id = v.id and (h.called_at is null or h.called_at < v.t)`,
    values: [[...calls.keys()], [...calls.values()]],
  });
}

export interface InvalidCount {
  count: number;
  /** This request crossed the threshold: the hook is now deactivated (and hook_changed sent). */
  deactivated: boolean;
  userId: number;
  hookKey: string;
  name: string;
}

export const INVALID_REQUESTS_REASON = 'too many invalid requests';

/**
 * Counts one invalid request in the hook's hour window; reaching `threshold` deactivates the hook
 * and notifies hook_changed, in the same statement. Inactive hooks are not counted, nor the REST API's
 * (its callers are limited per token instead; a bad request must not switch an account's API off).
 */
export async function countInvalidRequest(
  db: Queryable,
  hookId: number,
  threshold: number,
): Promise<InvalidCount | undefined> {
  const { rows } = await db.query<{ count: number; deactivated: boolean; user_id: string; key: string; name: string }>({
    name: 'hook_invalid_count',
    text: `with counted as (
        update hooks set
          invalid_count = case when invalid_window_start > now() - interval '1 hour' then invalid_count + 1 else 1 end,
          invalid_window_start = case when invalid_window_start > now() - interval '1 hour'
            then invalid_window_start else now() end,
          is_active = (case when invalid_window_start > now() - interval '1 hour'
            then invalid_count + 1 else 1 end) < $2,
          deactivated_reason = case when (case when invalid_window_start > now() - interval '1 hour'
            then invalid_count + 1 else 1 end) >= $2 then $3 else deactivated_reason end
        where id = $1 and is_active and not is_api
        returning invalid_count as count, not is_active as deactivated, user_id, key, name, short_key
      )
      select count, deactivated, user_id, key, name,
        case when deactivated then pg_notify('${HOOK_CHANGED_CHANNEL}', short_key) end as notified
      from counted`,
    values: [hookId, threshold, INVALID_REQUESTS_REASON],
  });
  const row = rows[0];
  if (!row) return undefined;
  return {
    count: row.count,
    deactivated: row.deactivated,
    userId: Number(row.user_id),
    hookKey: row.key,
    name: row.name,
  };
}

/**
 * The Order entries of settled signals that have none (by actions_signal_idx): a signal stored
 * and then left unanswered by a crash during its broker call was never logged (its entry is
 * written after the answer), so the order reconciliation found (and told, with a link to this
 * entry) was missing from the activity. Written as the hook's own entry would have been, at the
 * signal's arrival, with `response` (JSON of each) as its answer.
 */
export async function logUnloggedSignals(
  db: Queryable,
  settled: ReadonlyArray<{ id: string; response: Record<string, unknown> }>,
): Promise<void> {
  if (settled.length === 0) return;
  await db.query({
    name: 'actions_unlogged_signals',
    text: `insert into actions (user_id, code, address, metadata, created_at)
      select s.user_id, 'Order', s.address, jsonb_build_object(
          'hook', (select jsonb_build_object('key', h.key, 'shortKey', h.short_key, 'name', h.name)
            from hooks h where h.id = s.hook_id),
          'connector', jsonb_build_object('key', c.key, 'providerName', s.provider_name),
          'providerName', s.provider_name, 'accountId', s.account_id, 'isTest', s.is_test,
          'signalId', s.id, 'response', i.response, 'elapsed', s.elapsed_ms),
        s.created_at
      from json_to_recordset($1::json) as i(id text, response jsonb)
      join signals s on s.id = i.id
      left join connectors c on c.id = s.connector_id
      where not exists (select 1 from actions a
        where a.metadata ? 'signalId' and a.metadata ->> 'signalId' = s.id and a.user_id = s.user_id)`,
    values: [JSON.stringify(settled)],
  });
}

/** Whether the user's log has an entry of this stored signal (by actions_signal_idx). */
export async function hasSignalAction(db: Queryable, userId: number, signalId: string): Promise<boolean> {
  const { rows } = await db.query({
    name: 'actions_signal_exists',
    text: `select 1 from actions where metadata ? 'signalId' and metadata ->> 'signalId' = $2 and user_id = $1 limit 1`,
    values: [userId, signalId],
  });
  return rows.length > 0;
}
