// SPEC §9: locale en-US; prices are stored in cents.
const LOCALE = 'en-US';

const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, {
  day: 'numeric',
  month: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  hourCycle: 'h23',
});
const dateFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'numeric', year: 'numeric' });
const currencyFormat = new Intl.NumberFormat(LOCALE, {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const percentFormat = new Intl.NumberFormat(LOCALE, {
  style: 'percent',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export type DateInput = Date | number | string;

const toDate = (value: DateInput): Date => (value instanceof Date ? value : new Date(value));

/** 1/31/2022, 14:05 (local time zone). */
export const formatDateTime = (value: DateInput): string => dateTimeFormat.format(toDate(value));

/** 1/31/2022 (local time zone). */
export const formatDate = (value: DateInput): string => dateFormat.format(toDate(value));

/** Cents to dollars: 123456 → $1,234.56. */
export const formatCurrency = (cents: number): string => currencyFormat.format(cents / 100);

/** A ratio as percent: 0.1234 → 12.34%. */
export const formatPercent = (ratio: number): string => percentFormat.format(ratio);

/** 2022-01-31T14:05:59Z: the ISO time rounded to whole seconds (hover titles). */
export const formatIsoSeconds = (value: DateInput): string =>
  new Date(Math.round(toDate(value).getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const countFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });

/** An integer with en-US grouping: 12345 → 12,345. */
export const formatCount = (value: number): string => countFormat.format(value);

/**
 * Chart bucket labels (SPEC §9 en-US). Day, week and month buckets start at a UTC midnight, so
 * they are read in UTC (a local zone west of UTC would show the day before); hours are local.
 */
const bucketFormats = {
  hour: new Intl.DateTimeFormat(LOCALE, { hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }),
  day: new Intl.DateTimeFormat(LOCALE, { month: 'numeric', day: 'numeric', timeZone: 'UTC' }),
  week: new Intl.DateTimeFormat(LOCALE, { month: 'numeric', day: 'numeric', timeZone: 'UTC' }),
  month: new Intl.DateTimeFormat(LOCALE, { month: 'short', year: 'numeric', timeZone: 'UTC' }),
} as const;

const bucketTitles = {
  hour: dateTimeFormat,
  day: new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'UTC' }),
  week: new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'UTC' }),
  month: new Intl.DateTimeFormat(LOCALE, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
} as const;

export type BucketInterval = keyof typeof bucketFormats;

/** Axis label of a bucket: 14:00 · 1/31 · 1/31 · Jan 2022. */
export const formatBucket = (value: DateInput, interval: BucketInterval): string =>
  bucketFormats[interval].format(toDate(value));

/** Tooltip title of a bucket: 1/31/2022, 14:00 · 1/31/2022 · Week of 1/31/2022 · January 2022. */
export const formatBucketTitle = (value: DateInput, interval: BucketInterval): string => {
  const text = bucketTitles[interval].format(toDate(value));
  return interval === 'week' ? `Week of ${text}` : text;
};
