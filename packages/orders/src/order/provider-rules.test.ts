import { describe, expect, it } from 'vitest';
import { cryptoExchange, now, optionsBroker, stockBroker } from '../test-fixtures.ts';
import type { Provider } from '../types.ts';
import { normalizeOrder } from './normalize.ts';

const normalize = (input: unknown, provider: Provider) => normalizeOrder(input, { now, provider });

describe('normalizeOrder against a provider reference', () => {
  it('accepts client_id at any provider: it is the router idempotency key', () => {
    const { client_id: _omitted, ...reference } = stockBroker.reference;
    const provider: Provider = { ...stockBroker, reference };
    const result = normalize({ symbol: 'AAPL', action: 'buy', quantity: 1, client_id: 'abc-1' }, provider);
    expect(result).toMatchObject({ ok: true, order: { client_id: 'abc-1' } });
  });

  it('refuses a client_id the broker’s id pattern does not take, as its mapper does (a test webhook too)', () => {
    const provider: Provider = {
      ...stockBroker,
      title: 'MetaTrader',
      reference: {
        ...stockBroker.reference,
        client_id: {
          pattern: '^[A-Za-z0-9_]{1,10}$',
          comments: 'Up to 10 letters, digits or _, shown as the order comment. It shares 26 characters.',
        },
      },
    };
    const order = (client_id: string) => ({ symbol: 'AAPL', action: 'buy', quantity: 1, client_id });
    expect(normalize(order('tv_1'), provider)).toMatchObject({ ok: true, order: { client_id: 'tv_1' } });
    expect(normalize(order('strategy-long-entry'), provider)).toEqual({
      ok: false,
      error: {
        field: 'client_id',
        message: 'MetaTrader: client_id: up to 10 letters, digits or _, shown as the order comment',
      },
    });
  });

  it('accepts what the provider supports', () => {
    expect(
      normalize(
        { symbol: 'AAPL', action: 'buy', quantity: 1, take_profit_price: 200, stop_loss_price: 180, limit_price: 190 },
        stockBroker,
      ),
    ).toMatchObject({
      ok: true,
      order: { type: 'limit', duration: 'gtc' },
    });
    expect(
      normalize({ symbol: 'XBTUSD', action: 'buy', quantity: 0.5, extra: { leverage: 2 } }, cryptoExchange),
    ).toMatchObject({
      ok: true,
      order: { symbol: 'BTC/USD', class: 'crypto', extra: { leverage: 2 } },
    });
  });

  it('classes a plain ticker by the provider when it trades no stock', () => {
    expect(normalize({ symbol: 'DOGE2', action: 'buy', quantity: 10 }, cryptoExchange)).toMatchObject({
      ok: true,
      order: { class: 'crypto' },
    });
  });

  it('replaces a defaulted duration the provider lacks with its first', () => {
    // A market order defaults to day; Kraken knows only gtc and ioc.
    expect(normalize({ symbol: 'BTCUSD', action: 'buy', quantity: 1 }, cryptoExchange)).toMatchObject({
      ok: true,
      order: { duration: 'gtc' },
    });
  });

  it('accepts an iron condor at an options broker', () => {
    const condor = {
      symbol: 'SPY_271217P00540000',
      action: 'buy_to_open',
      'symbol[2]': 'SPY_271217P00550000',
      'action[2]': 'sell_to_open',
      quantity: 1,
      limit_price: -1.25,
    };
    expect(normalize(condor, optionsBroker)).toMatchObject({ ok: true, order: { group: 'combo', type: 'limit' } });
  });

  it.each<[string, unknown, Provider, string, string]>([
    [
      'an unsupported field',
      { symbol: 'BTCUSD', action: 'buy', quantity: 1, stop_loss_price: 3 },
      cryptoExchange,
      'stop_loss_price',
      'Kraken: stop_loss_price: not supported',
    ],
    [
      'an unsupported field even when its value is bad',
      { symbol: 'BTCUSD', action: 'buy', quantity: 1, stop_loss_price: 'x' },
      cryptoExchange,
      'stop_loss_price',
      'Kraken: stop_loss_price: not supported',
    ],
    [
      'legs where there are none',
      { symbol: 'A', action: 'buy', quantity: 1, 'symbol[2]': 'B', 'action[2]': 'buy' },
      stockBroker,
      'legs',
      'Alpaca: legs: not supported',
    ],
    [
      'a leg field the provider lacks',
      {
        legs: [
          { symbol: 'SPY', action: 'buy', quantity: 1, type: 'limit', limit_price: 1 },
          { symbol: 'SPY', action: 'buy', quantity: 1 },
        ],
      },
      { ...optionsBroker, reference: { ...optionsBroker.reference, type: undefined } },
      'legs[0].type',
      'Tradier: legs[0].type: not supported',
    ],
    // Neither gives a class: the first leg's symbol is what reads as an unsupported one, as in a single order.
    [
      'a leg class the provider lacks, read from its symbol',
      { symbol: 'ESZ2026', action: 'buy', 'symbol[2]': 'ESH2027', 'action[2]': 'sell', quantity: 1, limit_price: 1 },
      optionsBroker,
      'symbol',
      'Tradier: symbol: future is not supported; use stock, option',
    ],
    [
      'a leg class the provider lacks, read from its symbol in a legs array',
      {
        legs: [
          { symbol: 'ESZ2026', action: 'buy' },
          { symbol: 'ESH2027', action: 'sell' },
        ],
        quantity: 1,
        limit_price: 1,
      },
      optionsBroker,
      'legs[0].symbol',
      'Tradier: legs[0].symbol: future is not supported; use stock, option',
    ],
    [
      'a leg class the provider lacks, as written',
      {
        legs: [
          { symbol: 'SPY', action: 'buy' },
          { symbol: 'BTCUSD', class: 'crypto', action: 'sell' },
        ],
        quantity: 1,
        limit_price: 1,
      },
      optionsBroker,
      'legs[1].class',
      'Tradier: legs[1].class: crypto is not supported; use stock, option',
    ],
    [
      'an action the provider lacks',
      { symbol: 'BTCUSD', action: 'close' },
      cryptoExchange,
      'action',
      'Kraken: action: close is not supported; use buy, sell',
    ],
    [
      'a type the provider lacks',
      { symbol: 'BTCUSD', action: 'buy', quantity: 1, type: 'stop', stop_price: 3 },
      cryptoExchange,
      'stop_price',
      'Kraken: stop_price: not supported',
    ],
    [
      'a class the provider lacks',
      { symbol: 'ESZ25', action: 'buy', quantity: 1 },
      cryptoExchange,
      'symbol',
      'Kraken: symbol: future is not supported; use crypto',
    ],
    [
      'an explicit class the provider lacks',
      { symbol: 'AAPL', class: 'fund', action: 'buy', quantity: 1 },
      stockBroker,
      'class',
      'Alpaca: class: fund is not supported; use stock, crypto',
    ],
    [
      'a class the provider refuses, with its reason',
      { symbol: 'AAPL', class: 'stock', action: 'buy', quantity: 1 },
      {
        ...cryptoExchange,
        reference: {
          ...cryptoExchange.reference,
          class: { values: ['crypto'], unsupported: { stock: 'no stock API' } },
        },
      },
      'class',
      'Kraken: class: stock is not supported (no stock API); use crypto',
    ],
    [
      'an explicit duration the provider lacks',
      { symbol: 'BTCUSD', action: 'buy', quantity: 1, duration: 'day' },
      cryptoExchange,
      'duration',
      'Kraken: duration: day is not supported; use gtc, ioc',
    ],
    [
      'a quantity_type the provider lacks',
      { symbol: 'AAPL', action: 'buy', quantity: 1, quantity_type: 'percent_of_equity' },
      stockBroker,
      'quantity_type',
      'Alpaca: quantity_type: percent_of_equity is not supported; use fixed, cash',
    ],
    [
      'a market order where there are none',
      { symbol: 'SPY', action: 'buy', quantity: 1 },
      optionsBroker,
      'limit_price',
      'Tradier: limit_price: required (Tradier takes no market orders)',
    ],
    [
      'a group the provider lacks',
      { symbol: 'A', action: 'buy', quantity: 1, 'symbol[2]': 'B', 'action[2]': 'buy', group: 'oto', limit_price: 1 },
      optionsBroker,
      'group',
      'Tradier: group: oto is not supported; use combo, oco',
    ],
    [
      'an extra key the provider lacks',
      { symbol: 'BTCUSD', action: 'buy', quantity: 1, extra: { margin: 1 } },
      cryptoExchange,
      'extra.margin',
      'Kraken: extra.margin: not supported; use leverage, post_only',
    ],
    [
      'a missing required parameter',
      { symbol: 'BTCUSD', action: 'buy' },
      cryptoExchange,
      'quantity',
      'quantity: required',
    ],
  ])('refuses %s', (_name, input, provider, field, message) => {
    expect(normalize(input, provider)).toEqual({ ok: false, error: { field, message } });
  });

  it('enforces required parameters the order lacks', () => {
    const strict: Provider = { ...stockBroker, reference: { ...stockBroker.reference, client_id: { required: true } } };
    expect(normalize({ symbol: 'AAPL', action: 'buy', quantity: 1 }, strict)).toEqual({
      ok: false,
      error: { field: 'client_id', message: 'Alpaca: client_id: required' },
    });
    expect(normalize({ symbol: 'AAPL', action: 'close' }, strict)).toEqual({
      ok: false,
      error: { field: 'client_id', message: 'Alpaca: client_id: required' },
    });
    expect(normalize({ symbol: 'AAPL', action: 'close', client_id: 'a1' }, strict)).toMatchObject({ ok: true });
  });

  it('falls back to the Brokerage title', () => {
    const untitled: Provider = { ...cryptoExchange, title: '' };
    expect(normalize({ symbol: 'BTCUSD', action: 'buy', quantity: 1, stop_price: 3 }, untitled)).toMatchObject({
      ok: false,
      error: { message: 'Brokerage: stop_price: not supported' },
    });
  });
});

