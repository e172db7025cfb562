// Contract: every order form the descriptor claims reaches the fake as Tradovate takes it,
// continuous symbols resolve to the listed front month, HTTP 200 failures and penalty tickets
// are read (an order is never sent twice but as the ticket protocol asks), a timed-out order is
// found again by its clOrdId, cancel, close and holdings.
import { normalizeOrderOrThrow } from '@router/orders';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrokerContext, BrokerSession, PlaceOrderInput } from '../../core/broker.ts';
import { brokerFailure as failure } from '../../core/expect-failure.ts';
import { findOrder } from '../../core/find-order.ts';
import { WRITTEN_AT } from '../../core/test-clock.ts';
import { createTradovateBroker } from './adapter.ts';
import { forgetContracts } from './contracts.ts';
import { tradovateDescriptor } from './descriptor.ts';
import { FAKE_CREDENTIALS, startTradovateFake, type TradovateFake } from './fake.ts';
import { toPlacement } from './mapper.ts';

const broker = createTradovateBroker();
let fake: TradovateFake;
let ctx: BrokerContext;
let session: BrokerSession;
const accountId = '987654';

beforeAll(async () => {
  fake = await startTradovateFake({ listedSince: WRITTEN_AT() });
  ctx = { baseUrl: fake.baseUrl };
  session = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
});
afterAll(() => fake.close());
afterEach(() => fake.clearInjections());

let sequence = 0;
function input(signal: Record<string, unknown>, clientOrderId = `sig${++sequence}`): PlaceOrderInput {
  return {
    accountId,
    clientOrderId,
    order: normalizeOrderOrThrow(signal, { provider: tradovateDescriptor, now: WRITTEN_AT }),
  };
}
const since = (before: number) => fake.requests.slice(before).map((r) => `${r.method} ${r.url.split('?')[0]}`);
const lastBody = () => JSON.parse(fake.submissions().at(-1)?.body ?? '{}') as Record<string, unknown>;
const front = () => fake.library.maturities.filter((m) => m.productId === 10).findIndex((m) => m.isFront);
const esContract = (offset: number) => {
  const maturities = fake.library.maturities.filter((m) => m.productId === 10);
  const maturity = maturities[front() + offset];
  return fake.library.contracts.find((c) => c.contractMaturityId === maturity?.id)?.name;
};

describe('symbols', () => {
  it('ES1! is the front month Tradovate lists, ES2! the next; resolved once', async () => {
    forgetContracts();
    const before = fake.requests.length;
    await broker.placeOrder(ctx, session, input({ symbol: 'ES1!', action: 'buy', quantity: 1, limit_price: 5000 }));
    expect(lastBody().symbol).toBe(esContract(0));
    expect(since(before)).toEqual([
      'GET /v1/product/find',
      'GET /v1/contractMaturity/deps',
      'GET /v1/contract/deps',
      'POST /v1/order/placeorder',
    ]);
    const again = fake.requests.length;
    await broker.placeOrder(ctx, session, input({ symbol: 'ES1!', action: 'buy', quantity: 1, limit_price: 5000 }));
    expect(since(again)).toEqual(['POST /v1/order/placeorder']);
    await broker.placeOrder(ctx, session, input({ symbol: 'ES2!', action: 'buy', quantity: 1, limit_price: 5000 }));
    expect(lastBody().symbol).toBe(esContract(1));
  });

  it('refuses what is not a futures contract, or an unknown product, before placing', async () => {
    const before = fake.submissions().length;
    const stock = await failure(broker.placeOrder(ctx, session, input({ symbol: 'AAPL', action: 'buy', quantity: 1 })));
    expect(stock).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradovate: AAPL is not a futures contract; give one as ESZ2026 or ES1!',
    });
    const unknown = await failure(
      broker.placeOrder(ctx, session, input({ symbol: 'ZZ1!', action: 'buy', quantity: 1 })),
    );
    expect(unknown.message).toBe('Tradovate: unknown futures product ZZ');
    expect(fake.submissions().length).toBe(before);
  });
});

