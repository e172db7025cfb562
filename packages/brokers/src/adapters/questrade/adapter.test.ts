// Contract: every order form the descriptor claims reaches the fake as Questrade takes it
// (symbolIds looked up and kept), HTTP 200 rejections, the trading-access refusal, no order sent
// twice, an order found again by its id or its terms (exact, probable, none, unknown), preview,
// cancel, close and holdings.
import { normalizeOrderOrThrow } from '@router/orders';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrokerContext, BrokerSession, PlaceOrderInput } from '../../core/broker.ts';
import { brokerFailure as failure } from '../../core/expect-failure.ts';
import { findOrder } from '../../core/find-order.ts';
import { parseRetryAfter } from '../../core/http-errors.ts';
import { WRITTEN_AT } from '../../core/test-clock.ts';
import { createQuestradeBroker } from './adapter.ts';
import { questradeDescriptor } from './descriptor.ts';
import { type QuestradeFake, startQuestradeFake } from './fake.ts';
import { questradeTime } from './fake-rules.ts';

const broker = createQuestradeBroker();
let fake: QuestradeFake;
let ctx: BrokerContext;
let session: BrokerSession;
const accountId = '26598145';

beforeAll(async () => {
  fake = await startQuestradeFake({ accounts: [{ number: accountId, type: 'Margin', cash: 200_000 }] });
  ctx = { baseUrl: fake.url, clientId: fake.clientId, redirectUrl: 'https://router.example/callback/questrade' };
  session = await broker.connect(ctx, { credentials: { code: fake.issueCode(ctx.redirectUrl ?? '') } });
});
afterAll(() => fake.close());
afterEach(() => fake.clearInjections());

let sequence = 0;
function input(signal: Record<string, unknown>, clientOrderId = `sig${++sequence}`): PlaceOrderInput {
  return {
    accountId,
    clientOrderId,
    order: normalizeOrderOrThrow(signal, { provider: questradeDescriptor, now: WRITTEN_AT }),
  };
}
const lastBody = () => JSON.parse(fake.submissions().at(-1)?.body ?? '{}') as Record<string, unknown>;
const since = (before: number) => fake.requests.slice(before).map((r) => `${r.method} ${r.url.split('?')[0]}`);
/** An OCC symbol the fake's chain lists: the nearest expiry, at `strike`. */
function option(root: string, right: 'C' | 'P', strike: number): string {
  const listed = fake.symbols.symbols.find(
    (s) => s.underlying?.root === root && s.underlying.right === right && s.underlying.strike === strike,
  );
  const expiry = listed?.underlying?.expiry.replace(/-/g, '').slice(2) ?? '';
  return `${root.padEnd(6)}${expiry}${right}${String(strike * 1000).padStart(8, '0')}`;
}
const optionId = (root: string, right: 'C' | 'P', strike: number) =>
  fake.symbols.symbols.find(
    (s) => s.underlying?.root === root && s.underlying.right === right && s.underlying.strike === strike,
  )?.symbolId;

