// Contract: every lookup path findOrder takes at IBKR (by its order id; by our cOID among the live
// orders and executions; nothing proved otherwise), cancel by either id, the close and cancel
// signals, holdings and the what-if preview.
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { findOrder } from '../../core/find-order.ts';
import { ACCOUNT, type Connected, connected, failure, input, ORDERS_PATH, sentSince, toOrder } from './test-support.ts';

let c: Connected;
beforeAll(async () => {
  c = await connected();
});
afterAll(() => c.close());
afterEach(() => c.fake.clearInjections());

const lookup = (clientOrderId: string, extra: { brokerOrderId?: string; sentAt?: number } = {}) =>
  findOrder(c.broker, c.ctx, c.session, { accountId: ACCOUNT, clientOrderId, ...extra });

describe('findOrder', () => {
  it('by the broker id: the order status, exact (even when our id is known)', async () => {
    const placed = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'AAPL', action: 'buy', quantity: 3 }, 'sig-by-id'),
    );
    const before = c.fake.requests.length;
    expect(await lookup('sig-by-id', { brokerOrderId: placed.id, sentAt: c.clock.now })).toEqual({
      match: 'exact',
      order: { id: placed.id, status: 'filled', status_description: 'Interactive Brokers order Filled', price: 190 },
    });
    expect(sentSince(c.fake, before)).toEqual([`GET /v1/api/iserver/account/order/status/${placed.id}`]);
  });

  it('by the broker id IBKR no longer shows (503): unknown, never none', async () => {
    expect(await lookup('sig-gone', { brokerOrderId: '999' })).toEqual({
      match: 'unknown',
      reason: 'Interactive Brokers does not know its own order 999',
    });
  });

  it('by our id: order_ref among the live orders', async () => {
    await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'MSFT', action: 'buy', quantity: 2, limit_price: 400 }, 'sig-live'),
    );
    const found = await lookup('sig-live', { sentAt: c.clock.now });
    expect(found).toEqual({
      match: 'exact',
      order: {
        id: expect.any(String),
        status: 'accepted',
        status_description: 'Interactive Brokers order PreSubmitted',
      },
    });
  });

  it('by our id: the executions when the live orders no longer show it', async () => {
    const placed = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'SPY', action: 'sell', quantity: 4 }, 'sig-exec'),
    );
    c.fake.inject({
      method: 'GET',
      path: '/v1/api/iserver/account/orders',
      status: 200,
      body: { orders: [], snapshot: true },
    });
    expect(await lookup('sig-exec', { sentAt: c.clock.now })).toEqual({
      match: 'exact',
      order: {
        id: placed.id,
        status: 'filled',
        status_description: 'Interactive Brokers order executed: 4 in 1 trade(s)',
        price: 500,
      },
    });
  });

  it('by our id: executions short of the order are a part fill (accepted), never filled', async () => {
    const signal = { symbol: 'MSFT', action: 'buy', quantity: 4 };
    const placed = await c.broker.placeOrder(c.ctx, c.session, input(signal, 'sig-exec-part'));
    // 1 of the 4 executed, the rest canceled (or still working): only the execution is listed.
    const execution = c.fake.ledger.executions.find((item) => String(item.orderId) === placed.id);
    if (execution) execution.size = 1;
    c.fake.inject({
      method: 'GET',
      path: '/v1/api/iserver/account/orders',
      status: 200,
      body: { orders: [], snapshot: true },
    });
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: ACCOUNT,
      clientOrderId: 'sig-exec-part',
      order: toOrder(signal),
      sentAt: c.clock.now,
    });
    expect(found).toEqual({
      match: 'exact',
      order: {
        id: placed.id,
        status: 'accepted',
        status_description: 'Interactive Brokers order executed: 1 of 4 in 1 trade(s)',
        price: 420,
      },
    });
  });

  it('in neither list: unknown, since no IBKR list covers every order', async () => {
    expect(await lookup('sig-never', { sentAt: c.clock.now })).toMatchObject({ match: 'unknown' });
  });

  it('without the send time or a broker id: unknown', async () => {
    expect(await lookup('sig-live')).toMatchObject({ match: 'unknown' });
  });
});

describe('cancel', () => {
  it('cancelOrder by IBKR id, then by our id; a gone order is OrderNotFound', async () => {
    const first = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 185 }, 'sig-c1'),
    );
    await c.broker.cancelOrder(c.ctx, c.session, { accountId: ACCOUNT, brokerOrderId: first.id });
    expect(c.fake.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      url: `/v1/api/iserver/account/${ACCOUNT}/order/${first.id}`,
    });
    const second = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 184 }, 'sig-c2'),
    );
    await c.broker.cancelOrder(c.ctx, c.session, { accountId: ACCOUNT, clientOrderId: 'sig-c2' });
    expect(c.fake.ledger.orders.find((order) => String(order.orderId) === second.id)?.status).toBe('Cancelled');
    const again = await failure(
      c.broker.cancelOrder(c.ctx, c.session, { accountId: ACCOUNT, brokerOrderId: first.id }),
    );
    expect(again).toMatchObject({
      kind: 'OrderNotFound',
      message: `Interactive Brokers: OrderID ${first.id} doesn't exist`,
    });
    const unknown = await failure(
      c.broker.cancelOrder(c.ctx, c.session, { accountId: ACCOUNT, clientOrderId: 'sig-none' }),
    );
    expect(unknown).toMatchObject({
      kind: 'OrderNotFound',
      message: 'Interactive Brokers: no order with client order id sig-none',
    });
  });

  it('a cancel signal cancels the working orders of that contract in that account only', async () => {
    const mine = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NVDA', action: 'buy', quantity: 1, limit_price: 139 }),
    );
    const other = await c.broker.placeOrder(c.ctx, c.session, {
      ...input({ symbol: 'NVDA', action: 'buy', quantity: 1, limit_price: 138 }),
      accountId: 'U1234567',
    });
    const answer = await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NVDA', action: 'cancel' }));
    expect(answer).toEqual({
      id: mine.id,
      status: 'canceled',
      status_description: 'Interactive Brokers: canceled 1 open order(s) of NVDA',
    });
    expect(c.fake.ledger.orders.find((order) => String(order.orderId) === other.id)?.status).toBe('PreSubmitted');
  });
});

