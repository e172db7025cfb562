import { describe, expect, it } from 'vitest';
import { OrderValidationError } from '../errors.ts';
import { now } from '../test-fixtures.ts';
import type { Order } from '../types.ts';
import { normalizeOrder, normalizeOrderOrThrow } from './normalize.ts';

const normalize = (input: unknown) => normalizeOrder(input, { now });

describe('normalizeOrder accepts', () => {
  it.each<[string, unknown, Order]>([
    [
      'a market order with defaults',
      { symbol: 'AAPL', action: 'buy', quantity: 10 },
      {
        symbol: 'AAPL',
        class: 'stock',
        action: 'buy',
        quantity: 10,
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      },
    ],
    [
      'an exchange prefix, kept apart from the symbol',
      { symbol: 'nse:infy', action: 'buy', quantity: 10 },
      {
        symbol: 'INFY',
        exchange: 'NSE',
        class: 'stock',
        action: 'buy',
        quantity: 10,
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      },
    ],
    [
      'string numbers and an expression; limit_price makes a limit order lasting gtc',
      { symbol: 'aapl', action: 'BUY', quantity: '10', limit_price: '101.5 * 1.01' },
      {
        symbol: 'AAPL',
        class: 'stock',
        action: 'buy',
        quantity: 10,
        quantity_type: 'fixed',
        type: 'limit',
        limit_price: 102.515,
        duration: 'gtc',
      },
    ],
    [
      'a stop order from stop_price',
      { symbol: 'MSFT', action: 'sell', quantity: 5, stop_price: 300 },
      {
        symbol: 'MSFT',
        class: 'stock',
        action: 'sell',
        quantity: 5,
        quantity_type: 'fixed',
        type: 'stop',
        stop_price: 300,
        duration: 'gtc',
      },
    ],
    [
      'a stop_limit order from both prices',
      { symbol: 'MSFT', action: 'sell', quantity: 5, stop_price: 300, limit_price: 299 },
      {
        symbol: 'MSFT',
        class: 'stock',
        action: 'sell',
        quantity: 5,
        quantity_type: 'fixed',
        type: 'stop_limit',
        limit_price: 299,
        stop_price: 300,
        duration: 'gtc',
      },
    ],
    [
      'a stop from a distance',
      { symbol: 'MSFT', action: 'sell', quantity: 5, stop_price_percent: 2 },
      {
        symbol: 'MSFT',
        class: 'stock',
        action: 'sell',
        quantity: 5,
        quantity_type: 'fixed',
        type: 'stop',
        stop_price_percent: 2,
        duration: 'gtc',
      },
    ],
    [
      'a bracket order',
      {
        symbol: 'AAPL',
        action: 'buy',
        quantity: 1,
        type: 'limit',
        limit_price: 150,
        take_profit_price: 165,
        stop_loss_price: 140,
      },
      {
        symbol: 'AAPL',
        class: 'stock',
        action: 'buy',
        quantity: 1,
        quantity_type: 'fixed',
        type: 'limit',
        limit_price: 150,
        take_profit_price: 165,
        stop_loss_price: 140,
        duration: 'gtc',
      },
    ],
    [
      'a close without quantity',
      { symbol: 'ESZ4', action: 'close' },
      { symbol: 'ESZ2024', class: 'future', action: 'close', quantity_type: 'fixed', type: 'market', duration: 'day' },
    ],
    [
      'a close of half the position',
      { symbol: 'AAPL', action: 'close', quantity: 50, quantity_type: 'percent_of_position' },
      {
        symbol: 'AAPL',
        class: 'stock',
        action: 'close',
        quantity: 50,
        quantity_type: 'percent_of_position',
        type: 'market',
        duration: 'day',
      },
    ],
    [
      'a cancel',
      { symbol: 'EUR_USD', action: 'cancel' },
      { symbol: 'EUR/USD', class: 'forex', action: 'cancel', quantity_type: 'fixed', type: 'market', duration: 'day' },
    ],
    [
      'percent of equity, explicit duration, ids and extra',
      {
        symbol: 'BTC-USDT',
        action: 'buy',
        quantity: 50,
        quantity_type: 'percent_of_equity',
        duration: 'IOC',
        client_id: 42,
        parent_id: ' abc ',
        extra: { leverage: 2, post_only: true, note: 'x' },
      },
      {
        symbol: 'BTC/USDT',
        class: 'crypto',
        action: 'buy',
        quantity: 50,
        quantity_type: 'percent_of_equity',
        type: 'market',
        duration: 'ioc',
        client_id: '42',
        parent_id: 'abc',
        extra: { leverage: 2, post_only: true, note: 'x' },
      },
    ],
    [
      'an option with its actions',
      { symbol: 'AAPL240119C150', action: 'sell_to_close', quantity: 2 },
      {
        symbol: 'AAPL  240119C00150000',
        class: 'option',
        action: 'sell_to_close',
        quantity: 2,
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      },
    ],
    [
      'an explicit class of a plain ticker, and cfd over a pair',
      { symbol: 'EURUSD', class: 'cfd', action: 'buy', quantity: 1 },
      {
        symbol: 'EUR/USD',
        class: 'cfd',
        action: 'buy',
        quantity: 1,
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      },
    ],
    [
      'a CFD named like a contract month keeps its name (HK50 is the Hang Seng, not a future of 2050)',
      { symbol: 'hk50', class: 'cfd', action: 'buy', quantity: 1 },
      {
        symbol: 'HK50',
        class: 'cfd',
        action: 'buy',
        quantity: 1,
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      },
    ],
    [
      'nulls as absent fields',
      { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: null, extra: null },
      {
        symbol: 'AAPL',
        class: 'stock',
        action: 'buy',
        quantity: 1,
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      },
    ],
    [
      'JSON text with a byte-order mark',
      '\ufeff{"symbol":"AAPL","action":"sell","quantity":1}',
      {
        symbol: 'AAPL',
        class: 'stock',
        action: 'sell',
        quantity: 1,
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      },
    ],
    [
      'JSON text',
      '{"symbol":"NQ1!","action":"sell_short","quantity":"2*1"}',
      {
        symbol: 'NQ1!',
        class: 'future',
        action: 'sell_short',
        quantity: 2,
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      },
    ],
  ])('%s', (_name, input, order) => {
    const result = normalize(input);
    expect(result).toEqual({ ok: true, order });
    if (result.ok) expect(Object.keys(result.order)).toEqual(Object.keys(order));
  });

  // Index CFDs by the names brokers give them: never a futures contract of some year.
  it.each(['HK50', 'CN50', 'CH20', 'SG30', 'EU50', 'DAX40', 'HK33', 'US30', 'UK100', 'DE40', 'JP225', 'AUS200'])(
    'the index CFD %s without a class, or as an index, keeps its name',
    (symbol) => {
      expect(normalize({ symbol, action: 'buy', quantity: 1 })).toMatchObject({ ok: true, order: { symbol } });
      expect(normalize({ symbol, action: 'buy', quantity: 1 })).not.toMatchObject({ order: { class: 'future' } });
      expect(normalize({ symbol, class: 'index', action: 'buy', quantity: 1 })).toMatchObject({
        ok: true,
        order: { symbol, class: 'index' },
      });
    },
  );
});

describe('normalizeOrder takes an explicit class over a short-year contract reading', () => {
  // B3's stocks and BDRs end in digits that read as a contract month: ABEV3 (Ambev) as ABEV
  // October 2023, PFIZ34 (Pfizer's BDR) as PFI December 2034. "class": "stock" was refused as a
  // contradiction, so they could not be traded at all.
  it.each<[unknown, string, string | undefined]>([
    [{ symbol: 'ABEV3', class: 'stock', action: 'buy', quantity: 100 }, 'ABEV3', undefined],
    [{ symbol: 'bmfbovespa:PFIZ34', class: 'stock', action: 'buy', quantity: 10 }, 'PFIZ34', 'BMFBOVESPA'],
    [{ symbol: 'USIM5', class: 'fund', action: 'buy', quantity: 1 }, 'USIM5', undefined],
  ])('%j', (input, symbol, exchange) => {
    const result = normalize(input);
    expect(result.ok && [result.order.symbol, result.order.class, result.order.exchange]).toEqual([
      symbol,
      (input as { class: string }).class,
      exchange,
    ]);
  });

  it('still reads them as contracts without a class: ABEV3 is October 2023, expired, so it says how to send the ticker', () => {
    expect(normalize({ symbol: 'ABEV3', action: 'buy', quantity: 1 })).toEqual({
      ok: false,
      error: {
        field: 'symbol',
        message:
          'symbol: ABEV3 reads as ABEV2023 (root ABE, October 2023), which has expired; send a contract month still ' +
          'trading, or ABE1! for the front month, or give "class": "stock" for a ticker',
      },
    });
  });
});

