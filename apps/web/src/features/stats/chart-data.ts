import type { StatsInterval } from '@router/shared';
import { formatBucket, formatBucketTitle, formatCount } from '../../lib/format.ts';

/** SPEC §9: the chart is 180 px high with about 5 y-axis ticks. */
export const CHART_HEIGHT = 180;
export const CHART_Y_TICKS = 5;

export interface StatsRow {
  createdAt: number;
  /** Live calls, failed ones included. */
  counter: number;
  counterError: number;
  /** Calls refused before anything was stored (no signal). */
  counterRefused: number;
  /** Test-hook calls (drafts). */
  counterTest: number;
}

export interface StatsBar {
  createdAt: number;
  /** Axis label (en-US, per interval). */
  label: string;
  /** Tooltip title. */
  title: string;
  /** Live calls the broker took (or may have: unknown ones too). */
  placed: number;
  /** Live calls the broker rejected, or that failed before reaching it. */
  rejected: number;
  /** Calls refused before anything was stored: bad body, no credit left. */
  refused: number;
  /** Test-hook calls answered with a draft. */
  test: number;
}

/** The stacked series, in order, with their colours (Bootstrap's success, danger, warning, info). */
export const SERIES = [
  { key: 'placed', name: 'Placed', color: '#198754' },
  { key: 'rejected', name: 'Rejected', color: '#dc3545' },
  { key: 'refused', name: 'Refused', color: '#fd7e14' },
  { key: 'test', name: 'Test', color: '#0dcaf0' },
] as const;

/**
 * One stacked bar per bucket: placed = counter − counterError, rejected, refused, test. Days, weeks
 * and months are labelled in `timeZone`, the zone the server counted them in (default: the
 * browser's); an hour is the same hour anywhere, so it reads on the trader's clock.
 */
export function toBars(rows: readonly StatsRow[], interval: StatsInterval, timeZone?: string): StatsBar[] {
  const zone = interval === 'hour' ? undefined : timeZone;
  return rows.map((row) => {
    const rejected = Math.max(0, row.counterError);
    return {
      createdAt: row.createdAt,
      label: formatBucket(row.createdAt, interval, zone),
      title: formatBucketTitle(row.createdAt, interval, zone),
      placed: Math.max(0, row.counter - rejected),
      rejected,
      refused: Math.max(0, row.counterRefused),
      test: Math.max(0, row.counterTest),
    };
  });
}

/** 'No stats': every bucket is zero (or none came back). */
export const hasNoCalls = (bars: readonly StatsBar[]): boolean =>
  bars.every((bar) => SERIES.every((series) => bar[series.key] === 0));

/** A digit or comma of the axis's 12 px font, rounded up; and the tick line with its margin. */
const AXIS_CHAR_PX = 7;
const AXIS_TICK_PX = 10;
const AXIS_MIN_WIDTH = 40;

/**
 * The y-axis width that fits its highest tick: the tallest stacked bar rounded up to the next round
 * number (9,800 reads 10,000 at the top), grouped en-US, so 12,345 calls are not clipped to 2,345.
 */
export function yAxisWidth(bars: readonly StatsBar[]): number {
  const top = Math.max(0, ...bars.map((bar) => SERIES.reduce((sum, series) => sum + bar[series.key], 0)));
  const unit = top > 0 ? 10 ** Math.floor(Math.log10(top)) : 1;
  const highestTick = Math.ceil(top / unit) * unit;
  return Math.max(AXIS_MIN_WIDTH, AXIS_TICK_PX + AXIS_CHAR_PX * formatCount(highestTick).length);
}