describe("a pair named with a trading server's suffix", () => {
  // EURUSD.pro, a MetaTrader server's name for EURUSD, went to Alpaca and the rest as a stock ticker.
  const serverBroker: Provider = {
    ...stockBroker,
    title: 'MetaTrader',
    reference: { ...stockBroker.reference, symbol: { ...stockBroker.reference.symbol, serverNames: true } },
  };

  it.each([
    ['EURUSD.pro', 'EURUSD', '.pro'],
    ['FX:XAUUSD.m', 'XAUUSD', '.m'],
    ['EURUSDm', 'EURUSD', 'm'],
    ['EURUSD_i', 'EURUSD', '_i'],
    ['GBPJPY-ECN', 'GBPJPY', '-ECN'],
    ['BTCUSD#', 'BTCUSD', '#'],
  ])(
    '%s is refused where the broker takes no server names, and passes as written where it does',
    (symbol, pair, suffix) => {
      const written = symbol.replace(/^\w+:/, '');
      for (const input of [
        { symbol, action: 'buy', quantity: 1 },
        { symbol, class: 'forex', action: 'buy', quantity: 1 },
      ]) {
        expect(normalize(input, stockBroker)).toEqual({
          ok: false,
          error: {
            field: 'symbol',
            message:
              `symbol: ${written} is the pair ${pair} with "${suffix}", a suffix MetaTrader and cTrader servers add to ` +
              `their names; send ${pair} (only MetaTrader and cTrader brokers take their server's names)`,
          },
        });
      }
      expect(normalize({ symbol, action: 'buy', quantity: 1 }, serverBroker)).toMatchObject({
        ok: true,
        order: { symbol: written.toUpperCase() },
      });
    },
  );

  it('leaves tickers with a dot alone, and a lower-case name that is no suffix', () => {
    for (const symbol of ['BRK.B', 'AAPL.US', 'US30.cash', 'eurusdm', 'RDS.A']) {
      expect(normalize({ symbol, action: 'buy', quantity: 1 }, stockBroker)).toMatchObject({ ok: true });
    }
  });
});
