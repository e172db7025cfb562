import { describe, expect, it } from 'vitest';
import { KRAKEN, PAPER, TRADIER } from '../../routes/me-documentation/test-fixtures.ts';
import { parameterRows } from './parameter-rows.ts';

const row = (rows: ReturnType<typeof parameterRows>, name: string) => rows.find((item) => item.name === name);

describe('parameter rows (SPEC §2 request parameters)', () => {
  it('lists only supported parameters, in the SPEC order with type among the advanced', () => {
    expect(parameterRows(KRAKEN).map((item) => item.name)).toEqual([
      'symbol',
      'action',
      'quantity',
      'limit_price',
      'type',
    ]);
    expect(row(parameterRows(KRAKEN), 'type')?.advanced).toBe(true);
  });

  it('gives durations their meanings and symbol examples their class', () => {
    const rows = parameterRows(PAPER);
    expect(row(rows, 'duration')?.values).toContainEqual({
      value: 'gtc',
      meaning: 'good till canceled: stays open until filled or canceled',
      pickable: true,
    });
    expect(row(rows, 'symbol')?.examples).toEqual([{ value: 'AAPL', note: 'Stock' }]);
    expect(row(rows, 'quantity')?.required).toBe('Yes, except for close and cancel');
    expect(row(rows, 'limit_price')?.required).toBe('For limit and stop_limit orders');
    // What the order language refuses on a close or cancel is said where the field is described.
    expect(row(rows, 'quantity')?.comments.join(' ')).toContain('a cancel takes none');
    expect(row(rows, 'duration')?.comments.join(' ')).toContain('Not given with close or cancel.');
  });

  it('explains indexed legs and a limit price required without market orders', () => {
    const rows = parameterRows({ ...TRADIER, reference: { ...TRADIER.reference, type: { values: ['limit'] } } });
    expect(row(rows, 'legs')?.comments.join(' ')).toContain('symbol[2]');
    expect(row(rows, 'limit_price')?.required).toBe('Yes');
  });

  it('says the default durations the hook gives at this broker', () => {
    const at = (values: string[]) =>
      row(parameterRows({ ...PAPER, reference: { ...PAPER.reference, duration: { values } } }), 'duration')?.comments;
    expect(at(['day', 'gtc'])).toContain(
      'Default gtc for limit and stop orders, else day. Not given with close or cancel.',
    );
    expect(at(['day', 'ioc'])).toContain('Default day. Not given with close or cancel.');
    expect(at(['gtc', 'ioc'])).toContain('Default gtc. Not given with close or cancel.');
  });
});
