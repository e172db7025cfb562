// Contract: orders at the fake (the exact bodies of every form are pinned by fixtures/requests.json
// and core/replay.test.ts), IBKR's questions confirmed or declined, refusals in HTTP 200 bodies,
// a repeated cOID answered with the first order, no submission resent, what IBKR cannot do
// refused before anything is sent.
import { exampleBody, isExampleAvailable, ORDER_EXAMPLES } from '@router/orders';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { findOrder } from '../../core/find-order.ts';
import { ibkrDescriptor } from './descriptor.ts';
import { CONFIRMED_QUESTIONS } from './questions.ts';
import { ACCOUNT, type Connected, connected, failure, input, ORDERS_PATH, sentSince } from './test-support.ts';

let c: Connected;
beforeAll(async () => {
  c = await connected();
});
afterAll(() => c.close());
afterEach(() => c.fake.clearInjections());

const buy = { symbol: 'AAPL', action: 'buy', quantity: 1 };
const bodyOf = (index: number) => JSON.parse(c.fake.requests[index]?.body ?? 'null') as unknown;
const isInstrumentLookup = (sent: string) => /^GET \/v1\/api\/(trsrv|iserver\/secdef)\//.test(sent);
const submissions = () => c.fake.requests.filter((r) => r.method === 'POST' && r.url === ORDERS_PATH).length;

describe('questions', () => {
  it('suppresses the warnings it confirms when the session opens', () => {
    expect([...c.fake.suppressed].sort()).toEqual(Object.keys(CONFIRMED_QUESTIONS).sort());
  });

  it('confirms o163 and o354 by POST /iserver/reply/{id} until the order is placed', async () => {
    c.fake.suppressed.clear();
    c.fake.ask({ messageId: 'o354', message: 'You are submitting an order without market data.\nAre you sure?' });
    const before = c.fake.requests.length;
    const placed = await c.broker.placeOrder(c.ctx, c.session, input({ ...buy, limit_price: 150, duration: 'day' }));
    expect(placed).toEqual({
      id: expect.any(String),
      status: 'accepted',
      status_description: 'Interactive Brokers order PreSubmitted',
    });
    const sent = sentSince(c.fake, before);
    expect(sent.filter((line) => line.startsWith('POST /v1/api/iserver/reply/'))).toHaveLength(2);
    expect(bodyOf(before + sent.length - 1)).toEqual({ confirmed: true });
    expect(c.fake.ledger.orders.at(-1)?.orderId).toBe(Number(placed.id));
    for (const id of Object.keys(CONFIRMED_QUESTIONS)) c.fake.suppressed.add(id);
  });

  it('declines a question it does not confirm, places nothing and says why', async () => {
    c.fake.ask({
      messageId: 'o451',
      message: 'The following order value estimate exceeds the Total Value Limit of 100,000 USD.\nAre you sure?',
    });
    const orders = c.fake.ledger.orders.length;
    const before = c.fake.requests.length;
    const error = await failure(c.broker.placeOrder(c.ctx, c.session, input(buy)));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message:
        'Interactive Brokers: the order needs a confirmation we do not give automatically (o451: The following order value estimate exceeds the Total Value Limit of 100,000 USD.); nothing was placed',
    });
    expect(bodyOf(c.fake.requests.length - 1)).toEqual({ confirmed: false });
    expect(sentSince(c.fake, before).at(-1)).toMatch(/^POST \/v1\/api\/iserver\/reply\//);
    expect(c.fake.ledger.orders.length).toBe(orders);
  });
});