describe('close, holdings, preview', () => {
  it('close sends a market order against the position, with our cOID; nothing left, it refuses', async () => {
    await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'IBM', action: 'buy', quantity: 7 }));
    const before = c.fake.requests.length;
    const closed = await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'IBM', action: 'close' }, 'sig-close'));
    expect(closed.status).toBe('filled');
    const sent = c.fake.requests.slice(before).find((r) => r.method === 'POST' && r.url === ORDERS_PATH);
    expect(JSON.parse(sent?.body ?? '')).toEqual({
      orders: [
        {
          acctId: ACCOUNT,
          conid: 8314,
          cOID: 'sig-close',
          orderType: 'MKT',
          side: 'SELL',
          quantity: 7,
          tif: 'DAY',
          outsideRTH: false,
        },
      ],
    });
    const none = await failure(c.broker.closePosition(c.ctx, c.session, ACCOUNT, 'IBM'));
    expect(none).toMatchObject({ kind: 'InvalidOrder', message: 'Interactive Brokers: no position in IBM' });
  });

  it('a close refused after the open orders were canceled for it says so: the position is still open, its exits gone', async () => {
    await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'MSFT', action: 'buy', quantity: 4 }));
    const stop = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'MSFT', action: 'sell', quantity: 4, type: 'stop', stop_price: 50 }),
    );
    const body = { error: 'Order rejected: insufficient available funds' };
    c.fake.inject({ method: 'POST', path: ORDERS_PATH, status: 200, body });
    const error = await failure(c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'MSFT', action: 'close' })));
    expect(error).toMatchObject({ kind: 'InsufficientFunds', outcomeUnknown: false });
    // (with it, the symbol's other open orders, which other tests may have left)
    expect(error.message).toMatch(
      /^Interactive Brokers: Order rejected: insufficient available funds; the open orders of MSFT were canceled before the close \(.+\): check the position and its exits at the broker$/,
    );
    expect(error.message).toContain(stop.id);
  });

  it('holdings: cash, equity, buying power and positions by symbol', async () => {
    // Its own account, so that no other test's positions change what it reads.
    const own = await connected();
    onTestFinished(() => own.close());
    await own.broker.placeOrder(
      own.ctx,
      own.session,
      input({ symbol: 'AAPL  281215C00200000', action: 'buy_to_open', quantity: 1 }),
    );
    await own.broker.placeOrder(own.ctx, own.session, input({ symbol: 'SPY', action: 'sell', quantity: 4 }));
    const holdings = await own.broker.getHoldings(own.ctx, own.session, ACCOUNT);
    expect(holdings).toMatchObject({
      currency: 'USD',
      cash: expect.any(Number),
      equity: expect.any(Number),
      buyingPower: expect.any(Number),
    });
    expect(holdings.positions).toContainEqual({
      symbol: 'AAPL  281215C00200000',
      quantity: 1,
      averagePrice: 2.5,
      marketValue: 250,
    });
    expect(holdings.positions).toContainEqual({ symbol: 'SPY', quantity: -4, averagePrice: 500, marketValue: -2000 });
  });

  it('preview asks what-if and places nothing; IBKR refusals come back as errors', async () => {
    const orders = c.fake.ledger.orders.length;
    const preview = await c.broker.previewOrder(
      c.ctx,
      c.session,
      input({ symbol: 'AAPL', action: 'buy', quantity: 10 }, 'sig-preview'),
    );
    expect(preview).toEqual({
      id: 'sig-preview',
      status: 'draft',
      status_description: 'Interactive Brokers preview: 1901.00 USD; commission 1 USD; initial margin after 1900',
    });
    expect(c.fake.requests.at(-1)?.url).toBe(`${ORDERS_PATH}/whatif`);
    const tooBig = await failure(
      c.broker.previewOrder(c.ctx, c.session, input({ symbol: 'AAPL', action: 'buy', quantity: 100_000 })),
    );
    expect(tooBig).toMatchObject({ kind: 'InsufficientFunds' });
    expect(c.fake.ledger.orders.length).toBe(orders);
    const close = await c.broker.previewOrder(c.ctx, c.session, {
      accountId: ACCOUNT,
      clientOrderId: 's',
      order: toOrder({ symbol: 'AAPL', action: 'close' }),
    });
    expect(close.status).toBe('draft');
  });
});
