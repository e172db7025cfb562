// Contract tests of the cTrader adapter against its protocol fake: OAuth connect and refresh,
// each order form over real WebSocket + protobuf frames, refusals before sending, live and demo
// endpoints (errors and lookups: adapter-errors.test.ts).
import { describe, expect, it } from 'vitest';
import { findOrder } from '../../core/find-order.ts';
import { createCtraderBroker } from './adapter.ts';
import { DEMO, failure, LIVE, order, useContract } from './contract.ts';
import { FAKE_APP } from './fake.ts';

const c = useContract();

describe('connect and refresh', () => {
  it('sends the user to /apps/auth with trading scope and our callback', () => {
    const url = new URL(c.broker.authorizationUrl(c.ctx, 'st-1').requestUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${c.fake.baseUrl}/apps/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: FAKE_APP.clientId,
      redirect_uri: 'http://127.0.0.1:9/callback/ctrader',
      scope: 'trading',
      state: 'st-1',
    });
  });

  it('exchanges the code with a GET and lists live and demo accounts, with the access token expiry', () => {
    const exchange = c.fake.records.find((record) => record.path === '/apps/token');
    expect(exchange).toMatchObject({
      method: 'GET',
      query: { grant_type: 'authorization_code', client_id: FAKE_APP.clientId },
    });
    expect(c.session.accounts).toEqual([
      { id: DEMO, name: 'DemoBroker 5021377', dataTitle: 'DemoBroker', demo: true },
      { id: LIVE, name: 'LiveBroker 3017755', dataTitle: 'LiveBroker', demo: false },
    ]);
    const expiresAt = c.session.expiresAt ?? 0;
    expect(expiresAt - Date.now()).toBeGreaterThan(2_627_000_000);
    expect(c.session.refreshAt).toBe(expiresAt - 7 * 24 * 60 * 60_000);
    expect(JSON.stringify(c.session.accounts)).not.toContain(c.session.secrets.accessToken ?? '-');
  });

  it('refuses a used or unknown code with the broker title', async () => {
    const error = await failure(c.broker.connect(c.ctx, { credentials: { code: 'not-a-code' } }));
    expect(error).toMatchObject({
      kind: 'AuthenticationError',
      message: 'cTrader: sign-in refused (Authorization code is invalid or expired); reconnect',
    });
  });

  it('refreshes: a new pair, the old access token and refresh token stop working', async () => {
    const own = await c.broker.connect(c.ctx, { credentials: { code: c.fake.issueCode(c.ctx.redirectUrl ?? '') } });
    await c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-before-refresh', DEMO, own);
    const renewed = await c.broker.refresh(c.ctx, own);
    expect(renewed.secrets.refreshToken).not.toBe(own.secrets.refreshToken);
    expect(renewed.secrets.accessToken).not.toBe(own.secrets.accessToken);
    expect(renewed.accounts).toEqual(own.accounts);
    const filled = await c.place(
      { symbol: 'EURUSD', action: 'buy', quantity: 1000 },
      'sig-after-refresh',
      DEMO,
      renewed,
    );
    expect(filled.status).toBe('filled');
    const old = await failure(c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-old-token', DEMO, own));
    expect(old).toMatchObject({
      kind: 'AuthenticationError',
      message: 'cTrader: Invalid access token (CH_ACCESS_TOKEN_INVALID)',
    });
    const again = await failure(c.broker.refresh(c.ctx, own));
    expect(again.kind).toBe('AuthenticationError');
    expect(again.message).toMatch(/^cTrader: the refresh token was refused/);
  });
});

describe('a token refreshed elsewhere', () => {
  it('an order on a session whose token another instance replaced takes the stored one and is sent once', async () => {
    const own = await c.broker.connect(c.ctx, { credentials: { code: c.fake.issueCode(c.ctx.redirectUrl ?? '') } });
    // Another server instance renewed the grant and stored it: cTrader ended the old access token.
    const stored = await c.broker.refresh(c.ctx, own);
    let asked = 0;
    const ctx = {
      ...c.ctx,
      refreshSession: async () => {
        asked++;
        return stored;
      },
    };
    const since = c.fake.records.length;
    const input = { accountId: DEMO, order: order({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }) };
    const placed = await c.broker.placeOrder(ctx, own, { ...input, clientOrderId: 'sig-replaced-token' });
    expect(placed.status).toBe('filled');
    expect(asked).toBe(1);
    expect(c.sent('ProtoOANewOrderReq', since)).toHaveLength(1);
    // A token refused with no newer one to take is still a refusal (the refreshed one refused too).
    const refused = await failure(
      c.broker.placeOrder({ ...c.ctx, refreshSession: async () => own }, own, {
        ...input,
        clientOrderId: 'sig-still-refused',
      }),
    );
    expect(refused.kind).toBe('AuthenticationError');
  });
});

