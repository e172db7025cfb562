import { describe, expect, it } from 'vitest';
import { decimalField, decimalString, listOf, quantityString, stringField } from './json-read.ts';

describe('json-read', () => {
  it('reads fields of any shape without trusting it', () => {
    const body = { id: 257459, qty: '2.5', price: null, bad: 'x', nested: [1] };
    expect(stringField(body, 'id')).toBe('257459');
    expect(decimalField(body, 'qty')).toBe(2.5);
    expect(decimalField(body, 'price')).toBeUndefined();
    expect(decimalField(body, 'bad')).toBeUndefined();
    expect(stringField('text', 'id')).toBeUndefined();
    expect(stringField(body, 'nested')).toBeUndefined();
  });

  it('reads Tradier-style lists: array, single object, "null"', () => {
    expect(listOf([{ a: 1 }, 2, { b: 2 }])).toEqual([{ a: 1 }, { b: 2 }]);
    expect(listOf({ a: 1 })).toEqual([{ a: 1 }]);
    expect(listOf('null')).toEqual([]);
    expect(listOf(undefined)).toEqual([]);
  });

  it('spells decimals without exponent or float noise', () => {
    expect(decimalString(10)).toBe('10');
    expect(decimalString(185.10000000000002)).toBe('185.1');
    expect(decimalString(1e-7)).toBe('0.0000001');
    expect(decimalString(0.1 + 0.2)).toBe('0.3');
    expect(decimalString(1e21)).toBe('1000000000000000000000');
  });

  it('spells quantities cut to 9 decimals, never rounded up, without float noise', () => {
    expect(quantityString(1.9999999999)).toBe('1.999999999');
    expect(quantityString(0.7 * 3)).toBe('2.1');
    expect(quantityString(185.10000000000002)).toBe('185.1');
    expect(quantityString(1e-7)).toBe('0.0000001');
    expect(quantityString(12)).toBe('12');
  });
});
