// Contract tests of the FOREX.com adapter against its protocol fake: session logon and renewal,
// every order the descriptor claims as CIAPI sends it (market trades, stop and limit entries,
// IfDone exits, close, cancel), what is refused before sending, preview and holdings.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT, connected, failure, toOrder } from './test-support.ts';

// Each case its own fake account and session: cases open positions, rest orders and renew sessions.
let t: Awaited<ReturnType<typeof connected>>;
beforeEach(async () => {
  t = await connected();
  t.fake.requests.length = 0;
});
afterEach(() => t.fake.close());

const EURUSD = 401484347;

describe('connect and refresh', () => {
  it('logs on with user name, password and AppKey and lists the open trading account', () => {
    expect(t.session.accounts).toEqual([
      {
        id: ACCOUNT,
        name: 'FOREX.com DM123456 (CFD)',
        dataTitle: 'DM123456',
        dataType: 'cfd',
        dataCurrency: 'USD',
        demo: true,
      },
    ]);
    expect(t.session.secrets).toMatchObject({ ...t.fake.credentials, clientAccountId: '400123456' });
    expect(t.fake.sessions.has(t.session.secrets.session ?? '')).toBe(true);
    expect(t.session.refreshAt).toBeGreaterThan(Date.now());
  });

  it('refuses a wrong password or AppKey as FOREX.com words it, and missing fields before sending', async () => {
    const wrong = await failure(
      t.broker.connect(t.ctx, { credentials: { ...t.fake.credentials, password: 'not-it' } }),
    );
    expect([wrong.kind, wrong.message]).toEqual(['AuthenticationError', 'FOREX.com: Invalid Username or Password']);
    const key = await failure(t.broker.connect(t.ctx, { credentials: { ...t.fake.credentials, appKey: 'other' } }));
    expect(key.message).toBe('FOREX.com: Invalid AppKey');
    t.fake.requests.length = 0;
    const missing = await failure(t.broker.connect(t.ctx, { credentials: { userName: 'DM123456', password: 'x' } }));
    expect(missing.message).toBe('FOREX.com: user name, password and AppKey are required');
    expect(t.fake.requests).toHaveLength(0);
  });

  it('refresh logs on again: a new session, the same accounts', async () => {
    const renewed = await t.broker.refresh(t.ctx, t.session);
    expect(renewed.secrets.session).not.toBe(t.session.secrets.session);
    expect(renewed.accounts).toEqual(t.session.accounts);
    expect(t.posted('/session')).toHaveLength(1);
  });

  it("a logon meeting a proxy's or a CDN's 401 page (or an empty 401) is an outage, no refused login", async () => {
    for (const body of ['<html><body><h1>401 Authorization Required</h1></body></html>', '']) {
      t.fake.inject({ method: 'POST', path: '/session', status: 401, body, headers: { 'content-type': 'text/html' } });
      expect(await failure(t.broker.refresh(t.ctx, t.session))).toMatchObject({
        kind: 'BrokerUnavailable',
        message: 'FOREX.com: HTTP 401',
      });
    }
    const renewed = await t.broker.refresh(t.ctx, t.session);
    expect(renewed.secrets.session).not.toBe(t.session.secrets.session);
  });

  it('an expired session (ErrorCode 4011) is renewed; a read and an order each go through once', async () => {
    const { fake, broker, ctx, session, place, posted } = await connected();
    try {
      fake.expireSessions();
      await broker.getHoldings(ctx, session, ACCOUNT);
      // Refused at the order itself (error.invalid-session.response.json): nothing was placed.
      fake.inject({
        method: 'POST',
        path: '/order/newtradeorder',
        status: 401,
        body: { HttpStatus: 401, ErrorMessage: 'Session is not valid', ErrorCode: 4011 },
      });
      const before = fake.orderCount();
      await place({ symbol: 'EUR/USD', action: 'buy', quantity: 1000 });
      expect(fake.orderCount()).toBe(before + 1);
      expect(posted('/order/newtradeorder')).toHaveLength(2);
      expect(posted('/session').length).toBeGreaterThanOrEqual(3);
    } finally {
      await fake.close();
    }
  });
});