describe('normalizeOrder refuses a dated contract that has expired', () => {
  // ESH2020 went to the broker as an order for a contract that stopped trading in March 2020.
  // The clock is June 15th 2025: a contract's month over (and a day past it), it trades nowhere.
  it.each([
    [
      'ESH2020',
      'symbol: ESH2020 (root ES, March 2020) has expired; send a contract month still trading, or ES1! for the front month',
    ],
    ['CME_MINI:ESM2025', undefined],
    [
      'CME_MINI:ESK2025',
      'symbol: ESK2025 (root ES, May 2025) has expired; send a contract month still trading, or ES1! for the front month',
    ],
    [
      'ESZ24',
      'symbol: ESZ24 reads as ESZ2024 (root ES, December 2024), which has expired; send a contract month still trading, ' +
        'or ES1! for the front month, or give "class": "stock" for a ticker',
    ],
    [
      '/CLZ4',
      'symbol: /CLZ4 reads as CLZ2024 (root CL, December 2024), which has expired; send a contract month still trading, or CL1! for the front month, or give "class": "stock" for a ticker',
    ],
  ])('%s', (symbol, message) => {
    for (const input of [
      { symbol, action: 'buy', quantity: 1 },
      { symbol, class: 'future', action: 'sell', quantity: 1, limit_price: 5000 },
    ]) {
      expect(normalize(input)).toEqual(
        message ? { ok: false, error: { field: 'symbol', message } } : expect.objectContaining({ ok: true }),
      );
    }
  });

  it('names a leg', () => {
    const legs = [
      { symbol: 'ESU2025', action: 'buy' },
      { symbol: 'ESH2025', action: 'sell' },
    ];
    expect(normalize({ legs, quantity: 1 })).toMatchObject({
      ok: false,
      error: {
        field: 'legs[1].symbol',
        message: expect.stringMatching(/^legs\[1\]\.symbol: ESH2025 \(root ES, March 2025\) has expired;/),
      },
    });
  });

  it('takes it up to a day past its month, and a close or cancel of it, which opens nothing', () => {
    const lastDay = () => Date.UTC(2025, 5, 1, 23, 59);
    expect(normalizeOrder({ symbol: 'ESK2025', action: 'buy', quantity: 1 }, { now: lastDay })).toMatchObject({
      ok: true,
    });
    for (const action of ['close', 'cancel']) {
      expect(normalize({ symbol: 'ESZ2024', action })).toMatchObject({
        ok: true,
        order: { symbol: 'ESZ2024', action },
      });
    }
  });

  // An option past its expiry day went to the broker too (the clock is June 15th 2025).
  it.each([
    [
      'AAPL  240119C00150000',
      'symbol: AAPL  240119C00150000 (AAPL call 150, expiring 2024-01-19) has expired; send an expiry still ahead',
    ],
    [
      'SPY250613P450.5',
      'symbol: SPY250613P450.5 (SPY put 450.5, expiring 2025-06-13) has expired; send an expiry still ahead',
    ],
  ])('%s, an option', (symbol, message) => {
    expect(normalize({ symbol, action: 'buy_to_open', quantity: 1 })).toEqual({
      ok: false,
      error: { field: 'symbol', message },
    });
    // Closing it opens nothing: it passes, as a close of a future does.
    expect(normalize({ symbol, action: 'sell_to_close', quantity: 1 })).toMatchObject({ ok: true });
  });

  it('takes an option on its expiry day and the day after, wherever the exchange is', () => {
    for (const symbol of ['SPY250615C500', 'SPY250614C500']) {
      expect(normalize({ symbol, action: 'buy_to_open', quantity: 1 })).toMatchObject({ ok: true });
    }
  });

  it('leaves a CFD or a ticker given its class as written', () => {
    for (const [symbol, orderClass] of [
      ['ESZ24', 'cfd'],
      ['ABEV3', 'stock'],
      ['ESZ2024', 'cfd'],
    ]) {
      expect(normalize({ symbol, class: orderClass, action: 'buy', quantity: 1 })).toMatchObject({
        ok: true,
        order: { symbol },
      });
    }
  });
});

describe('normalizeOrder refuses a continuous contract written without its "!"', () => {
  // NQ1 (TradingView's NQ1! without the "!") read as root N, August 2021: another contract.
  it.each([
    ['NQ1', 'NQ1!', 'NQ2021 (root N, August 2021)'],
    ['CME_MINI:MNQ1', 'MNQ1!', 'MNQ2021 (root MN, August 2021)'],
    ['YM2', 'YM2!', 'YM2022 (root Y, June 2022)'],
    ['/ZN1', 'ZN1!', 'ZN2021 (root Z, July 2021)'],
  ])('%s', (symbol, continuous, dated) => {
    const written = symbol.replace(/^\w+:/, '');
    for (const input of [
      { symbol, action: 'buy', quantity: 1 },
      { symbol, class: 'future', action: 'buy', quantity: 1 },
    ]) {
      expect(normalize(input)).toEqual({
        ok: false,
        error: {
          field: 'symbol',
          message:
            `symbol: ${written} reads two ways, as the continuous contract ${continuous} without its "!" or as ${dated}; ` +
            `write ${continuous} for the continuous contract, give a dated contract a 2 or 4 digit year, ` +
            'or give "class": "stock" for a ticker',
        },
      });
    }
  });

  it('reads the continuous, the 2 digit year and a near 1 digit year as before, and a ticker with its class', () => {
    const read = (input: Record<string, unknown>) => {
      const result = normalize({ action: 'buy', quantity: 1, ...input });
      return result.ok ? [result.order.symbol, result.order.class] : result.error.message;
    };
    expect(read({ symbol: 'NQ1!' })).toEqual(['NQ1!', 'future']);
    expect(read({ symbol: 'NQU25' })).toEqual(['NQU2025', 'future']);
    expect(read({ symbol: 'NQU5' })).toEqual(['NQU2025', 'future']);
    expect(read({ symbol: 'ABCV1', class: 'stock' })).toEqual(['ABCV1', 'stock']);
  });

  // ES1, GC1, CL2, 6E1 (a known root's continuous name without its "!") read as stock tickers and
  // went to a stock broker; NQ1, which reads as a dated contract, was refused already.
  it.each([
    ['ES1', 'ES1!'],
    ['GC1', 'GC1!'],
    ['CL2', 'CL2!'],
    ['6E1', '6E1!'],
    ['/ZC1', 'ZC1!'],
    ['CME_MINI:MES1', 'MES1!'],
    ['fgbl1', 'FGBL1!'],
  ])('%s, a known root without its "!"', (symbol, continuous) => {
    const written = symbol.replace(/^\w+:/, '').toUpperCase();
    for (const input of [
      { symbol, action: 'buy', quantity: 1 },
      { symbol, class: 'future', action: 'buy', quantity: 1 },
    ]) {
      expect(normalize(input)).toEqual({
        ok: false,
        error: {
          field: 'symbol',
          message:
            `symbol: ${written} reads two ways, as the continuous contract ${continuous} without its "!" or as the ticker ${written}; ` +
            `write ${continuous} for the continuous contract, or give "class": "stock" for the ticker`,
        },
      });
    }
  });

  it('leaves real tickers alone: other roots, other digits, and a known root with its class', () => {
    const read = (input: Record<string, unknown>) => {
      const result = normalize({ action: 'buy', quantity: 1, ...input });
      return result.ok ? [result.order.symbol, result.order.class] : result.error.message;
    };
    expect(read({ symbol: 'AX1', class: 'stock' })).toEqual(['AX1', 'stock']); // ASX: Accent Group
    expect(read({ symbol: 'ASX:A2M' })).toEqual(['A2M', 'stock']);
    expect(read({ symbol: 'PETR4' })).toEqual(['PETR4', 'stock']); // B3: Petrobras
    expect(read({ symbol: 'ES3' })).toEqual(['ES3', 'stock']);
    expect(read({ symbol: 'GC1', class: 'stock' })).toEqual(['GC1', 'stock']);
    expect(read({ symbol: 'ES1!' })).toEqual(['ES1!', 'future']);
    expect(read({ symbol: 'GC2!' })).toEqual(['GC2!', 'future']);
  });
});

