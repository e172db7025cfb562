// Robinhood orders found again through core/find-order.ts (by Robinhood's id; by ours in the
// list of recent orders, page after page), cancels, and every error class: refusals, funds,
// authentication, a lost answer (never resent), and the rate limit on both sides.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { findOrder } from '../../core/find-order.ts';
import { createRobinhoodBroker } from './adapter.ts';
import { type RobinhoodFake, startRobinhoodFake } from './fake.ts';
import { createRateLimiter } from './rate-limit.ts';
import { failure, toOrder } from './test-support.ts';

const V1 = '987654321';
const BUY = { symbol: 'BTC-USD', action: 'buy', quantity: 0.001 };
let fake: RobinhoodFake;
let ctx: BrokerContext;
let session: BrokerSession;
const broker = createRobinhoodBroker();

beforeAll(async () => {
  fake = await startRobinhoodFake({ pageSize: 2 });
  ctx = { baseUrl: fake.url };
  session = await broker.connect(ctx, { credentials: fake.credentials });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.clearInjections();
  // The 429 case empties the bucket: the cases after it (in any order) start with a full one.
  fake.refillRateLimit();
});

const place = (signal: Record<string, unknown>, clientOrderId: string, call = ctx) =>
  broker.placeOrder(call, session, { accountId: V1, order: toOrder(signal), clientOrderId });
const submissions = () =>
  fake.requests.filter((r) => r.method === 'POST' && r.url === '/api/v1/crypto/trading/orders/');

describe('findOrder', () => {
  it('finds our order by the UUID of our id among the recent orders, following the pages', async () => {
    const sentAt = Date.now();
    const ours = await place(BUY, 'sig-lookup-1');
    for (let i = 0; i < 4; i++) await place(BUY, `sig-other-${i}`);
    fake.requests.length = 0;
    const found = await findOrder(broker, ctx, session, {
      accountId: V1,
      clientOrderId: 'sig-lookup-1',
      order: toOrder(BUY),
      sentAt,
    });
    expect(found).toMatchObject({ match: 'exact', order: { id: ours.id, status: 'filled', price: 61234.56 } });
    const listed = fake.requests.map((r) => new URL(r.url, 'http://x'));
    expect(listed.map((url) => url.pathname)).toEqual(Array(3).fill('/api/v1/crypto/trading/orders/'));
    expect(listed[0]?.searchParams.get('symbol')).toBe('BTC-USD');
    expect(listed[2]?.searchParams.get('cursor')).not.toBeNull();
  });

  it('answers none when the window holds no order with our id, unknown without a send time', async () => {
    const lookup = { accountId: V1, clientOrderId: 'sig-never-sent' };
    expect(await findOrder(broker, ctx, session, { ...lookup, sentAt: Date.now() })).toEqual({ match: 'none' });
    expect(await findOrder(broker, ctx, session, lookup)).toEqual({
      match: 'unknown',
      reason: 'Robinhood lists recent orders only, and the send time is not known',
    });
  });

  it('proves nothing when the window has more pages than are read', async () => {
    const crowded = await startRobinhoodFake({ pageSize: 1 });
    try {
      const call = { baseUrl: crowded.url };
      const crowdedSession = await broker.connect(call, { credentials: crowded.credentials });
      const sentAt = Date.now();
      for (let i = 0; i < 11; i++)
        await broker.placeOrder(call, crowdedSession, { accountId: V1, order: toOrder(BUY), clientOrderId: `c-${i}` });
      expect(await findOrder(broker, call, crowdedSession, { accountId: V1, clientOrderId: 'sig-x', sentAt })).toEqual({
        match: 'unknown',
        reason: 'Robinhood no longer lists the orders of that time',
      });
    } finally {
      await crowded.close();
    }
  });

  it("finds an order by Robinhood's id; an id it does not know proves nothing", async () => {
    const placed = await place(BUY, 'sig-lookup-2');
    const lookup = { accountId: V1, clientOrderId: 'sig-lookup-2' };
    expect(await findOrder(broker, ctx, session, { ...lookup, brokerOrderId: placed.id })).toMatchObject({
      match: 'exact',
      order: { id: placed.id, status: 'filled' },
    });
    expect(await findOrder(broker, ctx, session, { ...lookup, brokerOrderId: 'nope' })).toEqual({
      match: 'unknown',
      reason: 'Robinhood does not know its own order nope',
    });
  });
});

