import type { StatsInterval } from '@router/shared';
import { formatBucket, formatBucketTitle } from '../../lib/format.ts';

/** SPEC §9: the chart is 180 px high with about 5 y-axis ticks. */
export const CHART_HEIGHT = 180;
export const CHART_Y_TICKS = 5;

export interface StatsRow {
  createdAt: number;
  /** Live calls, failed ones included. */
  counter: number;
  counterError: number;
}

export interface StatsBar {
  createdAt: number;
  /** Axis label (en-US, per interval). */
  label: string;
  /** Tooltip title. */
  title: string;
  successes: number;
  errors: number;
}

/** One bar per bucket: successes = counter − counterError, errors = counterError (stacked). */
export function toBars(rows: readonly StatsRow[], interval: StatsInterval): StatsBar[] {
  return rows.map((row) => {
    const errors = Math.max(0, row.counterError);
    return {
      createdAt: row.createdAt,
      label: formatBucket(row.createdAt, interval),
      title: formatBucketTitle(row.createdAt, interval),
      successes: Math.max(0, row.counter - errors),
      errors,
    };
  });
}

/** 'No stats': every bucket is zero (or none came back). */
export const hasNoCalls = (bars: readonly StatsBar[]): boolean =>
  bars.every((bar) => bar.successes === 0 && bar.errors === 0);
