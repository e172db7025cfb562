import { describe, expect, it } from 'vitest';
import { formatCurrency, formatDate, formatDateTime, formatPercent } from './format.ts';

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

  it('percent: 2 decimals', () => {
    expect(formatPercent(0.1234)).toBe('12.34%');
    expect(formatPercent(1)).toBe('100.00%');
    expect(formatPercent(0.000049)).toBe('0.00%');
  });
});