describe('normalizeOrder multi-leg', () => {
  const condor = {
    symbol: 'SPY_271217P00540000',
    action: 'buy_to_open',
    'symbol[2]': 'SPY271217P550',
    'action[2]': 'sell_to_open',
    'symbol[3]': 'SPY 271217C600',
    'action[3]': 'sell_to_open',
    'symbol[4]': 'SPY   271217C00610000',
    'action[4]': 'buy_to_open',
    quantity: 1,
    type: 'limit',
    limit_price: -1.25,
  };
  const legs = [
    { symbol: 'SPY   271217P00540000', class: 'option', action: 'buy_to_open', quantity: 1 },
    { symbol: 'SPY   271217P00550000', class: 'option', action: 'sell_to_open', quantity: 1 },
    { symbol: 'SPY   271217C00600000', class: 'option', action: 'sell_to_open', quantity: 1 },
    { symbol: 'SPY   271217C00610000', class: 'option', action: 'buy_to_open', quantity: 1 },
  ];
  const expected = {
    symbol: 'SPY   271217P00540000',
    class: 'option',
    action: 'buy_to_open',
    quantity: 1,
    quantity_type: 'fixed',
    type: 'limit',
    limit_price: -1.25,
    duration: 'gtc',
    group: 'combo',
    legs,
  };

  it('reads an iron condor of indexed fields as a combo of four legs', () => {
    expect(normalize(condor)).toEqual({ ok: true, order: expected });
  });

  it('reads the same condor from symbol[1] and from a legs array', () => {
    const { symbol, action, ...rest } = condor;
    expect(normalize({ ...rest, 'symbol[1]': symbol, 'action[1]': action })).toEqual({ ok: true, order: expected });
    const array = {
      legs: legs.map(({ symbol: s, action: a }) => ({ symbol: s, action: a })),
      quantity: 1,
      type: 'limit',
      limit_price: -1.25,
    };
    expect(normalize(array)).toEqual({ ok: true, order: expected });
  });

  it('takes per-leg quantities, classes and prices', () => {
    const result = normalize({
      symbol: 'AAPL',
      action: 'buy',
      quantity: 100,
      'symbol[2]': 'AAPL271217C200',
      'action[2]': 'sell_to_open',
      'quantity[2]': 1,
      'limit_price[2]': 5,
      group: 'oco',
    });
    expect(result).toMatchObject({
      ok: true,
      order: {
        group: 'oco',
        legs: [
          { symbol: 'AAPL', class: 'stock', action: 'buy', quantity: 100 },
          {
            symbol: 'AAPL  271217C00200000',
            class: 'option',
            action: 'sell_to_open',
            quantity: 1,
            type: 'limit',
            limit_price: 5,
          },
        ],
      },
    });
  });
});

