// Contract: connecting (live or paper), errors mapped and titled, no submission retried, the
// duplicate client order id answered with the existing order, close / cancel / holdings.
import { normalizeOrderOrThrow } from '@router/orders';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrokerContext, BrokerSession, PlaceOrderInput } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { findOrder } from '../../core/find-order.ts';
import { createAlpacaBroker } from './adapter.ts';
import { alpacaDescriptor } from './descriptor.ts';
import { type FakeAlpaca, startFakeAlpaca } from './fake.ts';

const broker = createAlpacaBroker();
let fake: FakeAlpaca;
let live: FakeAlpaca;
let ctx: BrokerContext;
let session: BrokerSession;
let accountId: string;

beforeAll(async () => {
  [fake, live] = await Promise.all([
    startFakeAlpaca({ cash: 50_000, positions: [{ symbol: 'AMD', qty: 10, avg: 90, assetClass: 'us_equity' }] }),
    startFakeAlpaca({ keyId: 'AKLIVE123', secretKey: 'live-secret', accountNumber: '912345678' }),
  ]);
  ctx = { baseUrl: fake.url };
  session = await broker.connect(ctx, { credentials: fake.keys });
  accountId = session.accounts[0]?.id ?? '';
});
afterAll(() => Promise.all([fake.close(), live.close()]));
afterEach(() => fake.clearInjections());

let sequence = 0;
function input(signal: Record<string, unknown>, clientOrderId = `sig-${++sequence}`): PlaceOrderInput {
  return { accountId, clientOrderId, order: normalizeOrderOrThrow(signal, { provider: alpacaDescriptor }) };
}
async function failure(promise: Promise<unknown>): Promise<BrokerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BrokerError)) throw new Error(`expected a BrokerError, got ${String(error)}`);
  return error;
}
const buy = { symbol: 'AAPL', action: 'buy', quantity: 1 };

describe('connect', () => {
  it('reads the account; a paper key is a demo account', () => {
    expect(session.secrets).toEqual({ ...fake.keys, environment: 'paper' });
    expect(session.accounts).toEqual([
      {
        id: 'PA3ABCDEFGH1',
        name: 'Alpaca paper PA3ABCDEFGH1',
        dataTitle: 'PA3ABCDEFGH1',
        dataType: 'cash',
        dataCurrency: 'USD',
        demo: true,
      },
    ]);
    expect(fake.requests.at(0)?.url).toBe('/v2/account');
  });

  it('finds the environment the keys belong to on the real origins', async () => {
    const both = createAlpacaBroker({ environments: { live: live.url, demo: fake.url } });
    const real = { baseUrl: live.url }; // the descriptor default: no override
    const liveSession = await both.connect(real, { credentials: live.keys });
    expect(liveSession.accounts[0]).toMatchObject({ id: '912345678', demo: false });
    expect(liveSession.secrets.environment).toBe('live');
    const paper = await both.connect(real, { credentials: fake.keys });
    expect(paper.accounts[0]?.demo).toBe(true);
    // Later calls go to the paper origin, though the context names the live one.
    const before = fake.submissions().length;
    await both.placeOrder(real, paper, input(buy));
    expect(fake.submissions().length).toBe(before + 1);
  });

  it('refuses wrong keys as the broker does', async () => {
    const error = await failure(broker.connect(ctx, { credentials: { ...fake.keys, apiSecretKey: 'wrong' } }));
    expect(error).toMatchObject({ kind: 'AuthenticationError', message: 'Alpaca: request is not authorized' });
    expect((await failure(broker.connect(ctx, { credentials: { apiKeyId: 'PK1' } }))).kind).toBe('AuthenticationError');
  });
});

