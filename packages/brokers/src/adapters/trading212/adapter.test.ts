// Contract tests of the Trading 212 adapter against its protocol fake: connecting (live or
// practice), every order the descriptor claims, instrument ids, errors as typed BrokerErrors,
// rate limits, and no order sent twice.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { findOrder } from '../../core/find-order.ts';
import { createTrading212Broker } from './adapter.ts';
import { authorizationOf } from './api.ts';
import { TRADING212_ENVIRONMENTS } from './descriptor.ts';
import { startTrading212Fake, type Trading212Fake } from './fake.ts';
import { SIGNAL_CASES, toOrder } from './fixtures/signals.ts';

const ACCOUNT = '21212121';
const START = Date.parse('2025-03-03T15:00:00Z');
let time = START;
let fake: Trading212Fake;
let ctx: BrokerContext;
let session: BrokerSession;
let broker: ReturnType<typeof createTrading212Broker>;
const credentials = { apiKey: 'fake-key', apiSecret: 'fake-secret' };
const authorization = authorizationOf(credentials.apiKey, credentials.apiSecret);

// Each case gets its own fake account (cash, positions, orders, rate-limit allowance, recorded
// requests) and its own adapter (its instrument cache), so no case sees another's orders.
beforeEach(async () => {
  time = START;
  fake = await startTrading212Fake({
    now: () => time,
    accounts: [
      { ...credentials, id: Number(ACCOUNT), cash: 5_000 },
      { apiKey: 'legacy-key', id: 31_313_131 },
    ],
  });
  broker = createTrading212Broker();
  ctx = { baseUrl: fake.baseUrl, now: () => time };
  session = await broker.connect(ctx, { credentials });
  time += 60_000; // past every per-endpoint limit the connection used
  fake.requests.length = 0;
});
afterEach(() => fake.close());

const place = (signal: Record<string, unknown>) =>
  broker.placeOrder(ctx, session, { accountId: ACCOUNT, order: toOrder(signal), clientOrderId: 'sig-1' });
async function failure(promise: Promise<unknown>): Promise<BrokerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BrokerError)) throw new Error(`expected a BrokerError, got ${String(error)}`);
  return error;
}
const posts = () => fake.requests.filter((r) => r.method === 'POST');

describe('connecting', () => {
  it('verifies the key pair on the account summary and keeps the environment', () => {
    expect(session.accounts).toEqual([
      {
        id: ACCOUNT,
        name: `Trading 212 invest ${ACCOUNT}`,
        dataTitle: ACCOUNT,
        dataType: 'cash',
        dataCurrency: 'USD',
        demo: false,
      },
    ]);
    expect(session.secrets).toEqual({ ...credentials, environment: 'live' });
    expect(session.expiresAt).toBeUndefined();
  });

  it('refuses a wrong secret, and takes a legacy key alone', async () => {
    const wrong = await failure(broker.connect(ctx, { credentials: { ...credentials, apiSecret: 'nope' } }));
    expect([wrong.kind, wrong.message]).toEqual(['AuthenticationError', 'Trading 212: API key or secret refused']);
    time += 60_000;
    const legacy = await broker.connect(ctx, { credentials: { apiKey: 'legacy-key', apiSecret: '' } });
    expect(legacy.accounts[0]?.id).toBe('31313131');
    expect(fake.requests.at(-1)?.headers.authorization).toBe('legacy-key');
  });

  it('a 403 on an order (a key without the orders:execute scope) refuses that order, not the connection', async () => {
    const refusing = createTrading212Broker({
      fetch: (url, init) =>
        init?.method === 'POST' || init?.method === 'DELETE'
          ? Promise.resolve(new Response('', { status: 403 }))
          : fetch(url, init),
    });
    const order = toOrder({ symbol: 'AAPL', action: 'buy', quantity: 1 });
    const placed = await failure(refusing.placeOrder(ctx, session, { accountId: ACCOUNT, order, clientOrderId: 's' }));
    expect([placed.kind, placed.message]).toEqual([
      'InvalidOrder',
      'Trading 212: the API key lacks a permission this needs',
    ]);
    const canceled = await failure(refusing.cancelOrder(ctx, session, { accountId: ACCOUNT, brokerOrderId: '7' }));
    expect(canceled.kind).toBe('InvalidOrder');
  });

  it('finds a practice key on the demo origin', async () => {
    const demoFake = await startTrading212Fake({
      now: () => time,
      accounts: [{ apiKey: 'demo-key', apiSecret: 's', id: 77 }],
    });
    const liveFake = await startTrading212Fake({ now: () => time, accounts: [] });
    try {
      const hosts: string[] = [];
      const routed: typeof fetch = (input, init) => {
        const url = new URL(String(input));
        hosts.push(url.host);
        const target = url.host === 'demo.trading212.com' ? demoFake.baseUrl : liveFake.baseUrl;
        return fetch(`${target}${url.pathname}${url.search}`, init);
      };
      const demoBroker = createTrading212Broker({ fetch: routed });
      const demoCtx = { baseUrl: TRADING212_ENVIRONMENTS.live, now: () => time };
      const demo = await demoBroker.connect(demoCtx, { credentials: { apiKey: 'demo-key', apiSecret: 's' } });
      expect(hosts).toEqual(['live.trading212.com', 'demo.trading212.com']);
      expect(demo.accounts[0]).toMatchObject({ id: '77', demo: true, name: 'Trading 212 practice 77' });
      time += 5_000; // the account summary allows 1 request in 5 s
      await demoBroker.getHoldings(demoCtx, demo, '77');
      expect(hosts.slice(2)).toEqual(['demo.trading212.com', 'demo.trading212.com']);
    } finally {
      await Promise.all([demoFake.close(), liveFake.close()]);
    }
  });
});

