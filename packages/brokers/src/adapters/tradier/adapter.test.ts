// Contract: connecting (live or sandbox), errors mapped and titled, no submission retried, the
// repeated client order id (tag) answered with the existing order, close / cancel / holdings.
import { normalizeOrderOrThrow } from '@router/orders';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrokerContext, BrokerSession, PlaceOrderInput } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { findOrder } from '../../core/find-order.ts';
import { createTradierBroker, startOfListedDay } from './adapter.ts';
import { tradierDescriptor } from './descriptor.ts';
import { type FakeTradier, startFakeTradier } from './fake.ts';

const broker = createTradierBroker();
let fake: FakeTradier;
let live: FakeTradier;
let ctx: BrokerContext;
let session: BrokerSession;
let accountId: string;
const CALL = 'SPY240119C00450000';

beforeAll(async () => {
  [fake, live] = await Promise.all([
    startFakeTradier({
      cash: 50_000,
      positions: [
        { symbol: 'AMD', quantity: 10, cost_basis: 900 },
        { symbol: CALL, quantity: -2, cost_basis: -500 },
      ],
    }),
    startFakeTradier({
      token: 'live-token',
      accounts: [{ account_number: '6YA05708', type: 'cash' }, { account_number: '6YA05709' }],
    }),
  ]);
  ctx = { baseUrl: fake.url };
  session = await broker.connect(ctx, { credentials: { accessToken: fake.token } });
  accountId = session.accounts[0]?.id ?? '';
});
afterAll(() => Promise.all([fake.close(), live.close()]));
afterEach(() => fake.clearInjections());

/** A send time well inside the day Tradier lists (the fake keeps every order). */
const today = () => startOfListedDay(Date.now()) + 120_000;
let sequence = 0;
function input(signal: Record<string, unknown>, clientOrderId = `sig-${++sequence}`): PlaceOrderInput {
  return { accountId, clientOrderId, order: normalizeOrderOrThrow(signal, { provider: tradierDescriptor }) };
}
async function failure(promise: Promise<unknown> | undefined): Promise<BrokerError> {
  const error = await promise?.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BrokerError)) throw new Error(`expected a BrokerError, got ${String(error)}`);
  return error;
}
const buy = { symbol: 'AAPL', action: 'buy', quantity: 1 };

describe('connect', () => {
  it('lists the token’s accounts from the profile; sandbox accounts are demo', () => {
    expect(session.secrets).toEqual({ accessToken: fake.token, environment: 'sandbox' });
    expect(session.accounts).toEqual([
      {
        id: 'VA12345678',
        name: 'Tradier margin VA12345678',
        dataTitle: 'VA12345678',
        dataType: 'margin',
        dataCurrency: 'USD',
        demo: true,
      },
    ]);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', url: '/v1/user/profile' });
  });

  it('finds the environment of the token on the real origins', async () => {
    const both = createTradierBroker({ environments: { live: live.url, demo: fake.url } });
    const real = { baseUrl: live.url };
    const liveSession = await both.connect(real, { credentials: { accessToken: 'live-token' } });
    expect(liveSession.accounts.map((a) => [a.id, a.demo])).toEqual([
      ['6YA05708', false],
      ['6YA05709', false],
    ]);
    const sandbox = await both.connect(real, { credentials: { accessToken: fake.token } });
    expect(sandbox.secrets.environment).toBe('sandbox');
    const before = fake.submissions().length;
    await both.placeOrder(real, sandbox, input(buy));
    expect(fake.submissions().length).toBe(before + 1);
  });

  it('refuses a wrong token as Tradier does', async () => {
    const error = await failure(broker.connect(ctx, { credentials: { accessToken: 'nope' } }));
    expect(error).toMatchObject({ kind: 'AuthenticationError', message: 'Tradier: Invalid Access Token' });
  });
});