describe('orders', () => {
  it('refuses fractions and unsupported forms without sending', async () => {
    const before = fake.submissions().length;
    const half = await failure(
      broker.placeOrder(ctx, session, input({ symbol: 'ESZ6', action: 'buy', quantity: 1.5 })),
    );
    expect(half.message).toBe('Tradovate: quantity must be a whole number of contracts, not 1.5');
    const legs = {
      legs: [
        { symbol: 'ESH7', action: 'buy', quantity: 1, limit_price: 5300 },
        { symbol: 'NQH7', action: 'sell', quantity: 1, limit_price: 19500 },
      ],
      group: 'oco',
    };
    const mixed = await failure(broker.placeOrder(ctx, session, input(legs)));
    expect(mixed.message).toBe('Tradovate: both legs of a one-cancels-other pair trade the same contract and quantity');
    expect(() => input({ symbol: 'ESZ6', action: 'buy', quantity: 1, duration: 'gtd' })).toThrow(
      /gtd is not supported/,
    );
    expect(() => input({ symbol: 'ESZ6', action: 'buy', quantity: 1, stop_price_percent: 1 })).toThrow(/not supported/);
    expect(fake.submissions().length).toBe(before);
  });

  it('a bracket: the entry fills, its exits work as a one-cancels-other pair', async () => {
    const placed = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'NQH2027', action: 'buy', quantity: 1, take_profit_price: 19_500, stop_loss_price: 18_500 }),
    );
    const [entry, profit, loss] = fake.book.orders.slice(-3);
    expect(placed).toEqual({
      id: String(entry?.id),
      status: 'accepted',
      status_description: `Tradovate order placed with exit order(s) ${profit?.id}, ${loss?.id}`,
    });
    expect([entry?.ordStatus, profit?.ordStatus, loss?.ordStatus]).toEqual(['Filled', 'Working', 'Working']);
    expect(profit?.ocoId).toBe(loss?.id);
  });

  it("puts prices on a known root's tick, never past the trader's; refuses one under a tick", async () => {
    // A buy at most 19000.1 is a buy at most 19000 (NQ ticks 0.25); its exits are sells: up.
    const bracket = { take_profit_price: 19_500.1, stop_loss_price: 18_500.1 };
    const buy = { symbol: 'NQH2027', action: 'buy', quantity: 1, type: 'limit', limit_price: 19_000.1, ...bracket };
    await broker.placeOrder(ctx, session, input(buy));
    expect(lastBody()).toMatchObject({
      price: 19_000,
      bracket1: { action: 'Sell', price: 19_500.25 },
      bracket2: { action: 'Sell', stopPrice: 18_500.25 },
    });
    await broker.placeOrder(ctx, session, input({ symbol: 'CLK27', action: 'sell', quantity: 1, limit_price: 70.123 }));
    expect(lastBody()).toMatchObject({ price: 70.13 });
    const before = fake.submissions().length;
    const under = await failure(
      broker.placeOrder(ctx, session, input({ symbol: 'ESH27', action: 'buy', quantity: 1, limit_price: 0.1 })),
    );
    expect(under).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradovate: limit_price 0.1 is less than one tick (0.25): it would be 0',
    });
    expect(fake.submissions().length).toBe(before);
  });

  // These roots' prices went as given, and the exchange refused an off-tick one.
  it.each([
    ['6BH2027', 'buy', 1.26543, 1.2654], // CME British pound: 0.0001
    ['6JH2027', 'sell', 0.0066123, 0.0066125], // CME Japanese yen: 0.0000005
    ['ZCH2027', 'buy', 450.3, 450.25], // CBOT corn: 1/4 cent
    ['ZFH2027', 'buy', 108.3, 108.296875], // CBOT 5-year note: 1/4 of 1/32
    ['ZTH2027', 'sell', 103.5001, 103.50390625], // CBOT 2-year note: 1/8 of 1/32
    ['HGH2027', 'sell', 4.1234, 4.1235], // COMEX copper: 0.0005
    ['LEJ2027', 'buy', 180.01, 180], // CME live cattle: 0.025
    ['FESXH2027', 'buy', 4900.5, 4900], // Eurex EURO STOXX 50: 1 point
  ])('puts %s %s at %d on its tick: %d', (symbol, action, price, onTick) => {
    // The mapper's request, before the contract is looked up (the fake lists ES and NQ only).
    const placement = toPlacement(input({ symbol, action, quantity: 1, limit_price: price }).order, 'sig');
    expect(placement({ accountSpec: 'demo', accountId: 1, symbol }).body).toMatchObject({ price: onTick });
  });

  it('an OCO pair: two working limits linked to each other', async () => {
    const placed = await broker.placeOrder(
      ctx,
      session,
      input({
        legs: [
          { symbol: 'ESH27', action: 'buy', quantity: 2, limit_price: 5300 },
          { symbol: 'ESH27', action: 'sell', quantity: 2, limit_price: 5500 },
        ],
        group: 'oco',
      }),
    );
    const [main, other] = fake.book.orders.slice(-2);
    expect(placed.status_description).toBe(`Tradovate order placed, one-cancels-other with order ${other?.id}`);
    expect(main).toMatchObject({ ocoId: other?.id, ordStatus: 'Working', orderQty: 2, price: 5300 });
  });
});

