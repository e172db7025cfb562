// Contract tests of the cTrader adapter against its protocol fake: each error class, lookup
// routes through findOrder, cancel, close and holdings.
import { describe, expect, it } from 'vitest';
import { findOrder } from '../../core/find-order.ts';
import { createCtraderBroker } from './adapter.ts';
import { DEMO, failure, order, useContract } from './contract.ts';
import { payloadTypeOf } from './protocol.ts';

const c = useContract();

describe('errors', () => {
  it('not enough money (ProtoOAOrderErrorEvent) is InsufficientFunds', async () => {
    const error = await failure(c.place({ symbol: 'EURUSD', action: 'buy', quantity: 10_000_000 }, 'sig-money'));
    expect(error).toMatchObject({ kind: 'InsufficientFunds', message: 'cTrader: Not enough money (NOT_ENOUGH_MONEY)' });
  });

  it('a rate limit beyond the wait we may sit out is RateLimited, not resent', async () => {
    const since = c.fake.records.length;
    c.fake.answerNext({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      status: 2142,
      body: {
        ctidTraderAccountId: 44533070,
        errorCode: 'BLOCKED_PAYLOAD_TYPE',
        description: 'Rate limit reached',
        retryAfter: 30,
      },
    });
    const error = await failure(c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-rate'));
    expect(error).toMatchObject({
      kind: 'RateLimited',
      message: 'cTrader: Rate limit reached (BLOCKED_PAYLOAD_TYPE); retry after 30 s',
      retryAfter: '30',
    });
    expect(c.sent('ProtoOANewOrderReq', since)).toHaveLength(1);
  });

  it('a rate limit of one second is sat out once: cTrader did nothing the first time', async () => {
    const since = c.fake.records.length;
    c.fake.answerNext({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      status: 2142,
      body: { ctidTraderAccountId: 44533070, errorCode: 'REQUEST_FREQUENCY_EXCEEDED', retryAfter: 1 },
    });
    const answer = await c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-rate-1');
    expect(answer.status).toBe('filled');
    expect(c.sent('ProtoOANewOrderReq', since)).toHaveLength(2);
  });

  it('an order rejected by execution event (ORDER_REJECTED) is refused with its code', async () => {
    c.fake.answerNext({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      status: 2126,
      body: {
        ctidTraderAccountId: 44533070,
        executionType: 7,
        errorCode: 'MARKET_CLOSED',
        order: { orderId: 1, tradeData: { symbolId: 1, volume: 100000, tradeSide: 1 }, orderType: 1, orderStatus: 3 },
      },
    });
    const error = await failure(c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-closed'));
    expect(error).toMatchObject({ kind: 'InvalidOrder', message: 'cTrader: MARKET_CLOSED' });
  });

  it.each([
    ['CH_CTID_TRADER_ACCOUNT_NOT_FOUND', 'Trading account is not found'],
    ['RET_NO_SUCH_LOGIN', 'Account no longer exists'],
    ['RET_ACCOUNT_DISABLED', 'Account is disabled'],
  ])('%s concerns that trading account: it refuses the order, not the connection', async (errorCode, description) => {
    const since = c.fake.records.length;
    c.fake.answerNext({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      status: 2142,
      body: { ctidTraderAccountId: 44533070, errorCode, description },
    });
    const error = await failure(c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, `sig-${errorCode}`));
    expect(error).toMatchObject({ kind: 'InvalidOrder', message: `cTrader: ${description} (${errorCode})` });
    expect(c.sent('ProtoOANewOrderReq', since)).toHaveLength(1);
  });

  it('maintenance is BrokerUnavailable, a known outcome', async () => {
    c.fake.answerNext({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      status: 2142,
      body: {
        errorCode: 'SERVER_IS_UNDER_MAINTENANCE',
        description: 'Server is under maintenance',
        maintenanceEndTimestamp: Date.parse('2026-12-05T06:00:00Z'),
      },
    });
    const error = await failure(c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-maint'));
    // The end cTrader names (ProtoOAErrorRes.maintenanceEndTimestamp, WIRE.md §8) tells when to come back.
    expect(error).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: false,
      message: 'cTrader: Server is under maintenance (SERVER_IS_UNDER_MAINTENANCE); until 2026-12-05T06:00:00.000Z',
    });
  });

  it('a generic error (UNKNOWN_ERROR) to a submission is no refusal: outcome unknown, sent once', async () => {
    const since = c.fake.records.length;
    c.fake.answerNext({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      status: 2142,
      body: { ctidTraderAccountId: 44533070, errorCode: 'UNKNOWN_ERROR', description: 'Generic error' },
    });
    const error = await failure(c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-generic'));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    expect(c.sent('ProtoOANewOrderReq', since)).toHaveLength(1);
  });

  it('no answer before the deadline: outcome unknown, sent once, found again by reconciliation', async () => {
    const since = c.fake.records.length;
    // The deadline passes as the order reaches cTrader, which answers 1.5 s later.
    const deadline = new AbortController();
    c.fake.answerNext({ method: 'WS', path: 'ProtoOANewOrderReq', delayMs: 1_500, onArrival: () => deadline.abort() });
    const hurried = { ...c.ctx, signal: deadline.signal };
    const error = await failure(
      c.broker.placeOrder(hurried, c.session, {
        accountId: DEMO,
        order: order({ symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1.05 }),
        clientOrderId: 'sig-late',
      }),
    );
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    expect(c.sent('ProtoOANewOrderReq', since)).toHaveLength(1);
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: DEMO,
      clientOrderId: 'sig-late',
      sentAt: Date.now(),
    });
    expect(found).toMatchObject({ match: 'exact', order: { status: 'accepted' } });
  });

  it('a dropped connection after the send: outcome unknown; the next call connects again', async () => {
    c.fake.answerNext({ method: 'WS', path: 'ProtoOANewOrderReq', drop: true });
    const error = await failure(c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-drop'));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: DEMO,
      clientOrderId: 'sig-drop',
      sentAt: Date.now(),
    });
    expect(found).toMatchObject({ match: 'exact', order: { status: 'filled' } });
  });

  it('wrong application credentials are the operator’s problem: BrokerUnavailable', async () => {
    const wrong = { ...c.ctx, clientSecret: 'nope' };
    const other = createCtraderBroker({ endpoints: c.fake.endpoints });
    try {
      const error = await failure(other.getHoldings(wrong, c.session, DEMO));
      expect(error).toMatchObject({
        kind: 'BrokerUnavailable',
        message: 'cTrader: clientId or clientSecret is incorrect (CH_CLIENT_AUTH_FAILURE)',
      });
    } finally {
      other.close();
    }
  });
});

