// Dashboard numbers (SPEC §2, §9): the 'signals in last 24h' tile and the hook-calls chart.
import {
  isStatsInterval,
  ORDER_COUNTER_WINDOW_MS,
  STATS_BARS,
  STATS_INTERVALS,
  STATS_MAX_BARS,
  type StatsInterval,
} from '@router/shared';
import { isInvalidParameter } from '../../db/repositories/executor.ts';
import {
  type CounterRow,
  orderCounters,
  orderStats,
  type SignalRange,
  type StatsRow,
  zonedBucketStarts,
} from '../../db/repositories/stats.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { MAX_TIME_MS } from '../paging.ts';
import { addIntervals, bucketStarts, truncateUtc } from './buckets.ts';

type Maybe<T> = T | null | undefined;

export interface OrderStatsQuery {
  interval: string;
  createdAtFrom?: Maybe<number>;
  createdAtTo?: Maybe<number>;
  providerName?: Maybe<string>;
  providerNames?: Maybe<readonly string[]>;
  width?: Maybe<number>;
  isGroup?: Maybe<boolean>;
  /** IANA time zone of the buckets (the trader's own days); default UTC. */
  timeZone?: Maybe<string>;
}

export interface OrderCountersQuery {
  code?: Maybe<string>;
  isTest?: Maybe<boolean>;
  isGroup?: Maybe<boolean>;
  createdAtFrom?: Maybe<number>;
  createdAtTo?: Maybe<number>;
}

function time(value: Maybe<number>, field: string, fallback: number): number {
  if (value === null || value === undefined) return fallback;
  // As paging's createdAtFrom: a time before 1970 or past what a date holds is bad input (the
  // database's to_timestamp would fail on it with an internal error).
  if (!Number.isFinite(value) || value < 0 || value > MAX_TIME_MS) {
    throw new AppError('VALIDATION', `Invalid ${field}`, { field });
  }
  return value;
}

function interval(value: string): StatsInterval {
  if (isStatsInterval(value)) return value;
  throw new AppError('VALIDATION', `Interval must be one of ${STATS_INTERVALS.join(', ')}`, { field: 'interval' });
}

const INVALID_TIME_ZONE = () => new AppError('VALIDATION', 'Invalid timeZone', { field: 'timeZone' });

/**
 * An IANA zone both ICU and PostgreSQL read ('Europe/Berlin'); anything else is refused. ICU's
 * check is here; PostgreSQL's is the first zoned query (zonedBucketStarts), whose refusal of a
 * name ICU still knows ('US/Pacific-New') is the same validation error.
 */
function timeZone(value: Maybe<string>): string {
  if (value === null || value === undefined || value === 'UTC') return 'UTC';
  if (/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      return value;
    } catch {
      // not a zone ICU knows: refused below
    }
  }
  throw INVALID_TIME_ZONE();
}

async function zonedStarts(services: Services, w: Parameters<typeof zonedBucketStarts>[1]): Promise<number[]> {
  try {
    return await zonedBucketStarts(services.db, w);
  } catch (error) {
    if (isInvalidParameter(error)) throw INVALID_TIME_ZONE();
    throw error;
  }
}

function providers(q: OrderStatsQuery): string[] | undefined {
  const names = [...(q.providerNames ?? []), ...(q.providerName ? [q.providerName] : [])];
  return names.length > 0 ? names : undefined;
}

/**
 * Buckets (UTC starts) from the one holding createdAtFrom to the one holding createdAtTo (default
 * now); without createdAtFrom, the last `width` buckets (default SPEC §9 bar counts: 24 hours,
 * 30 days, 8 weeks, 12 months). Totals come back for every bucket, empty ones as zeros; grouped
 * per hook (isGroup) only buckets with signals come back.
 */
export async function getOrderStats(services: Services, userId: number, q: OrderStatsQuery, now = Date.now()) {
  const unit = interval(q.interval);
  const zone = timeZone(q.timeZone);
  const to = time(q.createdAtTo, 'createdAtTo', now);
  let from: number | null = null;
  let bars = 1;
  if (q.createdAtFrom !== null && q.createdAtFrom !== undefined) {
    from = time(q.createdAtFrom, 'createdAtFrom', now);
  } else {
    bars = q.width ?? STATS_BARS[unit];
    if (!Number.isInteger(bars) || bars < 1 || bars > STATS_MAX_BARS) {
      throw new AppError('VALIDATION', `Width must be between 1 and ${STATS_MAX_BARS}`, { field: 'width' });
    }
  }
  const starts =
    zone === 'UTC'
      ? bucketStarts(from ?? addIntervals(truncateUtc(to, unit), unit, 1 - bars), to, unit, STATS_MAX_BARS)
      : await zonedStarts(services, { interval: unit, from, to, bars, max: STATS_MAX_BARS, timeZone: zone });
  if (starts.length > STATS_MAX_BARS) {
    throw new AppError('VALIDATION', `At most ${STATS_MAX_BARS} bars; narrow the window`, { field: 'createdAtFrom' });
  }
  const start = starts[0];
  if (start === undefined) return [];
  const isGroup = q.isGroup ?? false;
  const names = providers(q);
  const range: SignalRange = { userId, from: start, to: to + 1, isGroup, ...(names ? { providerNames: names } : {}) };
  const rows = await orderStats(services.db, range, unit, zone);
  if (isGroup) return rows;
  const byStart = new Map(rows.map((row) => [row.createdAt, row]));
  return starts.map(
    (createdAt): StatsRow =>
      byStart.get(createdAt) ?? {
        createdAt,
        hookShortKey: null,
        counter: 0,
        counterTest: 0,
        counterError: 0,
        counterRefused: 0,
      },
  );
}

/**
 * Live and test Order counts in a window that ends at createdAtTo (default now) and starts at
 * createdAtFrom (default 24 hours before its end): the dashboard tile 'signals in last 24h'.
 */
export async function getOrderCounters(
  services: Services,
  userId: number,
  q: OrderCountersQuery,
  now = Date.now(),
): Promise<CounterRow[]> {
  if ((q.code ?? 'Order') !== 'Order') {
    throw new AppError('VALIDATION', 'Only Order actions are counted', { field: 'code' });
  }
  const to = time(q.createdAtTo, 'createdAtTo', now);
  const from = time(q.createdAtFrom, 'createdAtFrom', to - ORDER_COUNTER_WINDOW_MS);
  const isGroup = q.isGroup ?? false;
  const range: SignalRange = { userId, from, to: to + 1, isGroup };
  if (q.isTest !== null && q.isTest !== undefined) range.isTest = q.isTest;
  const rows = await orderCounters(services.db, range);
  return !isGroup && rows.length === 0 ? [{ hookShortKey: null, counter: 0, counterTest: 0 }] : rows;
}
