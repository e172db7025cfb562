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