describe('errors', () => {
  it('maps "not enough buying power" to InsufficientFunds, sent once', async () => {
    const before = fake.submissions().length;
    const error = await failure(broker.placeOrder(ctx, session, input({ ...buy, quantity: 100_000 })));
    expect(error).toMatchObject({
      kind: 'InsufficientFunds',
      message: 'Tradier: You do not have enough buying power for this trade.',
    });
    expect(fake.submissions().length).toBe(before + 1);
  });

  it('a back-office refusal in an HTTP 200 (errors, no order) is a rejection with Tradier’s words, sent once', async () => {
    const before = fake.submissions().length;
    const error = await failure(broker.placeOrder(ctx, session, input({ ...buy, action: 'buy_to_cover' })));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradier: Backoffice rejected override of the order. UnexpectedBuyToCoverOrder',
      outcomeUnknown: false,
    });
    expect(fake.submissions().length).toBe(before + 1);
  });

  it('maps other 400s to InvalidOrder with Tradier’s message', async () => {
    const error = await failure(broker.placeOrder(ctx, session, input({ ...buy, symbol: 'NOPE' })));
    expect(error).toMatchObject({ kind: 'InvalidOrder', message: 'Tradier: Invalid symbol: NOPE' });
  });

  it('refuses what Tradier cannot take before sending it', async () => {
    const before = fake.submissions().length;
    const error = await failure(broker.placeOrder(ctx, session, input({ ...buy, quantity: 0.5 })));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradier: quantity must be a whole number of shares or contracts',
    });
    expect(fake.submissions().length).toBe(before);
  });

  it.each([
    [429, 'Rate limit exceeded', 'RateLimited', false],
    [503, 'Service Unavailable', 'BrokerUnavailable', true],
    [401, 'Invalid Access Token', 'AuthenticationError', false],
    // This order refused (no options level for it, account restricted): the token is good.
    [403, 'Account is not approved for this option strategy', 'InvalidOrder', false],
  ] as const)('maps HTTP %i without retrying the order', async (status, body, kind, outcomeUnknown) => {
    const before = fake.submissions().length;
    fake.inject({}); // the tag lookup passes
    fake.inject({ status, body, headers: { 'content-type': 'text/plain' } });
    const error = await failure(broker.placeOrder(ctx, session, input(buy)));
    expect(error).toMatchObject({ kind, outcomeUnknown });
    expect(error.message).toMatch(/^Tradier: /);
    expect(fake.submissions().length).toBe(before + 1);
  });

  it('a timed-out submission is not resent; reconciliation finds it by tag', async () => {
    const before = fake.submissions().length;
    const held = fake.orders.length;
    fake.inject({});
    // The deadline passes as the order reaches Tradier, which places it 400 ms later.
    const deadline = new AbortController();
    fake.inject({ delayMs: 400, onArrival: () => deadline.abort() });
    const placing = input(buy, 'sig_timeout:1');
    const error = await failure(broker.placeOrder({ ...ctx, signal: deadline.signal }, session, placing));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    await vi.waitFor(() => expect(fake.orders).toHaveLength(held + 1), { timeout: 4_000 });
    expect(fake.submissions().length).toBe(before + 1);
    const lookup = { accountId, clientOrderId: 'sig_timeout:1', sentAt: today() };
    expect(await findOrder(broker, ctx, session, lookup)).toMatchObject({
      match: 'exact',
      order: { status: 'filled', price: 100 },
    });
  });
});

