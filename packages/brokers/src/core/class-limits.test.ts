// Actions and types a broker takes for one class only (`byClass` in its reference): refused up
// front by the order language, the hook's and the playground's, and never offered by the
// playground. Before, Alpaca and tastytrade were offered sell_short for crypto and Webull a crypto
// stop, which their mappers refused only on the way to the broker.
import { applyClass, normalizeOrder, playgroundChoices } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { alpacaDescriptor } from '../adapters/alpaca/descriptor.ts';
import { tastytradeDescriptor } from '../adapters/tastytrade/descriptor.ts';
import { webullDescriptor } from '../adapters/webull/descriptor.ts';
import { brokerModules } from '../discover.ts';
import { toProvider } from './registry.ts';

const now = () => Date.UTC(2026, 5, 15);
const alpaca = toProvider(alpacaDescriptor);
const tastytrade = toProvider(tastytradeDescriptor);
const webull = toProvider(webullDescriptor);

describe('per-class limits of a broker reference', () => {
  it.each([
    [alpaca, 'Alpaca'],
    [tastytrade, 'tastytrade'],
  ])('%#: refuses a crypto short sale and offers none', (provider, title) => {
    for (const action of ['sell_short', 'buy_to_cover']) {
      expect(normalizeOrder({ symbol: 'BTC/USD', action, quantity: 1 }, { now, provider })).toEqual({
        ok: false,
        error: {
          field: 'action',
          message: `${title}: action: ${action} is not supported for crypto; use buy, sell, close, cancel`,
        },
      });
    }
    expect(normalizeOrder({ symbol: 'AAPL', action: 'sell_short', quantity: 1 }, { now, provider }).ok).toBe(true);
    expect(playgroundChoices(provider, 'crypto').actions).toEqual(['buy', 'sell', 'close', 'cancel']);
    expect(playgroundChoices(provider, 'stock').actions).toContain('sell_short');
    expect(applyClass({ symbol: 'AAPL', action: 'sell_short', quantity: 1 }, 'crypto', provider, now)).toMatchObject({
      class: 'crypto',
      action: 'buy',
    });
  });

  it('Webull: refuses a crypto stop and offers none', () => {
    const stop = { symbol: 'BTCUSD', action: 'sell', quantity: 1, stop_price: 50_000 };
    expect(normalizeOrder(stop, { now, provider: webull })).toEqual({
      ok: false,
      error: {
        field: 'type',
        message: 'Webull: type: stop is not supported for crypto; use market, limit, stop_limit',
      },
    });
    expect(normalizeOrder({ ...stop, symbol: 'AAPL', stop_price: 180 }, { now, provider: webull }).ok).toBe(true);
    expect(playgroundChoices(webull, 'crypto').types).toEqual(['market', 'limit', 'stop_limit']);
    expect(playgroundChoices(webull, 'stock').types).toContain('stop');
    const draft = { symbol: 'AAPL', action: 'sell', quantity: 1, type: 'stop', stop_price: 180 };
    expect(applyClass(draft, 'crypto', webull, now)).toEqual({
      symbol: 'BTC/USD',
      class: 'crypto',
      action: 'sell',
      quantity: 1,
      type: 'market',
    });
  });

  it('names in every broker only classes and values the broker takes', () => {
    for (const { descriptor } of brokerModules) {
      for (const parameter of ['action', 'type'] as const) {
        const reference = descriptor.reference[parameter];
        for (const [orderClass, values] of Object.entries(reference?.byClass ?? {})) {
          expect(descriptor.reference.class?.values, `${descriptor.name} ${parameter}`).toContain(orderClass);
          for (const value of values ?? [])
            expect(reference?.values, `${descriptor.name} ${parameter}`).toContain(value);
        }
      }
    }
  });
});