describe('exactly once', () => {
  it('a repeated cOID is answered with the order already placed', async () => {
    const first = await c.broker.placeOrder(c.ctx, c.session, input(buy, 'sig-dup'));
    const before = c.fake.requests.length;
    const second = await c.broker.placeOrder(c.ctx, c.session, input(buy, 'sig-dup'));
    expect(second).toEqual({ ...first, status: 'filled', price: 190 });
    expect(sentSince(c.fake, before)).toEqual([`POST ${ORDERS_PATH}`, 'GET /v1/api/iserver/account/orders']);
    expect(c.fake.ledger.orders.filter((order) => order.cOID === 'sig-dup')).toHaveLength(1);
  });

  it('a repeated cOID whose order only shows executions short of it: accepted, never filled', async () => {
    const signal = { symbol: 'MSFT', action: 'buy', quantity: 3 };
    const first = await c.broker.placeOrder(c.ctx, c.session, input(signal, 'sig-dup-part'));
    const execution = c.fake.ledger.executions.find((item) => String(item.orderId) === first.id);
    if (execution) execution.size = 2;
    c.fake.inject({
      method: 'GET',
      path: '/v1/api/iserver/account/orders',
      status: 200,
      body: { orders: [], snapshot: true },
    });
    const second = await c.broker.placeOrder(c.ctx, c.session, input(signal, 'sig-dup-part'));
    expect(second).toMatchObject({
      id: first.id,
      status: 'accepted',
      status_description: 'Interactive Brokers order executed: 2 of 3 in 1 trade(s)',
    });
    expect(c.fake.ledger.orders.filter((order) => order.cOID === 'sig-dup-part')).toHaveLength(1);
  });

  it('submits one order at a time per connection: the next waits for the answer (and its questions)', async () => {
    c.fake.ask({ messageId: 'o451', message: 'The following order value estimate exceeds the Total Value Limit.' });
    c.fake.inject({ method: 'POST', path: ORDERS_PATH, delayMs: 100 });
    const before = c.fake.requests.length;
    const first = c.broker.placeOrder(c.ctx, c.session, input(buy));
    const second = c.broker.placeOrder(c.ctx, c.session, input(buy));
    const [declined, placed] = await Promise.allSettled([first, second]);
    expect([declined.status, placed.status]).toEqual(['rejected', 'fulfilled']);
    const posts = sentSince(c.fake, before).filter((line) => line.startsWith('POST '));
    expect(posts.map((line) => line.replace(/reply\/.+$/, 'reply'))).toEqual([
      `POST ${ORDERS_PATH}`,
      'POST /v1/api/iserver/reply',
      `POST ${ORDERS_PATH}`,
    ]);
  });

  it('a timed-out submission is not resent; reconciliation finds it by cOID', async () => {
    const before = submissions();
    const held = c.fake.ledger.orders.length;
    // The deadline passes as the order (after its contract's look-up) reaches the gateway.
    const deadline = new AbortController();
    c.fake.inject({ method: 'POST', path: ORDERS_PATH, delayMs: 300, onArrival: () => deadline.abort() });
    const placing = input({ ...buy, limit_price: 185 });
    const error = await failure(c.broker.placeOrder({ ...c.ctx, signal: deadline.signal }, c.session, placing));
    expect(error).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
      message: 'Interactive Brokers: no answer before the deadline',
    });
    await vi.waitFor(() => expect(c.fake.ledger.orders.length).toBe(held + 1), { timeout: 4_000 });
    expect(submissions()).toBe(before + 1);
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: ACCOUNT,
      clientOrderId: placing.clientOrderId,
      order: placing.order,
      sentAt: c.clock.now,
    });
    expect(found).toMatchObject({ match: 'exact', order: { status: 'accepted' } });
  });

  it.each([
    [500, { error: 'internal server error' }, 'BrokerUnavailable', true],
    [503, { error: 'Service Unavailable' }, 'BrokerUnavailable', true],
    [429, '', 'RateLimited', false],
    // A gateway's timeout or a closed client connection proves no refusal: the order may stand.
    [408, 'Request Timeout', 'BrokerUnavailable', true],
    [499, '', 'BrokerUnavailable', true],
    // One account's or order's refusal: a refused token is a 401 (WIRE.md §8); it must not deactivate the connection.
    [403, { error: 'Access Denied' }, 'InvalidOrder', false],
    [200, { error: 'Order rejected: insufficient available funds' }, 'InsufficientFunds', false],
  ] as const)('HTTP %i on a submission: %s, sent once', async (status, body, kind, outcomeUnknown) => {
    const before = submissions();
    c.fake.inject({ method: 'POST', path: ORDERS_PATH, status, body });
    const error = await failure(c.broker.placeOrder(c.ctx, c.session, input(buy)));
    expect(error).toMatchObject({ kind, outcomeUnknown });
    expect(error.message).toMatch(/^Interactive Brokers: /);
    expect(submissions()).toBe(before + 1);
  });

  it('a submission refused for pacing hands back the wait IBKR names as Retry-After, sent once', async () => {
    const before = submissions();
    c.fake.inject({ method: 'POST', path: ORDERS_PATH, status: 429, headers: { 'retry-after': '30' } });
    const error = await failure(c.broker.placeOrder(c.ctx, c.session, input(buy)));
    expect(error).toMatchObject({ kind: 'RateLimited', outcomeUnknown: false, retryAfter: '30' });
    expect(submissions()).toBe(before + 1);
  });

  it('the fake refuses what IBKR refuses: too little cash, in an HTTP 200 body', async () => {
    const error = await failure(c.broker.placeOrder(c.ctx, c.session, input({ ...buy, quantity: 10_000 })));
    expect(error).toMatchObject({
      kind: 'InsufficientFunds',
      message: 'Interactive Brokers: Order rejected: insufficient available funds',
    });
  });

  it('a read told by Retry-After to wait longer than the cap is not asked again (the penalty box would grow)', async () => {
    c.fake.inject({ method: 'GET', path: '/v1/api/trsrv/stocks', status: 429, headers: { 'retry-after': '600' } });
    const error = await failure(
      c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'AMD', action: 'buy', quantity: 1 })),
    );
    // The wait IBKR names goes back as the error's Retry-After.
    expect(error).toMatchObject({ kind: 'RateLimited', outcomeUnknown: false, retryAfter: '600' });
    const lookups = c.fake.requests.filter((r) => r.url.startsWith('/v1/api/trsrv/stocks?symbols=AMD'));
    expect(lookups).toHaveLength(1);
  });

  it('a read whose Retry-After outlasts the deadline is not asked again, and hands that wait back', async () => {
    c.fake.inject({ method: 'GET', path: '/v1/api/trsrv/stocks', status: 429, headers: { 'retry-after': '4' } });
    const ctx = { ...c.ctx, signal: AbortSignal.timeout(1_000) };
    const error = await failure(
      c.broker.placeOrder(ctx, c.session, input({ symbol: 'INTC', action: 'buy', quantity: 1 })),
    );
    expect(error).toMatchObject({ kind: 'RateLimited', outcomeUnknown: false, retryAfter: '4' });
    const lookups = c.fake.requests.filter((r) => r.url.startsWith('/v1/api/trsrv/stocks?symbols=INTC'));
    expect(lookups).toHaveLength(1);
  });

  it('a read that meets the pacing limit is tried once more within the deadline', async () => {
    c.fake.inject({ method: 'GET', path: '/v1/api/trsrv/stocks', status: 429 });
    const placed = await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NVDA', action: 'buy', quantity: 1 }));
    expect(placed.status).toBe('filled');
    const lookups = c.fake.requests.filter((r) => r.url.startsWith('/v1/api/trsrv/stocks?symbols=NVDA'));
    expect(lookups).toHaveLength(2);
  });
});