describe('errors', () => {
  it('an order refused with 401 for a token a renewal elsewhere ended goes once more with the stored one: placed once', async () => {
    const held = { ...session, secrets: { ...session.secrets, accessToken: 'ended-by-a-renewal-elsewhere' } };
    const order = input({ symbol: 'CLF27', action: 'buy', quantity: 1 });
    const [placed, tried] = [fake.placed(), fake.submissions().length];
    const answer = await broker.placeOrder({ ...ctx, storedSession: async () => session }, held, order);
    expect(answer).toMatchObject({ status: expect.any(String) });
    expect(fake.placed() - placed).toBe(1);
    expect(fake.submissions().length - tried).toBeLessThanOrEqual(2);
    // Nothing other stored: the refusal stands, and the order is not placed.
    const refused = await failure(
      broker.placeOrder({ ...ctx, storedSession: async () => held }, held, { ...order, clientOrderId: 'sig-ended-2' }),
    );
    expect(refused.kind).toBe('AuthenticationError');
    expect(fake.placed() - placed).toBe(1);
  });

  it('reads HTTP 200 failures, sent once', async () => {
    const before = fake.submissions().length;
    const limit = await failure(
      broker.placeOrder(ctx, session, input({ symbol: 'CLF27', action: 'buy', quantity: 60 })),
    );
    expect(limit).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradovate: Max position limit of 50 reached (MaxPosLimitReached)',
      outcomeUnknown: false,
    });
    expect(fake.submissions().length).toBe(before + 1);
  });

  it('RiskCheckTimeout decides nothing: an unknown outcome, not resent, the order found by its clOrdId', async () => {
    const before = fake.submissions().length;
    const placing = input({ symbol: 'CLF27', action: 'buy', quantity: 1 });
    const sentAt = Date.now();
    fake.loseNextPlacement('RiskCheckTimeout');
    const timeout = await failure(broker.placeOrder(ctx, session, placing));
    expect(timeout).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
      message: 'Tradovate: RiskCheckTimeout',
    });
    expect(fake.submissions().length).toBe(before + 1);
    const found = await findOrder(broker, ctx, session, { accountId, clientOrderId: placing.clientOrderId, sentAt });
    expect(found).toMatchObject({ match: 'exact', order: { id: String(fake.book.orders.at(-1)?.id) } });
  });

  it('a failure beside an order id is no rejection: the order exists, an unknown outcome found by its clOrdId', async () => {
    const placing = input({ symbol: 'CLF27', action: 'buy', quantity: 1 });
    const sentAt = Date.now();
    fake.loseNextPlacement('OtherExecutionRelated', 'Execution report not received', true);
    const failed = await failure(broker.placeOrder(ctx, session, placing));
    expect(failed).toMatchObject({
      message: 'Tradovate: Execution report not received (OtherExecutionRelated)',
      outcomeUnknown: true,
      brokerOrderId: String(fake.book.orders.at(-1)?.id),
    });
    const found = await findOrder(broker, ctx, session, { accountId, clientOrderId: placing.clientOrderId, sentAt });
    expect(found).toMatchObject({ match: 'exact', order: { id: String(fake.book.orders.at(-1)?.id) } });
  });

  it("an order the exchange rejects after Tradovate took it is found rejected with the exchange's reason", async () => {
    const placed = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'ESZ6', action: 'buy', quantity: 1, limit_price: 5000 }),
    );
    const order = fake.book.orders.find((item) => String(item.id) === placed.id);
    if (!order) throw new Error('no order');
    fake.book.rejectAtExchange(order, 'OtherExecutionRelated', 'Price out of range');
    expect(await broker.findByBrokerId(ctx, session, accountId, placed.id)).toEqual({
      id: placed.id,
      status: 'rejected',
      status_description: 'Tradovate order Rejected: Price out of range (OtherExecutionRelated)',
    });
  });

  it('an HTTP 200 failureReason Unauthorized refuses that order, not the token (a refused token is a 401)', async () => {
    const place = () => broker.placeOrder(ctx, session, input({ symbol: 'ESZ6', action: 'buy', quantity: 1 }));
    fake.inject({
      path: '/v1/order/placeorder',
      status: 200,
      body: { failureReason: 'Unauthorized', failureText: 'Access is denied' },
    });
    expect(await failure(place())).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradovate: Access is denied (Unauthorized)',
    });
  });

  it('an order or cancel answered AccountClosed refuses it: one closed account, not the connection', async () => {
    // A closed user is refused at sign-in (userStatus); AccountClosed names the order's account,
    // and the connection's other accounts (demo and live) still trade.
    const place = () => broker.placeOrder(ctx, session, input({ symbol: 'ESZ6', action: 'buy', quantity: 1 }));
    fake.inject({ path: '/v1/order/placeorder', status: 200, body: { failureReason: 'AccountClosed' } });
    expect(await failure(place())).toMatchObject({ kind: 'InvalidOrder', message: 'Tradovate: AccountClosed' });
    fake.inject({ path: '/v1/order/cancelorder', status: 200, body: { failureReason: 'AccountClosed' } });
    const cancel = await failure(broker.cancelOrder(ctx, session, { accountId, brokerOrderId: '123' }));
    expect(cancel).toMatchObject({ kind: 'InvalidOrder', message: 'Tradovate: AccountClosed' });
  });

  it('a read answered HTTP 200 AccountClosed or "Access is denied" refuses that read, not the connection', async () => {
    fake.inject({ path: '/v1/position/list', status: 200, body: { errorText: 'Access is denied' } });
    expect(await failure(broker.getHoldings(ctx, session, accountId))).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradovate: Access is denied',
    });
    fake.inject({ path: '/v1/order/item', status: 200, body: { failureReason: 'AccountClosed' } });
    const lookup = await failure(broker.findByBrokerId(ctx, session, accountId, '123'));
    expect(lookup).toMatchObject({ kind: 'InvalidOrder', message: 'Tradovate: AccountClosed' });
  });

  it('a short penalty ticket is waited out and the order sent again with it: one order', async () => {
    fake.auth.penalize('/v1/order/placeorder', 1);
    const orders = fake.book.orders.length;
    const before = fake.submissions().length;
    const placed = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'ESZ6', action: 'sell', quantity: 1, limit_price: 6000 }),
    );
    const [first, second] = fake
      .submissions()
      .slice(before)
      .map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(second).toEqual({ ...first, 'p-ticket': expect.any(String) });
    expect(fake.book.orders.length).toBe(orders + 1);
    expect(placed.id).toBe(String(fake.book.orders.at(-1)?.id));
  });

  it('a penalty longer than an order waits, or the deadline, is reported and nothing is placed', async () => {
    const orders = fake.book.orders.length;
    fake.auth.penalize('/v1/order/placeorder', 15);
    const long = await failure(broker.placeOrder(ctx, session, input({ symbol: 'ESZ6', action: 'buy', quantity: 1 })));
    // The wait Tradovate asks for (p-time) is the caller's Retry-After.
    expect(long).toMatchObject({ kind: 'RateLimited', outcomeUnknown: false, retryAfter: '15' });
    fake.auth.penalize('/v1/order/placeorder', 1);
    const rushed = { ...ctx, signal: AbortSignal.timeout(600) };
    const cut = await failure(
      broker.placeOrder(rushed, session, input({ symbol: 'ESZ6', action: 'buy', quantity: 1 })),
    );
    expect(cut).toMatchObject({
      kind: 'RateLimited',
      message: 'Tradovate: too many requests; the 1 s wait Tradovate asks for outlasts the deadline',
      retryAfter: '1',
    });
    expect(fake.book.orders.length).toBe(orders);
  });

  it('an empty 429 (the block after repeated penalties) tells the caller to retry in about an hour', async () => {
    fake.inject({ path: '/v1/order/placeorder', status: 429 });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'ESZ6', action: 'buy', quantity: 1 })));
    expect(error).toMatchObject({ kind: 'RateLimited', outcomeUnknown: false, retryAfter: '3600' });
  });

  it.each([
    [423, undefined, 'RateLimited', false],
    [500, 'Internal error', 'BrokerUnavailable', true],
    [401, 'Access is denied', 'AuthenticationError', false],
  ] as const)('maps HTTP %i on an order', async (status, body, kind, outcomeUnknown) => {
    const before = fake.submissions().length;
    fake.inject({ path: '/v1/order/placeorder', status, ...(body ? { body } : {}) });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'ESZ6', action: 'buy', quantity: 1 })));
    expect(error).toMatchObject({ kind, outcomeUnknown });
    expect(error.message).toMatch(/^Tradovate: /);
    expect(fake.submissions().length).toBe(before + 1);
  });

  it('a timed-out order is not resent; findOrder finds it by its clOrdId', async () => {
    const before = fake.submissions().length;
    const orders = fake.book.orders.length;
    // The deadline passes as the order reaches Tradovate, which places it 400 ms later.
    const deadline = new AbortController();
    fake.inject({ path: '/v1/order/placeorder', delayMs: 400, onArrival: () => deadline.abort() });
    const placing = input({ symbol: 'ESZ6', action: 'buy', quantity: 1, limit_price: 5001 });
    const sentAt = Date.now();
    const error = await failure(broker.placeOrder({ ...ctx, signal: deadline.signal }, session, placing));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    await vi.waitFor(() => expect(fake.book.orders).toHaveLength(orders + 1), { timeout: 4_000 });
    expect(fake.submissions().length).toBe(before + 1);
    const found = await findOrder(broker, ctx, session, { accountId, clientOrderId: placing.clientOrderId, sentAt });
    expect(found).toEqual({
      match: 'exact',
      order: {
        id: String(fake.book.orders.at(-1)?.id),
        status: 'accepted',
        status_description: 'Tradovate order Working',
      },
    });
  });

  it('refuses an account not in the connection', async () => {
    const error = await failure(broker.getHoldings(ctx, session, '1'));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradovate: account 1 is not part of this connection',
    });
  });
});

