import { describe, expect, it } from 'vitest';
import { dayRange, fromParams, NO_FILTERS, queryVariables, withParams } from './filters.ts';

const withDate = (date: string) => queryVariables('', { ...NO_FILTERS, date });

describe('activity Date filter (issue #21)', () => {
  it('asks for the local day, from its start to the next day', () => {
    expect(withDate('2026-11-27')).toEqual({
      since: new Date(2026, 10, 27).getTime(),
      createdAtFrom: new Date(2026, 10, 28).getTime(),
    });
  });

  it('reads years below 100 as written, not as 19xx', () => {
    expect(new Date(dayRange('0050-01-01')?.[0] ?? Number.NaN).getFullYear()).toBe(50);
  });

  it('never asks for a time before 1970, which the server refuses: such a day has no entries', () => {
    for (const date of ['1969-12-31', '0001-01-01', '0050-06-15']) {
      const { since, createdAtFrom } = withDate(date);
      expect(since).toBe(0);
      expect(createdAtFrom).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('activity date range (Date to To)', () => {
  const withRange = (date: string, dateTo: string) => queryVariables('', { ...NO_FILTERS, date, dateTo });

  it('asks for every local day from Date through To, in either order', () => {
    const week = { since: new Date(2026, 10, 23).getTime(), createdAtFrom: new Date(2026, 10, 28).getTime() };
    expect(withRange('2026-11-23', '2026-11-27')).toEqual(week);
    expect(withRange('2026-11-27', '2026-11-23')).toEqual(week);
  });

  it('asks for everything through To without a Date, and for one day with Date alone', () => {
    expect(withRange('', '2026-11-27')).toEqual({ createdAtFrom: new Date(2026, 10, 28).getTime() });
    expect(withRange('2026-11-27', '')).toEqual(withDate('2026-11-27'));
  });

  it('keeps the range in the address (to), and drops a To no date can be', () => {
    const params = withParams(new URLSearchParams(), {
      text: '',
      filters: { ...NO_FILTERS, date: '2026-11-23', dateTo: '2026-11-27' },
    });
    expect(params.toString()).toBe('date=2026-11-23&to=2026-11-27');
    expect(fromParams(params).filters).toMatchObject({ date: '2026-11-23', dateTo: '2026-11-27' });
    expect(fromParams(new URLSearchParams('to=someday')).filters.dateTo).toBe('');
  });
});