describe('orders', () => {
  it('looks a symbol up once, then places by symbolId', async () => {
    // Two days on, past any symbolId another test had kept (a day): this one is looked up anew.
    const later = { ...ctx, now: () => Date.now() + 2 * 24 * 60 * 60_000 };
    const before = fake.requests.length;
    const first = await broker.placeOrder(later, session, input({ symbol: 'MSFT', action: 'buy', quantity: 1 }));
    expect(since(before)).toEqual(['GET /v1/symbols/search', 'POST /v1/accounts/26598145/orders']);
    expect(first).toMatchObject({ status: 'accepted', status_description: 'Questrade order Pending' });
    const again = fake.requests.length;
    await broker.placeOrder(later, session, input({ symbol: 'MSFT', action: 'buy', quantity: 1 }));
    expect(since(again)).toEqual(['POST /v1/accounts/26598145/orders']);
    expect(lastBody()).toMatchObject({ symbolId: 27426, orderType: 'Market', timeInForce: 'Day', action: 'Buy' });
  });

  it('an option by its OCC symbol: the chain gives its symbolId', async () => {
    const symbol = option('AAPL', 'C', 200);
    await broker.placeOrder(ctx, session, input({ symbol, action: 'buy_to_open', quantity: 2, limit_price: 5.1 }));
    expect(lastBody()).toMatchObject({
      symbolId: optionId('AAPL', 'C', 200),
      quantity: 2,
      limitPrice: 5.1,
      action: 'Buy',
    });
    const missing = await failure(
      broker.placeOrder(
        ctx,
        session,
        input({ symbol: option('AAPL', 'C', 200).replace('00200000', '00201000'), action: 'buy_to_open', quantity: 1 }),
      ),
    );
    expect(missing.message).toMatch(/^Questrade: no AAPL \d{4}-\d{2}-\d{2} 201 C option is listed$/);
  });

  it('an option’s price goes on the cent under $1 too, never past the trader’s; under a cent it is refused', async () => {
    const symbol = option('AAPL', 'C', 200);
    const place = (action: string, limit_price: number) =>
      broker.placeOrder(ctx, session, input({ symbol, action, quantity: 1, limit_price }));
    // A buy's limit rounded down, a sell's up: 0.555 is no option price.
    for (const [action, limit, sent] of [
      ['buy_to_open', 0.555, 0.55],
      ['sell_to_open', 0.555, 0.56],
    ] as const) {
      const placed = await place(action, limit);
      expect([placed.status, lastBody().limitPrice]).toEqual(['accepted', sent]);
    }
    const before = fake.submissions().length;
    const tiny = await failure(place('buy_to_open', 0.004));
    expect([tiny.kind, tiny.message]).toEqual([
      'InvalidOrder',
      'Questrade: price 0.004 is less than one tick (0.01): it would be 0',
    ]);
    expect(fake.submissions()).toHaveLength(before);
  });

  it('a strategy: legs by symbolId on the underlying, quantities factorised', async () => {
    const placed = await broker.placeOrder(
      ctx,
      session,
      input({
        legs: [
          { symbol: option('SPY', 'C', 600), action: 'buy_to_open', quantity: 2 },
          { symbol: option('SPY', 'C', 615), action: 'sell_to_open', quantity: 4 },
        ],
        type: 'limit',
        limit_price: -1.25,
        duration: 'day',
      }),
    );
    expect(fake.submissions().at(-1)?.url).toBe('/v1/accounts/26598145/orders/strategy');
    expect(lastBody()).toEqual({
      accountNumber: accountId,
      symbolId: 34987,
      strategy: 'Custom',
      orderType: 'Limit',
      timeInForce: 'Day',
      limitPrice: -1.25,
      quantity: 2,
      legs: [
        { symbolId: optionId('SPY', 'C', 600), action: 'Buy', legQuantity: 1 },
        { symbolId: optionId('SPY', 'C', 615), action: 'Sell', legQuantity: 2 },
      ],
      primaryRoute: 'AUTO',
      secondaryRoute: 'AUTO',
    });
    expect(placed.status).toBe('accepted');
    const mixed = await failure(
      broker.placeOrder(
        ctx,
        session,
        input({
          legs: [
            { symbol: option('SPY', 'C', 600), action: 'buy_to_open', quantity: 1 },
            { symbol: option('AAPL', 'C', 200), action: 'sell_to_open', quantity: 1 },
          ],
        }),
      ),
    );
    expect(mixed.message).toBe('Questrade: all legs of a strategy share one underlying');
  });

  it('a strategy’s net price goes on the cent, never past the trader’s; a debit under a cent is refused', async () => {
    const spread = (limit_price: number) =>
      input({
        legs: [
          { symbol: option('SPY', 'C', 600), action: 'buy_to_open', quantity: 1 },
          { symbol: option('SPY', 'C', 615), action: 'sell_to_open', quantity: 1 },
        ],
        type: 'limit',
        limit_price,
        duration: 'day',
      });
    // A credit received no less (-1.255 → -1.26), a debit paid no more (2.345 → 2.34).
    for (const [net, sent] of [
      [-1.255, -1.26],
      [2.345, 2.34],
    ] as const) {
      const placed = await broker.placeOrder(ctx, session, spread(net));
      expect([placed.status, lastBody().limitPrice]).toEqual(['accepted', sent]);
    }
    const before = fake.submissions().length;
    const tiny = await failure(broker.placeOrder(ctx, session, spread(0.004)));
    expect([tiny.kind, tiny.message]).toEqual([
      'InvalidOrder',
      'Questrade: limit_price 0.004 is less than one tick (0.01): it would be 0',
    ]);
    expect(fake.submissions()).toHaveLength(before);
  });

  it('a bracket: the entry executes, its exits become working orders', async () => {
    const placed = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'AAPL', action: 'buy', quantity: 3, take_profit_price: 220, stop_loss_price: 180 }),
    );
    const [entry, profit, loss] = fake.book.records.slice(-3);
    expect(placed).toEqual({
      id: String(entry?.id),
      status: 'accepted',
      status_description: 'Questrade order Accepted',
    });
    expect([entry?.orderClass, profit?.orderClass, loss?.orderClass]).toEqual(['Primary', 'Limit', 'StopLoss']);
    expect([entry?.state, profit?.state, loss?.state]).toEqual(['Executed', 'Accepted', 'Accepted']);
  });

  it('prices from $1 up go on the cent, never past the trader’s (exits by their side); under $1 as given', async () => {
    const sent = async (signal: Record<string, unknown>) => {
      await broker.placeOrder(ctx, session, input(signal));
      return JSON.parse(fake.submissions().at(-1)?.body ?? '{}') as Record<string, unknown>;
    };
    expect(await sent({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 101 * 1.001 })).toMatchObject({
      limitPrice: 101.1,
    });
    const bracket = { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 100.004 };
    const { components } = (await sent({ ...bracket, take_profit_price: 110.005, stop_loss_price: 95.005 })) as {
      components: Array<Record<string, unknown>>;
    };
    // The exits sell: a take profit no lower than asked, a stop loss that triggers no lower.
    expect(components.map((c) => c.limitPrice ?? c.stopPrice)).toEqual([100, 110.01, 95.01]);
    expect(await sent({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 0.4551 })).toMatchObject({
      limitPrice: 0.4551,
    });
  });

  it('refuses what Questrade cannot take before sending', async () => {
    const before = fake.submissions().length;
    const half = await failure(
      broker.placeOrder(ctx, session, input({ symbol: 'AAPL', action: 'buy', quantity: 0.5 })),
    );
    expect(half.message).toBe('Questrade: quantity must be a whole number, not 0.5');
    const unknown = await failure(
      broker.placeOrder(ctx, session, input({ symbol: 'NOPE', action: 'buy', quantity: 1 })),
    );
    expect(unknown).toMatchObject({ kind: 'InvalidOrder', message: 'Questrade: unknown symbol NOPE' });
    expect(() => input({ symbol: 'ESZ2026', action: 'buy', quantity: 1 })).toThrow(/future is not supported/);
    expect(() => input({ symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'opg' })).toThrow(
      /opg is not supported/,
    );
    expect(fake.submissions().length).toBe(before);
  });

  it('preview asks /impact and places nothing', async () => {
    const placed = fake.book.records.length;
    const draft = await broker.previewOrder(
      ctx,
      session,
      input({ symbol: 'AAPL', action: 'buy', quantity: 10, limit_price: 150 }),
    );
    expect(draft).toEqual({
      id: `sig${sequence}`,
      status: 'draft',
      status_description: 'Questrade estimate: commissions 4.95, buying power effect -1500; nothing placed',
    });
    expect(fake.requests.at(-1)?.url).toBe('/v1/accounts/26598145/orders/impact');
    expect(fake.book.records.length).toBe(placed);
  });
});