describe('normalizeOrder refuses', () => {
  it.each<[string, unknown, string, string?]>([
    [
      'a mistyped field',
      { symbol: 'AAPL', action: 'buy', quantity: 1, stop_los_price: 3 },
      'stop_los_price',
      'stop_los_price: unknown field (did you mean stop_loss_price?)',
    ],
    [
      'several unknown fields',
      { symbol: 'AAPL', action: 'buy', quantity: 1, foo: 1, bar: 2 },
      'foo',
      'foo, bar: unknown fields',
    ],
    ['camelCase names', { symbol: 'AAPL', action: 'buy', quantity: 1, limitPrice: 3 }, 'limitPrice'],
    ['a missing action', { symbol: 'AAPL', quantity: 1 }, 'action', 'action: required'],
    ['a missing quantity', { symbol: 'AAPL', action: 'buy' }, 'quantity', 'quantity: required'],
    // quantity[1] alone would send the sender to indexed quantities, where most combos give one for all.
    [
      'a missing quantity of indexed legs',
      {
        symbol: 'SPY_271217P00540000',
        action: 'buy_to_open',
        'symbol[2]': 'SPY_271217P00550000',
        'action[2]': 'sell_to_open',
      },
      'quantity[1]',
      'quantity[1]: required (or give quantity, for every leg)',
    ],
    ['an unknown action', { symbol: 'AAPL', action: 'hodl', quantity: 1 }, 'action'],
    ['an unknown duration', { symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'forever' }, 'duration'],
    ['a zero quantity', { symbol: 'AAPL', action: 'buy', quantity: 0 }, 'quantity', 'quantity: must be greater than 0'],
    // {{strategy.position_size}} is negative when short: the action gives the direction, not the sign.
    [
      'a negative quantity',
      { symbol: 'AAPL', action: 'sell', quantity: '-2' },
      'quantity',
      'quantity: must be greater than 0; the action gives the direction: send 2 with the action that sells or buys',
    ],
    ['a negative quantity', { symbol: 'AAPL', action: 'buy', quantity: '-5' }, 'quantity'],
    [
      'more than 100 percent',
      { symbol: 'AAPL', action: 'sell', quantity: 150, quantity_type: 'percent_of_position' },
      'quantity',
    ],
    [
      'a bad expression',
      { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: '1 + 2x' },
      'limit_price',
      'limit_price: unexpected "x" at position 5',
    ],
    ['a huge number', { symbol: 'AAPL', action: 'buy', quantity: '1e309' }, 'quantity'],
    ['NaN text', { symbol: 'AAPL', action: 'buy', quantity: 'NaN' }, 'quantity'],
    ['NaN', { symbol: 'AAPL', action: 'buy', quantity: Number.NaN }, 'quantity'],
    ['a boolean quantity', { symbol: 'AAPL', action: 'buy', quantity: true }, 'quantity'],
    [
      'limit_price on a market order',
      { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'market', limit_price: 5 },
      'limit_price',
    ],
    [
      'stop_price on a limit order',
      { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 5, stop_price: 4 },
      'stop_price',
    ],
    ['a limit order without a price', { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit' }, 'limit_price'],
    ['a stop order without a stop', { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'stop' }, 'stop_price'],
    [
      'two stops',
      { symbol: 'AAPL', action: 'buy', quantity: 1, stop_price: 4, stop_price_distance: 1 },
      'stop_price_distance',
    ],
    ['a negative price', { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: -1 }, 'limit_price'],
    [
      'a percent over 100',
      { symbol: 'AAPL', action: 'buy', quantity: 1, stop_loss_price_percent: 101 },
      'stop_loss_price_percent',
    ],
    // 100 % under the entry is a stop loss at 0: the position is left with no stop at all.
    [
      'a stop loss 100 % away',
      { symbol: 'AAPL', action: 'buy', quantity: 1, stop_loss_price_percent: 100 },
      'stop_loss_price_percent',
      'stop_loss_price_percent: must be greater than 0 and less than 100 (100 % away is a stop at 0)',
    ],
    [
      "a buy's stop loss distance past its limit price",
      { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 100, stop_loss_price_distance: 100 },
      'stop_loss_price_distance',
      'stop_loss_price_distance: must be less than limit_price (100) for a buy: the stop loss would be at or below 0',
    ],
    [
      'a stop 100 % away',
      { symbol: 'AAPL', action: 'sell', quantity: 1, stop_price_percent: '50 * 2' },
      'stop_price_percent',
      'stop_price_percent: must be greater than 0 and less than 100 (100 % away is a stop at 0)',
    ],
    // Swapped exits: whatever the fill, one of them is marketable at once and the position is
    // closed as it opens (a long's sell limit at 90 fills at the market of 100).
    [
      "a buy's take profit below its stop loss",
      { symbol: 'AAPL', action: 'buy', quantity: 1, take_profit_price: 90, stop_loss_price: 110 },
      'take_profit_price',
      'take_profit_price: must be above stop_loss_price (110) for a buy',
    ],
    [
      "a buy's take profit equal to its stop loss",
      { symbol: 'AAPL', action: 'buy', quantity: 1, group: 'bracket', take_profit_price: 100, stop_loss_price: 100 },
      'take_profit_price',
      'take_profit_price: must be above stop_loss_price (100) for a buy',
    ],
    [
      "a short's take profit above its stop loss",
      { symbol: 'AAPL', action: 'sell_short', quantity: 1, take_profit_price: 110, stop_loss_price: 90 },
      'take_profit_price',
      'take_profit_price: must be below stop_loss_price (90) for a sell_short',
    ],
    [
      "an option sale's take profit above its stop loss",
      {
        symbol: 'AAPL271217C200',
        action: 'sell_to_open',
        quantity: 1,
        limit_price: 5,
        take_profit_price: '5 * 1.5',
        stop_loss_price: 2.5,
      },
      'take_profit_price',
      'take_profit_price: must be below stop_loss_price (2.5) for a sell_to_open',
    ],
    // A buy limit fills at its limit or lower, so a stop loss at or above the limit is at or
    // above the fill: the sell stop triggers at once (a sell limit likewise upwards).
    [
      "a buy limit's stop loss above its limit",
      { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 100, stop_loss_price: 105 },
      'stop_loss_price',
      'stop_loss_price: must be below limit_price (100) for a buy',
    ],
    [
      "a short stop_limit's stop loss below its limit",
      {
        symbol: 'AAPL',
        action: 'sell_short',
        quantity: 1,
        stop_price: 101,
        limit_price: 100,
        stop_loss_price: '100 * 0.95',
      },
      'stop_loss_price',
      'stop_loss_price: must be above limit_price (100) for a sell_short',
    ],
    // A buy stop fills at its stop or higher, so a take profit at or under the stop is marketable at once.
    [
      "a buy stop's take profit under its stop",
      { symbol: 'ESZ2030', action: 'buy', quantity: 1, stop_price: 5000, take_profit_price: 4990 },
      'take_profit_price',
      'take_profit_price: must be above stop_price (5000) for a buy',
    ],
    [
      "a sell stop's take profit over its stop",
      { symbol: 'ESZ2030', action: 'sell', quantity: 1, type: 'stop', stop_price: 5000, take_profit_price: 5000 },
      'take_profit_price',
      'take_profit_price: must be below stop_price (5000) for a sell',
    ],
    ['a price on a cancel', { symbol: 'AAPL', action: 'cancel', limit_price: 5 }, 'limit_price'],
    ["TradingView's perpetual name", { symbol: 'BYBIT:ETHUSDT.P', action: 'sell', quantity: 1 }, 'symbol'],
    // A cancel withdraws every open order on the symbol: a quantity would not make it cancel fewer.
    [
      'a quantity on a cancel',
      { symbol: 'AAPL', action: 'cancel', quantity: 5 },
      'quantity',
      'quantity: not used with action cancel (it cancels every open order on the symbol)',
    ],
    // Nor would a quantity_type: it says how to read a quantity the cancel does not take.
    [
      'a quantity_type on a cancel',
      { symbol: 'AAPL', action: 'cancel', quantity_type: 'percent_of_position' },
      'quantity_type',
      'quantity_type: not used with action cancel (it cancels every open order on the symbol)',
    ],
    // A close without quantity closes everything: the 50 % the quantity_type announces would not be kept.
    [
      'a quantity_type on a close without quantity',
      { symbol: 'AAPL', action: 'close', quantity_type: 'percent_of_position' },
      'quantity_type',
      'quantity_type: given without quantity (a close without quantity closes the whole position)',
    ],
    // Each broker sends a close at the market on its own terms: a duration would not be kept.
    [
      'a duration on a close',
      { symbol: 'AAPL', action: 'close', duration: 'gtc' },
      'duration',
      'duration: not used with action close',
    ],
    [
      'a duration on a cancel',
      { symbol: 'AAPL', action: 'cancel', duration: 'day' },
      'duration',
      'duration: not used with action cancel',
    ],
    ['a stop loss on a close', { symbol: 'AAPL', action: 'close', stop_loss_price: 5 }, 'stop_loss_price'],
    [
      'exits on a close',
      { symbol: 'AAPL', action: 'close', take_profit_price: 110, stop_loss_price: 95 },
      'take_profit_price',
      'take_profit_price: not used with action close',
    ],
    // Every broker closes at the market: a limit close would sell below the limit it names.
    ['a limit price on a close', { symbol: 'AAPL', action: 'close', limit_price: 105 }, 'limit_price'],
    ['a stop price on a close', { symbol: 'AAPL', action: 'close', type: 'stop', stop_price: 95 }, 'stop_price'],
    ['a limit type on a close', { symbol: 'AAPL', action: 'close', type: 'limit' }, 'type'],
    ['a stock action for an option', { symbol: 'AAPL271217C150', action: 'buy', quantity: 1 }, 'action'],
    ['an option action for a stock', { symbol: 'AAPL', action: 'buy_to_open', quantity: 1 }, 'action'],
    [
      'a class contradicting the symbol',
      { symbol: 'ESZ2024', class: 'stock', action: 'buy', quantity: 1 },
      'class',
      'class: stock contradicts the symbol ESZ2024, which is a future',
    ],
    ['an option expiry that is no date', { symbol: 'AAPL241319C150', action: 'buy_to_open', quantity: 1 }, 'symbol'],
    ['a combo without legs', { symbol: 'AAPL', action: 'buy', quantity: 1, group: 'combo' }, 'group'],
    ['a bracket without exits', { symbol: 'AAPL', action: 'buy', quantity: 1, group: 'bracket' }, 'group'],
    ['extra with an object', { symbol: 'AAPL', action: 'buy', quantity: 1, extra: { a: { b: 1 } } }, 'extra.a'],
    ['extra that is not an object', { symbol: 'AAPL', action: 'buy', quantity: 1, extra: 'x' }, 'extra'],
    ['a long client_id', { symbol: 'AAPL', action: 'buy', quantity: 1, client_id: 'x'.repeat(65) }, 'client_id'],
    // Read by JSON.parse as 1700000000000000000, like …002: one idempotency key for two signals.
    [
      'a client_id number past 2^53',
      '{"symbol":"AAPL","action":"buy","quantity":1,"client_id":1700000000000000001}',
      'client_id',
      'client_id: a number this long loses digits; send it as text in quotes',
    ],
    ['a symbol object', { symbol: { $gt: '' }, action: 'buy', quantity: 1 }, 'symbol'],
    ['an unreplaced placeholder', { symbol: '{{ticker}}', action: 'buy', quantity: 1 }, 'symbol'],
    // A constant client_id makes every later signal a repeat: answered as the first, never placed.
    [
      'an unreplaced placeholder in client_id',
      { symbol: 'AAPL', action: 'buy', quantity: 1, client_id: '{{strategy.order.id}}' },
      'client_id',
      'client_id: placeholder {{strategy.order.id}} was not replaced by the sender',
    ],
    [
      'an unreplaced placeholder inside client_id',
      { symbol: 'AAPL', action: 'buy', quantity: 1, client_id: 'long-%alert_time%' },
      'client_id',
      'client_id: placeholder %alert_time% was not replaced by the sender',
    ],
    [
      'an unreplaced placeholder in parent_id',
      { symbol: 'AAPL', action: 'sell', quantity: 1, parent_id: '{{strategy.order.id}}' },
      'parent_id',
      'parent_id: placeholder {{strategy.order.id}} was not replaced by the sender',
    ],
    // An unreplaced {{timenow}} is the same text in every alert: two like orders within the dedupe
    // window have one body, and the second is taken for a repeat of the first, never placed.
    [
      'an unreplaced placeholder in time',
      { symbol: 'AAPL', action: 'buy', quantity: 1, time: '{{timenow}}' },
      'time',
      'time: placeholder {{timenow}} was not replaced by the sender',
    ],
    [
      'an unreplaced placeholder in timestamp',
      { symbol: 'AAPL', action: 'buy', quantity: 1, timestamp: '%alert_time%' },
      'timestamp',
      'timestamp: placeholder %alert_time% was not replaced by the sender',
    ],
    // The paper broker read Number('{{close}}'), NaN, as no price given and filled at its own.
    [
      'an unreplaced placeholder in extra',
      { symbol: 'AAPL', action: 'buy', quantity: 1, extra: { price: '{{close}}' } },
      'extra.price',
      'extra.price: placeholder {{close}} was not replaced by the sender',
    ],
    ['one leg', { legs: [{ symbol: 'AAPL', action: 'buy', quantity: 1 }] }, 'legs'],
    // A single order with an empty legs array (a template's leftover): the legs are the trouble,
    // not the symbol ("symbol: with a legs array, give it inside each leg" named legs there are none of).
    [
      'an order with an empty legs array',
      { symbol: 'AAPL', action: 'buy', quantity: 1, legs: [] },
      'legs',
      'legs: a multi-leg order needs at least 2 legs',
    ],
    [
      'an order with one leg beside its symbol',
      { symbol: 'AAPL', action: 'buy', quantity: 1, legs: [{ symbol: 'MSFT', action: 'sell' }] },
      'legs',
      'legs: a multi-leg order needs at least 2 legs',
    ],
    // Every leg gives its class: a class "future" on top would vanish, though it says another order was meant.
    [
      'a top-level class no leg uses',
      {
        legs: [
          { symbol: 'SPY 271217P00450000', class: 'option', action: 'buy_to_open' },
          { symbol: 'SPY 271217P00460000', class: 'option', action: 'sell_to_open' },
        ],
        class: 'future',
        quantity: 1,
      },
      'class',
      "class: every leg gives its own class, so this one is not used; leave it out or leave out the legs' classes",
    ],
    // Legs 1/1 with quantity 2: one spread or two? The quantity would vanish, so it is refused.
    [
      'a top-level quantity no leg uses',
      {
        legs: [
          { symbol: 'SPY 271217P00450000', action: 'buy_to_open', quantity: 1 },
          { symbol: 'SPY 271217P00460000', action: 'sell_to_open', quantity: 1 },
        ],
        quantity: 2,
      },
      'quantity',
    ],
    [
      'a leg hole',
      { symbol: 'AAPL', action: 'buy', quantity: 1, 'symbol[3]': 'MSFT', 'action[3]': 'buy' },
      'symbol[2]',
      'symbol[2]: required',
    ],
    [
      'a leg without action',
      { symbol: 'AAPL', action: 'buy', quantity: 1, 'symbol[2]': 'MSFT' },
      'action[2]',
      'action[2]: required',
    ],
    [
      'a bad leg quantity',
      { symbol: 'AAPL', action: 'buy', quantity: 1, 'symbol[2]': 'MSFT', 'action[2]': 'sell', 'quantity[2]': 'x' },
      'quantity[2]',
    ],
    [
      'a leg field unknown',
      {
        legs: [
          { symbol: 'AAPL', action: 'buy', qty: 1 },
          { symbol: 'MSFT', action: 'buy' },
        ],
      },
      'legs[0].qty',
    ],
    [
      'a leg without quantity',
      {
        legs: [
          { symbol: 'AAPL', action: 'buy' },
          { symbol: 'MSFT', action: 'buy', quantity: 1 },
        ],
      },
      'legs[0].quantity',
    ],
    ['an unknown indexed field', { symbol: 'AAPL', action: 'buy', quantity: 1, 'duration[2]': 'day' }, 'duration[2]'],
    ['a leg number out of range', { symbol: 'AAPL', action: 'buy', quantity: 1, 'symbol[9]': 'X' }, 'symbol[9]'],
    [
      'symbol and symbol[1]',
      { symbol: 'AAPL', 'symbol[1]': 'MSFT', action: 'buy', 'symbol[2]': 'X', quantity: 1 },
      'symbol[1]',
    ],
    ['legs and indexed fields', { legs: [], 'symbol[2]': 'X' }, 'legs'],
    [
      'top-level symbol with a legs array',
      {
        symbol: 'X',
        legs: [
          { symbol: 'A', action: 'buy' },
          { symbol: 'B', action: 'buy' },
        ],
        quantity: 1,
      },
      'symbol',
    ],
    [
      'a close leg',
      { symbol: 'AAPL', action: 'buy', quantity: 1, 'symbol[2]': 'MSFT', 'action[2]': 'close' },
      'action[2]',
    ],
    [
      'a leg percent over 100',
      {
        symbol: 'AAPL',
        action: 'buy',
        quantity: 50,
        quantity_type: 'percent_of_equity',
        'symbol[2]': 'MSFT',
        'action[2]': 'buy',
        'quantity[2]': 150,
      },
      'quantity[2]',
      'quantity[2]: must be at most 100 with quantity_type percent_of_equity (50 means 50 %)',
    ],
    // A leg carries no stop price: a stop_limit leg would go out as a plain limit, its stop dropped.
    [
      'a stop_limit leg',
      {
        group: 'oco',
        legs: [
          { symbol: 'ESZ2030', action: 'sell', quantity: 1, type: 'stop_limit', limit_price: 90 },
          { symbol: 'ESZ2030', action: 'sell', quantity: 1, type: 'limit', limit_price: 110 },
        ],
      },
      'legs[0].type',
      'legs[0].type: stop_limit is not a leg type; use market or limit',
    ],
    // Only a combo's net price may be a credit; a leg's own limit is one instrument's price.
    [
      'a negative leg limit price',
      {
        group: 'oco',
        legs: [
          { symbol: 'ESZ2030', action: 'sell', quantity: 1, limit_price: 5000 },
          { symbol: 'ESZ2030', action: 'sell', quantity: 1, limit_price: '4900 - 5000' },
        ],
      },
      'legs[1].limit_price',
      'legs[1].limit_price: must be greater than 0',
    ],
    [
      'a zero indexed leg limit price',
      { symbol: 'AAPL', action: 'buy', quantity: 1, 'symbol[2]': 'MSFT', 'action[2]': 'sell', 'limit_price[2]': 0 },
      'limit_price[2]',
      'limit_price[2]: must be greater than 0',
    ],
    [
      'one leg field as symbol[2] and symbol[02]',
      { symbol: 'AAPL', action: 'buy', quantity: 1, 'symbol[2]': 'MSFT', 'action[2]': 'sell', 'symbol[02]': 'TSLA' },
      'symbol[02]',
      'symbol[02]: given twice, as symbol[2] and symbol[02]',
    ],
    [
      'a stop leg',
      { symbol: 'AAPL', action: 'buy', quantity: 1, 'symbol[2]': 'MSFT', 'action[2]': 'sell', 'type[2]': 'stop' },
      'type[2]',
      'type[2]: stop is not a leg type; use market or limit',
    ],
  ])('%s', (_name, input, field, message) => {
    const result = normalize(input);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.field).toBe(field);
      expect(result.error.message.startsWith(field)).toBe(true);
      if (message) expect(result.error.message).toBe(message);
    }
  });
});

