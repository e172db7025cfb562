// FOREX.com orders found again through core/find-order.ts (by OrderId: active orders, then the
// trade and stop/limit histories; without one, by market, direction, size and time: the weakest
// route, 'probable' at best), cancels, and every error class: refusals inside HTTP 200, funds,
// throttling, a lost answer (never resent).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findOrder } from '../../core/find-order.ts';
import { ACCOUNT, connected, failure, toOrder } from './test-support.ts';

let t: Awaited<ReturnType<typeof connected>>;
beforeAll(async () => {
  t = await connected({ cash: 5_000 });
});
afterAll(() => t.fake.close());
beforeEach(() => {
  t.fake.requests.length = 0;
  t.fake.clearInjections();
});

const lookUp = (lookup: {
  clientOrderId: string;
  brokerOrderId?: string;
  signal?: Record<string, unknown>;
  sentAt?: number;
}) =>
  findOrder(t.broker, t.ctx, t.session, {
    accountId: ACCOUNT,
    clientOrderId: lookup.clientOrderId,
    ...(lookup.brokerOrderId ? { brokerOrderId: lookup.brokerOrderId } : {}),
    ...(lookup.signal ? { order: toOrder(lookup.signal) } : {}),
    ...(lookup.sentAt !== undefined ? { sentAt: lookup.sentAt } : {}),
  });

describe('findOrder', () => {
  it("by FOREX.com's id: a working order, an open position, and a cancelled order from the history", async () => {
    const working = await t.place({
      symbol: 'EUR/USD',
      action: 'sell',
      quantity: 1000,
      type: 'limit',
      limit_price: 1.1,
    });
    expect(await lookUp({ clientOrderId: 'a', brokerOrderId: working.id })).toMatchObject({
      match: 'exact',
      order: { id: working.id, status: 'accepted' },
    });
    const trade = await t.place({ symbol: 'EUR/USD', action: 'buy', quantity: 1000 });
    expect(await lookUp({ clientOrderId: 'b', brokerOrderId: trade.id })).toMatchObject({
      match: 'exact',
      order: { id: trade.id, status: 'filled', price: 1.08512 },
    });
    await t.broker.cancelOrder(t.ctx, t.session, { accountId: ACCOUNT, brokerOrderId: working.id });
    expect(await lookUp({ clientOrderId: 'a', brokerOrderId: working.id })).toMatchObject({
      match: 'exact',
      order: { id: working.id, status: 'canceled' },
    });
    expect(await lookUp({ clientOrderId: 'c', brokerOrderId: '999' })).toEqual({
      match: 'unknown',
      reason: 'FOREX.com does not know its own order 999',
    });
  });

  it('without an id: one order of those terms in the window is probable, two prove nothing, none is none', async () => {
    const sentAt = Date.now();
    const gbp = { symbol: 'GBP/USD', action: 'buy', quantity: 1000 };
    expect(await lookUp({ clientOrderId: 'd', signal: gbp, sentAt })).toEqual({ match: 'none' });
    const placed = await t.place(gbp);
    expect(await lookUp({ clientOrderId: 'd', signal: gbp, sentAt })).toMatchObject({
      match: 'probable',
      order: { id: placed.id, status: 'filled' },
    });
    await t.place(gbp);
    expect(await lookUp({ clientOrderId: 'd', signal: gbp, sentAt })).toMatchObject({ match: 'unknown' });
    const entry = { symbol: 'GBP/USD', action: 'sell', quantity: 1000, type: 'stop', stop_price: 1.26 };
    const stop = await t.place(entry);
    expect(await lookUp({ clientOrderId: 'e', signal: entry, sentAt })).toMatchObject({
      match: 'probable',
      order: { id: stop.id, status: 'accepted' },
    });
    expect(await lookUp({ clientOrderId: 'f', signal: gbp })).toMatchObject({ match: 'unknown' });
  });

  it('without an id: an entry whose level was sent at the market decimals is still found by its signal', async () => {
    const sentAt = Date.now();
    // USD/JPY quotes 3 decimals: the level goes out as 149.123, the signal says 149.1234.
    const entry = { symbol: 'USD/JPY', action: 'buy', quantity: 2000, type: 'limit', limit_price: 149.1234 };
    const placed = await t.place(entry);
    expect(JSON.parse(t.posted('/order/newstoplimitorder').at(-1)?.body ?? '{}').TriggerPrice).toBe(149.123);
    expect(await lookUp({ clientOrderId: 'g', signal: entry, sentAt })).toMatchObject({
      match: 'probable',
      order: { id: placed.id, status: 'accepted' },
    });
  });
});

