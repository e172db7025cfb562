// Order counters and chart stats (SPEC §3, §7), counted from the signals table, one user at a
// time. Both read signals_user_stats_idx and (errors) the partial signals_user_errors_idx only,
// as index-only scans; the error predicate below must stay the index's predicate. Refused calls
// have no signal row (modules/signals/lifecycle.ts): the chart counts their Order activity
// entries, through the partial actions_user_refused_idx (its predicate is REFUSED below).
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';

export interface SignalRange {
  userId: number;
  /** Milliseconds, inclusive. */
  from: number;
  /** Milliseconds, exclusive. */
  to: number;
  providerNames?: readonly string[];
  isTest?: boolean;
  /** One row per hook instead of totals. */
  isGroup: boolean;
}

export interface StatsRow {
  createdAt: number;
  hookShortKey: string | null;
  counter: number;
  counterTest: number;
  counterError: number;
  /** Calls refused before anything was stored (bad body, no credit left), test hooks included. */
  counterRefused: number;
}

export interface CounterRow {
  hookShortKey: string | null;
  counter: number;
  counterTest: number;
}

const at = (ms: number) => sql`to_timestamp(${ms}::float8 / 1000)`;

function range(r: SignalRange): SQL {
  const parts = [sql`s.user_id = ${r.userId}`, sql`s.created_at >= ${at(r.from)}`, sql`s.created_at < ${at(r.to)}`];
  if (r.providerNames) parts.push(sql`s.provider_name = any(${sql.param(r.providerNames)}::text[])`);
  if (r.isTest !== undefined) parts.push(sql`s.is_test = ${r.isTest}`);
  return sql.join(parts, sql` and `);
}

/** A live signal that ended in error (the hook sets these whenever its answer was an error). */
const IS_ERROR = sql`not s.is_test and s.status in ('rejected', 'failed')`;

/** The status an entry's call was answered with ('queued' outside the trading windows, queue.ts). */
const ANSWER_STATUS = sql`(a.metadata -> 'response' ->> 'status')`;

/** An Order entry of a refused call: it names no stored signal. Also actions_user_refused_idx's predicate. */
export const REFUSED = sql`a.code = 'Order' and not (a.metadata ? 'signalId')`;

/**
 * A refused call: REFUSED (so the index serves it) but not a call answered 'queued' (queue.ts),
 * which names no signal yet and is counted by the signal its placement stores.
 */
export const REFUSED_CALL = sql`${REFUSED} and ${ANSWER_STATUS} is distinct from 'queued'`;

/** A call answered 'queued': it names no signal yet; its placement stores one, an entry of its own. */
export const QUEUED_CALL = sql`${REFUSED} and ${ANSWER_STATUS} = 'queued'`;

function refusedRange(r: SignalRange): SQL {
  const parts = [sql`a.user_id = ${r.userId}`, sql`a.created_at >= ${at(r.from)}`, sql`a.created_at < ${at(r.to)}`];
  if (r.providerNames) parts.push(sql`a.metadata ->> 'providerName' = any(${sql.param(r.providerNames)}::text[])`);
  return sql.join([...parts, REFUSED_CALL], sql` and `);
}

/** Looked up per result row (few), by primary key, after aggregating. */
const SHORT_KEY = sql`(select h.short_key from hooks h where h.id = u.hook_id)`;

type Rows<T> = T & Record<string, unknown>;

/** `at time zone` of a bucket: UTC unless the trader's own zone (IANA name) is asked for. */
const zoneOf = (timeZone: string): SQL => (timeZone === 'UTC' ? sql`'UTC'` : sql`${timeZone}::text`);

/**
 * The instant the local hour holding `at` (timestamptz) began: `at` less its offset into that
 * hour. Unlike the local hour's start read back in `zone`, it tells apart the two hours a
 * fall-back repeats, whole-hour zones or not.
 */
const hourStart = (at: SQL, zone: SQL): SQL =>
  sql`(${at} - ((${at} at time zone ${zone}) - date_trunc('hour', ${at} at time zone ${zone})))`;

/**
 * Per bucket start (date_trunc in UTC, or in `timeZone`: the trader's own days) and, when grouped,
 * per hook; only buckets with signals.
 */