describe('errors', () => {
  it('an order created and rejected (HTTP 200 with a code) is rejected with its id, sent once', async () => {
    const before = fake.submissions().length;
    const answer = await broker.placeOrder(ctx, session, input({ symbol: 'SPY', action: 'buy', quantity: 10_000 }));
    expect(answer).toEqual({
      id: String(fake.book.records.at(-1)?.id),
      status: 'rejected',
      status_description: 'Order rejected: Insufficient buying power',
    });
    expect(fake.submissions().length).toBe(before + 1);
  });

  it('a code beside an order id is no rejection unless the order record says so', async () => {
    const path = '/v1/accounts/26598145/orders';
    const body = { code: 3054, message: 'Order rejected', orderId: 177106005 };
    const live = { id: 177106005, symbol: 'AAPL', symbolId: 8049, state: 'Accepted', source: 'TradingAPI' };
    fake.inject({ method: 'POST', path, status: 200, body: { ...body, orders: [live] } });
    expect(await broker.placeOrder(ctx, session, input({ symbol: 'AAPL', action: 'buy', quantity: 1 }))).toEqual({
      id: '177106005',
      status: 'accepted',
      status_description: 'Order rejected; Questrade order Accepted',
    });
    fake.inject({ method: 'POST', path, status: 200, body: { ...body, orders: [] } });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'AAPL', action: 'buy', quantity: 1 })));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true, brokerOrderId: '177106005' });
    expect(error.message).toBe('Questrade: Order rejected (order 177106005, its state not given)');
  });

  it('a malformed special instruction is refused before sending', async () => {
    const error = await failure(
      broker.placeOrder(
        ctx,
        session,
        input({ symbol: 'AAPL', action: 'buy', quantity: 1, extra: { iceberg_quantity: 0 } }),
      ),
    );
    expect(error.message).toBe('Questrade: extra.iceberg_quantity must be a whole number');
  });

  it('without trading access every order is refused, saying why', async () => {
    const readOnly = await startQuestradeFake({ tradingAccess: false });
    try {
      const c = { ...ctx, baseUrl: readOnly.url, clientId: readOnly.clientId };
      const s = await broker.connect(c, { credentials: { code: readOnly.issueCode(c.redirectUrl ?? '') } });
      const error = await failure(broker.placeOrder(c, s, input({ symbol: 'AAPL', action: 'buy', quantity: 1 })));
      expect(error.kind).toBe('InvalidOrder');
      expect(error.message).toMatch(
        /needs Questrade partner \(trading\) access for this app; personal apps are read-only$/,
      );
      expect(readOnly.placed()).toBe(0);
    } finally {
      await readOnly.close();
    }
  });

  it('a 403 on the symbol lookup (market data) refuses that order, not the connection', async () => {
    // Past any symbolId another test had kept (a day): the lookup is made.
    const later = { ...ctx, now: () => Date.now() + 3 * 24 * 60 * 60_000 };
    const placed = fake.submissions().length;
    fake.inject({
      path: '/v1/symbols/search',
      method: 'GET',
      status: 403,
      body: { code: 1018, message: 'Forbidden. Access is denied' },
    });
    const error = await failure(
      broker.placeOrder(later, session, input({ symbol: 'AAPL', action: 'buy', quantity: 1 })),
    );
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Questrade: market data refused: Forbidden. Access is denied',
    });
    expect(fake.submissions().length).toBe(placed);
  });

  it('a 403 on a read of one account (its positions) refuses that read, not the connection (a 401 would)', async () => {
    fake.inject({
      path: `/v1/accounts/${accountId}/positions`,
      method: 'GET',
      status: 403,
      body: { code: 1018, message: 'Forbidden. Access is denied' },
    });
    const error = await failure(broker.getHoldings(ctx, session, accountId));
    expect(error).toMatchObject({ kind: 'InvalidOrder', message: 'Questrade: Forbidden. Access is denied' });
  });

  it('a 429 tells when Questrade’s window resets (X-RateLimit-Reset), as the error’s Retry-After too', async () => {
    const reset = Math.floor(Date.now() / 1000) + 42;
    fake.inject({
      path: `/v1/accounts/${accountId}/orders`,
      method: 'POST',
      status: 429,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
      body: { code: 1006, message: 'Too many requests' },
    });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'MSFT', action: 'buy', quantity: 1 })));
    expect(error).toMatchObject({
      kind: 'RateLimited',
      outcomeUnknown: false,
      message: `Questrade: rate limit reached; Questrade resets it at ${new Date(reset * 1000).toISOString()}`,
    });
    expect(parseRetryAfter(error.retryAfter)).toEqual({ at: reset * 1000 });
  });

  it('a timed-out order is not resent; its terms find it again (probable)', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'TD.TO', action: 'sell', quantity: 7, limit_price: 90 }));
    const before = fake.submissions().length;
    const held = fake.book.records.length;
    // The deadline passes as the order reaches Questrade, which places it 400 ms later.
    const deadline = new AbortController();
    fake.inject({
      path: '/v1/accounts/26598145/orders',
      method: 'POST',
      delayMs: 400,
      onArrival: () => deadline.abort(),
    });
    const placing = input({ symbol: 'TD.TO', action: 'buy', quantity: 7, limit_price: 81.5 });
    const sentAt = Date.now();
    const error = await failure(broker.placeOrder({ ...ctx, signal: deadline.signal }, session, placing));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    await vi.waitFor(() => expect(fake.book.records).toHaveLength(held + 1), { timeout: 4_000 });
    expect(fake.submissions().length).toBe(before + 1);
    const found = await findOrder(broker, ctx, session, {
      accountId,
      clientOrderId: placing.clientOrderId,
      order: placing.order,
      sentAt,
    });
    expect(found).toEqual({
      match: 'probable',
      order: {
        id: String(fake.book.records.at(-1)?.id),
        status: 'accepted',
        status_description: 'Questrade order Accepted',
      },
    });
  });

  it('refuses an account not in the connection', async () => {
    const error = await failure(broker.getHoldings(ctx, session, '999'));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Questrade: account 999 is not part of this connection',
    });
  });
});