describe('normalizeOrder refuses an order without a symbol', () => {
  // SPEC §8's sample 400 body, which the docs show, is this answer: the one refusal not opening with its field.
  it.each([
    ['none', { action: 'buy', quantity: 1 }],
    ['null', { symbol: null, action: 'buy', quantity: 1 }],
    ['an empty one', { symbol: '', action: 'buy', quantity: 1 }],
    ['a blank one', { symbol: '  ', action: 'sell', quantity: 1 }],
  ])('%s: No symbol found', (_name, input) => {
    expect(normalize(input)).toEqual({ ok: false, error: { field: 'symbol', message: 'No symbol found' } });
  });

  it('names a blank leg symbol as before', () => {
    const legs = [
      { symbol: ' ', action: 'buy_to_open' },
      { symbol: 'SPY_271217P00550000', action: 'sell_to_open' },
    ];
    expect(normalize({ legs, quantity: 1 })).toEqual({
      ok: false,
      error: { field: 'legs[0].symbol', message: 'legs[0].symbol: must not be empty' },
    });
  });
});

describe('normalizeOrder shows a character it cannot read by its code', () => {
  // Pasted from a web page or a document: a zero-width space or a Cyrillic А looks like nothing,
  // or like the letter meant, in the refusal; its code says what it is.
  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'a zero-width space in a symbol',
      { symbol: 'AAPL\u200b' },
      'symbol',
      'symbol: unexpected "\u200b" (U+200B) at position 4',
    ],
    [
      'a Cyrillic letter in a symbol',
      { symbol: '\u0410APL' },
      'symbol',
      'symbol: unexpected "\u0410" (U+0410) at position 0',
    ],
    [
      'a zero-width space in a number',
      { quantity: '\u200b5' },
      'quantity',
      'quantity: unexpected "\u200b" (U+200B) at position 0',
    ],
    ['a full-width digit', { quantity: '\uff15' }, 'quantity', 'quantity: unexpected "\uff15" (U+FF15) at position 0'],
    ['an en dash', { quantity: '10 \u2013 5' }, 'quantity', 'quantity: unexpected "\u2013" (U+2013) at position 3'],
    // One convention for every position: from the value's first character as written, spaces included.
    [
      'a symbol after spaces',
      { symbol: ' \u00a0AAPL\u200b' },
      'symbol',
      'symbol: unexpected "\u200b" (U+200B) at position 6',
    ],
    [
      'an expression after spaces',
      { quantity: ' \u00a0100\u200b' },
      'quantity',
      'quantity: unexpected "\u200b" (U+200B) at position 5',
    ],
    [
      'a symbol leg after spaces',
      { 'symbol[2]': '  MSFT;', 'action[2]': 'sell' },
      'symbol[2]',
      'symbol[2]: unexpected ";" at position 6',
    ],
  ])('%s', (_name, fields, field, message) => {
    expect(normalize({ symbol: 'AAPL', action: 'buy', quantity: 1, ...fields })).toEqual({
      ok: false,
      error: { field, message },
    });
  });

  // TradingView's {{strategy.market_position}} (long, short, flat) in action was told only the list.
  it('says that an exit is a close', () => {
    expect(normalize({ symbol: 'AAPL', action: 'exit' })).toMatchObject({
      error: { message: expect.stringMatching(/; exit is close here: it closes the position$/) },
    });
  });

  it.each(['long', 'Short', 'flat'])('says what an action of %s is sent as', (action) => {
    const result = normalize({ symbol: 'AAPL', action, quantity: 1 });
    expect(result).toEqual({
      ok: false,
      error: {
        field: 'action',
        message:
          'action: must be one of buy, sell, buy_to_cover, sell_short, buy_to_open, buy_to_close, sell_to_open, sell_to_close, close, cancel; ' +
          `${action.toLowerCase()} names a position, not an order: send {{strategy.order.action}} (buy or sell), ` +
          'or buy to go long, sell or sell_short to go short, close to go flat',
      },
    });
  });

  // "buy" with a zero-width space was told "must be one of buy, sell, …", as if buy were not buy.
  it.each([
    [
      'action',
      'buy\u200b',
      'action: must be one of buy, sell, buy_to_cover, sell_short, buy_to_open, buy_to_close, sell_to_open, sell_to_close, close, cancel; the value holds "\u200b" (U+200B)',
    ],
    ['type', 'limit\u00ad', 'type: must be one of market, limit, stop, stop_limit; the value holds "\u00ad" (U+00AD)'],
    [
      'duration',
      'g\u0442c',
      'duration: must be one of atc, ato, aon, clo, cls, day, fak, fok, gfa, gtc, gtd, gtt, gtw, gtm, ioc, opg, dyp, gcp; the value holds "\u0442" (U+0442)',
    ],
  ])('names the character in an enumerated %s that looks right', (field, value, message) => {
    expect(normalize({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 1, [field]: value })).toEqual({
      ok: false,
      error: { field, message },
    });
  });

  it('reads a no-break space in an expression as the space it looks like', () => {
    const result = normalize({
      symbol: 'AAPL',
      action: 'buy',
      quantity: '2\u00a0',
      limit_price: '100\u00a0*\u202f0.99',
    });
    expect(result.ok && [result.order.quantity, result.order.limit_price]).toEqual([2, 99]);
  });
});

