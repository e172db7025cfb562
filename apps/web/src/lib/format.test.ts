import { describe, expect, it } from 'vitest';
import {
  formatBucket,
  formatBucketTitle,
  formatCount,
  formatCurrency,
  formatDate,
  formatDateTime,
  formatIsoSeconds,
  formatPercent,
} from './format.ts';

describe('format (en-US, SPEC §9)', () => {
  // Local-time constructor: independent of the machine's time zone.
  const afternoon = new Date(2022, 0, 31, 14, 5, 59);
  const midnight = new Date(2025, 11, 3, 0, 7);

  it('date-time: numeric day, month, year with 24-hour hour and minute', () => {
    expect(formatDateTime(afternoon)).toBe('1/31/2022, 14:05');
    expect(formatDateTime(midnight)).toBe('12/3/2025, 00:07');
    expect(formatDateTime(afternoon.getTime())).toBe('1/31/2022, 14:05');
  });

  it('date: numeric day, month, year', () => {
    expect(formatDate(afternoon)).toBe('1/31/2022');
    expect(formatDate(midnight.getTime())).toBe('12/3/2025');
  });

  it('currency: cents shown as USD with 2 decimals', () => {
    expect(formatCurrency(123456)).toBe('$1,234.56');
    expect(formatCurrency(500)).toBe('$5.00');
    expect(formatCurrency(1)).toBe('$0.01');
    expect(formatCurrency(-2550)).toBe('-$25.50');
  });

  it('currency: an amount in its own currency’s minor units, zero-decimal currencies without them', () => {
    expect(formatCurrency(1099, 'usd')).toBe('$10.99');
    expect(formatCurrency(123456, 'eur')).toBe('€1,234.56');
    expect(formatCurrency(1099, 'GBP')).toBe('£10.99');
    expect(formatCurrency(500, 'jpy')).toBe('¥500');
    expect(formatCurrency(15000, 'krw')).toBe('₩15,000');
    expect(formatCurrency(5120, 'kwd').replace(/\s/g, ' ')).toBe('KWD 5.120');
  });

  it('percent: 2 decimals', () => {
    expect(formatPercent(0.1234)).toBe('12.34%');
    expect(formatPercent(1)).toBe('100.00%');
    expect(formatPercent(0.000049)).toBe('0.00%');
  });
});

describe('format: dashboard additions', () => {
  it('ISO time rounded to whole seconds', () => {
    expect(formatIsoSeconds(Date.UTC(2022, 0, 31, 14, 5, 59, 400))).toBe('2022-01-31T14:05:59Z');
    expect(formatIsoSeconds(Date.UTC(2022, 0, 31, 14, 5, 59, 600))).toBe('2022-01-31T14:06:00Z');
  });

  it('counts with en-US grouping', () => {
    expect(formatCount(12345)).toBe('12,345');
    expect(formatCount(0)).toBe('0');
  });

  it('chart buckets: local hours, days, weeks and months (the chart asks for the browser zone)', () => {
    expect(formatBucket(new Date(2022, 0, 31, 14), 'hour')).toBe('14:00');
    expect(formatBucket(new Date(2022, 0, 31), 'day')).toBe('1/31');
    expect(formatBucket(new Date(2022, 0, 31), 'week')).toBe('1/31');
    expect(formatBucket(new Date(2022, 0, 1), 'month')).toBe('Jan 2022');
    expect(formatBucketTitle(new Date(2022, 0, 31), 'week')).toBe('Week of 1/31/2022');
    expect(formatBucketTitle(new Date(2022, 0, 1), 'month')).toBe('January 2022');
    expect(formatBucketTitle(new Date(2022, 0, 31, 9), 'hour')).toBe('1/31/2022, 09:00');
  });
});