describe('orders the descriptor claims', () => {
  it('a market buy with a stop and a limit exit: one trade, its exits working', async () => {
    const placed = await t.place({
      symbol: 'EURUSD',
      action: 'buy',
      quantity: 10000,
      stop_loss_price: 1.08,
      take_profit_price: 1.1,
    });
    expect(placed).toMatchObject({ status: 'filled', price: 1.08512 });
    const [sent] = t.posted('/order/newtradeorder');
    expect(JSON.parse(sent?.body ?? '')).toMatchObject({
      MarketId: EURUSD,
      Direction: 'buy',
      Quantity: 10000,
      IfDone: [
        {
          Stop: { TriggerPrice: 1.08, Direction: 'sell', Quantity: 10000, Applicability: 'gtc' },
          Limit: { TriggerPrice: 1.1, Direction: 'sell', Quantity: 10000, Applicability: 'gtc' },
        },
      ],
    });
    expect(t.fake.trading.working.filter((o) => o.ParentOrderId === Number(placed.id))).toHaveLength(2);
  });

  it('a take profit finer than the market quotes never closes below (a long) or above (a short) its price', async () => {
    await t.place({ symbol: 'USD/JPY', action: 'buy', quantity: 1000, take_profit_price: 153.0004 });
    await t.place({ symbol: 'USD/JPY', action: 'sell', quantity: 1000, take_profit_price: 150.0006 });
    const limits = t.posted('/order/newtradeorder').map((r) => JSON.parse(r.body).IfDone[0].Limit);
    expect(limits.map((l: { Direction: string; TriggerPrice: number }) => [l.Direction, l.TriggerPrice])).toEqual([
      ['sell', 153.001],
      ['buy', 150],
    ]);
  });

  it('limit and stop entries, day or gtc, on the side of the market FOREX.com infers them from', async () => {
    const limit = await t.place({ symbol: 'GBP/USD', action: 'buy', quantity: 2000, type: 'limit', limit_price: 1.25 });
    const stop = await t.place({
      symbol: 'GBP/USD',
      action: 'sell',
      quantity: 2000,
      type: 'stop',
      stop_price: 1.26,
      duration: 'day',
    });
    expect([limit.status, stop.status]).toEqual(['accepted', 'accepted']);
    const bodies = t.posted('/order/newstoplimitorder').map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.Direction, b.TriggerPrice, b.Applicability])).toEqual([
      ['buy', 1.25, 'gtc'],
      ['sell', 1.26, 'gfd'],
    ]);
    const working = t.fake.trading.working.filter((o) => [limit.id, stop.id].includes(String(o.OrderId)));
    expect(working.map((o) => o.TypeId)).toEqual([3, 2]);
  });

  it('a limit level finer than the market quotes is rounded the trader’s way: a buy down, a sell up', async () => {
    // USD/JPY quotes 3 decimals; to the nearest, 149.1236 would buy up to 149.124 and 152.0004 sell at 152.000.
    await t.place({ symbol: 'USD/JPY', action: 'buy', quantity: 1000, type: 'limit', limit_price: 149.1236 });
    await t.place({ symbol: 'USD/JPY', action: 'sell', quantity: 1000, type: 'limit', limit_price: 152.0004 });
    const bodies = t.posted('/order/newstoplimitorder').map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.Direction, b.TriggerPrice])).toEqual([
      ['buy', 149.123],
      ['sell', 152.001],
    ]);
  });

  it('refuses before sending what FOREX.com cannot take', async () => {
    const wrongSide = await failure(
      t.place({ symbol: 'EUR/USD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1.2 }),
    );
    expect(wrongSide.message).toBe('FOREX.com: a buy limit must be below the market (1.08512); 1.2 is not');
    const exit = await failure(t.place({ symbol: 'EUR/USD', action: 'buy', quantity: 1000, stop_loss_price: 1.09 }));
    expect(exit.message).toBe('FOREX.com: stop_loss_price must be below the entry (1.08512) for a buy');
    const small = await failure(t.place({ symbol: 'EUR/USD', action: 'buy', quantity: 10 }));
    expect(small.message).toBe('FOREX.com: 10 is below the minimum of 1000 for EUR/USD');
    const unknown = await failure(t.place({ symbol: 'AUD/NZD', action: 'buy', quantity: 1000 }));
    expect(unknown.message).toBe('FOREX.com: no market AUD/NZD for this account');
    expect(() =>
      toOrder({
        symbol: 'EUR/USD',
        action: 'buy',
        quantity: 1000,
        type: 'stop_limit',
        stop_price: 1.1,
        limit_price: 1.2,
      }),
    ).toThrow('FOREX.com: type: stop_limit is not supported; use market, limit, stop');
    expect(() => toOrder({ symbol: 'AAPL', class: 'stock', action: 'buy', quantity: 1 })).toThrow(
      'FOREX.com: class: stock is not supported',
    );
    expect(t.posted('/order/newtradeorder')).toHaveLength(0);
    expect(t.posted('/order/newstoplimitorder')).toHaveLength(0);
    const other = await failure(
      t.broker.placeOrder(t.ctx, t.session, {
        accountId: '1',
        order: toOrder({ symbol: 'EUR/USD', action: 'buy', quantity: 1000 }),
        clientOrderId: 'x',
      }),
    );
    expect([other.kind, other.message]).toEqual([
      'InvalidOrder',
      'FOREX.com: account 1 is not part of this connection',
    ]);
  });

  it('close trades the net position flat, naming the positions; cancel cancels the working entries', async () => {
    await t.place({ symbol: 'USD/JPY', action: 'sell', quantity: 3000 });
    await t.place({ symbol: 'USD/JPY', action: 'buy', quantity: 1000, type: 'limit', limit_price: 150 });
    const closed = await t.place({ symbol: 'USD/JPY', action: 'close' });
    expect(closed.status).toBe('filled');
    const closing = JSON.parse(t.posted('/order/newtradeorder').at(-1)?.body ?? '');
    expect(closing).toMatchObject({ Direction: 'buy', Quantity: 3000, Close: [expect.any(Number)] });
    expect(t.fake.trading.positions.filter((p) => p.MarketId === 401484349)).toHaveLength(0);
    const cancelled = await t.place({ symbol: 'USD/JPY', action: 'cancel' });
    expect(cancelled.status_description).toBe('Cancelled 1 working order(s) of USD/JPY');
    const none = await t.place({ symbol: 'USD/JPY', action: 'cancel' });
    expect(none.status_description).toBe('No working orders of USD/JPY');
    const flat = await failure(t.place({ symbol: 'USD/JPY', action: 'close' }));
    expect(flat.message).toBe('FOREX.com: no open position in USD/JPY');
  });

  it('a cancel that fails partway says which entries were cancelled and which not', async () => {
    const ids: string[] = [];
    for (const price of [150, 149, 148])
      ids.push(
        (await t.place({ symbol: 'USD/JPY', action: 'buy', quantity: 1000, type: 'limit', limit_price: price })).id,
      );
    const throttled = { status: 503, body: { HttpStatus: 503, ErrorMessage: 'Throttled', ErrorCode: 5002 } };
    // The first cancel goes through, the second is throttled.
    t.fake.inject({ method: 'POST', path: '/order/cancel', delayMs: 1 });
    t.fake.inject({ method: 'POST', path: '/order/cancel', ...throttled });
    const error = await failure(t.place({ symbol: 'USD/JPY', action: 'cancel' }));
    expect(error.message).toBe(
      `FOREX.com: throttled (Throttled); the order was not canceled; of the open orders of USD/JPY, only some were canceled: ${ids[0]}; not ${ids[1]}, ${ids[2]}: check them at the broker`,
    );
    expect(t.fake.trading.working.map((order) => String(order.OrderId))).toEqual([ids[1], ids[2]]);
  });

  it('cancel cancels the working entries, not the stop and limit exits protecting an open position', async () => {
    const trade = await t.place({
      symbol: 'EURUSD',
      action: 'buy',
      quantity: 10000,
      stop_loss_price: 1.08,
      take_profit_price: 1.1,
    });
    await t.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1.05 });
    const cancelled = await t.place({ symbol: 'EURUSD', action: 'cancel' });
    expect(cancelled.status_description).toBe('Cancelled 1 working order(s) of EUR/USD');
    expect(t.fake.trading.working.filter((o) => o.ParentOrderId === Number(trade.id))).toHaveLength(2);
  });

  it('a close with a quantity trades that much of the position back, never more than is held', async () => {
    await t.place({ symbol: 'GBP/USD', action: 'sell', quantity: 3000 });
    await t.place({ symbol: 'GBP/USD', action: 'close', quantity: 1000 });
    const closing = JSON.parse(t.posted('/order/newtradeorder').at(-1)?.body ?? '');
    expect(closing).toMatchObject({ Direction: 'buy', Quantity: 1000 });
    const left = () => t.fake.trading.positions.filter((p) => p.MarketId === 401484348).map((p) => p.Quantity);
    expect(left()).toEqual([2000]);
    await t.place({ symbol: 'GBP/USD', action: 'close', quantity: 5000 });
    expect(JSON.parse(t.posted('/order/newtradeorder').at(-1)?.body ?? '')).toMatchObject({ Quantity: 2000 });
    expect(left()).toEqual([]);
  });

  it('a partial close names only the positions it closes, oldest first', async () => {
    await t.place({ symbol: 'GBP/USD', action: 'sell', quantity: 2000 });
    await t.place({ symbol: 'GBP/USD', action: 'sell', quantity: 1000 });
    const [older, newer] = t.fake.trading.positions
      .filter((p) => p.MarketId === 401484348)
      .sort((a, b) => a.OrderId - b.OrderId)
      .map((p) => p.OrderId);
    await t.place({ symbol: 'GBP/USD', action: 'close', quantity: 1000 });
    expect(JSON.parse(t.posted('/order/newtradeorder').at(-1)?.body ?? '')).toMatchObject({
      Direction: 'buy',
      Quantity: 1000,
      Close: [older],
    });
    await t.place({ symbol: 'GBP/USD', action: 'close', quantity: 1500 });
    expect(JSON.parse(t.posted('/order/newtradeorder').at(-1)?.body ?? '')).toMatchObject({
      Quantity: 1500,
      Close: [older, newer],
    });
  });

  it('previews a trade through FOREX.com’s simulation and an entry order as built, placing nothing', async () => {
    const before = t.fake.orderCount();
    const trade = await t.broker.previewOrder(t.ctx, t.session, {
      accountId: ACCOUNT,
      order: toOrder({ symbol: 'EUR/USD', action: 'buy', quantity: 10000 }),
      clientOrderId: 'sig-preview',
    });
    expect(trade.status).toBe('draft');
    expect(trade.status_description).toMatch(
      /^FOREX\.com simulated the trade: margin required [\d.]+, cash [\d.]+; nothing was placed$/,
    );
    const entry = await t.broker.previewOrder(t.ctx, t.session, {
      accountId: ACCOUNT,
      order: toOrder({ symbol: 'EUR/USD', action: 'sell', quantity: 1000, type: 'limit', limit_price: 1.09 }),
      clientOrderId: 'sig-preview',
    });
    expect(entry.status_description).toContain('"TriggerPrice":1.09');
    expect(t.fake.orderCount()).toBe(before);
  });

  it('reads cash, equity, buying power and the open positions', async () => {
    await t.place({ symbol: 'EUR/USD', action: 'buy', quantity: 10000 });
    const holdings = await t.broker.getHoldings(t.ctx, t.session, ACCOUNT);
    expect(holdings).toMatchObject({ currency: 'USD', cash: expect.any(Number), buyingPower: expect.any(Number) });
    expect(holdings.positions).toContainEqual({ symbol: 'EUR/USD', quantity: 10000, averagePrice: 1.08512 });
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  const input = (signal: Record<string, unknown>) => ({
    accountId: ACCOUNT,
    order: toOrder(signal),
    clientOrderId: 'sig-fx',
  });

  it.each([
    [{ symbol: 'AAPL', action: 'buy', quantity: 1000 }, 'FOREX.com: AAPL is not a currency or metal pair'],
    [{ symbol: 'AAPL', action: 'close' }, 'FOREX.com: AAPL is not a currency or metal pair'],
  ])('refuses %j as placing does, with its error, sending nothing', async (signal, message) => {
    const live = await failure(t.place(signal));
    expect(live).toMatchObject({ kind: 'InvalidOrder', message });
    expect(t.fake.requests).toHaveLength(0);
    expect(() => t.broker.checkOrder(input(signal))).toThrow(live);
  });

  it('passes an order placing takes', () => {
    expect(() => t.broker.checkOrder(input({ symbol: 'EUR/USD', action: 'buy', quantity: 1000 }))).not.toThrow();
    expect(() =>
      t.broker.checkOrder(
        input({ symbol: 'USD/JPY', action: 'sell', quantity: 1000, type: 'limit', limit_price: 152 }),
      ),
    ).not.toThrow();
    expect(() => t.broker.checkOrder(input({ symbol: 'EUR/USD', action: 'cancel' }))).not.toThrow();
  });
});
