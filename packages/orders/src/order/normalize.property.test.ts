// Generated bodies (a valid order plus up to five fields of tricky values: numbers as text, "1e3",
// "0x10", "1,5", placeholders, lookalikes, percents past 100, legs…): however a body arrives, as
// text or parsed, its keys in any order, with a byte-order mark and CRLF, it reads as one order or
// as one refusal; an accepted order's numbers are what an order can carry; a refusal names its field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cryptoExchange, now, optionsBroker, stockBroker } from '../test-fixtures.ts';
import type { Provider } from '../types.ts';
import { type NormalizeResult, normalizeOrder } from './normalize.ts';

// biome-ignore format: one kind of value per line
const tricky = fc.constantFrom<unknown>(
  1, 5, 100, 0.5, -1, 0, 1e-7, 150, 99.999, 1.2345678901234567, 12345678901234568,
  '5', ' 5 ', '5.', '.5', '-0', '+5', '1e3', '1e400', '100*0.99', 'round(10/3,2)', '10/3',
  '1,5', '0x10', 'NaN', 'Infinity', '{{close}}', '%last_price%', '\u0665', '\uff15', '5\u00a0', '\u200b5',
  '12345678901234567', true, null, [1], { a: 1 },
);
const fields = {
  symbol: fc.constantFrom<unknown>(
    'AAPL',
    'aapl',
    'ESZ6',
    'ES1!',
    'EURUSD',
    'BTC-USDT',
    'AAPL271217C200',
    'NASDAQ:AAPL',
    '{{ticker}}',
    ' MSFT ',
    'ABEV3',
    'AAPL\u200b',
    7203,
  ),
  action: fc.constantFrom<unknown>(
    'buy',
    'SELL',
    ' sell_short',
    'close',
    'cancel',
    'buy_to_open',
    'sell_to_close',
    'long',
    'buy\u200b',
  ),
  quantity: tricky,
  quantity_type: fc.constantFrom<unknown>('fixed', 'cash', 'percent_of_equity', 'percent_of_position'),
  type: fc.constantFrom<unknown>('market', 'limit', 'stop', 'stop_limit'),
  limit_price: tricky,
  stop_price: tricky,
  stop_price_percent: tricky,
  take_profit_price: tricky,
  stop_loss_price: tricky,
  stop_loss_price_distance: tricky,
  stop_loss_price_percent: tricky,
  duration: fc.constantFrom<unknown>('day', 'gtc', 'ioc', 'GTD'),
  class: fc.constantFrom<unknown>('stock', 'future', 'option', 'cfd', 'crypto', 'forex'),
  client_id: fc.constantFrom<unknown>('a1', 42, '{{strategy.order.id}}'),
  group: fc.constantFrom<unknown>('bracket', 'combo', 'oco'),
  'symbol[2]': fc.constantFrom<unknown>('MSFT', 'SPY 271217P00460000'),
  'action[2]': fc.constantFrom<unknown>('sell', 'sell_to_open'),
  'quantity[2]': tricky,
  side: fc.constantFrom<unknown>('buy'),
};
const names = Object.keys(fields) as Array<keyof typeof fields>;
const bases = [
  { symbol: 'AAPL', action: 'buy', quantity: 1 },
  { symbol: 'AAPL', action: 'sell', quantity: 1, limit_price: 100 },
  { symbol: 'AAPL', action: 'close' },
  { symbol: 'ESZ6', action: 'buy', quantity: '2' },
];
const body = fc
  .tuple(fc.record(fields), fc.subarray(names, { maxLength: 5 }), fc.constantFrom(...bases))
  .map(([values, chosen, base]) => {
    const order: Record<string, unknown> = { ...base };
    for (const name of chosen) order[name] = values[name];
    return order;
  });
const provider = fc.constantFrom<Provider | undefined>(undefined, stockBroker, cryptoExchange, optionsBroker);

const sorted = (result: NormalizeResult) =>
  result.ok ? JSON.stringify(Object.fromEntries(Object.entries(result.order).sort())) : 'refused';

describe('normalizeOrder on generated bodies', () => {
  it('reads a body alike however it arrives, and answers an order or a refusal naming its field', () => {
    fc.assert(
      fc.property(body, provider, (order, p) => {
        const options = { now, provider: p };
        const text = JSON.stringify(order);
        const result = normalizeOrder(text, options);
        expect(normalizeOrder(JSON.parse(text), options)).toEqual(result);
        const crlf = `\ufeff${JSON.stringify(order, null, 2).replace(/\n/g, '\r\n')}\r\n`;
        expect(normalizeOrder(crlf, options)).toEqual(result);
        const reversed = normalizeOrder(JSON.stringify(Object.fromEntries(Object.entries(order).reverse())), options);
        expect(sorted(reversed)).toBe(sorted(result));
        if (!result.ok) {
          const { field, message } = result.error;
          expect(message.startsWith(`${field}: `) || message.startsWith(`${p?.title}: ${field}: `)).toBe(true);
          return;
        }
        const numbers = [result.order, ...(result.order.legs ?? [])].flatMap((o) =>
          Object.values(o).filter((v): v is number => typeof v === 'number'),
        );
        for (const n of numbers) expect(Number.isFinite(n) && Math.abs(n) < 1e15).toBe(true);
        for (const o of [result.order, ...(result.order.legs ?? [])]) {
          if (o.quantity !== undefined) expect(o.quantity).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400, seed: 20261127 },
    );
  });
});