describe('refused before sending', () => {
  it.each([
    [{ ...buy, duration: 'dyp' }, 'duration dyp (outside regular hours) needs a limit or stop_limit order'],
    [
      { ...buy, action: 'sell', limit_price: 200, take_profit_price: 210 },
      'take profit and stop loss need an opening action, not sell',
    ],
    [{ ...buy, type: 'stop', stop_price: 200, duration: 'opg' }, 'duration opg is for market and limit orders'],
    [
      {
        symbol: 'SPY_281215C00600000',
        action: 'buy_to_open',
        'symbol[2]': 'SPY_281215C00610000',
        'action[2]': 'sell_to_open',
        'limit_price[2]': 1,
        quantity: 1,
      },
      'legs take no type or price: give the net price as limit_price',
    ],
    [
      {
        symbol: 'SPY_281215C00600000',
        action: 'buy_to_open',
        'symbol[2]': 'SPY_281215C00610000',
        'action[2]': 'sell_to_open',
        quantity: 1,
        stop_price: 2,
      },
      'a combo is a market or limit order',
    ],
  ])('%o', async (signal, message) => {
    const before = c.fake.requests.length;
    const error = await failure(c.broker.placeOrder(c.ctx, c.session, input(signal)));
    expect(error).toMatchObject({ kind: 'InvalidOrder', message: `Interactive Brokers: ${message}` });
    // An instrument not yet looked up by an earlier test is looked up first; nothing else is sent.
    expect(sentSince(c.fake, before).filter((sent) => !isInstrumentLookup(sent))).toEqual([]);
  });

  const nextYear = new Date().getUTCFullYear() + 1;
  it.each([
    [{ symbol: 'NOPE', action: 'buy', quantity: 1 }, 'no stock NOPE found'],
    [{ symbol: 'USD/EUR', action: 'buy', quantity: 1000 }, 'no forex pair USD.EUR; IBKR trades it as EUR/USD'],
    [{ symbol: 'AAPL  281215C00217500', action: 'buy_to_open', quantity: 1 }, 'no AAPL call 217.5 in DEC28'],
    // ES lists only March, June, September and December: next year's January is no contract (an expired one the order refuses).
    [
      { symbol: `ESF${nextYear}`, action: 'buy', quantity: 1 },
      `no ES future for JAN${String(nextYear % 100).padStart(2, '0')}`,
    ],
    [
      { symbol: 'XYZ', class: 'warrant', action: 'buy', quantity: 1 },
      'no warrant XYZ found; give its IBKR contract id as #conid',
    ],
  ])('an instrument IBKR does not find: %o', async (signal, message) => {
    const before = submissions();
    const error = await failure(c.broker.placeOrder(c.ctx, c.session, input(signal)));
    expect(error).toMatchObject({ kind: 'InvalidOrder', message: `Interactive Brokers: ${message}` });
    expect(submissions()).toBe(before);
  });

  it('an account outside the connection', async () => {
    const error = await failure(c.broker.placeOrder(c.ctx, c.session, { ...input(buy), accountId: 'U9999999' }));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Interactive Brokers: account U9999999 is not part of this connection',
    });
  });
});