describe('lookup', () => {
  it('by id: exact; by terms: none when nothing matches, unknown when several do', async () => {
    const signal = { symbol: 'AAPL', action: 'buy', quantity: 4, limit_price: 101 };
    const first = await broker.placeOrder(ctx, session, input(signal));
    expect(await findOrder(broker, ctx, session, { accountId, clientOrderId: 'x', brokerOrderId: first.id })).toEqual({
      match: 'exact',
      order: { id: first.id, status: 'accepted', status_description: 'Questrade order Accepted' },
    });
    const sentAt = Date.now();
    const other = input({ ...signal, quantity: 5 });
    expect(
      await findOrder(broker, ctx, session, { accountId, clientOrderId: 'y', order: other.order, sentAt }),
    ).toEqual({
      match: 'none',
    });
    await broker.placeOrder(ctx, session, input(signal));
    const twice = await findOrder(broker, ctx, session, {
      accountId,
      clientOrderId: 'z',
      order: input(signal).order,
      sentAt,
    });
    expect(twice).toMatchObject({ match: 'unknown', reason: expect.stringMatching(/^2 orders at Questrade match/) });
  });

  it('by terms long after the send: the orders are read up to now, not to the window end', async () => {
    const placing = input({ symbol: 'AAPL', action: 'buy', quantity: 9, limit_price: 99 });
    const sentAt = Date.now();
    const placed = await broker.placeOrder(ctx, session, placing);
    // 20 minutes on: should Questrade filter by updateTime, an order filled since is listed only up to now.
    const later = sentAt + 20 * 60_000;
    const found = await findOrder(broker, { ...ctx, now: () => later }, session, {
      accountId,
      clientOrderId: placing.clientOrderId,
      order: placing.order,
      sentAt,
    });
    expect(found).toMatchObject({ match: 'probable', order: { id: placed.id } });
    const listing = fake.requests.filter(
      (r) => r.method === 'GET' && r.url.startsWith(`/v1/accounts/${accountId}/orders?`),
    );
    const query = new URL(listing.at(-1)?.url ?? '', 'http://fake').searchParams;
    expect([query.get('startTime'), query.get('endTime')]).toEqual([
      new Date(sentAt - 60_000).toISOString(),
      new Date(later).toISOString(),
    ]);
    await broker.cancelOrder(ctx, session, { accountId, brokerOrderId: placed.id });
  });

  it('by terms, a strategy is ours only with the same legs in the same directions and ratios', async () => {
    const strategy = (buy: number, sell: number, buyQuantity: number, sellQuantity: number) =>
      input({
        legs: [
          { symbol: option('MSFT', 'P', buy), action: 'buy_to_open', quantity: buyQuantity },
          { symbol: option('MSFT', 'P', sell), action: 'sell_to_open', quantity: sellQuantity },
        ],
        type: 'limit',
        limit_price: 1.1,
        duration: 'day',
      });
    const sentAt = Date.now();
    const placing = strategy(400, 390, 1, 1);
    const placed = await broker.placeOrder(ctx, session, placing);
    const lookup = { accountId, clientOrderId: placing.clientOrderId, sentAt };
    expect(await findOrder(broker, ctx, session, { ...lookup, order: placing.order })).toMatchObject({
      match: 'probable',
      order: { id: String(fake.book.records.at(-1)?.id) },
    });
    // The same two puts and price, but the other way round, one against two, or twice as many: not ours.
    for (const other of [strategy(390, 400, 1, 1), strategy(400, 390, 1, 2), strategy(400, 390, 2, 2)]) {
      expect(await findOrder(broker, ctx, session, { ...lookup, order: other.order })).toEqual({ match: 'none' });
    }
    // Left open it would be among the MSFT orders another test cancels.
    await broker.cancelOrder(ctx, session, { accountId, brokerOrderId: placed.id });
  });

  it('by terms: found when Questrade lists a sell as Short or a buy as Cov, so a lost order is not sent again', async () => {
    const signals = [
      // Nothing held: Questrade lists this sell as Short (it executes: the account is short 3).
      { symbol: 'TD.TO', action: 'sell', quantity: 3 },
      // A buy while short is listed as Cov.
      { symbol: 'TD.TO', action: 'buy', quantity: 2, limit_price: 70 },
    ];
    const sides: unknown[] = [];
    for (const signal of signals) {
      const sentAt = Date.now();
      const placing = input(signal);
      await broker.placeOrder(ctx, session, placing);
      const listed = fake.book.records.at(-1);
      sides.push(listed?.side);
      const found = await findOrder(broker, ctx, session, {
        accountId,
        clientOrderId: placing.clientOrderId,
        order: placing.order,
        sentAt,
      });
      expect(found).toMatchObject({ match: 'probable', order: { id: String(listed?.id) } });
    }
    expect(sides).toEqual(['Short', 'Cov']);
  });
});