describe('cancel', () => {
  it("cancels by FOREX.com's id; an order no longer working is refused; our id alone finds nothing", async () => {
    const working = await t.place({
      symbol: 'EUR/USD',
      action: 'buy',
      quantity: 1000,
      type: 'limit',
      limit_price: 1.05,
    });
    await t.broker.cancelOrder(t.ctx, t.session, { accountId: ACCOUNT, brokerOrderId: working.id });
    expect(t.posted('/order/cancel').map((r) => JSON.parse(r.body))).toEqual([
      { OrderId: Number(working.id), TradingAccountId: Number(ACCOUNT) },
    ]);
    const again = await failure(
      t.broker.cancelOrder(t.ctx, t.session, { accountId: ACCOUNT, brokerOrderId: working.id }),
    );
    expect([again.kind, again.message]).toEqual([
      'OrderNotFound',
      'FOREX.com: The order id must name an active order or open position (status reason 61)',
    ]);
    const ours = await failure(t.broker.cancelOrder(t.ctx, t.session, { accountId: ACCOUNT, clientOrderId: 'sig-1' }));
    expect(ours.message).toBe('FOREX.com: no order with client order id sig-1');
  });
});

describe('errors', () => {
  it('reads refusals from HTTP 200 answers: a closed market, funds', async () => {
    const closed = await failure(t.place({ symbol: 'USD/TRY', action: 'buy', quantity: 1000 }));
    expect([closed.kind, closed.message]).toEqual(['InvalidOrder', 'FOREX.com: Market is Closed (status reason 10)']);
    const poor = await failure(t.place({ symbol: 'EUR/USD', action: 'buy', quantity: 10_000_000 }));
    expect([poor.kind, poor.message]).toEqual([
      'InsufficientFunds',
      'FOREX.com: Insufficient Funds (status reason 63)',
    ]);
  });

  it('the fake refuses a body its DTO does not describe, as FOREX.com does (ErrorCode 4004)', async () => {
    const response = await fetch(`${t.fake.url}/order/cancel`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        UserName: t.session.secrets.userName ?? '',
        Session: t.session.secrets.session ?? '',
      },
      body: JSON.stringify({ orderId: 1, TradingAccountId: Number(ACCOUNT) }),
    });
    expect([response.status, await response.json()]).toEqual([
      400,
      { HttpStatus: 400, ErrorMessage: 'orderId is not OrderId: property names are case-sensitive', ErrorCode: 4004 },
    ]);
  });

  it('never resends an order: not after a 500, a timeout, a dropped connection or throttling', async () => {
    const cases = [
      {
        injection: { status: 500, body: { HttpStatus: 500, ErrorMessage: 'Internal error', ErrorCode: 500 } },
        kind: 'BrokerUnavailable',
        unknown: true,
      },
      // The deadline passes as the order reaches FOREX.com, which answers 300 ms later.
      { injection: { delayMs: 300, status: 200, body: {} }, kind: 'BrokerUnavailable', unknown: true, late: true },
      { injection: { drop: true }, kind: 'BrokerUnavailable', unknown: true },
      {
        injection: { status: 503, body: { HttpStatus: 503, ErrorMessage: 'Throttled', ErrorCode: 5002 } },
        kind: 'RateLimited',
        unknown: false,
      },
    ];
    for (const { injection, kind, unknown, late } of cases) {
      t.fake.requests.length = 0;
      // The market is already known: the trade waits only for the quote.
      const deadline = new AbortController();
      const onArrival = () => deadline.abort();
      t.fake.inject({ method: 'POST', path: '/order/newtradeorder', ...injection, ...(late ? { onArrival } : {}) });
      const call = late ? { ...t.ctx, signal: deadline.signal } : t.ctx;
      const error = await failure(t.place({ symbol: 'EUR/USD', action: 'buy', quantity: 1000 }, call));
      expect([error.kind, error.outcomeUnknown]).toEqual([kind, unknown]);
      expect(t.posted('/order/newtradeorder')).toHaveLength(1);
    }
  });

  it('a throttled read is asked once more; a throttled order says it was not placed, a throttled cancel not canceled', async () => {
    const throttled = { status: 503, body: { HttpStatus: 503, ErrorMessage: 'Throttled', ErrorCode: 5002 } };
    t.fake.inject({ method: 'GET', path: '/margin/ClientAccountMargin', ...throttled });
    const holdings = await t.broker.getHoldings(t.ctx, t.session, ACCOUNT);
    expect(holdings.currency).toBe('USD');
    expect(t.fake.requests.filter((r) => r.url === '/margin/ClientAccountMargin')).toHaveLength(2);
    t.fake.inject({ method: 'POST', path: '/order/newtradeorder', ...throttled });
    const refused = await failure(t.place({ symbol: 'EUR/USD', action: 'buy', quantity: 1000 }));
    expect(refused.message).toBe('FOREX.com: throttled (Throttled); the order was not placed');
    // A throttled cancel left its order working: it was placed, and not canceled.
    const working = await t.place({
      symbol: 'EUR/USD',
      action: 'buy',
      quantity: 1000,
      type: 'limit',
      limit_price: 1.04,
    });
    t.fake.inject({ method: 'POST', path: '/order/cancel', ...throttled });
    const cancel = await failure(
      t.broker.cancelOrder(t.ctx, t.session, { accountId: ACCOUNT, brokerOrderId: working.id }),
    );
    expect(cancel.message).toBe('FOREX.com: throttled (Throttled); the order was not canceled');
  });
});
