import { describe, expect, it } from 'vitest';
import { parseOrderText } from './json.ts';

describe('parseOrderText', () => {
  it('parses strict JSON without repair', () => {
    expect(parseOrderText('{"symbol":"AAPL","quantity":1}')).toEqual({
      ok: true,
      value: { symbol: 'AAPL', quantity: 1 },
      repaired: false,
    });
  });

  it.each([
    ['comments', '{"symbol": "AAPL", // the ticker\n "quantity": 1 /* one */}', { symbol: 'AAPL', quantity: 1 }],
    ['single quotes', "{'symbol': 'AAPL'}", { symbol: 'AAPL' }],
    ['unquoted keys', '{symbol: "AAPL"}', { symbol: 'AAPL' }],
    ['trailing commas', '{"symbol": "AAPL", "legs": [1, 2,],}', { symbol: 'AAPL', legs: [1, 2] }],
    ['missing brackets', '{"symbol": "AAPL", "legs": [1, 2', { symbol: 'AAPL', legs: [1, 2] }],
    ['Python constants', '{"a": True, "b": False, "c": None}', { a: true, b: false, c: null }],
  ])('repairs %s', (_name, text, value) => {
    expect(parseOrderText(text)).toEqual({ ok: true, value, repaired: true });
  });

  it.each([
    ['', 'Unexpected end of json string at position 0'],
    ['   ', 'Unexpected end of json string at position 3'],
    ['{"a": 1}}}x', 'Unexpected character "x" at position 10'],
    ['{"a"}', 'Colon expected at position 4'],
    ['{"a" 1 : 2}', 'Object key expected at position 7'],
    ['{"a": "\\u12x4"}', 'Invalid unicode character "\\u12x4" at position 7'],
    ['{"a": 1, :', 'Object key expected at position 9'],
  ])('reports what cannot be repaired: %j', (text, error) => {
    expect(parseOrderText(text)).toEqual({ ok: false, error });
  });

  // JSON.parse would keep the last "action" and the playground would test another order than the
  // hook, which refuses this text.
  it.each([
    ['strict JSON', '{"symbol":"AAPL","action":"buy","quantity":1,"action":"sell"}'],
    ['repaired JSON', "{symbol: 'AAPL', action: 'buy', quantity: 1, action: 'sell',}"],
  ])('reports a key given twice in %s', (_name, text) => {
    expect(parseOrderText(text)).toEqual({ ok: false, error: 'action: given twice' });
  });
});