describe('instruments', () => {
  it('a continuous future is the front contract not yet expired, flagged automated', async () => {
    await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'ES1!', action: 'buy', quantity: 1 }));
    const ticket = (
      bodyOf(c.fake.requests.length - 1) as { orders: Array<{ conid: number; manualIndicator: boolean }> }
    ).orders[0];
    const front = c.fake.market
      .all()
      .filter((contract) => contract.secType === 'FUT' && contract.symbol === 'ES')
      .sort((a, b) => Number(a.expiry) - Number(b.expiry))[0];
    expect(ticket).toMatchObject({ conid: front?.conid, manualIndicator: false });
  });

  it('an index CFD is looked up by the name the trader wrote, not read as a contract month', async () => {
    const conidOf = (name: string) => c.fake.market.all().find((contract) => contract.symbol === name)?.conid;
    for (const [symbol, ibkrName] of [
      ['HK50', 'IBHK50'],
      ['EU50', 'IBEU50'],
    ]) {
      await c.broker.placeOrder(c.ctx, c.session, input({ symbol, class: 'cfd', action: 'buy', quantity: 1 }));
      const ticket = (bodyOf(c.fake.requests.length - 1) as { orders: Array<{ conid: number }> }).orders[0];
      expect(ticket?.conid).toBe(conidOf(ibkrName ?? ''));
    }
  });

  it('US stock prices go on the cent, never past the trader’s (exits by their side); others as given', async () => {
    const tickets = async (signal: Record<string, unknown>) => {
      await c.broker.placeOrder(c.ctx, c.session, input(signal));
      return (bodyOf(c.fake.requests.length - 1) as { orders: Array<Record<string, unknown>> }).orders;
    };
    expect((await tickets({ ...buy, limit_price: 101 * 1.001 }))[0]).toMatchObject({ price: 101.1 });
    const stopLimit = { symbol: 'AAPL', action: 'sell', quantity: 1, stop_price: 100.004, limit_price: 100.001 };
    expect((await tickets(stopLimit))[0]).toMatchObject({ auxPrice: 100.01, price: 100.01 });
    const bracket = { ...buy, limit_price: 100.004, take_profit_price: 110.005, stop_loss_price: 95.005 };
    expect((await tickets(bracket)).map((ticket) => ticket.price)).toEqual([100, 95.01, 110.01]);
    // A CFD is no US stock: its price goes as given, for IBKR to judge.
    const cfd = { symbol: 'AAPL', class: 'cfd', action: 'buy', quantity: 1, limit_price: 180.125 };
    expect((await tickets(cfd))[0]).toMatchObject({ price: 180.125 });
  });

  it('futures prices go on their root’s tick, never past the trader’s', async () => {
    const tickets = async (signal: Record<string, unknown>) => {
      await c.broker.placeOrder(c.ctx, c.session, input(signal));
      return (bodyOf(c.fake.requests.length - 1) as { orders: Array<Record<string, unknown>> }).orders;
    };
    // ES trades in quarter points: a buy's limit rounds down, its stop loss (a sell) up.
    const bracket = { symbol: 'ES1!', action: 'buy', quantity: 1, limit_price: 5400.3, stop_loss_price: 5380.1 };
    expect((await tickets(bracket)).map((ticket) => ticket.price)).toEqual([5400.25, 5380.25]);
    const stopLimit = { symbol: 'ES1!', action: 'sell', quantity: 1, stop_price: 5390.1, limit_price: 5389.9 };
    expect((await tickets(stopLimit))[0]).toMatchObject({ auxPrice: 5390.25, price: 5390 });
  });

  it('resolves a symbol once: conids are permanent', async () => {
    await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'MSFT', action: 'buy', quantity: 1 }));
    const before = c.fake.requests.length;
    await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'MSFT', action: 'sell', quantity: 1 }));
    expect(sentSince(c.fake, before)).toEqual([`POST ${ORDERS_PATH}`]);
  });
});

