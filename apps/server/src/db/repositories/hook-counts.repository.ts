// Per-hook order counts for maxOrdersPerMinute / maxOrdersPerDay (modules/hooks/rules/counts.ts).
// One row per hook, taken and checked by one statement under its row lock, so the count holds
// across server instances on one database.
import type { Queryable } from './signals.repository.ts';

export interface CountLimits {
  perMinute: number | null;
  perDay: number | null;
  /** The IANA zone of perDay's day (rules' dayTimeZone, checked by PostgreSQL when saved); UTC. */
  timeZone?: string;
  /** The local time perDay's day starts (rules' dayStartsAt, HH:MM); midnight. */
  startsAt?: string;
}

/**
 * The date of the day an instant falls in: its date in the zone once the day's start is taken off
 * (17:00 in Chicago starts CME's day: 16:59 is the day before's). Each argument is SQL text: a
 * parameter here, the hook's rules in the outcome write (signals.repository.ts), one formula for both.
 */
export const dayOf = (instant: string, zone: string, start: string) =>
  `((${instant} at time zone ${zone}) - ${start}::interval)::date`;

/** dayOf's zone and start for a hook's limits: UTC midnight unless its rules say otherwise. */
const dayValues = (day: Pick<CountLimits, 'timeZone' | 'startsAt'>) => [day.timeZone ?? 'UTC', day.startsAt ?? '00:00'];

const LAST_MINUTE = `array(select t from unnest(c.recent) t where t > now() - interval '60 seconds')`;

/** takeHookCount's statement text, built once (pg compares a named statement's text each call). */
const TAKE_TEXT = `with taken as (
    insert into hook_order_counts as c (hook_id, recent, day, day_count)
    values ($1, case when $2::int is null then '{}'::timestamptz[] else array[now()] end,
            ${dayOf('now()', '$4', '$5')}, 1)
    on conflict (hook_id) do update set
      recent = case when $2::int is null then '{}'::timestamptz[] else ${LAST_MINUTE} || now() end,
      day = excluded.day,
      day_count = case when c.day = excluded.day then c.day_count + 1 else 1 end
    where ($2::int is null or cardinality(${LAST_MINUTE}) < $2)
      and ($3::int is null or c.day <> excluded.day or c.day_count < $3)
    returning now()::text as at)
  select (select at from taken) as at,
    (select case when c.day = ${dayOf('now()', '$4', '$5')} then c.day_count else 0 end
      from hook_order_counts c where c.hook_id = $1 and not exists (select 1 from taken) for update) as day`;

/**
 * Counts one signal when it stays within the limits: its instant as text, exact to the
 * microsecond (to give it back with releaseHookCount); or, when a limit is reached (nothing
 * counted), which one. One statement either way: a refusal reads the row FOR UPDATE, so it sees
 * the latest count (another instance's committed since this statement began), not its snapshot.
 */
export async function takeHookCount(
  db: Queryable,
  hookId: number,
  limits: CountLimits,
): Promise<{ at: string } | { reached: 'minute' | 'day' }> {
  const { rows } = await db.query<{ at: string | null; day: number | null }>({
    name: 'hook_count_take',
    text: TAKE_TEXT,
    values: [hookId, limits.perMinute, limits.perDay, ...dayValues(limits)],
  });
  const row = rows[0];
  if (row?.at) return { at: row.at };
  // A row another instance inserted after this statement began is not even seen FOR UPDATE: only
  // then (the hook's first signals, racing) is it read again.
  const day = row?.day ?? (await readDayCount(db, hookId, limits));
  return { reached: limits.perDay !== null && day >= limits.perDay ? 'day' : 'minute' };
}

async function readDayCount(db: Queryable, hookId: number, limits: CountLimits): Promise<number> {
  const { rows } = await db.query<{ day: number }>({
    name: 'hook_count_read_day',
    text: `select case when c.day = ${dayOf('now()', '$2', '$3')} then c.day_count else 0 end as day
      from hook_order_counts c where hook_id = $1`,
    values: [hookId, ...dayValues(limits)],
  });
  return rows[0]?.day ?? 0;
}

/**
 * Gives back a count taken at `at` (the signal was not stored after all: a repeat, no credit).
 * One instant of the last minute's, not every equal one (array_remove): counts taken in one
 * microsecond (or on a coarse clock) share their instant, and the others still hold. Nothing when
 * the signal `signalId` was stored with its count after all (a store whose commit we did not
 * hear of): its outcome gives its day's count back (recordSignalOutcomes), never twice.
 */
export async function releaseHookCount(
  db: Queryable,
  hookId: number,
  at: string,
  signalId: string,
  day: Pick<CountLimits, 'timeZone' | 'startsAt'> = {},
): Promise<void> {
  await db.query({
    name: 'hook_count_release',
    text: `update hook_order_counts set recent = coalesce(
          recent[:array_position(recent, $2::timestamptz) - 1] || recent[array_position(recent, $2::timestamptz) + 1:],
          recent),
        day_count = case when day = ${dayOf('$2::timestamptz', '$4', '$5')} then greatest(day_count - 1, 0) else day_count end
      where hook_id = $1 and not exists (select 1 from signals where id = $3 and day_counted_at is not null)`,
    values: [hookId, at, signalId, ...dayValues(day)],
  });
}
