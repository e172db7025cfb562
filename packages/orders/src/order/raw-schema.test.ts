// parseRawOrder checks a body by the schema of the fields it has (fewer allocations per signal):
// its result must be the whole schema's, value and issues alike, for bodies valid or not.
import { describe, expect, it } from 'vitest';
import { parseRawOrder, rawOrderSchema } from './raw-schema.ts';

const bodies: Array<Record<string, unknown>> = [
  {},
  { symbol: 'AAPL', action: 'buy', quantity: 1 },
  { symbol: 'AAPL', action: 'buy', quantity: 1, client_id: 'a-1' },
  { client_id: 'a-1', quantity: '10 * 2', action: ' BUY ', symbol: 7203 },
  { symbol: 'aapl', action: 'BUY', quantity: '10', type: 'limit', limit_price: '101.5 * 1.01', duration: 'gtc' },
  { symbol: '', action: 'hold', quantity: true, type: 'market', class: 'moon' },
  { symbol: 'AAPL', action: '{{strategy.order.action}}', quantity: 1, time: '{{timenow}}' },
  { symbol: 'AAPL', action: 'buy', quantity: 1, client_id: 2 ** 60 },
  { symbol: 'AAPL', action: 'buy', quantity: 1, client_id: 'x'.repeat(65), parent_id: '' },
  { symbol: 'AAPL', action: 'buy', quantity: 1, stop_los_price: 3 },
  { symbol: 'AAPL', action: 'buy', quantity: 1, extra: { a: 1, b: 'two', c: true } },
  { symbol: 'AAPL', action: 'buy', quantity: 1, extra: { a: { nested: 1 }, b: '{{close}}' } },
  { group: 'oco', legs: [{ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 1 }, { nope: 1 }] },
  { legs: 'none', quantity_type: 'percent', take_profit_price: 5, stop_loss_price_percent: '2%' },
  JSON.parse('{"symbol":"AAPL","action":"buy","__proto__":{"x":1}}') as Record<string, unknown>,
];

const plain = (result: ReturnType<typeof rawOrderSchema.safeParse>) =>
  result.success ? { data: result.data } : { issues: result.error.issues };

describe('parseRawOrder', () => {
  it.each(bodies.map((body) => [JSON.stringify(body), body]))('answers as the whole schema for %s', (_, body) => {
    const whole = plain(rawOrderSchema.safeParse(structuredClone(body)));
    expect(plain(parseRawOrder(structuredClone(body)))).toEqual(whole);
    // Again, from its cached schema.
    expect(plain(parseRawOrder(structuredClone(body)))).toEqual(whole);
  });
});