export function orderStatsQuery(r: SignalRange, interval: string, timeZone = 'UTC'): SQL {
  const zone = zoneOf(timeZone);
  const hourly = interval === 'hour';
  // Hours on instants (hourStart, as zonedBucketStarts counts them): a wall-clock hour would merge
  // the two hours a fall-back repeats into one bar.
  // Days, weeks and months on wall-clock time (timestamp without zone): faster than date_trunc's
  // zone argument.
  const bucketOf = (at: SQL) =>
    hourly ? hourStart(at, zone) : sql`date_trunc(${interval}, ${at} at time zone ${zone})`;
  const bucket = bucketOf(sql`s.created_at`);
  const refusedBucket = bucketOf(sql`a.created_at`);
  const start = hourly ? sql`u.bucket` : sql`u.bucket at time zone ${zone}`;
  const hook = r.isGroup ? sql`s.hook_id` : sql`null::bigint`;
  const refusedHook = r.isGroup
    ? sql`(select h.id from hooks h where h.short_key = a.metadata -> 'hook' ->> 'shortKey')`
    : sql`null::bigint`;
  const where = range(r);
  return sql`
    select (extract(epoch from ${start}) * 1000)::float8 as "createdAt", ${SHORT_KEY} as "hookShortKey",
      sum(u.counter)::int as counter, sum(u.counter_test)::int as "counterTest",
      sum(u.counter_error)::int as "counterError", sum(u.counter_refused)::int as "counterRefused"
    from (
      select ${bucket} as bucket, ${hook} as hook_id, count(*) filter (where not s.is_test) as counter,
        count(*) filter (where s.is_test) as counter_test, 0::bigint as counter_error, 0::bigint as counter_refused
      from signals s where ${where} group by 1, 2
      union all
      select ${bucket}, ${hook}, 0, 0, count(*), 0 from signals s where ${where} and ${IS_ERROR} group by 1, 2
      union all
      select ${refusedBucket}, ${refusedHook}, 0, 0, 0, count(*) from actions a where ${refusedRange(r)} group by 1, 2
    ) u
    group by u.bucket, u.hook_id
    order by 1, 2`;
}

export async function orderStats(
  db: Executor,
  r: SignalRange,
  interval: string,
  timeZone = 'UTC',
): Promise<StatsRow[]> {
  const { rows } = await db.execute<Rows<StatsRow>>(orderStatsQuery(r, interval, timeZone));
  return rows;
}

/**
 * The starts of the `timeZone` buckets from the one holding `from` (or, without it, `bars`
 * buckets back) to the one holding `to`, at most `max + 1`: days, weeks and months of the
 * trader's own calendar, daylight-saving changes included.
 */
export async function zonedBucketStarts(
  db: Executor,
  w: { interval: string; from: number | null; to: number; bars: number; max: number; timeZone: string },
): Promise<number[]> {
  const zone = zoneOf(w.timeZone);
  if (w.interval === 'hour') {
    // Hours are counted on instants: a wall-clock series would hold the hour a spring-forward
    // skips (the same instant as the next one) and miss the hour a fall-back repeats. The start of
    // the hour holding `ms`, as orderStatsQuery buckets it (a repeated local hour names two).
    const start = (ms: number) => hourStart(sql`to_timestamp(${ms}::float8 / 1000)`, zone);
    const last = start(w.to);
    const first = w.from === null ? sql`${last} - ${w.bars - 1}::int * interval '1 hour'` : start(w.from);
    const { rows } = await db.execute<{ start: number }>(sql`
      select (extract(epoch from g) * 1000)::float8 as start
      from generate_series(${first}, ${last}, interval '1 hour') g
      order by g limit ${w.max + 1}`);
    return rows.map((row) => row.start);
  }
  const step = sql`('1 ' || ${w.interval}::text)::interval`;
  const wall = (ms: number) => sql`date_trunc(${w.interval}, to_timestamp(${ms}::float8 / 1000) at time zone ${zone})`;
  const first = w.from === null ? sql`${wall(w.to)} - ${w.bars - 1}::int * ${step}` : wall(w.from);
  const { rows } = await db.execute<{ start: number }>(sql`
    select (extract(epoch from g at time zone ${zone}) * 1000)::float8 as start
    from generate_series(${first}, ${wall(w.to)}, ${step}) g
    order by g limit ${w.max + 1}`);
  return rows.map((row) => row.start);
}

/** Live and test signal counts in the range: one total row (none when empty), or one per hook. */
export function orderCountersQuery(r: SignalRange): SQL {
  const hook = r.isGroup ? sql`s.hook_id` : sql`null::bigint`;
  return sql`
    select ${SHORT_KEY} as "hookShortKey", u.counter::int as counter, u.counter_test::int as "counterTest"
    from (
      select ${hook} as hook_id, count(*) filter (where not s.is_test) as counter,
        count(*) filter (where s.is_test) as counter_test
      from signals s where ${range(r)} group by 1
    ) u
    order by 1`;
}

export async function orderCounters(db: Executor, r: SignalRange): Promise<CounterRow[]> {
  const { rows } = await db.execute<Rows<CounterRow>>(orderCountersQuery(r));
  return rows;
}