describe('lookup, cancel, close, holdings', () => {
  it('finds an order by cTrader id (exact), by our id in the history (exact), and proves absence (none)', async () => {
    const placed = await c.place({ symbol: 'EURUSD', action: 'buy', quantity: 2000 }, 'sig-find');
    const byId = await findOrder(c.broker, c.ctx, c.session, {
      accountId: DEMO,
      clientOrderId: 'sig-find',
      brokerOrderId: placed.id,
    });
    expect(byId).toEqual({ match: 'exact', order: { id: placed.id, status: 'filled', price: 1.08512 } });
    const byOurs = await findOrder(c.broker, c.ctx, c.session, {
      accountId: DEMO,
      clientOrderId: 'sig-find',
      sentAt: Date.now(),
    });
    expect(byOurs).toEqual({ match: 'exact', order: { id: placed.id, status: 'filled', price: 1.08512 } });
    const none = await findOrder(c.broker, c.ctx, c.session, {
      accountId: DEMO,
      clientOrderId: 'sig-never',
      sentAt: Date.now(),
    });
    expect(none).toEqual({ match: 'none' });
    const unknown = await findOrder(c.broker, c.ctx, c.session, {
      accountId: DEMO,
      clientOrderId: 'sig-never',
      brokerOrderId: '1',
    });
    expect(unknown.match).toBe('unknown');
  });

  it('finds by our id an order sent in the window that was canceled after it (cTrader lists by last update)', async () => {
    const placed = await c.place(
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1.01 },
      'sig-late-cancel',
    );
    await c.broker.cancelOrder(c.ctx, c.session, { accountId: DEMO, brokerOrderId: placed.id });
    // Sent 20 minutes ago, canceled now: its last update lies past the window around the send.
    const sentAt = Date.now() - 20 * 60_000;
    const stored = c.fake.book.orders.get(Number(placed.id));
    Object.assign(stored?.tradeData ?? {}, { openTimestamp: sentAt });
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: DEMO,
      clientOrderId: 'sig-late-cancel',
      sentAt,
    });
    expect(found).toEqual({ match: 'exact', order: { id: placed.id, status: 'canceled' } });
  });

  it('an order history cut short (hasMore) without ours proves nothing: unknown', async () => {
    c.fake.answerNext({
      method: 'WS',
      path: 'ProtoOAOrderListReq',
      status: payloadTypeOf('ProtoOAOrderListRes'),
      body: { ctidTraderAccountId: 44533070, order: [], hasMore: true },
    });
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: DEMO,
      clientOrderId: 'sig-far',
      sentAt: Date.now(),
    });
    expect(found).toEqual({ match: 'unknown', reason: 'cTrader no longer lists the orders of that time' });
  });

  it('a close or cancel signal whose answer was lost is unknown, not none: its orders carry no id of ours', async () => {
    await c.place({ symbol: 'XAUUSD', action: 'buy', quantity: 1 }, 'sig-hold');
    const sentAt = Date.now();
    const closed = await c.place({ symbol: 'XAUUSD', action: 'close' }, 'sig-lost-close');
    expect(closed.status).toBe('filled');
    for (const [clientOrderId, signal] of [
      ['sig-lost-close', { symbol: 'XAUUSD', action: 'close' }],
      ['sig-lost-cancel', { symbol: 'XAUUSD', action: 'cancel' }],
    ] as const) {
      const found = await findOrder(c.broker, c.ctx, c.session, {
        accountId: DEMO,
        clientOrderId,
        order: order(signal),
        sentAt,
      });
      expect(found).toEqual({ match: 'unknown', reason: 'cTrader no longer lists the orders of that time' });
    }
  });

  it('cancels by cTrader id and by our id; a filled order cannot be canceled', async () => {
    const first = await c.place(
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1.01 },
      'sig-c1',
    );
    await c.broker.cancelOrder(c.ctx, c.session, { accountId: DEMO, brokerOrderId: first.id });
    expect(c.fake.book.orders.get(Number(first.id))?.orderStatus).toBe(5);
    const second = await c.place(
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1.01 },
      'sig-c2',
    );
    await c.broker.cancelOrder(c.ctx, c.session, { accountId: DEMO, clientOrderId: 'sig-c2' });
    expect(c.fake.book.orders.get(Number(second.id))?.orderStatus).toBe(5);
    const filled = await c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-c3');
    const error = await failure(c.broker.cancelOrder(c.ctx, c.session, { accountId: DEMO, brokerOrderId: filled.id }));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'cTrader: Order is not pending (UNABLE_TO_CANCEL_ORDER)',
    });
    const missing = await failure(c.broker.cancelOrder(c.ctx, c.session, { accountId: DEMO, brokerOrderId: '5' }));
    expect(missing).toMatchObject({ kind: 'OrderNotFound' });
  });

  it('the cancel action cancels the pending orders of a symbol', async () => {
    await c.place({ symbol: 'XAUUSD', action: 'buy', quantity: 1, type: 'limit', limit_price: 2000 }, 'sig-x1');
    const answer = await c.place({ symbol: 'XAUUSD', action: 'cancel' }, 'sig-x2');
    expect(answer).toMatchObject({ status: 'canceled', status_description: 'Canceled 1 open order(s) of XAUUSD' });
  });

  it('a cancel signal that fails partway says which orders were canceled and which not', async () => {
    const limit = (price: number, id: string) =>
      c.place({ symbol: 'XAUUSD', action: 'buy', quantity: 1, type: 'limit', limit_price: price }, id);
    const first = await limit(2000, 'sig-xp1');
    const second = await limit(2001, 'sig-xp2');
    // The first cancel goes through; the second is refused.
    c.fake.answerNext({ method: 'WS', path: 'ProtoOACancelOrderReq', delayMs: 1 });
    c.fake.answerNext({
      method: 'WS',
      path: 'ProtoOACancelOrderReq',
      status: 2142,
      body: { ctidTraderAccountId: 44533070, errorCode: 'UNABLE_TO_CANCEL_ORDER', description: 'Order is not pending' },
    });
    const error = await failure(c.place({ symbol: 'XAUUSD', action: 'cancel' }, 'sig-xp3'));
    expect(error.outcomeUnknown).toBe(false);
    const status = (id: string) => c.fake.book.orders.get(Number(id))?.orderStatus;
    const [done, left] = status(first.id) === 5 ? [first, second] : [second, first];
    expect(status(left.id)).not.toBe(5);
    expect(error.message).toBe(
      `cTrader: Order is not pending (UNABLE_TO_CANCEL_ORDER); of the open orders of XAUUSD, only some were canceled: ${done.id}; not ${left.id}: check them at the broker`,
    );
    await c.place({ symbol: 'XAUUSD', action: 'cancel' }, 'sig-xp4');
  });

  it("a close quantity off the symbol's step is refused before anything is closed", async () => {
    await c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-eu1');
    await c.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-eu2');
    const before = await c.broker.getHoldings(c.ctx, c.session, DEMO);
    const since = c.fake.records.length;
    // 1500 units: the first position (1000) would close, the 500 left of the next is off the 1000-unit step.
    const error = await failure(c.place({ symbol: 'EURUSD', action: 'close', quantity: 1500 }, 'sig-eu-odd'));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: "cTrader: quantity 1500 is not a multiple of EUR/USD's step of 1000 units",
    });
    expect(c.sent('ProtoOAClosePositionReq', since)).toHaveLength(0);
    expect((await c.broker.getHoldings(c.ctx, c.session, DEMO)).positions).toEqual(before.positions);
    const part = await c.place({ symbol: 'EURUSD', action: 'close', quantity: 1000 }, 'sig-eu-part');
    expect(part.status).toBe('filled');
    await c.broker.closePosition(c.ctx, c.session, DEMO, 'EURUSD');
  });

  it('holdings, then close: the positions of a symbol closed at market', async () => {
    await c.place({ symbol: 'XAUUSD', action: 'sell', quantity: 2 }, 'sig-gold');
    const holdings = await c.broker.getHoldings(c.ctx, c.session, DEMO);
    expect(holdings.cash).toBe(10_000);
    expect(holdings.currency).toBe('USD');
    expect(holdings.positions).toContainEqual({ symbol: 'XAUUSD', quantity: -2, averagePrice: 2650.5 });
    const closed = await c.broker.closePosition(c.ctx, c.session, DEMO, 'XAUUSD');
    expect(closed).toMatchObject({ status: 'filled', price: 2650.5 });
    expect(
      (await c.broker.getHoldings(c.ctx, c.session, DEMO)).positions.some((item) => item.symbol === 'XAUUSD'),
    ).toBe(false);
    const none = await failure(c.place({ symbol: 'XAUUSD', action: 'close' }, 'sig-close-none'));
    expect(none).toMatchObject({ kind: 'InvalidOrder', message: 'cTrader: no open position in XAUUSD' });
  });
});