describe('errors', () => {
  it('maps 403 insufficient buying power to InsufficientFunds, sent once', async () => {
    const before = fake.submissions().length;
    const error = await failure(broker.placeOrder(ctx, session, input({ ...buy, quantity: 100_000 })));
    expect(error).toMatchObject({ kind: 'InsufficientFunds', message: 'Alpaca: insufficient buying power' });
    expect(fake.submissions().length).toBe(before + 1);
  });

  it('maps 422 validation errors to InvalidOrder with the broker message', async () => {
    const error = await failure(broker.placeOrder(ctx, session, input({ ...buy, symbol: 'NOPE' })));
    expect(error).toMatchObject({ kind: 'InvalidOrder', message: 'Alpaca: asset "NOPE" not found' });
  });

  it.each([
    [429, { code: 42910000, message: 'rate limit exceeded' }, 'RateLimited', false],
    [500, { code: 50010000, message: 'internal server error occurred' }, 'BrokerUnavailable', true],
    [403, { message: 'forbidden' }, 'AuthenticationError', false],
    [401, { code: 40110000, message: 'request is not authorized' }, 'AuthenticationError', false],
    // openapi.yaml postOrder: an order "may be rejected if the account is not authorized for
    // trading"; a refusal of that order, not of the keys: the connection stays.
    [403, { code: 40310000, message: 'account is not authorized for trading' }, 'InvalidOrder', false],
    [403, { code: 40310000, message: 'unauthorized to trade uncovered options' }, 'InvalidOrder', false],
  ] as const)('maps HTTP %i without retrying the order', async (status, body, kind, outcomeUnknown) => {
    const before = fake.submissions().length;
    fake.inject({ status, body });
    const error = await failure(broker.placeOrder(ctx, session, input(buy)));
    expect(error).toMatchObject({ kind, outcomeUnknown });
    expect(error.message).toMatch(/^Alpaca: /);
    expect(fake.submissions().length).toBe(before + 1);
  });

  it('a 401/403 page or empty answer (a CDN’s, a firewall’s) is an outage, not refused keys', async () => {
    for (const injected of [
      { status: 403, body: '<html><h1>403 Forbidden</h1></html>', headers: { 'content-type': 'text/html' } },
      { status: 401 },
    ]) {
      const before = fake.submissions().length;
      fake.inject({ method: 'POST', path: '/v2/orders', ...injected });
      const error = await failure(broker.placeOrder(ctx, session, input(buy)));
      expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
      expect(fake.submissions().length).toBe(before + 1);
      fake.inject({ method: 'GET', ...injected });
      expect(await failure(broker.getHoldings(ctx, session, accountId))).toMatchObject({
        kind: 'BrokerUnavailable',
        outcomeUnknown: false,
      });
    }
  });

  it('a timed-out submission is not resent; its outcome is unknown and reconciled by client order id', async () => {
    const before = fake.submissions().length;
    const held = fake.orders.length;
    // The deadline passes as the order reaches Alpaca, which places it 400 ms later.
    const deadline = new AbortController();
    fake.inject({ delayMs: 400, onArrival: () => deadline.abort() });
    const placing = input(buy);
    const error = await failure(broker.placeOrder({ ...ctx, signal: deadline.signal }, session, placing));
    expect(error).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
      message: 'Alpaca: no answer before the deadline',
    });
    await vi.waitFor(() => expect(fake.orders).toHaveLength(held + 1), { timeout: 4_000 });
    expect(fake.submissions().length).toBe(before + 1);
    expect(await findOrder(broker, ctx, session, { accountId, clientOrderId: placing.clientOrderId })).toMatchObject({
      match: 'exact',
      order: { status: 'filled', price: 100 },
    });
  });

  it('refuses an account not in the connection', async () => {
    const error = await failure(broker.getHoldings(ctx, session, 'someone-else'));
    expect(error.kind).toBe('InvalidOrder');
  });
});

