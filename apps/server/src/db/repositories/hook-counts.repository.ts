// Per-hook order counts for maxOrdersPerMinute / maxOrdersPerDay (modules/hooks/rules/counts.ts).
// One row per hook, taken and checked by one statement under its row lock, so the count holds
// across server instances on one database.
import type { Queryable } from './signals.repository.ts';

export interface CountLimits {
  perMinute: number | null;
  perDay: number | null;
}

const LAST_MINUTE = `array(select t from unnest(c.recent) t where t > now() - interval '60 seconds')`;

/**
 * Counts one signal when it stays within the limits: its instant as text, exact to the
 * microsecond (to give it back with releaseHookCount), or undefined when a limit is reached (nothing counted).
 */
export async function takeHookCount(db: Queryable, hookId: number, limits: CountLimits): Promise<string | undefined> {
  const { rows } = await db.query<{ at: string }>({
    name: 'hook_count_take',
    text: `insert into hook_order_counts as c (hook_id, recent, day, day_count)
      values ($1, case when $2::int is null then '{}'::timestamptz[] else array[now()] end,
              (now() at time zone 'utc')::date, 1)
      on conflict (hook_id) do update set
        recent = case when $2::int is null then '{}'::timestamptz[] else ${LAST_MINUTE} || now() end,
        day = excluded.day,
        day_count = case when c.day = excluded.day then c.day_count + 1 else 1 end
      where ($2::int is null or cardinality(${LAST_MINUTE}) < $2)
        and ($3::int is null or c.day <> excluded.day or c.day_count < $3)
      returning now()::text as at`,
    values: [hookId, limits.perMinute, limits.perDay],
  });
  return rows[0]?.at;
}

/** Which limit is reached (read after takeHookCount refused): 'minute' or 'day'. */
export async function reachedHookLimit(db: Queryable, hookId: number, limits: CountLimits): Promise<'minute' | 'day'> {
  const { rows } = await db.query<{ minute: number; day: number }>({
    name: 'hook_count_read',
    text: `select cardinality(${LAST_MINUTE}) as minute,
        case when c.day = (now() at time zone 'utc')::date then c.day_count else 0 end as day
      from hook_order_counts c where hook_id = $1`,
    values: [hookId],
  });
  const row = rows[0];
  if (row && limits.perDay !== null && row.day >= limits.perDay) return 'day';
  return 'minute';
}

/** Gives back a count taken at `at` (the signal was not stored after all: a repeat, no credit). */
export async function releaseHookCount(db: Queryable, hookId: number, at: string): Promise<void> {
  await db.query({
    name: 'hook_count_release',
    text: `update hook_order_counts set recent = array_remove(recent, $2::timestamptz),
        day_count = case when day = ($2::timestamptz at time zone 'utc')::date then greatest(day_count - 1, 0) else day_count end
      where hook_id = $1`,
    values: [hookId, at],
  });
}