describe('orders the descriptor claims', () => {
  for (const { name, signal, path, wire } of SIGNAL_CASES) {
    it(`places ${name}`, async () => {
      if (path.endsWith('market') && Number(wire.quantity) < 0) {
        // A market sell fills against shares held: this case buys them first.
        await place({ symbol: signal.symbol, action: 'buy', quantity: -Number(wire.quantity) });
        fake.requests.length = 0;
      }
      const response = await place(signal);
      expect(posts().map((r) => [r.url, r.body])).toEqual([[path, wire]]);
      expect(posts()[0]?.headers.authorization).toBe(`Basic ${Buffer.from('fake-key:fake-secret').toString('base64')}`);
      expect(response.id).toMatch(/^\d+$/);
      expect(response.status).toBe(path.endsWith('market') ? 'filled' : 'accepted');
    });
  }

  it('loads the instrument list once per connection, and refuses unknown and ambiguous symbols', async () => {
    const unknown = await failure(place({ symbol: 'ZZZZ', action: 'buy', quantity: 1 }));
    expect(unknown.message).toBe('Trading 212: ZZZZ is not traded at Trading 212');
    const ambiguous = await failure(place({ symbol: 'SHEL', action: 'buy', quantity: 1 }));
    expect(ambiguous.message).toBe('Trading 212: SHEL is listed several times; use one of SHELl_EQ, SHELa_EQ');
    expect(fake.requests.filter((r) => r.url.includes('/metadata/instruments'))).toHaveLength(1);
    expect(posts()).toHaveLength(0);
  });
});