describe('orders', () => {
  it('market buy with relative stop loss and take profit: ACCEPTED then FILLED', async () => {
    const since = c.fake.records.length;
    const answer = await c.place(
      {
        symbol: 'EURUSD',
        action: 'buy',
        quantity: 1000,
        stop_loss_price_distance: 0.005,
        extra: { take_profit_distance: 0.01, label: 'signal-bot' },
      },
      'sig-20241124-0042',
    );
    expect(answer).toEqual({ id: expect.stringMatching(/^\d+$/), status: 'filled', price: 1.08512 });
    expect(c.sent('ProtoOANewOrderReq', since)).toEqual([
      {
        ctidTraderAccountId: 44533070,
        symbolId: 1,
        orderType: 1,
        tradeSide: 1,
        volume: 100000,
        relativeStopLoss: 500,
        relativeTakeProfit: 1000,
        label: 'signal-bot',
        clientOrderId: 'sig-20241124-0042',
      },
    ]);
  });

  it('limit sell, good till date, absolute bracket', async () => {
    const since = c.fake.records.length;
    const expiration = Date.now() + 86_400_000;
    const answer = await c.place(
      {
        symbol: 'EUR/USD',
        action: 'sell',
        quantity: 10000,
        type: 'limit',
        limit_price: 1.0855,
        duration: 'gtd',
        take_profit_price: 1.0755,
        stop_loss_price: 1.0905,
        extra: { expiration_time: new Date(expiration).toISOString() },
      },
      'sig-limit',
    );
    expect(answer).toEqual({ id: expect.stringMatching(/^\d+$/), status: 'accepted' });
    expect(c.sent('ProtoOANewOrderReq', since)).toEqual([
      expect.objectContaining({ orderType: 2, tradeSide: 2, volume: 1000000, limitPrice: 1.0855, timeInForce: 1 }),
    ]);
    expect(c.sent('ProtoOANewOrderReq', since)[0]).toMatchObject({
      expirationTimestamp: expiration,
      stopLoss: 1.0905,
      takeProfit: 1.0755,
    });
  });

  it('stop and stop-limit (limit as slippage in points), ioc and fok', async () => {
    const since = c.fake.records.length;
    await c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'stop', stop_price: 1.092 }, 'sig-stop');
    await c.place(
      {
        symbol: 'EURUSD',
        action: 'buy',
        quantity: 1000,
        type: 'stop_limit',
        stop_price: 1.092,
        limit_price: 1.0922,
        stop_loss_price: 1.087,
      },
      'sig-stop-limit',
    );
    await c.place(
      { symbol: 'EURUSD', action: 'sell_short', quantity: 1000, type: 'limit', limit_price: 1.2, duration: 'ioc' },
      'sig-ioc',
    );
    await c.place({ symbol: 'XAUUSD', action: 'buy', quantity: 1, duration: 'fok' }, 'sig-fok');
    expect(c.sent('ProtoOANewOrderReq', since)).toEqual([
      expect.objectContaining({ orderType: 3, stopPrice: 1.092, timeInForce: 2 }),
      expect.objectContaining({
        orderType: 6,
        stopPrice: 1.092,
        slippageInPoints: 20,
        timeInForce: 2,
        stopLoss: 1.087,
      }),
      expect.objectContaining({ orderType: 2, tradeSide: 2, timeInForce: 3 }),
      expect.objectContaining({ orderType: 1, symbolId: 41, volume: 100, timeInForce: 4 }),
    ]);
  });

  it("a stop-limit's limit finer than the symbol's points never goes past the trader's limit", async () => {
    const since = c.fake.records.length;
    const base = { symbol: 'EURUSD', quantity: 1000, type: 'stop_limit', stop_price: 1.092 };
    // Buy: limit 1.092056 is 5.6 points above the stop; 6 would buy up to 1.09206, above the limit.
    await c.place({ ...base, action: 'buy', limit_price: 1.092056 }, 'sig-stop-limit-buy');
    // Sell: limit 1.091944 is 5.6 points below the stop; 6 would sell down to 1.09194, below the limit.
    await c.place({ ...base, action: 'sell', limit_price: 1.091944 }, 'sig-stop-limit-sell');
    expect(c.sent('ProtoOANewOrderReq', since)).toEqual([
      expect.objectContaining({ orderType: 6, tradeSide: 1, stopPrice: 1.092, slippageInPoints: 5 }),
      expect.objectContaining({ orderType: 6, tradeSide: 2, stopPrice: 1.092, slippageInPoints: 5 }),
    ]);
  });

  it("prices finer than the symbol's digits go in its digits, never past the trader's, and are accepted", async () => {
    const since = c.fake.records.length;
    // TradingView computes levels such as {{close}}*0.99: 1.0812345 has 7 decimals, EUR/USD takes 5.
    const buy = await c.place(
      {
        symbol: 'EURUSD',
        action: 'buy',
        quantity: 1000,
        type: 'limit',
        limit_price: 1.0812345,
        stop_loss_price: 1.0712345,
        take_profit_price: 1.0912345,
      },
      'sig-digits-buy',
    );
    const sell = await c.place(
      { symbol: 'XAUUSD', action: 'sell', quantity: 1, type: 'stop', stop_price: 2600.123 },
      'sig-digits-sell',
    );
    expect(c.sent('ProtoOANewOrderReq', since)).toEqual([
      expect.objectContaining({ limitPrice: 1.08123, stopLoss: 1.07124, takeProfit: 1.09124 }),
      expect.objectContaining({ stopPrice: 2600.13 }),
    ]);
    expect([buy.status, sell.status]).toEqual(['accepted', 'accepted']);
  });

  it('a take profit distance finer than 1/100000 never brings the exit closer than the trader asked', async () => {
    const since = c.fake.records.length;
    // 5.4 hundred-thousandths: 5 would take the profit 0.000004 short of the trader's level.
    await c.place(
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, extra: { take_profit_distance: 0.000054 } },
      'sig-tp-fine',
    );
    expect(c.sent('ProtoOANewOrderReq', since)).toEqual([expect.objectContaining({ relativeTakeProfit: 6 })]);
  });

  it("puts relative stop loss and take profit on the symbol's digits, which cTrader refuses finer", async () => {
    const since = c.fake.records.length;
    // XAUUSD has 2 digits: a distance of 1.234 (123400) would put the exit at 2649.266.
    const answer = await c.place(
      {
        symbol: 'XAUUSD',
        action: 'buy',
        quantity: 1,
        stop_loss_price_distance: 1.234,
        extra: { take_profit_distance: 2.341 },
      },
      'sig-relative-digits',
    );
    expect(c.sent('ProtoOANewOrderReq', since)).toEqual([
      expect.objectContaining({ relativeStopLoss: 123_000, relativeTakeProfit: 235_000 }),
    ]);
    expect(answer.status).toBe('filled');
    await expect(
      c.place({ symbol: 'XAUUSD', action: 'buy', quantity: 1, stop_loss_price_distance: 0.004 }, 'sig-relative-tiny'),
    ).rejects.toThrow(/stop_loss_price_distance 0.004 is less than XAUUSD's price step of 0.01/);
  });

  it.each([
    [
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, take_profit_price: 1.2 },
      /market order takes its stop loss and take profit as distances/,
    ],
    [{ symbol: 'EURUSD', action: 'buy', quantity: 1000.001 }, /at most 2 decimals/],
    [{ symbol: 'EURUSD', action: 'buy', quantity: 500 }, /below EUR\/USD's minimum of 1000 units/],
    [{ symbol: 'EURUSD', action: 'buy', quantity: 1500 }, /not a multiple of EUR\/USD's step of 1000 units/],
    [{ symbol: 'GBPJPY', action: 'buy', quantity: 1000 }, /symbol GBP\/JPY is not offered on this account/],
    [
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1, duration: 'gtd' },
      /gtd order needs extra.expiration_time/,
    ],
    [
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'stop_limit', stop_price: 1.1, limit_price: 1.09 },
      /limit at or beyond its stop/,
    ],
  ])('refuses before sending: %j', async (signal, message) => {
    const since = c.fake.records.length;
    const error = await failure(c.place(signal, 'sig-refused'));
    expect(error.kind).toBe('InvalidOrder');
    expect(error.message).toMatch(/^cTrader: /);
    expect(error.message).toMatch(message);
    expect(c.sent('ProtoOANewOrderReq', since)).toEqual([]);
  });

  it('the validator refuses what cTrader lacks, naming it', () => {
    expect(() => order({ symbol: 'EURUSD', action: 'buy', quantity: 1, duration: 'day' })).toThrow(
      /^cTrader: duration: day is not supported \(cTrader has no day orders: use gtd with extra.expiration_time\)/,
    );
    expect(() => order({ symbol: 'EURUSD', action: 'buy', quantity: 1, quantity_type: 'cash' })).toThrow(/^cTrader: /);
  });

  it('a signal id longer than 50 characters becomes its 50-character hash, the same each time', async () => {
    const long = `sig-${'x'.repeat(60)}`;
    const since = c.fake.records.length;
    await c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, long);
    const [request] = c.sent('ProtoOANewOrderReq', since) as Array<{ clientOrderId: string }>;
    expect(request?.clientOrderId).toMatch(/^[0-9a-f]{50}$/);
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: DEMO,
      clientOrderId: long,
      sentAt: Date.now(),
    });
    expect(found.match).toBe('exact');
  });

  it.each([
    ['forex', 'EURUSD', 1000, 1.08512],
    ['commodity', 'XAUUSD', 1, 2650.5],
    ['crypto', 'BTCUSD', 0.01, 97_000],
    ['index', 'US500', 1, 5900],
    ['stock', 'AAPL', 3, 230],
  ])('%s: a market buy of %s fills', async (orderClass, symbol, quantity, price) => {
    const answer = await c.place({ symbol, class: orderClass, action: 'buy', quantity }, `sig-class-${orderClass}`);
    expect(answer).toMatchObject({ status: 'filled', price });
  });

  it('a live account trades on the live endpoint', async () => {
    const answer = await c.place({ symbol: 'BTCUSD', action: 'buy', quantity: 0.05 }, 'sig-live', LIVE);
    expect(answer.status).toBe('filled');
    const swapped = createCtraderBroker({ endpoints: { live: c.fake.endpoints.demo, demo: c.fake.endpoints.live } });
    try {
      const error = await failure(
        swapped.placeOrder(c.ctx, c.session, {
          accountId: LIVE,
          order: order({ symbol: 'BTCUSD', action: 'buy', quantity: 0.05 }),
          clientOrderId: 'sig-x',
        }),
      );
      // Not found on the other environment's server: that account's refusal, not the connection's.
      expect(error).toMatchObject({
        kind: 'InvalidOrder',
        message: 'cTrader: Trading account is not found on this server (CH_CTID_TRADER_ACCOUNT_NOT_FOUND)',
      });
    } finally {
      swapped.close();
    }
  });

  it('refuses an account outside the connection before sending', async () => {
    const error = await failure(c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-other', '999'));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'cTrader: account 999 is not part of this connection',
    });
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  const input = (signal: Record<string, unknown>) => ({
    accountId: DEMO,
    order: order(signal),
    clientOrderId: 'sig-check',
  });

  it.each([
    [
      { symbol: 'GBPJPY', action: 'buy', quantity: 1000, take_profit_price: 1.2 },
      'cTrader: a market order takes its stop loss and take profit as distances (stop_loss_price_distance, extra.take_profit_distance)',
    ],
    [
      { symbol: 'EURUSD', action: 'buy', quantity: 1000.001 },
      'cTrader: quantity 1000.001 must be positive with at most 2 decimals (cTrader counts hundredths of a unit)',
    ],
    [
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'stop_limit', stop_price: 1.1, limit_price: 1.09 },
      'cTrader: a stop_limit buy needs its limit at or beyond its stop price',
    ],
    [
      { symbol: 'GBPJPY', action: 'close', quantity: 0.001 },
      'cTrader: quantity 0.001 must be positive with at most 2 decimals (cTrader counts hundredths of a unit)',
    ],
  ])('refuses %j as placing does, with its error, sending nothing', async (signal, message) => {
    const since = c.fake.records.length;
    const live = await failure(c.place(signal, 'sig-check'));
    expect(live).toMatchObject({ kind: 'InvalidOrder', message });
    expect(c.fake.records.slice(since)).toEqual([]);
    expect(() => c.broker.checkOrder(input(signal))).toThrow(live);
  });

  it('passes an order placing takes', () => {
    expect(() => c.broker.checkOrder(input({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }))).not.toThrow();
    expect(() => c.broker.checkOrder(input({ symbol: 'EURUSD', action: 'close', quantity: 1000 }))).not.toThrow();
    expect(() => c.broker.checkOrder(input({ symbol: 'EURUSD', action: 'cancel' }))).not.toThrow();
  });
});