describe('normalizeOrder refuses a number longer than it can carry', () => {
  // Past 15 digits a number is not what was written: "12345678901234567" became 12345678901234600.
  const message = (field: string) =>
    `${field}: too large: at most 15 digits before the decimal point (a longer number loses digits)`;
  it.each<[string, unknown, string]>([
    ['text', '{"symbol":"AAPL","action":"buy","quantity":"12345678901234567"}', 'quantity'],
    ['16 digits as text', '{"symbol":"AAPL","action":"buy","quantity":"1234567890123456"}', 'quantity'],
    ['a JSON number', '{"symbol":"AAPL","action":"buy","quantity":12345678901234567}', 'quantity'],
    ['an expression', { symbol: 'AAPL', action: 'buy', quantity: '10 ^ 15' }, 'quantity'],
    [
      'a price',
      { symbol: 'AAPL', action: 'sell', quantity: 1, limit_price: '-1e15', 'symbol[2]': 'MSFT', 'action[2]': 'buy' },
      'limit_price',
    ],
    [
      'a leg',
      { symbol: 'AAPL', action: 'buy', quantity: 1, 'symbol[2]': 'MSFT', 'action[2]': 'sell', 'quantity[2]': '1e16' },
      'quantity[2]',
    ],
  ])('%s', (_name, input, field) => {
    expect(normalize(input)).toEqual({ ok: false, error: { field, message: message(field) } });
  });

  it('takes 15 digits, and long decimals rounded to what a number holds', () => {
    const order = (quantity: unknown) => {
      const result = normalize({ symbol: 'AAPL', action: 'buy', quantity });
      return result.ok ? result.order.quantity : result.error.message;
    };
    expect(order('999999999999999')).toBe(999_999_999_999_999);
    expect(order(999_999_999_999_999)).toBe(999_999_999_999_999);
    expect(order('0.12345678901234567890')).toBe(0.123456789012346);
  });
});

describe('normalizeOrder hints at the field another product names otherwise', () => {
  // Near in spelling is not near in meaning: "side" read as a misspelt "time", "tp" as "type".
  it.each([
    ['side', 'buy', 'side: unknown field (did you mean action?)'],
    ['tp', 110, 'tp: unknown field (did you mean take_profit_price?)'],
    ['sl', 90, 'sl: unknown field (did you mean stop_loss_price?)'],
    ['qty', 1, 'qty: unknown field (did you mean quantity?)'],
    ['Contracts', 1, 'Contracts: unknown field (did you mean quantity?)'],
    ['ticker', 'MSFT', 'ticker: unknown field (did you mean symbol?)'],
    ['price', 100, 'price: unknown field (did you mean limit_price?)'],
    ['order_type', 'limit', 'order_type: unknown field (did you mean type?)'],
    ['time_in_force', 'gtc', 'time_in_force: unknown field (did you mean duration?)'],
    ['stop_los_price', 90, 'stop_los_price: unknown field (did you mean stop_loss_price?)'],
    // Two edits from stop_price, one from type, one from legs and class: the hint named the opposite
    // field (a stop entry for a take profit) or none of the order's.
    ['tp_price', 110, 'tp_price: unknown field (did you mean take_profit_price?)'],
    ['tp1', 110, 'tp1: unknown field (did you mean take_profit_price?)'],
    ['lots', 0.1, 'lots: unknown field (did you mean quantity?)'],
    ['close', 101.5, 'close: unknown field'],
    // Another product's spelling of a field we have: camelCase, run together, or relative.
    ['sl_price', 90, 'sl_price: unknown field (did you mean stop_loss_price?)'],
    ['takeProfit', 110, 'takeProfit: unknown field (did you mean take_profit_price?)'],
    ['stopLoss', 90, 'stopLoss: unknown field (did you mean stop_loss_price?)'],
    ['stoploss', 90, 'stoploss: unknown field (did you mean stop_loss_price?)'],
    ['stop_loss_percent', 2, 'stop_loss_percent: unknown field (did you mean stop_loss_price_percent?)'],
    ['sl_distance', 2, 'sl_distance: unknown field (did you mean stop_loss_price_distance?)'],
    ['timeInForce', 'gtc', 'timeInForce: unknown field (did you mean duration?)'],
    ['clientId', 'a', 'clientId: unknown field (did you mean client_id?)'],
    // An indexed leg field in capitals is no leg field at all (names are exact): said which it is.
    ['Symbol[2]', 'MSFT', 'Symbol[2]: unknown field (did you mean symbol[2]?)'],
    ['QUANTITY[2]', 2, 'QUANTITY[2]: unknown field (did you mean quantity[2]?)'],
  ])('%s', (key, value, message) => {
    const result = normalize({ symbol: 'AAPL', action: 'buy', quantity: 1, [key]: value });
    expect(result).toEqual({ ok: false, error: { field: key, message } });
  });

  // Hinted at take_profit_price alone, "take_profit_percent": 2 became a take profit at 2 (dollars).
  it.each([
    'take_profit_percent',
    'take_profit_price_percent',
    'tp_percent',
    'take_profit_distance',
    'take_profit_price_distance',
    'takeProfitPercent',
  ])('says %s has no relative form, and how to write one', (key) => {
    expect(normalize({ symbol: 'AAPL', action: 'buy', quantity: 1, [key]: 2 })).toEqual({
      ok: false,
      error: {
        field: key,
        message: `${key}: unknown field (take_profit_price takes a price, not a distance or percent: "{{close}} * 1.02" is 2 % over the close, "{{close}} + 5" 5 over it)`,
      },
    });
  });

  // The docs and refusals name extra values so (extra.expiration); Zapier sends nested fields so
  // (extra__expiration) unless its Unflatten option is on.
  it.each([
    ['extra.expiration', 'expiration'],
    ['extra__extended_hours', 'extended_hours'],
  ])('says %s goes inside extra', (key, inside) => {
    expect(normalize({ symbol: 'AAPL', action: 'buy', quantity: 1, [key]: 'x' })).toEqual({
      ok: false,
      error: {
        field: key,
        message: `${key}: unknown field (an extra value is written inside extra: "extra": {"${inside}": …})`,
      },
    });
  });

  it('names only fields a leg has inside a leg', () => {
    const legs = [
      { symbol: 'AAPL', action: 'buy', quantity: 1, side: 'buy' },
      { symbol: 'MSFT', action: 'sell', quantity: 1, sl: 90 },
    ];
    expect(normalize({ legs })).toEqual({
      ok: false,
      error: { field: 'legs[0].side', message: 'legs[0].side: unknown field (did you mean action?)' },
    });
    expect(normalize({ legs: [legs[1], legs[1]] })).toEqual({
      ok: false,
      error: { field: 'legs[0].sl', message: 'legs[0].sl: unknown field' },
    });
  });

  // A script's or tool's template nesting the order ({"order": {…}}, {"data": {…}}) was told only
  // "order: unknown field", as if the field were mistyped.
  it.each([
    ['{"order":{"symbol":"AAPL","action":"buy","quantity":1}}', 'order'],
    ['{"secret":"k","data":{"legs":[],"quantity":1}}', 'data'],
  ])('says where an order wrapped in a field goes: %s', (text, wrapper) => {
    expect(normalize(text)).toEqual({
      ok: false,
      error: {
        field: wrapper,
        message: `${wrapper}: unknown field (the order's fields go at the top level: send the object inside "${wrapper}" itself)`,
      },
    });
  });

  it('names an unknown object field beside an order as before', () => {
    expect(normalize({ meta: { symbol: 'X' }, symbol: 'AAPL', action: 'buy', quantity: 1 })).toEqual({
      ok: false,
      error: { field: 'meta', message: 'meta: unknown field' },
    });
  });
});

