// Chart buckets in UTC, matching PostgreSQL's date_trunc(interval, t, 'UTC') (weeks start Monday).
import type { StatsInterval } from '@router/shared';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The start of the UTC hour, day, ISO week or month holding `ms`. */
export function truncateUtc(ms: number, interval: StatsInterval): number {
  const d = new Date(ms);
  switch (interval) {
    case 'hour':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
    case 'day':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    case 'week':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY;
    case 'month':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
}

/** `n` intervals after (or before, when negative) the bucket start `start`. */
export function addIntervals(start: number, interval: StatsInterval, n: number): number {
  switch (interval) {
    case 'hour':
      return start + n * HOUR;
    case 'day':
      return start + n * DAY;
    case 'week':
      return start + n * 7 * DAY;
    case 'month': {
      const d = new Date(start);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
    }
  }
}

/** Bucket starts from the one holding `from` to the one holding `to`, at most `max + 1` of them. */
export function bucketStarts(from: number, to: number, interval: StatsInterval, max: number): number[] {
  const starts: number[] = [];
  for (let b = truncateUtc(from, interval); b <= to && starts.length <= max; b = addIntervals(b, interval, 1)) {
    starts.push(b);
  }
  return starts;
}