describe('lookup', () => {
  it('by order id: exact with the fill price; an id Tradovate denies is unknown', async () => {
    const placed = await broker.placeOrder(ctx, session, input({ symbol: 'MESH27', action: 'buy', quantity: 1 }));
    expect(await findOrder(broker, ctx, session, { accountId, clientOrderId: 'x', brokerOrderId: placed.id })).toEqual({
      match: 'exact',
      order: { id: placed.id, status: 'filled', status_description: 'Tradovate order Filled', price: 5400 },
    });
    expect(await findOrder(broker, ctx, session, { accountId, clientOrderId: 'x', brokerOrderId: '1' })).toEqual({
      match: 'unknown',
      reason: 'Tradovate does not know its own order 1',
    });
  });

  it('by clOrdId: a New command naming an order Tradovate then does not show is unknown, never none', async () => {
    const placing = input({ symbol: 'MESH27', action: 'buy', quantity: 1 });
    const sentAt = Date.now();
    await broker.placeOrder(ctx, session, placing);
    // The command list proves the order was sent; its item is not shown (404): nothing is proved.
    fake.inject({ method: 'GET', path: '/v1/order/item', status: 404, body: 'Not found' });
    expect(
      await findOrder(broker, ctx, session, { accountId, clientOrderId: placing.clientOrderId, sentAt }),
    ).toMatchObject({ match: 'unknown' });
  });

  it('by clOrdId: none in this session; before the session nothing is proved', async () => {
    expect(
      await findOrder(broker, ctx, session, { accountId, clientOrderId: 'never-sent', sentAt: Date.now() }),
    ).toEqual({
      match: 'none',
    });
    const liquidation = normalizeOrderOrThrow(
      { symbol: 'ESZ6', action: 'close' },
      { provider: tradovateDescriptor, now: WRITTEN_AT },
    );
    expect(
      await findOrder(broker, ctx, session, {
        accountId,
        clientOrderId: 'never-sent',
        order: liquidation,
        sentAt: Date.now(),
      }),
    ).toMatchObject({ match: 'unknown' });
    const lastWeek = Date.now() - 7 * 24 * 60 * 60_000;
    expect(
      await findOrder(broker, ctx, session, { accountId, clientOrderId: 'never-sent', sentAt: lastWeek }),
    ).toMatchObject({
      match: 'unknown',
    });
  });
});