describe('normalizeOrder words every refusal itself', () => {
  // Not the schema library's "Invalid input: expected object, received null", nor ": unknown field".
  it.each<[string, unknown, string, string]>([
    [
      'a leg that is no object',
      { legs: [null, { symbol: 'MSFT', action: 'buy', quantity: 1 }] },
      'legs[0]',
      'legs[0]: must be an object of leg fields (symbol, class, action, quantity, type, limit_price)',
    ],
    [
      'a leg that is a number',
      { legs: [1, 2] },
      'legs[0]',
      'legs[0]: must be an object of leg fields (symbol, class, action, quantity, type, limit_price)',
    ],
    ['an empty field name', '{"symbol":"AAPL","action":"buy","quantity":1,"":1}', '""', '"": unknown field'],
  ])('%s', (_name, input, field, message) => {
    expect(normalize(input)).toEqual({ ok: false, error: { field, message } });
  });
});

describe('normalizeOrder refuses a key given twice in the JSON text', () => {
  // JSON.parse keeps the last one: the order would be what the sender did not mean.
  it.each([
    ['{"symbol":"AAPL","action":"buy","quantity":1,"action":"sell"}', 'action'],
    ['{"symbol":"AAPL","action":"buy","quantity":1,"quantity":100}', 'quantity'],
    ['{"symbol":"AAPL","action":"buy","quantity":1,"qu\\u0061ntity":100}', 'quantity'],
    ['\ufeff{"symbol":"AAPL","action":"buy","quantity":1,"symbol":"TSLA"}', 'symbol'],
    [
      '{"legs":[{"symbol":"A","action":"buy","quantity":1},{"symbol":"B","action":"buy","quantity":1,"action":"sell"}]}',
      'legs[1].action',
    ],
    ['{"symbol":"AAPL","action":"buy","quantity":1,"extra":{"note":"a","note":"b"}}', 'extra.note'],
  ])('%s', (text, field) => {
    const result = normalize(text);
    expect(result).toEqual({ ok: false, error: { field, message: `${field}: given twice` } });
  });

  it('says a body encoded twice (a string holding the JSON object) is one, and keeps other strings plain', () => {
    // n8n, Make or a script that stringifies the JSON text again sends "{\"symbol\":…}".
    const order = JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1 });
    expect(normalize(JSON.stringify(order))).toEqual({
      ok: false,
      error: {
        field: 'body',
        message:
          'body: must be a JSON object, not a JSON string holding one: the order was encoded twice (JSON.stringify of JSON text); send the object itself',
      },
    });
    for (const text of ['"AAPL"', '"{not json"', JSON.stringify('[1]')]) {
      expect(normalize(text)).toEqual({ ok: false, error: { field: 'body', message: 'body: must be a JSON object' } });
    }
  });

  it('says a body that is no object is no object, whatever keys it repeats', () => {
    expect(normalize('[{"a":1,"a":2}]')).toEqual({ ok: false, error: { field: 'body', message: ONE_IN_LIST } });
    expect(normalize('[1,{"a":1,"a":2}]')).toEqual({
      ok: false,
      error: { field: 'body', message: 'body: must be a JSON object' },
    });
  });

  it('takes equal keys in different objects and keys inside strings', () => {
    const text =
      '{"legs":[{"symbol":"A","action":"buy","quantity":1},{"symbol":"B","action":"buy","quantity":1}],' +
      '"extra":{"symbol":"\\"symbol\\":","q":"a,\\"q\\""}}';
    expect(normalize(text).ok).toBe(true);
  });
});

const ONE_IN_LIST =
  'body: must be a JSON object, not an array holding one: send the object itself (in Zapier, Wrap Request In Array: No)';

