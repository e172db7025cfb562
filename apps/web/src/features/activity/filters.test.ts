import { describe, expect, it } from 'vitest';
import { dayRange, NO_FILTERS, queryVariables } from './filters.ts';

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