describe('cancel, close, holdings', () => {
  it('cancelOrder by id; a done order is TooLate; by our id alone it is not found', async () => {
    const placed = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'ESH7', action: 'buy', quantity: 1, limit_price: 5100 }),
    );
    await broker.cancelOrder(ctx, session, { accountId, brokerOrderId: placed.id });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', url: '/v1/order/cancelorder' });
    expect(fake.book.orders.find((o) => String(o.id) === placed.id)?.ordStatus).toBe('Canceled');
    const again = await failure(broker.cancelOrder(ctx, session, { accountId, brokerOrderId: placed.id }));
    expect(again).toMatchObject({ kind: 'InvalidOrder', message: 'Tradovate: Order is already Canceled (TooLate)' });
    const byOurs = await failure(broker.cancelOrder(ctx, session, { accountId, clientOrderId: 'sig1' }));
    expect(byOurs.kind).toBe('OrderNotFound');
  });

  it('cancel signals cancel the contract’s working orders', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'NQM27', action: 'buy', quantity: 1, limit_price: 15_000 }));
    const answer = await broker.placeOrder(ctx, session, input({ symbol: 'NQM27', action: 'cancel' }));
    expect(answer).toMatchObject({ status: 'canceled', status_description: 'Canceled 1 working order(s) of NQM7' });
    expect(await broker.placeOrder(ctx, session, input({ symbol: 'NQM27', action: 'cancel' }))).toMatchObject({
      id: '',
      status_description: 'No working orders of NQM7',
    });
  });

  it('a cancel signal that fails partway says which orders were canceled and which not', async () => {
    const limit = (price: number) => input({ symbol: 'NQM27', action: 'buy', quantity: 1, limit_price: price });
    const first = await broker.placeOrder(ctx, session, limit(15_000));
    const second = await broker.placeOrder(ctx, session, limit(15_001));
    // The first cancel goes through; the second is answered with a refusal.
    fake.inject({ path: '/v1/order/cancelorder', delayMs: 1 });
    fake.inject({ path: '/v1/order/cancelorder', status: 200, body: { failureReason: 'AccountClosed' } });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'NQM27', action: 'cancel' })));
    expect(error.outcomeUnknown).toBe(false);
    const status = (id: string) => fake.book.orders.find((o) => String(o.id) === id)?.ordStatus;
    const [done, left] = status(first.id) === 'Canceled' ? [first, second] : [second, first];
    expect(status(left.id)).toBe('Working');
    expect(error.message).toBe(
      `Tradovate: AccountClosed; of the open orders of NQM7, only some were canceled: ${done.id}; not ${left.id}: check them at the broker`,
    );
    await broker.placeOrder(ctx, session, input({ symbol: 'NQM27', action: 'cancel' }));
  });

  it('close: a part by an opposite market order, the rest by liquidation; none left is refused', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'CLG27', action: 'buy', quantity: 4 }));
    const part = await broker.placeOrder(ctx, session, input({ symbol: 'CLG27', action: 'close', quantity: 1 }));
    expect(part.status_description).toBe('Closing 1 of 4 CLG7');
    expect(lastBody()).toMatchObject({ action: 'Sell', orderQty: 1, orderType: 'Market', symbol: 'CLG7' });
    const holdings = await broker.getHoldings(ctx, session, accountId);
    expect(holdings.positions).toContainEqual({ symbol: 'CLG7', quantity: 3, averagePrice: 70 });
    const rest = await broker.closePosition(ctx, session, accountId, 'CLG27');
    expect(rest.status_description).toBe('Tradovate liquidates the CLG7 position (3)');
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', url: '/v1/order/liquidateposition' });
    const none = await failure(broker.placeOrder(ctx, session, input({ symbol: 'CLG27', action: 'close' })));
    expect(none).toMatchObject({ kind: 'InvalidOrder', message: 'Tradovate: no open position in CLG7' });
  });

  it('a partial close cuts the bracket exits to the contracts left (a stop never sells more than is held)', async () => {
    await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'CLJ27', action: 'buy', quantity: 3, take_profit_price: 90, stop_loss_price: 60 }),
    );
    const [, profit, loss] = fake.book.orders.slice(-3);
    const before = fake.requests.length;
    const part = await broker.placeOrder(ctx, session, input({ symbol: 'CLJ27', action: 'close', quantity: 2 }));
    expect(part.status_description).toBe(`Closing 2 of 3 CLJ7; exits cut to the 1 left: ${profit?.id}, ${loss?.id}`);
    expect([profit?.orderQty, loss?.orderQty]).toEqual([1, 1]);
    expect([profit?.ordStatus, loss?.ordStatus, profit?.price, loss?.stopPrice]).toEqual([
      'Working',
      'Working',
      90,
      60,
    ]);
    const modified = fake.requests.slice(before).filter((r) => r.url === '/v1/order/modifyorder');
    expect(modified.map((r) => JSON.parse(r.body ?? '{}'))).toEqual([
      { orderId: profit?.id, orderQty: 1, orderType: 'Limit', price: 90, timeInForce: 'GTC', isAutomated: true },
      { orderId: loss?.id, orderQty: 1, orderType: 'Stop', stopPrice: 60, timeInForce: 'GTC', isAutomated: true },
    ]);
    // Closing what is left leaves no exit working.
    const all = await broker.placeOrder(ctx, session, input({ symbol: 'CLJ27', action: 'close', quantity: 1 }));
    expect(all.status_description).toBe(`Closing 1 of 1 CLJ7; exits cut to none left: ${profit?.id}, ${loss?.id}`);
    expect([profit?.ordStatus, loss?.ordStatus]).toEqual(['Canceled', 'Canceled']);
  });

  it('a partial close whose exits cannot be cut stands, and says so', async () => {
    await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'CLK27', action: 'buy', quantity: 2, take_profit_price: 90, stop_loss_price: 60 }),
    );
    fake.inject({
      path: '/v1/order/modifyorder',
      status: 200,
      body: { failureReason: 'TooLate', failureText: 'Order is already Filled' },
    });
    const part = await broker.placeOrder(ctx, session, input({ symbol: 'CLK27', action: 'close', quantity: 1 }));
    expect(part.status).toBe('accepted');
    expect(part.status_description).toMatch(/^Closing 1 of 2 CLK7; the open exits could not be cut to the 1 left \(/);
    await broker.closePosition(ctx, session, accountId, 'CLK27');
  });

  it('close with percent_of_position never rounds the contracts up', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'CLH27', action: 'buy', quantity: 3 }));
    // 50 % of 3 contracts is 1.5: one contract is closed, not two (two would be 67 % of the position).
    const part = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'CLH27', action: 'close', quantity: 50, quantity_type: 'percent_of_position' }),
    );
    expect(lastBody()).toMatchObject({ action: 'Sell', orderQty: 1, orderType: 'Market' });
    expect(part.status_description).toBe('Closing 1 of 3 CLH7');
    await broker.closePosition(ctx, session, accountId, 'CLH27');
  });

  it('close with percent_of_position under one contract is refused, not rounded up to one, and sends nothing', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'CLH27', action: 'buy', quantity: 1 }));
    const sent = fake.requests.length;
    // 50 % of 1 contract: rounded up to 1, the close would take all of it (100 %).
    const refused = await failure(
      broker.placeOrder(
        ctx,
        session,
        input({ symbol: 'CLH27', action: 'close', quantity: 50, quantity_type: 'percent_of_position' }),
      ),
    );
    expect(refused).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Tradovate: 50 % of the CLH7 position of 1 is less than one contract',
    });
    expect(fake.requests.slice(sent).filter((r) => r.method === 'POST' && r.url.includes('/order/'))).toEqual([]);
    await broker.closePosition(ctx, session, accountId, 'CLH27');
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  it.each([
    [
      { symbol: 'ESZ6', action: 'buy', quantity: 1.5 },
      'Tradovate: quantity must be a whole number of contracts, not 1.5',
    ],
    [
      { symbol: 'AAPL', action: 'buy', quantity: 1 },
      'Tradovate: AAPL is not a futures contract; give one as ESZ2026 or ES1!',
    ],
    [
      {
        legs: [
          { symbol: 'ESH7', action: 'buy', quantity: 1, limit_price: 5300 },
          { symbol: 'NQH7', action: 'sell', quantity: 1, limit_price: 19500 },
        ],
        group: 'oco',
      },
      'Tradovate: both legs of a one-cancels-other pair trade the same contract and quantity',
    ],
    [
      { symbol: 'ZZ1!', action: 'close', quantity: 1.5 },
      'Tradovate: close takes whole contracts or percent_of_position',
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
    expect(() =>
      broker.checkOrder(input({ symbol: 'ES1!', action: 'buy', quantity: 1, limit_price: 5000 })),
    ).not.toThrow();
    expect(() =>
      broker.checkOrder(
        input({ symbol: 'CLG27', action: 'close', quantity: 50, quantity_type: 'percent_of_position' }),
      ),
    ).not.toThrow();
    expect(() => broker.checkOrder(input({ symbol: 'NQM27', action: 'cancel' }))).not.toThrow();
  });
});