describe('normalizeOrder refuses several orders in one body', () => {
  // One signal is one order: two in one alert (a line each, or joined by a comma) were answered
  // with the parser's "Unexpected non-whitespace character after JSON at position 45".
  const message = 'body: holds more than one order; send one order per signal (an alert or a call each)';
  it.each([
    '{"symbol":"AAPL","action":"buy","quantity":1}\n{"symbol":"MSFT","action":"sell","quantity":1}',
    '\ufeff{"symbol":"AAPL","action":"buy","quantity":1},\r\n{"symbol":"MSFT","note":"}{","quantity":1}',
    '{"symbol":"AAPL","action":"buy","quantity":1} {"broken',
  ])('%j', (text) => {
    expect(normalize(text)).toEqual({ ok: false, error: { field: 'body', message } });
  });

  it('says so of a list of orders too', () => {
    const list = [
      { symbol: 'AAPL', action: 'buy', quantity: 1 },
      { symbol: 'MSFT', action: 'sell', quantity: 1 },
    ];
    expect(normalize(JSON.stringify(list))).toEqual({ ok: false, error: { field: 'body', message } });
    expect(normalize(list)).toEqual({ ok: false, error: { field: 'body', message } });
    // One order in an array, as Zapier's Webhooks send it with Wrap Request In Array on, was told only
    // "must be a JSON object", which the sender's order is.
    expect(normalize([list[0]])).toEqual({ ok: false, error: { field: 'body', message: ONE_IN_LIST } });
    expect(normalize(`[${JSON.stringify(list[0])}]`)).toEqual({
      ok: false,
      error: { field: 'body', message: ONE_IN_LIST },
    });
  });

  it("keeps the parser's reason for one object cut short or followed by other text", () => {
    for (const text of ['{"symbol":"AAPL"', '{"symbol":"AAPL"} trailing', '{"a":"}"', '{"a":1} {{"b":2}}']) {
      const result = normalize(text);
      expect(result.ok ? '' : result.error.message).toMatch(/^body: not valid JSON \(/);
    }
  });
});

describe('normalizeOrder says when a body reads only once repaired', () => {
  // The playground repairs such text for its Test; the hook parses strictly and says how to send it.
  it.each([
    ["{'symbol': 'AAPL', 'action': 'buy', 'quantity': 1}"],
    ['{"symbol": "AAPL", "action": "buy", "quantity": 1,}'],
    ['{"symbol": "AAPL", /* entry */ "action": "buy", "quantity": 1}'],
  ])('%s', (text) => {
    const result = normalize(text);
    expect(result.ok ? '' : result.error.message).toMatch(
      /^body: not valid JSON \(.+\); it reads only once repaired \(single quotes, trailing commas, comments…\): send the strict JSON the playground's Copy gives$/,
    );
  });

  it('gives no such hint for text no repair makes an order', () => {
    const result = normalize('hello');
    expect(result.ok ? '' : result.error.message).not.toContain('repaired');
  });
});

describe('normalizeOrder refuses an empty body', () => {
  it("says it is empty, not the parser's 'Unexpected end of JSON input'", () => {
    for (const text of ['', '  \n', '\ufeff']) {
      expect(normalize(text)).toEqual({
        ok: false,
        error: {
          field: 'body',
          message: "body: empty: send the order as a JSON object (in TradingView, the alert's Message)",
        },
      });
    }
  });
});

describe('normalizeOrder refuses a form-encoded body', () => {
  it('says so, and how to send JSON instead (Zapier posts forms unless told JSON)', () => {
    for (const text of ['symbol=AAPL&action=buy&quantity=1', 'symbol%5B2%5D=MSFT', 'symbol=']) {
      expect(normalize(text)).toEqual({
        ok: false,
        error: {
          field: 'body',
          message:
            'body: not valid JSON: this is form-encoded (key=value&…); send the order as a JSON object (in Zapier, Payload Type: JSON)',
        },
      });
    }
    // Other text that is no JSON keeps the parser's reason.
    const broken = normalize('{"symbol": "AAPL",');
    expect(broken.ok ? '' : broken.error.message).toMatch(/^body: not valid JSON \(/);
  });
});

describe("normalizeOrder names TradingView's default strategy alert message", () => {
  // The alert's Message left as it came: the parser's "Unexpected token 'b'" does not say why.
  it.each([
    'buy @ 1 filled on AAPL. New strategy position is 1',
    'sell @ 0.5 filled on BINANCE:BTCUSDT. New strategy position is -0.5',
  ])('%s', (text) => {
    expect(normalize(text)).toEqual({
      ok: false,
      error: {
        field: 'body',
        message:
          "body: not valid JSON: this is TradingView's default strategy alert message; replace the alert's Message with the JSON order",
      },
    });
  });
});

describe('normalizeOrder names a JSON number written with a comma', () => {
  // "quantity": 1,000 (a thousands separator) or 1,5 (a decimal comma) is no JSON: the parser's
  // "Expected double-quoted property name" did not say which value or why.
  it.each([
    ['{"symbol":"AAPL","action":"buy","quantity":1,000}', 'quantity', '1,000'],
    ['{"symbol":"AAPL","action":"buy","quantity":1,5,"type":"market"}', 'quantity', '1,5'],
    ['{"symbol":"AAPL","action":"buy","quantity":1, "limit_price": 1,234.50 }', 'limit_price', '1,234.50'],
    // Points grouping thousands, as German text writes them: the parser's words hid it, and the refusal
    // sent the sender to the playground's repair, as if a quote or comma were amiss.
    ['{"symbol":"AAPL","action":"buy","quantity":1.000.000}', 'quantity', '1.000.000'],
    ['{"symbol":"AAPL","action":"buy","quantity":1,"limit_price":1.234.567,89}', 'limit_price', '1.234.567,89'],
  ])('%s', (text, field, value) => {
    expect(normalize(text)).toEqual({
      ok: false,
      error: {
        field,
        message: `${field}: ${value} is no number in JSON: a number takes "." for decimals and no thousands separator (1000.5)`,
      },
    });
  });
});

describe('normalizeOrder names a placeholder left unquoted and unreplaced', () => {
  // TradingView fills {{strategy.order.contracts}} only in a strategy's alerts: a plain alert sends
  // it as written, and a template with it unquoted is no JSON at all ("Expected property name…").
  it.each([
    [
      '{"symbol":"AAPL","action":"buy","quantity":{{strategy.order.contracts}}}',
      'quantity',
      'quantity: placeholder {{strategy.order.contracts}} was not replaced by the sender',
    ],
    [
      '{"symbol":"AAPL","action":"buy","quantity":1,"limit_price": %last_price% }',
      'limit_price',
      'limit_price: placeholder %last_price% was not replaced by the sender',
    ],
    [
      '{\r\n  "symbol": "{{ticker}}",\r\n  "quantity[2]" :\t{{plot_0}},\r\n}',
      'quantity[2]',
      'quantity[2]: placeholder {{plot_0}} was not replaced by the sender',
    ],
    // Outside a string elsewhere: after the order (no second order), or inside a bare expression.
    [
      '{"symbol":"AAPL","action":"buy","quantity":1}\n{{strategy.order.comment}}',
      'body',
      'body: placeholder {{strategy.order.comment}} was not replaced by the sender',
    ],
    [
      '{"symbol":"AAPL","action":"buy","quantity":1,"limit_price": 1.01 * {{close}}}',
      'body',
      'body: placeholder {{close}} was not replaced by the sender',
    ],
    [
      '{{strategy.order.alert_message}} {"symbol":"AAPL","note":"{{x}}","quantity":1}',
      'body',
      'body: placeholder {{strategy.order.alert_message}} was not replaced by the sender',
    ],
    // The whole message as one variable: a strategy order without an alert_message of its own.
    [
      ' {{strategy.order.alert_message}}\n',
      'body',
      'body: placeholder {{strategy.order.alert_message}} was not replaced by the sender',
    ],
  ])('%s', (text, field, message) => {
    expect(normalize(text)).toEqual({ ok: false, error: { field, message } });
  });

  it("keeps the parser's reason for other text that is no JSON, a quoted placeholder included", () => {
    for (const text of ['{"symbol":"{{ticker}}","quantity":}', '{"note":"{{close}}",', '{"a":"x: {{close}}" 1}']) {
      const result = normalize(text);
      expect(result.ok ? '' : result.error.message).toMatch(/^body: not valid JSON \(/);
    }
  });
});

describe('normalizeOrder on hostile input', () => {
  const hostile: Array<[string, unknown]> = [
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an array', [1, 2]],
    ['a Date', new Date()],
    ['a Map', new Map()],
    ['invalid JSON', '{"symbol": '],
    ['JSON null', 'null'],
    ['huge text', `{"symbol":"${'A'.repeat(70_000)}"}`],
    ['__proto__ from JSON', '{"symbol":"AAPL","action":"buy","quantity":1,"__proto__":{"polluted":true}}'],
    ['constructor key', { symbol: 'AAPL', action: 'buy', quantity: 1, constructor: { prototype: {} } }],
    ['__proto__ in extra', JSON.parse('{"symbol":"AAPL","action":"buy","quantity":1,"extra":{"__proto__":{"x":1}}}')],
    [
      '__proto__ in a leg',
      JSON.parse('{"legs":[{"symbol":"A","action":"buy","__proto__":{}},{"symbol":"B","action":"buy"}]}'),
    ],
    ['deep nesting', `{"symbol":${'['.repeat(30_000)}${']'.repeat(30_000)}}`],
    [
      'deep objects',
      `{"symbol":"A","action":"buy","quantity":1,"extra":{"a":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}}`,
    ],
    [
      'deep nesting in extra',
      {
        symbol: 'AAPL',
        action: 'buy',
        quantity: 1,
        extra: { a: JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`) },
      },
    ],
    ['many legs', { legs: Array.from({ length: 100_000 }, () => ({})) }],
    ['many fields', Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`f${i}`, i]))],
    [
      'a throwing getter',
      Object.defineProperty({ symbol: 'AAPL', action: 'buy' }, 'quantity', {
        enumerable: true,
        get() {
          throw new Error('boom');
        },
      }),
    ],
    [
      'a Proxy that throws',
      new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('boom');
          },
        },
      ),
    ],
    ['huge numbers', { symbol: 'AAPL', action: 'buy', quantity: 1e308 * 10 }],
  ];

  it.each(hostile)('refuses %s with a typed error', (_name, input) => {
    const result = normalize(input);
    expect(result.ok).toBe(false);
    expect(() => normalizeOrderOrThrow(input, { now })).toThrow(OrderValidationError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports the status ValidationError', () => {
    try {
      normalizeOrderOrThrow({ symbol: 'AAPL' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(OrderValidationError);
      expect(error).toMatchObject({ status: 'ValidationError', field: 'action', message: 'action: required' });
    }
  });
});
