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

  it('reads a leading byte-order mark as the hook does, not as a repair', () => {
    expect(parseOrderText('\uFEFF{"symbol":"AAPL"}')).toEqual({ ok: true, value: { symbol: 'AAPL' }, repaired: false });
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

  // jsonrepair completes a number cut short with a 0: `1e` would become 1 and `-` 0, a price
  // nobody typed.
  it.each([
    ['{"limit_price": 1e}', 'Incomplete number "1e" at position 16'],
    ['{"limit_price": -}', 'Incomplete number "-" at position 16'],
    ['{"limit_price": 2.}', 'Incomplete number "2." at position 16'],
    ["{limit_price: 1e+, 'quantity': 1,}", 'Incomplete number "1e+" at position 14'],
    ['{"a": 1, "stop_price": 5E-', 'Incomplete number "5E-" at position 23'],
    ['{"legs": [{"quantity": 1}, -]}', 'Incomplete number "-" at position 27'],
    ['{"a": /* note */ -\n}', 'Incomplete number "-" at position 17'],
  ])('refuses a truncated number rather than repairing it: %j', (text, error) => {
    expect(parseOrderText(text)).toEqual({ ok: false, error });
  });

  it.each([
    ['numbers with a dot first', '{"a": .5, "b": -.5,}', { a: 0.5, b: -0.5 }],
    [
      'minus signs and exponents in text',
      '{symbol: BRK-B, \'note\': \'1e - 2.\', /* - */ "x": "e-",}',
      {
        symbol: 'BRK-B',
        note: '1e - 2.',
        x: 'e-',
      },
    ],
    ['whole exponents', '{a: 1e5, b: 2.5E-3,}', { a: 1e5, b: 2.5e-3 }],
  ])('still repairs %s', (_name, text, value) => {
    expect(parseOrderText(text)).toEqual({ ok: true, value, repaired: true });
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
