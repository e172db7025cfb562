import { describe, expect, it } from 'vitest';
import { cryptoExchange, NOW, optionsBroker, stockBroker } from '../test-fixtures.ts';
import { buildSampleOrder, classExampleSymbol, defaultExamplePayload, playgroundChoices } from './sample.ts';

describe('playground samples', () => {
  it('offers the provider’s classes by weight, types and actions for the class', () => {
    expect(playgroundChoices(optionsBroker)).toEqual({
      classes: ['stock', 'option'],
      types: ['limit', 'stop_limit'],
      actions: ['buy', 'sell', 'buy_to_cover', 'sell_short', 'close', 'cancel'],
    });
    expect(playgroundChoices(optionsBroker, 'option').actions).toEqual([
      'buy_to_open',
      'buy_to_close',
      'sell_to_open',
      'sell_to_close',
    ]);
    expect(playgroundChoices(cryptoExchange)).toEqual({
      classes: ['crypto'],
      types: ['market', 'limit'],
      actions: ['buy', 'sell'],
    });
  });

  it('builds the default example payload from the provider’s first symbol', () => {
    expect(defaultExamplePayload(cryptoExchange)).toEqual({ symbol: 'BTCUSD', action: 'buy', quantity: 1 });
    expect(defaultExamplePayload()).toEqual({ symbol: 'AAPL', action: 'buy', quantity: 1 });
    const optionsFirst = {
      ...optionsBroker,
      reference: {
        ...optionsBroker.reference,
        symbol: { examples: ['SPY_271217C00600000'], examplesClass: ['option' as const] },
      },
    };
    expect(defaultExamplePayload(optionsFirst)).toEqual({
      symbol: 'SPY_271217C00600000',
      action: 'buy_to_open',
      quantity: 1,
    });
  });

  it('takes class examples from the provider, else from the enumeration', () => {
    expect(classExampleSymbol('crypto', stockBroker)).toBe('BTC/USD');
    expect(classExampleSymbol('forex', stockBroker)).toBe('EURUSD');
  });

  it.each([
    [
      { provider: stockBroker, type: 'limit' as const },
      { symbol: 'AAPL', action: 'buy', quantity: 1, class: 'stock', type: 'limit', limit_price: 190.5 },
    ],
    [
      { provider: stockBroker, type: 'stop' as const },
      { symbol: 'AAPL', action: 'buy', quantity: 1, class: 'stock', type: 'stop', stop_price: 185 },
    ],
    [
      { provider: stockBroker, class: 'crypto' as const, type: 'stop_limit' as const, action: 'sell' as const },
      {
        symbol: 'BTC/USD',
        action: 'sell',
        quantity: 1,
        class: 'crypto',
        type: 'stop_limit',
        // A sell's limit at or under its stop (the examples are 190.5 and 185).
        limit_price: 185,
        stop_price: 190.5,
      },
    ],
    [
      { provider: stockBroker, type: 'stop_limit' as const, action: 'buy' as const },
      {
        symbol: 'AAPL',
        action: 'buy',
        quantity: 1,
        class: 'stock',
        type: 'stop_limit',
        limit_price: 190.5,
        stop_price: 185,
      },
    ],
    [
      { provider: stockBroker, type: 'limit' as const, action: 'close' as const },
      { symbol: 'AAPL', action: 'close', class: 'stock', type: 'market' },
    ],
    [
      { provider: stockBroker, action: 'cancel' as const },
      { symbol: 'AAPL', action: 'cancel', class: 'stock', type: 'market' },
    ],
    [
      { provider: optionsBroker, class: 'option' as const, type: 'limit' as const, action: 'buy' as const },
      {
        // The broker's example (December 2027) moved to a current expiry as of NOW (June 2025).
        symbol: 'SPY_250919C00600000',
        action: 'buy_to_open',
        quantity: 1,
        class: 'option',
        type: 'limit',
        limit_price: 150,
      },
    ],
    [{ provider: cryptoExchange }, { symbol: 'BTCUSD', action: 'buy', quantity: 1, type: 'market' }],
    [{}, { symbol: 'AAPL', action: 'buy', quantity: 1 }],
  ])('builds a sample for %j', (selection, draft) => {
    expect(buildSampleOrder(selection, NOW)).toEqual(draft);
  });
});