describe('cancel, close, holdings', () => {
  it('cancelOrder by id; cancel signals cancel the symbol’s open orders', async () => {
    const placed = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 300 }),
    );
    await broker.cancelOrder(ctx, session, { accountId, brokerOrderId: placed.id });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', url: `/v1/accounts/26598145/orders/${placed.id}` });
    const again = await failure(broker.cancelOrder(ctx, session, { accountId, brokerOrderId: placed.id }));
    expect(again).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Questrade: Order cannot be canceled in state Canceled',
    });
    await broker.placeOrder(ctx, session, input({ symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 301 }));
    const answer = await broker.placeOrder(ctx, session, input({ symbol: 'MSFT', action: 'cancel' }));
    expect(answer).toMatchObject({ status: 'canceled', status_description: 'Canceled 1 open order(s) of MSFT' });
  });

  it('a cancel signal that fails partway says which orders were canceled and which not, and when that is unsure', async () => {
    const limit = (price: number) => input({ symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: price });
    const orders = [];
    for (const price of [290, 291, 292]) orders.push(await broker.placeOrder(ctx, session, limit(price)));
    const [first, second, third] = orders.map((order) => order.id);
    const path = `/v1/accounts/26598145/orders/${second}`;
    fake.inject({ method: 'DELETE', path, status: 503, body: { code: 1002, message: 'Service unavailable' } });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'MSFT', action: 'cancel' })));
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toBe(
      `Questrade: Service unavailable; of the open orders of MSFT, only some were canceled: ${first}; ${second} perhaps (its cancel's outcome unknown), not ${third}: check them at the broker`,
    );
    const again = await broker.placeOrder(ctx, session, input({ symbol: 'MSFT', action: 'cancel' }));
    expect(again).toMatchObject({ status: 'canceled', status_description: 'Canceled 2 open order(s) of MSFT' });
  });

  it('a cancel signal passes over an order the open list shows already canceled or executed: no failed cancel', async () => {
    const limit = (price: number) => input({ symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: price });
    const open = await broker.placeOrder(ctx, session, limit(280));
    const gone = await broker.placeOrder(ctx, session, limit(281));
    await broker.cancelOrder(ctx, session, { accountId, brokerOrderId: gone.id });
    // Questrade's Open filter still lists the one just canceled (and an executed one).
    const listed = (id: string) => structuredClone(fake.book.records.find((item) => String(item.id) === id));
    const executed = { ...listed(open.id), id: 1, state: 'Executed', openQuantity: 0, filledQuantity: 1 };
    const path = '/v1/accounts/26598145/orders';
    fake.inject({ method: 'GET', path, status: 200, body: { orders: [listed(gone.id), executed, listed(open.id)] } });
    const before = fake.requests.length;
    const answer = await broker.placeOrder(ctx, session, input({ symbol: 'MSFT', action: 'cancel' }));
    expect(answer).toEqual({
      id: open.id,
      status: 'canceled',
      status_description: 'Canceled 1 open order(s) of MSFT',
    });
    expect(since(before).filter((call) => call.startsWith('DELETE'))).toEqual([`DELETE ${path}/${open.id}`]);
  });

  it('a close of the whole position cancels the symbol’s open orders first; a close of part keeps them', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'TD.TO', action: 'buy', quantity: 10 }));
    const stop = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'TD.TO', action: 'sell', quantity: 10, type: 'stop', stop_price: 50 }),
    );
    const deletes = () => fake.requests.filter((r) => r.method === 'DELETE').map((r) => r.url);
    const before = deletes().length;
    await broker.placeOrder(ctx, session, input({ symbol: 'TD.TO', action: 'close', quantity: 4 }));
    expect(deletes().slice(before)).toEqual([]);
    // Kept, for what is left (replaced by an order of the same chain).
    const kept = fake.book.records.find((item) => item.chainId === Number(stop.id) && item.state === 'Accepted');
    expect(kept).toMatchObject({ orderType: 'Stop', stopPrice: 50 });
    // Left working after the close, the stop would sell shares no longer held.
    await broker.placeOrder(ctx, session, input({ symbol: 'TD.TO', action: 'close' }));
    // (with it, the symbol's other open orders, which other tests may have left)
    expect(deletes().slice(before)).toContain(`/v1/accounts/26598145/orders/${kept?.id}`);
  });

  it('a close refused after the open orders were canceled for it says so: the position is still open, its exits gone', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'AAPL', action: 'buy', quantity: 3 }));
    const stop = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'AAPL', action: 'sell', quantity: 3, type: 'stop', stop_price: 60 }),
    );
    const path = '/v1/accounts/26598145/orders';
    fake.inject({ method: 'POST', path, status: 400, body: { code: 1019, message: 'Market is closed' } });
    const error = await failure(broker.placeOrder(ctx, session, input({ symbol: 'AAPL', action: 'close' })));
    expect(error).toMatchObject({ kind: 'InvalidOrder', outcomeUnknown: false });
    // (with it, the symbol's other open orders, which other tests may have left)
    expect(error.message).toMatch(
      /^Questrade: Market is closed; the open orders of AAPL were canceled before the close \(.+\): check the position and its exits at the broker$/,
    );
    expect(error.message).toContain(stop.id);
  });

  it('a close of the whole position cancels the open orders of earlier days too', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'SPY', action: 'buy', quantity: 5 }));
    const stop = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'SPY', action: 'sell', quantity: 5, type: 'stop', stop_price: 500, duration: 'gtc' }),
    );
    // Placed three days ago: Questrade lists only today's orders unless told a start (WIRE.md §6).
    const record = fake.book.records.find((item) => String(item.id) === stop.id);
    if (record) record.creationTime = questradeTime(Date.now() - 3 * 24 * 60 * 60_000);
    await broker.placeOrder(ctx, session, input({ symbol: 'SPY', action: 'close' }));
    // Left working, the stop would sell 5 shares no longer held once triggered (a short).
    expect(record?.state).toBe('Canceled');
  });

  it('a close of part replaces the exits larger than what is left with ones for what is left', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'SPY', action: 'buy', quantity: 10 }));
    const stop = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'SPY', action: 'sell', quantity: 10, type: 'stop', stop_price: 500, duration: 'gtc' }),
    );
    const small = await broker.placeOrder(
      ctx,
      session,
      input({ symbol: 'SPY', action: 'sell', quantity: 3, limit_price: 700 }),
    );
    const answer = await broker.placeOrder(ctx, session, input({ symbol: 'SPY', action: 'close', quantity: 4 }));
    const record = (id: string) => fake.book.records.find((item) => String(item.id) === id);
    // Left at 10, the stop would sell 4 shares more than the 6 held once triggered (a short).
    expect([record(stop.id)?.state, record(small.id)?.state]).toEqual(['Replaced', 'Accepted']);
    const replacing = fake.book.records.at(-1);
    expect(replacing).toMatchObject({
      state: 'Accepted',
      chainId: Number(stop.id),
      side: 'Sell',
      totalQuantity: 6,
      orderType: 'Stop',
      stopPrice: 500,
      timeInForce: 'GoodTillCanceled',
    });
    expect(answer.status_description).toBe(
      `Closing 4 of 10 SPY: Questrade order Pending; exits cut to the 6 left: ${stop.id} → ${replacing?.id}`,
    );
    await broker.placeOrder(ctx, session, input({ symbol: 'SPY', action: 'close' }));
  });

  it('close sends a market order for the position or a part; holdings list it', async () => {
    await broker.placeOrder(ctx, session, input({ symbol: 'SPY', action: 'buy', quantity: 6 }));
    const part = await broker.placeOrder(ctx, session, input({ symbol: 'SPY', action: 'close', quantity: 2 }));
    expect(part.status_description).toBe('Closing 2 of 6 SPY: Questrade order Pending');
    expect(lastBody()).toMatchObject({ symbolId: 34987, quantity: 2, orderType: 'Market', action: 'Sell' });
    const holdings = await broker.getHoldings(ctx, session, accountId);
    expect(holdings.positions).toContainEqual({ symbol: 'SPY', quantity: 4, averagePrice: 600, marketValue: 2400 });
    expect(holdings).toMatchObject({ currency: 'CAD', cash: expect.any(Number), buyingPower: expect.any(Number) });
    await broker.closePosition(ctx, session, accountId, 'SPY');
    expect(lastBody()).toMatchObject({ quantity: 4, action: 'Sell' });
    const none = await failure(broker.closePosition(ctx, session, accountId, 'SPY'));
    expect(none).toMatchObject({ kind: 'InvalidOrder', message: 'Questrade: no open position in SPY' });
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  it.each([
    [{ symbol: 'NOPE', action: 'buy', quantity: 0.5 }, 'Questrade: quantity must be a whole number, not 0.5'],
    [
      {
        legs: [
          { symbol: 'SPY   261218C00600000', action: 'buy_to_open', quantity: 1 },
          { symbol: 'AAPL  261218C00200000', action: 'sell_to_open', quantity: 1 },
        ],
      },
      'Questrade: all legs of a strategy share one underlying',
    ],
    [
      { symbol: 'NOPE', class: 'option', action: 'buy_to_open', quantity: 1 },
      'Questrade: NOPE is not an option symbol (OCC form)',
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
      broker.checkOrder(input({ symbol: 'AAPL', action: 'buy', quantity: 3, stop_loss_price: 180 })),
    ).not.toThrow();
    expect(() => broker.checkOrder(input({ symbol: 'AAPL', action: 'close', quantity: 1 }))).not.toThrow();
    expect(() => broker.checkOrder(input({ symbol: 'AAPL', action: 'cancel' }))).not.toThrow();
  });
});