describe('close, cancel, lookups and holdings', () => {
  it('closes a position with a market sell of all of it', async () => {
    await place({ symbol: 'MSFT', action: 'buy', quantity: 1 });
    await place({ symbol: 'MSFT', action: 'buy', quantity: 1.25 });
    fake.requests.length = 0;
    time += 2_000;
    const closed = await place({ symbol: 'MSFT', action: 'close' });
    expect(posts().map((r) => r.body)).toEqual([{ ticker: 'MSFT_US_EQ', quantity: -2.25, extendedHours: false }]);
    expect(closed.status).toBe('filled');
    time += 2_000;
    const none = await failure(broker.closePosition(ctx, session, ACCOUNT, 'MSFT'));
    expect(none.message).toBe('Trading 212: no position in MSFT_US_EQ to close');
  });

  it('a close with a quantity sells that many, not the whole position (and never more than held)', async () => {
    await place({ symbol: 'MSFT', action: 'buy', quantity: 3 });
    fake.requests.length = 0;
    time += 2_000;
    await place({ symbol: 'MSFT', action: 'close', quantity: 1 });
    time += 2_000;
    await place({ symbol: 'MSFT', action: 'close', quantity: 5 });
    expect(posts().map((r) => r.body)).toEqual([
      { ticker: 'MSFT_US_EQ', quantity: -1, extendedHours: false },
      { ticker: 'MSFT_US_EQ', quantity: -2, extendedHours: false },
    ]);
  });

  it('a close of all of it with a stop loss working cancels the stop first, then sells every share', async () => {
    await place({ symbol: 'MSFT', action: 'buy', quantity: 3 });
    time += 2_000;
    const stop = await place({ symbol: 'MSFT', action: 'sell', quantity: 3, type: 'stop', stop_price: 350 });
    const account = fake.accounts.get(authorization);
    fake.requests.length = 0;
    time += 5_000;
    // The stop holds the shares: none is available for trading while it works.
    const closed = await place({ symbol: 'MSFT', action: 'close' });
    expect(closed.status).toBe('filled');
    expect(posts().map((r) => r.body)).toEqual([{ ticker: 'MSFT_US_EQ', quantity: -3, extendedHours: false }]);
    expect(account?.orders.get(Number(stop.id))?.status).toBe('CANCELLED');
    expect(account?.positions.has('MSFT_US_EQ')).toBe(false);
  });

  it('a close of part that the exits leave no share for cuts the exits to what is left: canceled, sold, placed again', async () => {
    await place({ symbol: 'MSFT', action: 'buy', quantity: 3 });
    time += 2_000;
    const stop = await place({
      symbol: 'MSFT',
      action: 'sell',
      quantity: 3,
      type: 'stop',
      stop_price: 350,
      duration: 'gtc',
    });
    const account = fake.accounts.get(authorization);
    fake.requests.length = 0;
    time += 5_000;
    const closed = await place({ symbol: 'MSFT', action: 'close', quantity: 1 });
    expect(closed.status).toBe('filled');
    expect(posts().map((r) => r.body)).toEqual([
      { ticker: 'MSFT_US_EQ', quantity: -1, extendedHours: false },
      { ticker: 'MSFT_US_EQ', quantity: -2, stopPrice: 350, timeValidity: 'GOOD_TILL_CANCEL' },
    ]);
    const again = [...(account?.orders.values() ?? [])].at(-1);
    expect(closed.status_description).toBe(
      `FILLED, -1 filled; exits cut to the 2 left (Trading 212 cannot change a pending order's quantity: canceled before the close): ${stop.id} → ${again?.id}`,
    );
    expect(account?.orders.get(Number(stop.id))?.status).toBe('CANCELLED');
    expect(again).toMatchObject({ type: 'STOP', quantity: -2, stopPrice: 350, status: 'NEW' });
    expect(account?.positions.get('MSFT_US_EQ')?.quantity).toBe(2);
  });

  it('a close of part keeps the exits that fit what is left; the larger ones get what those leave free', async () => {
    await place({ symbol: 'MSFT', action: 'buy', quantity: 4 });
    time += 2_000;
    const stop = await place({ symbol: 'MSFT', action: 'sell', quantity: 1, type: 'stop', stop_price: 350 });
    time += 2_000;
    const target = await place({ symbol: 'MSFT', action: 'sell', quantity: 3, type: 'limit', limit_price: 450 });
    const account = fake.accounts.get(authorization);
    fake.requests.length = 0;
    time += 5_000;
    const closed = await place({ symbol: 'MSFT', action: 'close', quantity: 2 });
    expect(closed.status_description).toContain(`exits cut to the 2 left`);
    expect(account?.orders.get(Number(target.id))?.status).toBe('CANCELLED');
    expect(account?.orders.get(Number(stop.id))?.status).toBe('NEW');
    expect(posts().map((r) => r.body)).toEqual([
      { ticker: 'MSFT_US_EQ', quantity: -2, extendedHours: false },
      { ticker: 'MSFT_US_EQ', quantity: -1, limitPrice: 450, timeValidity: 'GOOD_TILL_CANCEL' },
    ]);
    expect(account?.positions.get('MSFT_US_EQ')?.quantity).toBe(2);
  });

  it('an exit Trading 212 will not place again is told, the close standing', async () => {
    await place({ symbol: 'MSFT', action: 'buy', quantity: 3 });
    time += 2_000;
    const stop = await place({ symbol: 'MSFT', action: 'sell', quantity: 3, type: 'stop', stop_price: 350 });
    time += 5_000;
    fake.failNext({ method: 'POST', path: '/api/v0/equity/orders/stop', status: 400, body: { code: 'PriceTooFar' } });
    const closed = await place({ symbol: 'MSFT', action: 'close', quantity: 1 });
    expect(closed.status).toBe('filled');
    expect(closed.status_description).toBe(
      `FILLED, -1 filled; exits larger than the 2 left were canceled (${stop.id}) and not all placed again (price too far from the market): check them at the broker`,
    );
  });

  it('a close of part that the exits still fitting what is left would not make room for is refused, canceling nothing', async () => {
    await place({ symbol: 'MSFT', action: 'buy', quantity: 4 });
    time += 2_000;
    await place({ symbol: 'MSFT', action: 'sell', quantity: 2, type: 'stop', stop_price: 350 });
    time += 2_000;
    await place({ symbol: 'MSFT', action: 'sell', quantity: 2, type: 'limit', limit_price: 450 });
    fake.requests.length = 0;
    time += 5_000;
    const error = await failure(place({ symbol: 'MSFT', action: 'close', quantity: 1 }));
    expect(error.message).toBe(
      'Trading 212: only 0 of the 4 MSFT_US_EQ held are free of pending orders: close all of it, or cancel them first',
    );
    expect(fake.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('a close of part the free shares cover sells it and leaves the exits alone', async () => {
    await place({ symbol: 'MSFT', action: 'buy', quantity: 4 });
    time += 2_000;
    await place({ symbol: 'MSFT', action: 'sell', quantity: 3, type: 'stop', stop_price: 350 });
    fake.requests.length = 0;
    time += 5_000;
    await place({ symbol: 'MSFT', action: 'close', quantity: 1 });
    expect(fake.requests.filter((r) => r.method !== 'GET').map((r) => r.body)).toEqual([
      { ticker: 'MSFT_US_EQ', quantity: -1, extendedHours: false },
    ]);
  });

  it('cancels by id and cancels the pending orders of a symbol', async () => {
    const first = await place({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 100 });
    time += 2_000;
    const second = await place({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 101 });
    await broker.cancelOrder(ctx, session, { accountId: ACCOUNT, brokerOrderId: first.id });
    time += 5_000;
    const answer = await place({ symbol: 'AAPL', action: 'cancel' });
    expect(answer.status).toBe('canceled');
    expect(answer.id.split(',')).toContain(second.id);
    expect(answer.id.split(',')).not.toContain(first.id);
    const gone = await failure(broker.cancelOrder(ctx, session, { accountId: ACCOUNT, brokerOrderId: first.id }));
    expect(gone.kind).toBe('OrderNotFound');
  });

  it('a cancel of the pending orders of a symbol that fails partway says which were cancelled and which not', async () => {
    const ids: string[] = [];
    for (const price of [100, 101, 102]) {
      ids.push((await place({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: price })).id);
      time += 2_000;
    }
    time += 5_000;
    // The first cancel goes through, the second meets an outage.
    fake.failNext({ method: 'DELETE', path: /^\/api\/v0\/equity\/orders\/\d+$/, delayMs: 1 });
    fake.failNext({ method: 'DELETE', path: /^\/api\/v0\/equity\/orders\/\d+$/, status: 400, body: {} });
    const error = await failure(place({ symbol: 'AAPL', action: 'cancel' }));
    const told =
      /; of the open orders of AAPL_US_EQ, only some were canceled: (\d+); not (.+): check them at the broker$/.exec(
        error.message,
      );
    expect([told?.[1], told?.[2]?.split(', ')].flat().sort()).toEqual([...ids].sort());
    time += 5_000;
    const rest = await place({ symbol: 'AAPL', action: 'cancel' });
    expect(rest.id.split(',').sort()).toEqual(told?.[2]?.split(', ').sort());
  });

  it('a cancel of the pending orders of a symbol passes over one whose cancel is under way', async () => {
    const first = await place({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 100 });
    time += 2_000;
    const second = await place({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 101 });
    const listed = [...(fake.accounts.values() ?? [])].flatMap((account) => [...account.orders.values()]);
    const cancelling = listed.find((order) => String(order.id) === first.id);
    if (cancelling) cancelling.status = 'CANCELLING';
    time += 5_000;
    const answer = await place({ symbol: 'AAPL', action: 'cancel' });
    expect(answer).toEqual({
      id: second.id,
      status: 'canceled',
      status_description: 'Cancelled 1 pending order(s) of AAPL_US_EQ',
    });
    expect(fake.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      `/api/v0/equity/orders/${second.id}`,
    ]);
  });

  it('findOrder: by its id (pending, then history), else by terms around the send time', async () => {
    const signal = { symbol: 'AAPL', action: 'buy', quantity: 0.1 };
    const sentAt = time;
    const filled = await place(signal);
    time += 2_000;
    const resting = await place({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 99 });
    const lookup = { accountId: ACCOUNT, clientOrderId: 'sig-1' };
    expect(await findOrder(broker, ctx, session, lookup)).toMatchObject({ match: 'unknown' });
    time += 2_000;
    expect(await findOrder(broker, ctx, session, { ...lookup, brokerOrderId: resting.id })).toMatchObject({
      match: 'exact',
      order: { status: 'accepted' },
    });
    time += 2_000;
    const done = await findOrder(broker, ctx, session, { ...lookup, brokerOrderId: filled.id });
    expect(done).toEqual({
      match: 'exact',
      order: { id: filled.id, status: 'filled', status_description: expect.any(String), price: 180 },
    });
    time += 10_000;
    const found = await findOrder(broker, ctx, session, { ...lookup, order: toOrder(signal), sentAt });
    expect(found).toMatchObject({ match: 'probable', order: { id: filled.id } });
    time += 10_000;
    const other = await findOrder(broker, ctx, session, {
      ...lookup,
      order: toOrder({ ...signal, quantity: 7 }),
      sentAt,
    });
    expect(other).toEqual({ match: 'none' });
    time += 10_000;
    const unsent = await findOrder(broker, ctx, session, { ...lookup, brokerOrderId: '4999999999' });
    expect(unsent).toEqual({ match: 'unknown', reason: 'Trading 212 does not know its own order 4999999999' });
  });

  it('reads cash and positions', async () => {
    await place({ symbol: 'AAPL', action: 'buy', quantity: 2 });
    const holdings = await broker.getHoldings(ctx, session, ACCOUNT);
    expect(holdings.currency).toBe('USD');
    expect(holdings.cash).toBe(5_000 - 2 * 180);
    expect(holdings.positions.find((p) => p.symbol === 'AAPL_US_EQ')?.quantity).toBe(2);
  });
});

describe('errors', () => {
  it('maps Trading 212 refusal codes, prefixed with its title', async () => {
    const poor = await failure(place({ symbol: 'MSFT', action: 'buy', quantity: 1000 }));
    expect([poor.kind, poor.message]).toEqual(['InsufficientFunds', 'Trading 212: insufficient funds']);
    const notOwned = await failure(place({ symbol: 'VUSA', action: 'sell', quantity: 50 }));
    expect([notOwned.kind, notOwned.message]).toEqual(['InvalidOrder', 'Trading 212: selling more shares than held']);
    const gtcMarket = await failure(place({ symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'gtc' }));
    expect(gtcMarket.message).toBe('Trading 212: market orders are day orders, not gtc');
    expect(posts()).toHaveLength(2);
  });

  it('answers its tight rate limits with RateLimited and never resends', async () => {
    await place({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 90 });
    const limited = await failure(place({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 91 }));
    expect(limited.kind).toBe('RateLimited');
    expect(limited.message).toMatch(/^Trading 212: rate limit reached, resets at /);
    expect(fake.submissions()).toBe(2);
  });

  it('a 2xx to an order without the order’s id is an unknown outcome, not accepted without an id', async () => {
    fake.requests.length = 0;
    fake.failNext({ method: 'POST', path: /\/orders\/market$/, status: 200, body: {} });
    const error = await failure(place({ symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect([error.kind, error.outcomeUnknown]).toEqual(['BrokerUnavailable', true]);
    expect(fake.submissions()).toBe(1);
  });

  it('marks a timeout or a server error as an unknown outcome, sent once', async () => {
    for (const status of [408, 500]) {
      fake.requests.length = 0;
      fake.failNext({ method: 'POST', path: /\/orders\/market$/, status });
      const error = await failure(place({ symbol: 'AAPL', action: 'buy', quantity: 1 }));
      expect([error.kind, error.outcomeUnknown]).toEqual(['BrokerUnavailable', true]);
      expect(fake.submissions()).toBe(1);
    }
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  it.each([
    [
      { symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'gtc' },
      'Trading 212: market orders are day orders, not gtc',
    ],
    [
      { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 150, extra: { extended_hours: true } },
      'Trading 212: extra.extended_hours is for market orders only',
    ],
  ])('refuses %j as placing does, with its error, placing nothing', async (signal, message) => {
    const live = await failure(place(signal));
    expect(live).toMatchObject({ kind: 'InvalidOrder', message });
    expect(posts()).toEqual([]);
    const check = () => broker.checkOrder({ accountId: ACCOUNT, order: toOrder(signal), clientOrderId: 'sig-1' });
    expect(check).toThrow(live);
  });

  it('passes an order placing takes', () => {
    const order = toOrder({ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 150 });
    expect(() => broker.checkOrder({ accountId: ACCOUNT, order, clientOrderId: 'sig-1' })).not.toThrow();
  });
});