describe('orders', () => {
  it('a repeated client order id returns the existing order, nothing sent again', async () => {
    const first = await broker.placeOrder(ctx, session, input(buy, 'sig-dup'));
    const second = await broker.placeOrder(ctx, session, input(buy, 'sig-dup'));
    expect(second).toMatchObject({ id: first.id, status: 'filled', price: 100 });
    expect(fake.orders.filter((o) => o.tag === 'sig-dup')).toHaveLength(1);
  });

  it('the tag check reads every page of the day’s orders: a resend of an order listed late is not placed again', async () => {
    const template = await broker.placeOrder(ctx, session, input({ ...buy, limit_price: 48 }, 'sig-template'));
    const copy = fake.orders.find((o) => String(o.id) === template.id);
    if (!copy) throw new Error('no order to copy');
    const before = fake.orders.length;
    const others = (count: number, from: number) =>
      Array.from({ length: count }, (_, index) => ({ ...copy, id: from + index, tag: `other-${from + index}` }));
    // The copies leave the fake afterwards, so no other test lists them.
    try {
      fake.orders.push(...others(130, 9_000_000));
      const first = await broker.placeOrder(ctx, session, input(buy, 'sig-late'));
      const sent = fake.submissions().length;
      const again = await broker.placeOrder(ctx, session, input(buy, 'sig-late'));
      expect(again).toMatchObject({ id: first.id, status: 'filled' });
      expect(fake.submissions().length).toBe(sent);
      expect(fake.orders.filter((o) => o.tag === 'sig-late')).toHaveLength(1);
      // More orders than it reads: nothing proves ours absent, so nothing is sent.
      fake.orders.push(...others(1000, 9_100_000));
      const refused = await failure(broker.placeOrder(ctx, session, input(buy, 'sig-crowded')));
      expect(refused).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: false });
      expect(fake.submissions().length).toBe(sent);
      expect(
        await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-crowded', sentAt: today() }),
      ).toMatchObject({
        match: 'unknown',
      });
    } finally {
      fake.orders.splice(before);
    }
  });

  it('findOrder with a broker id reads the order itself: exact, or unknown when Tradier denies it', async () => {
    const placed = await broker.placeOrder(ctx, session, input({ ...buy, limit_price: 49 }, 'sig-byid'));
    const lookup = { accountId, clientOrderId: 'sig-byid', brokerOrderId: placed.id };
    expect(await findOrder(broker, ctx, session, lookup)).toEqual({
      match: 'exact',
      order: { id: placed.id, status: 'accepted', status_description: 'Tradier order open' },
    });
    expect(fake.requests.at(-1)?.url).toBe(`/v1/accounts/${accountId}/orders/${placed.id}`);
    expect(await findOrder(broker, ctx, session, { ...lookup, brokerOrderId: '999' })).toEqual({
      match: 'unknown',
      reason: 'Tradier does not know its own order 999',
    });
  });

  it('quotes a last price from /v1/markets/quotes (stock or option), null for an unmatched symbol', async () => {
    expect(await broker.lastPrice(ctx, session, accountId, 'aapl', 'stock')).toBe(100);
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', url: '/v1/markets/quotes?symbols=AAPL' });
    expect(await broker.lastPrice(ctx, session, accountId, CALL, 'option')).toBe(2.5);
    // A symbol Tradier does not know (here a dated future it does not carry) is unmatched.
    expect(await broker.lastPrice(ctx, session, accountId, 'ZZ9', 'stock')).toBeNull();
  });

  it('findOrder without one lists the day’s orders and matches our echoed tag: exact, or none', async () => {
    await broker.placeOrder(ctx, session, input({ ...buy, limit_price: 50 }, 'sig-open'));
    const sentAt = today();
    expect(await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-open', sentAt })).toMatchObject({
      match: 'exact',
      order: { status: 'accepted', status_description: 'Tradier order open' },
    });
    expect(fake.requests.at(-1)?.url).toBe(`/v1/accounts/${accountId}/orders?includeTags=true&page=1&limit=100`);
    expect(await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-never', sentAt })).toEqual({
      match: 'none',
    });
  });

  it('findOrder cannot prove absence without a send time, or before the listed day; finds a listed order any day', async () => {
    // Its own open order (the same tag as the case before: placed once, whichever runs first).
    await broker.placeOrder(ctx, session, input({ ...buy, limit_price: 50 }, 'sig-open'));
    const before = fake.requests.length;
    expect(await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-open' })).toMatchObject({
      match: 'unknown',
    });
    expect(fake.requests.length).toBe(before);
    // A window reaching into the day before (a lookup just after midnight in New York).
    const yesterday = startOfListedDay(Date.now()) - 30_000;
    expect(await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-never', sentAt: yesterday })).toEqual(
      { match: 'unknown', reason: 'Tradier no longer lists the orders of that time' },
    );
    expect(
      await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-open', sentAt: yesterday }),
    ).toMatchObject({
      match: 'exact',
      order: { status: 'accepted' },
    });
  });

  it('the listed day starts at midnight in New York', () => {
    // 14 Jan 2025 03:30 UTC is 22:30 on the 13th in New York (EST, UTC-5).
    expect(startOfListedDay(Date.UTC(2025, 0, 14, 3, 30, 12, 345))).toBe(Date.UTC(2025, 0, 13, 5));
    expect(startOfListedDay(Date.UTC(2025, 6, 14, 12))).toBe(Date.UTC(2025, 6, 14, 4));
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
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      url: `/v1/accounts/${accountId}/orders/${open.id}`,
    });
    const byId = (brokerOrderId: string) => broker.cancelOrder(ctx, session, { accountId, brokerOrderId });
    expect(await failure(byId(open.id))).toMatchObject({ kind: 'InvalidOrder' });
    expect(await failure(byId('999'))).toMatchObject({
      kind: 'OrderNotFound',
      message: 'Tradier: Order not found',
    });
  });

  it('a cancel signal that fails partway says which orders were canceled and which not', async () => {
    const limit = (price: number) =>
      broker.placeOrder(ctx, session, input({ symbol: 'INTC', action: 'buy', quantity: 1, limit_price: price }));
    const ids = [(await limit(10)).id, (await limit(11)).id];
    const path = new RegExp(`^/v1/accounts/${accountId}/orders/\\d+$`);
    fake.inject({ method: 'DELETE', path, delayMs: 1 });
    fake.inject({ method: 'DELETE', path, status: 503, body: 'Service Unavailable' });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'INTC', action: 'cancel' })));
    const told =
      /; of the open orders of INTC, only some were canceled: (\d+); (\d+) perhaps \(its cancel's outcome unknown\): check them at the broker$/.exec(
        error.message,
      );
    expect([told?.[1], told?.[2]].sort()).toEqual([...ids].sort());
    expect(error.outcomeUnknown).toBe(true);
  });

  it('a cancel of a stock cancels its stock orders, not the option spreads on it (listed under the underlying)', async () => {
    const spread = await broker.placeOrder(
      ctx,
      session,
      input({
        limit_price: 1.2,
        duration: 'day',
        legs: [
          { symbol: 'QQQ281215C00400000', action: 'buy_to_open', quantity: 1 },
          { symbol: 'QQQ281215C00410000', action: 'sell_to_open', quantity: 1 },
        ],
      }),
    );
    const stock = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'QQQ', action: 'buy', quantity: 1, limit_price: 10 }),
    );
    const answer = await broker.placeOrder(ctx, session, input({ symbol: 'QQQ', action: 'cancel' }));
    expect(answer).toMatchObject({ id: stock.id, status_description: 'Canceled 1 open order(s) of QQQ' });
    expect(fake.orders.find((o) => String(o.id) === spread.id)?.status).toBe('open');
  });

  it('close sends a market order for the position, tagged; percent_of_position closes a part', async () => {
    await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'AMD', action: 'close', quantity: 50, quantity_type: 'percent_of_position' }, 'sig-half'),
    );
    expect(Object.fromEntries(new URLSearchParams(fake.submissions().at(-1)?.body))).toEqual({
      class: 'equity',
      symbol: 'AMD',
      side: 'sell',
      quantity: '5',
      type: 'market',
      duration: 'day',
      tag: 'sig-half',
    });
    await broker.closePosition(ctx, session, accountId, 'AMD');
    expect(new URLSearchParams(fake.submissions().at(-1)?.body).get('quantity')).toBe('5');
    expect(await failure(broker.closePosition(ctx, session, accountId, 'AMD'))).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradier: no position in AMD to close',
    });
  });

  it('a percent_of_position close under one share is refused, not rounded up, and changes nothing', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'QCOM', action: 'buy', quantity: 5 }));
    await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'QCOM', action: 'sell', quantity: 5, type: 'stop', stop_price: 50 }),
    );
    const before = fake.submissions().length;
    const tenth = input({ symbol: 'QCOM', action: 'close', quantity: 10, quantity_type: 'percent_of_position' });
    expect(await failure(broker.placeOrder(ctx, session, tenth))).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradier: 10 % of 5 in QCOM is less than one share or contract',
    });
    expect(fake.submissions().length).toBe(before);
    expect(fake.orders.filter((o) => o.symbol === 'QCOM' && o.type === 'stop' && o.status === 'open')).toHaveLength(1);
  });

  it('a close of part of the position keeps the stop-loss of the rest, cut to the rest; a close of all of it cancels it', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'MU', action: 'buy', quantity: 10 }));
    await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'MU', action: 'sell', quantity: 10, type: 'stop', stop_price: 50 }),
    );
    // The symbol's working exit of what is held: a stop sized for the whole position would, once
    // triggered, sell more than is left after a partial close.
    const stops = () => fake.orders.filter((o) => o.symbol === 'MU' && o.type === 'stop' && o.status === 'open');
    const sent = () => new URLSearchParams(fake.submissions().at(-1)?.body);
    expect(stops().map((o) => o.quantity)).toEqual([10]);
    const partial = await broker.placeOrder(ctx, session, input({ symbol: 'MU', action: 'close', quantity: 4 }));
    expect(stops().map((o) => [o.quantity, o.side, o.stop_price, o.duration])).toEqual([[6, 'sell', 50, 'gtc']]);
    expect(partial.status_description).toMatch(/exits cut to the 6 left/);
    expect(sent().get('tag')).toBeNull();
    await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'MU', action: 'close', quantity: 50, quantity_type: 'percent_of_position' }),
    );
    expect(fake.submissions().some((r) => new URLSearchParams(r.body).get('quantity') === '3')).toBe(true);
    expect(stops().map((o) => o.quantity)).toEqual([3]);
    // A fixed quantity of all that is left closes the position: its exits go with it.
    await broker.placeOrder(ctx, session, input({ symbol: 'MU', action: 'close', quantity: 3 }));
    expect(sent().get('quantity')).toBe('3');
    expect(stops()).toEqual([]);
  });

  it('a close refused after the open orders were canceled for it says so: the position is still open, its exits gone', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'SPY', action: 'buy', quantity: 2 }));
    await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'SPY', action: 'sell', quantity: 2, type: 'stop', stop_price: 50 }),
    );
    const stop = fake.orders.find((o) => o.symbol === 'SPY' && o.type === 'stop' && o.status === 'open');
    fake.inject({ method: 'POST', path: `/v1/accounts/${accountId}/orders`, status: 400, body: 'Market is closed' });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'SPY', action: 'close' })));
    expect(error).toMatchObject({ kind: 'InvalidOrder', outcomeUnknown: false });
    expect(error.message).toBe(
      `Tradier: Market is closed; the open orders of SPY were canceled before the close (${stop?.id}): check the position and its exits at the broker`,
    );
  });

  it('previewing a close cancels nothing: the working orders of the symbol stay', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'INTC', action: 'buy', quantity: 2 }));
    const working = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'INTC', action: 'buy', quantity: 1, type: 'limit', limit_price: 50 }),
    );
    const before = fake.requests.length;
    const preview = await broker.previewOrder(ctx, session, input({ symbol: 'INTC', action: 'close' }));
    expect(preview.status).toBe('draft');
    expect(fake.requests.slice(before).filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(fake.orders.find((o) => String(o.id) === working.id)?.status).toBe('open');
    await broker.closePosition(ctx, session, accountId, 'INTC');
  });

  it('closing a short option position buys to close', async () => {
    await broker.closePosition(ctx, session, accountId, 'SPY   240119C00450000');
    expect(Object.fromEntries(new URLSearchParams(fake.submissions().at(-1)?.body))).toMatchObject({
      class: 'option',
      symbol: 'SPY',
      option_symbol: CALL,
      side: 'buy_to_close',
      quantity: '2',
    });
  });

  it('holdings: balances and positions, whatever shape Tradier lists them in', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'MSFT', action: 'buy', quantity: 2 }));
    const holdings = await broker.getHoldings(ctx, session, accountId);
    expect(holdings).toMatchObject({
      currency: 'USD',
      cash: expect.any(Number),
      equity: expect.any(Number),
      buyingPower: expect.any(Number),
    });
    expect(holdings.positions).toContainEqual({ symbol: 'MSFT', quantity: 2, averagePrice: 100 });
    const empty = await startFakeTradier({ token: 't2' });
    try {
      const other = await broker.connect({ baseUrl: empty.url }, { credentials: { accessToken: 't2' } });
      const none = await broker.getHoldings({ baseUrl: empty.url }, other, 'VA12345678');
      expect(none.positions).toEqual([]);
      const lookup = { accountId: 'VA12345678', clientOrderId: 'x', sentAt: today() };
      expect(await findOrder(broker, { baseUrl: empty.url }, other, lookup)).toEqual({ match: 'none' });
    } finally {
      await empty.close();
    }
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  it.each([
    [
      { symbol: 'AAPL', action: 'buy', quantity: 1.5 },
      'Tradier: quantity must be a whole number of shares or contracts',
    ],
    [
      { symbol: 'AAPL', action: 'buy', quantity: 50, quantity_type: 'percent_of_position' },
      'Tradier: quantity_type percent_of_position is only for close',
    ],
  ])('refuses %j as placing does, with its error, sending nothing', async (signal, message) => {
    const order = input(signal);
    const sent = fake.submissions().length;
    const live = await failure(broker.placeOrder(ctx, session, order));
    expect(live).toMatchObject({ kind: 'InvalidOrder', message });
    expect(fake.submissions().length).toBe(sent);
    expect(() => broker.checkOrder(order)).toThrow(live);
  });

  it('passes an order placing takes', () => {
    expect(() => broker.checkOrder(input({ ...buy, type: 'limit', limit_price: 180 }))).not.toThrow();
    expect(() => broker.checkOrder(input({ symbol: 'AAPL', action: 'close' }))).not.toThrow();
  });
});