describe('cancel', () => {
  it("cancels by Robinhood's id; a filled order or an unknown id is refused", async () => {
    const open = await place({ symbol: 'ETH-USD', action: 'buy', quantity: 0.1, limit_price: 3000 }, 'sig-cancel-1');
    await broker.cancelOrder(ctx, session, { accountId: V1, brokerOrderId: open.id });
    expect(fake.orders.find((order) => order.id === open.id)?.state).toBe('canceled');
    const again = await failure(broker.cancelOrder(ctx, session, { accountId: V1, brokerOrderId: open.id }));
    expect([again.kind, again.message]).toEqual([
      'InvalidOrder',
      'Robinhood: Order is canceled and cannot be canceled.',
    ]);
    const unknown = await failure(broker.cancelOrder(ctx, session, { accountId: V1, brokerOrderId: 'nope' }));
    expect([unknown.kind, unknown.message]).toEqual(['OrderNotFound', 'Robinhood: Not found.']);
  });

  it('a cancel refused 429 says the order was not canceled (it is still working), not that it was not placed', async () => {
    const open = await place({ symbol: 'ETH-USD', action: 'buy', quantity: 0.1, limit_price: 3000 }, 'sig-cancel-429');
    const body = { type: 'client_error', errors: [{ detail: 'Request was throttled.', attr: null }] };
    fake.inject({ method: 'POST', path: `/api/v1/crypto/trading/orders/${open.id}/cancel/`, status: 429, body });
    const refused = await failure(broker.cancelOrder(ctx, session, { accountId: V1, brokerOrderId: open.id }));
    expect([refused.kind, refused.message]).toEqual([
      'RateLimited',
      'Robinhood: rate limit reached (100 requests a minute, bursts of 300); the order was not canceled',
    ]);
    expect(fake.orders.find((order) => order.id === open.id)?.state).not.toBe('canceled');
  });

  it('cannot cancel by our id alone: Robinhood lists orders only by time', async () => {
    const refused = await failure(broker.cancelOrder(ctx, session, { accountId: V1, clientOrderId: 'sig-cancel-1' }));
    expect([refused.kind, refused.message]).toEqual([
      'OrderNotFound',
      'Robinhood: no order with client order id sig-cancel-1',
    ]);
  });
});

describe('errors', () => {
  it('maps refusals and funds, titled', async () => {
    const poor = await failure(place({ symbol: 'BTC-USD', action: 'buy', quantity: 19 }, 'sig-poor'));
    expect([poor.kind, poor.message]).toEqual(['InsufficientFunds', 'Robinhood: Insufficient buying power.']);
    const short = await failure(place({ symbol: 'ETH-USD', action: 'sell', quantity: 400 }, 'sig-short'));
    expect([short.kind, short.message]).toEqual(['InsufficientFunds', 'Robinhood: Insufficient holdings.']);
  });

  it('never resends an order: not after a 5xx, a timeout, a dropped connection or a 429', async () => {
    const path = '/api/v1/crypto/trading/orders/';
    const cases = [
      {
        injection: {
          status: 500,
          body: { type: 'server_error', errors: [{ detail: 'A server error occurred.', attr: null }] },
        },
        kind: 'BrokerUnavailable',
        unknown: true,
      },
      // The deadline passes as the order reaches Robinhood, which answers 300 ms later.
      { injection: { delayMs: 300, status: 201, body: {} }, kind: 'BrokerUnavailable', unknown: true, late: true },
      { injection: { drop: true }, kind: 'BrokerUnavailable', unknown: true },
      // A gateway's timeout proves no refusal: the order may stand.
      { injection: { status: 408, body: 'Request Timeout' }, kind: 'BrokerUnavailable', unknown: true },
      {
        injection: {
          status: 429,
          body: { type: 'client_error', errors: [{ detail: 'Request was throttled.', attr: null }] },
        },
        kind: 'RateLimited',
        unknown: false,
      },
    ];
    for (const { injection, kind, unknown, late } of cases) {
      fake.requests.length = 0;
      const deadline = new AbortController();
      const onArrival = () => deadline.abort();
      fake.inject({ method: 'POST', path, ...injection, ...(late ? { onArrival } : {}) });
      const call = late ? { ...ctx, signal: deadline.signal } : ctx;
      const error = await failure(place(BUY, `sig-lost-${kind}-${String(unknown)}`, call));
      expect([error.kind, error.outcomeUnknown]).toEqual([kind, unknown]);
      expect(submissions()).toHaveLength(1);
    }
  });

  it('a 403 on an order (a key without trading permission) refuses that order, not the connection', async () => {
    const body = {
      type: 'client_error',
      errors: [{ detail: 'You do not have permission to perform this action.', attr: null }],
    };
    fake.inject({ method: 'POST', path: '/api/v1/crypto/trading/orders/', status: 403, body });
    const refused = await failure(place(BUY, 'sig-forbidden'));
    expect([refused.kind, refused.message, refused.outcomeUnknown]).toEqual([
      'InvalidOrder',
      'Robinhood: You do not have permission to perform this action. (HTTP 403: the API key may not trade)',
      false,
    ]);
  });

  it('retries a read once after a 429; an order meeting one says it was not placed', async () => {
    fake.exhaustRateLimit();
    const holdings = await broker.getHoldings(ctx, session, V1);
    expect(holdings.currency).toBe('USD');
    expect(fake.requests.filter((r) => r.url.startsWith('/api/v1/crypto/trading/accounts/'))).toHaveLength(2);
    fake.exhaustRateLimit();
    const refused = await failure(place({ symbol: 'ETH-USD', action: 'buy', quantity: 0.01 }, 'sig-429'));
    expect(refused.message).toBe(
      'Robinhood: rate limit reached (100 requests a minute, bursts of 300); the order was not placed',
    );
  });

  it('keeps its own bucket of 300 requests, 100 more a minute, and sends nothing past a second of waiting', async () => {
    const limiter = createRateLimiter();
    const at = 1_000_000;
    for (let i = 0; i < 300; i++) await limiter.take('key', at);
    await limiter.take('key', at + 600); // one token more after 0.6 s
    await limiter.take('key', at + 600); // waits 0.6 s for the next
    const refused = await failure(limiter.take('key', at + 600));
    expect(refused.message).toBe(
      'Robinhood: rate limit reached (100 requests a minute, bursts of 300); nothing was sent, try again in a minute',
    );
    // Two requests ahead of it: its turn comes in 1.2 s, handed back as Retry-After.
    expect(refused.retryAfter).toBe('2');
    await limiter.take('other-key', at);
  });
});