describe('orders', () => {
  it('a repeated client order id returns the existing order (422, then a lookup)', async () => {
    const first = await broker.placeOrder(ctx, session, input(buy, 'sig-dup'));
    const before = fake.requests.length;
    const second = await broker.placeOrder(ctx, session, input(buy, 'sig-dup'));
    expect(second.id).toBe(first.id);
    expect(second).toMatchObject({ status: 'filled', price: 100 });
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /v2/orders',
      'GET /v2/orders:by_client_order_id?client_order_id=sig-dup',
    ]);
    expect(fake.orders.filter((o) => o.client_order_id === 'sig-dup')).toHaveLength(1);
  });

  it('findOrder asks by client order id: exact, or none (Alpaca stores the id)', async () => {
    const placed = await broker.placeOrder(ctx, session, input({ ...buy, limit_price: 50 }, 'sig-limit'));
    const before = fake.requests.length;
    // The strongest route wins even when the broker order id is known too.
    expect(
      await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-limit', brokerOrderId: placed.id }),
    ).toEqual({ match: 'exact', order: { id: placed.id, status: 'accepted', status_description: 'Alpaca order new' } });
    expect(fake.requests.slice(before).map((r) => r.url)).toEqual([
      '/v2/orders:by_client_order_id?client_order_id=sig-limit',
    ]);
    expect(await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-never' })).toEqual({ match: 'none' });
  });

  it('a close signal whose answer was lost is unknown, not none: Alpaca names the liquidation itself', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'TSLA', action: 'buy', quantity: 2 }));
    const closing = input({ symbol: 'TSLA', action: 'close', quantity: 1 }, 'sig-close-lost');
    const closed = await broker.placeOrder(ctx, session, closing);
    expect(fake.orders.find((o) => o.id === closed.id)?.client_order_id).not.toBe('sig-close-lost');
    // Were its answer lost, "none" would release it as never placed, and a resend close another part.
    expect(
      await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-close-lost', order: closing.order }),
    ).toMatchObject({ match: 'unknown' });
    await broker.closePosition(ctx, session, accountId, 'TSLA');
  });

  it('findByBrokerId reads GET /v2/orders/{id}, or null', async () => {
    const placed = await broker.placeOrder(ctx, session, input({ ...buy, limit_price: 51 }));
    expect(await broker.findByBrokerId(ctx, session, accountId, placed.id)).toMatchObject({ id: placed.id });
    expect(fake.requests.at(-1)?.url).toBe(`/v2/orders/${placed.id}`);
    expect(await broker.findByBrokerId(ctx, session, accountId, crypto.randomUUID())).toBeNull();
  });

  it('cancelOrder by our client order id finds the order first', async () => {
    const placed = await broker.placeOrder(ctx, session, input({ ...buy, limit_price: 52 }, 'sig-cancel'));
    await broker.cancelOrder(ctx, session, { accountId, clientOrderId: 'sig-cancel' });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', url: `/v2/orders/${placed.id}` });
    const missing = await failure(broker.cancelOrder(ctx, session, { accountId, clientOrderId: 'sig-none' }));
    expect(missing).toMatchObject({ kind: 'OrderNotFound', message: 'Alpaca: no order with client order id sig-none' });
  });

  it('cancel signals cancel the symbol’s open orders; cancelOrder by id', async () => {
    const open = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'NVDA', action: 'buy', quantity: 1, limit_price: 10 }),
    );
    const answer = await broker.placeOrder(ctx, session, input({ symbol: 'NVDA', action: 'cancel' }));
    expect(answer).toMatchObject({
      id: open.id,
      status: 'canceled',
      status_description: 'Canceled 1 open order(s) of NVDA',
    });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', url: `/v2/orders/${open.id}` });
    expect(await broker.placeOrder(ctx, session, input({ symbol: 'NVDA', action: 'cancel' }))).toMatchObject({
      status: 'canceled',
    });
    const again = await failure(broker.cancelOrder(ctx, session, { accountId, brokerOrderId: crypto.randomUUID() }));
    expect(again).toMatchObject({ kind: 'OrderNotFound' });
  });

  it('close liquidates the position, in part with percent_of_position', async () => {
    const half = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'AMD', action: 'close', quantity: 50, quantity_type: 'percent_of_position' }),
    );
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/v2/positions/AMD?qty=5' });
    expect(half.status).toBe('accepted');
    const holdings = await broker.getHoldings(ctx, session, accountId);
    expect(holdings.positions.find((p) => p.symbol === 'AMD')?.quantity).toBe(5);
    await broker.closePosition(ctx, session, accountId, 'AMD');
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/v2/positions/AMD' });
    const none = await failure(broker.closePosition(ctx, session, accountId, 'AMD'));
    expect(none).toMatchObject({ kind: 'InvalidOrder', message: 'Alpaca: position does not exist' });
  });

  it('a close refused after the open orders were canceled for it says so: the position is still open, its exits gone', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'NFLX', action: 'buy', quantity: 2 }));
    const stop = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'NFLX', action: 'sell', quantity: 2, type: 'stop', stop_price: 90, duration: 'gtc' }),
    );
    fake.inject({
      method: 'DELETE',
      path: '/v2/positions/NFLX',
      status: 403,
      body: { code: 40310000, message: 'trading is halted for NFLX' },
    });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'NFLX', action: 'close' })));
    expect(error).toMatchObject({ kind: 'InvalidOrder', outcomeUnknown: false });
    expect(error.message).toBe(
      `Alpaca: trading is halted for NFLX; the open orders of NFLX were canceled before the close (${stop.id}): check the position and its exits at the broker`,
    );
  });

  it('a close whose cancels fail partway says which exits were canceled and which not, and closes nothing', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'ORCL', action: 'buy', quantity: 2 }));
    const exit = (signal: Record<string, unknown>) =>
      broker.placeOrder(
        ctx,
        session,
        input({ symbol: 'ORCL', action: 'sell', quantity: 2, duration: 'gtc', ...signal }),
      );
    const ids = [(await exit({ type: 'stop', stop_price: 90 })).id, (await exit({ limit_price: 500 })).id];
    const path = /^\/v2\/orders\/[^/]+$/;
    fake.inject({ method: 'DELETE', path, delayMs: 1 });
    fake.inject({
      method: 'DELETE',
      path,
      status: 403,
      body: { code: 40310000, message: 'trading is halted for ORCL' },
    });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'ORCL', action: 'close' })));
    const told =
      /^Alpaca: trading is halted for ORCL; of the open orders of ORCL, only some were canceled: (\S+); not (\S+): check them at the broker$/.exec(
        error.message,
      );
    expect([told?.[1], told?.[2]].sort()).toEqual([...ids].sort());
    expect(fake.requests.filter((r) => r.method === 'DELETE' && r.url.startsWith('/v2/positions/ORCL'))).toEqual([]);
    await broker.closePosition(ctx, session, accountId, 'ORCL');
  });

  it('a close of part keeps the symbol’s open orders, its exits replaced by ones for what is left', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'INTC', action: 'buy', quantity: 10 }));
    const stop = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'INTC', action: 'sell', quantity: 10, type: 'stop', stop_price: 90, duration: 'gtc' }),
    );
    const entry = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'INTC', action: 'buy', quantity: 5, limit_price: 80 }),
    );
    const small = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'INTC', action: 'sell', quantity: 3, limit_price: 150 }),
    );
    const answer = await broker.placeOrder(ctx, session, input({ symbol: 'INTC', action: 'close', quantity: 4 }));
    const status = (id: string) => fake.orders.find((o) => o.id === id)?.status;
    // Canceled, the rest of the position lost its stop; left at 10, the stop would sell 4 shares
    // more than the 6 held once triggered (a short).
    expect([status(stop.id), status(entry.id), status(small.id)]).toEqual(['replaced', 'new', 'new']);
    const replacing = fake.orders.find((o) => o.replaces === stop.id);
    expect(replacing).toMatchObject({
      status: 'new',
      qty: '6',
      side: 'sell',
      type: 'stop',
      stop_price: '90',
      time_in_force: 'gtc',
    });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/v2/positions/INTC?qty=4' });
    expect(answer.status_description).toMatch(new RegExp(`; exits cut to the 6 left: ${stop.id} → ${replacing?.id}$`));
    await broker.closePosition(ctx, session, accountId, 'INTC');
  });

  it('a resting order replaced (its exit cut by a partial close) is followed to its replacement and its fill', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'ORCL', action: 'buy', quantity: 10 }));
    const stop = input({ symbol: 'ORCL', action: 'sell', quantity: 10, type: 'stop', stop_price: 90, duration: 'gtc' });
    const placed = await broker.placeOrder(ctx, session, stop);
    await broker.placeOrder(ctx, session, input({ symbol: 'ORCL', action: 'close', quantity: 4 }));
    const replacing = fake.orders.find((o) => o.replaces === placed.id);
    const lookup = { accountId, clientOrderId: stop.clientOrderId, brokerOrderId: placed.id };
    expect(await findOrder(broker, ctx, session, lookup)).toEqual({
      match: 'exact',
      order: { id: replacing?.id, status: 'accepted', status_description: `Alpaca order new (replacing ${placed.id})` },
    });
    fake.fillResting(String(replacing?.id));
    expect(await broker.findByBrokerId(ctx, session, accountId, placed.id)).toMatchObject({
      id: replacing?.id,
      status: 'filled',
    });
  });

  it('a quantity past 9 decimals is cut, never rounded up (openapi.yaml Order.qty: up to 9 decimal points)', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'TSLA', action: 'buy', quantity: 1.9999999999 }));
    expect(JSON.parse(fake.submissions().at(-1)?.body ?? '{}')).toMatchObject({ qty: '1.999999999' });
    await broker.placeOrder(ctx, session, input({ symbol: 'TSLA', action: 'close', quantity: 0.9999999999 }));
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/v2/positions/TSLA?qty=0.999999999' });
    await broker.closePosition(ctx, session, accountId, 'TSLA');
  });

  it('stock prices go on the cent, never past the trader’s, where Alpaca refuses a sub-penny; crypto prices as given', async () => {
    const sent = async (signal: Record<string, unknown>) => {
      await broker.placeOrder(ctx, session, input(signal));
      return JSON.parse(fake.submissions().at(-1)?.body ?? '{}') as Record<string, unknown>;
    };
    expect(await sent({ ...buy, limit_price: 11.055 })).toMatchObject({ limit_price: '11.05' });
    expect(await sent({ symbol: 'AMD', action: 'sell', quantity: 1, limit_price: 11.055 })).toMatchObject({
      limit_price: '11.06',
    });
    expect(await sent({ ...buy, limit_price: 0.60135 })).toMatchObject({ limit_price: '0.6013' });
    // A long's exits are sells: a take profit no lower than asked, a stop loss that triggers no lower.
    const bracket = { ...buy, limit_price: 100.004, take_profit_price: 110.005, stop_loss_price: 95.005 };
    expect(await sent(bracket)).toMatchObject({
      limit_price: '100',
      take_profit: { limit_price: '110.01' },
      stop_loss: { stop_price: '95.01' },
    });
    const short = { symbol: 'AAPL', action: 'sell_short', quantity: 1, type: 'stop', stop_price: 90.005 };
    expect(await sent(short)).toMatchObject({ type: 'stop', stop_price: '90.01' });
    const crypto = { symbol: 'BTC/USD', action: 'buy', quantity: 0.01, limit_price: 60000.123, duration: 'gtc' };
    expect(await sent(crypto)).toMatchObject({ limit_price: '60000.123' });
  });

  it('refuses a stock price under one tick, which the rounding would send as 0', async () => {
    const before = fake.submissions().length;
    const error = await failure(broker.placeOrder(ctx, session, input({ ...buy, limit_price: 0.00001234 })));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Alpaca: price 0.00001234 is less than one tick (0.0001): it would be 0',
    });
    expect(fake.submissions().length).toBe(before);
  });

  it('crypto positions are closed by their slash-less symbol', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'BTC/USD', action: 'buy', quantity: 0.01, duration: 'gtc' }));
    await broker.placeOrder(ctx, session, input({ symbol: 'BTC/USD', action: 'close' }));
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/v2/positions/BTCUSD' });
  });

  it('holdings: cash, equity, buying power and positions', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'MSFT', action: 'buy', quantity: 2 }));
    const holdings = await broker.getHoldings(ctx, session, accountId);
    expect(holdings).toMatchObject({
      currency: 'USD',
      cash: expect.any(Number),
      equity: expect.any(Number),
      buyingPower: expect.any(Number),
    });
    expect(holdings.positions).toContainEqual({ symbol: 'MSFT', quantity: 2, averagePrice: 100, marketValue: 200 });
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  it.each([
    [
      { symbol: 'AMD', action: 'close', quantity: 100, quantity_type: 'cash' },
      'Alpaca: close takes a fixed quantity or percent_of_position',
    ],
  ])('refuses %j as placing does, with its error, sending nothing', async (signal, message) => {
    const order = input(signal);
    const sent = fake.requests.length;
    const live = await failure(broker.placeOrder(ctx, session, order));
    expect(live).toMatchObject({ kind: 'InvalidOrder', message });
    expect(fake.requests.length).toBe(sent);
    expect(() => broker.checkOrder(order)).toThrow(live);
  });

  it('passes an order placing takes', () => {
    expect(() => broker.checkOrder(input({ ...buy, type: 'limit', limit_price: 180 }))).not.toThrow();
    expect(() => broker.checkOrder(input({ symbol: 'AMD', action: 'close' }))).not.toThrow();
  });
});