describe('the documentation examples', () => {
  // What TrendSpider and TradingView put in place of their variables before sending.
  const FILLED: Record<string, string> = {
    '%alert_symbol%': 'AAPL',
    '%last_price%': '190',
    '{{ticker}}': 'AAPL',
    '{{strategy.order.action}}': 'buy',
    '{{strategy.order.contracts}}': '1',
    '{{close}}': '190',
  };
  const filled = (value: string | number) =>
    typeof value === 'string' ? value.replace(/%[a-z_]+%|\{\{[a-z.]+\}\}/g, (name) => FILLED[name] ?? name) : value;

  it.each(ORDER_EXAMPLES.map((example) => [example.id, example] as const))(
    '%s is available and placed',
    async (_id, example) => {
      expect(isExampleAvailable(example, ibkrDescriptor)).toBe(true);
      const body = Object.fromEntries(
        Object.entries(exampleBody(example, ibkrDescriptor)).map(([key, value]) => [key, filled(value)]),
      );
      const placed = await c.broker.placeOrder(c.ctx, c.session, input(body));
      expect(['accepted', 'filled']).toContain(placed.status);
      expect(c.fake.ledger.orders.some((order) => String(order.orderId) === placed.id)).toBe(true);
    },
  );
});

describe('checkOrder (a test hook: check without placing)', () => {
  it.each([
    [
      { symbol: 'NOPE', action: 'sell', quantity: 1, limit_price: 200, take_profit_price: 210 },
      'take profit and stop loss need an opening action, not sell',
    ],
    [
      { symbol: 'NOPE', action: 'buy', quantity: 1, duration: 'dyp' },
      'duration dyp (outside regular hours) needs a limit or stop_limit order',
    ],
    [
      {
        symbol: 'SPY_281215C00600000',
        action: 'buy_to_open',
        'symbol[2]': 'SPY_281215C00610000',
        'action[2]': 'sell_to_open',
        'limit_price[2]': 1,
        quantity: 1,
      },
      'legs take no type or price: give the net price as limit_price',
    ],
  ])('refuses %o as placing does, with its error, sending nothing', async (signal, message) => {
    const order = input(signal);
    const before = c.fake.requests.length;
    const live = await failure(c.broker.placeOrder(c.ctx, c.session, order));
    expect(live).toMatchObject({ kind: 'InvalidOrder', message: `Interactive Brokers: ${message}` });
    expect(sentSince(c.fake, before)).toEqual([]);
    expect(() => c.broker.checkOrder(order)).toThrow(live);
  });

  it('passes an order placing takes', () => {
    expect(() => c.broker.checkOrder(input({ ...buy, limit_price: 150, take_profit_price: 160 }))).not.toThrow();
    expect(() => c.broker.checkOrder(input({ symbol: 'AAPL', action: 'close' }))).not.toThrow();
  });
});
