// Dashboard chart constants (SPEC §9): intervals, their visible windows and bar counts.

export const STATS_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type StatsInterval = (typeof STATS_INTERVALS)[number];

/** Bars per interval: 24 hours, 30 days, 8 weeks (56 days), 12 months (365 days). */
export const STATS_BARS: Record<StatsInterval, number> = { hour: 24, day: 30, week: 8, month: 12 };

/** Most buckets one stats call returns. */
export const STATS_MAX_BARS = 1000;

/** The dashboard tile 'signals in last 24h'. */
export const ORDER_COUNTER_WINDOW_MS = 24 * 60 * 60 * 1000;

export function isStatsInterval(value: string): value is StatsInterval {
  return (STATS_INTERVALS as readonly string[]).includes(value);
}
