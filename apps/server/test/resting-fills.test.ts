// Resting orders at live brokers followed to their fill (modules/signals/follow-fills.ts), against
// the Alpaca and Tradier protocol fakes: a limit order answered 'accepted' rests; the follower
// looks it up (Alpaca by our client order id, Tradier by its own order id) and leaves it while it
// rests; the server restarts; the market reaches the orders at the fakes; the new server's
// follower finds them filled: the signals (and so their activity entries) read 'filled' and each
// order is told order.filled exactly once, after its one order.placed. An account without a
// setting that wants order.filled or order.rejected is not followed at all.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAlpaca, startFakeAlpaca } from '../../../packages/brokers/src/adapters/alpaca/fake.ts';
import { type FakeTradier, startFakeTradier } from '../../../packages/brokers/src/adapters/tradier/fake.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithCredentials, createLiveHook, type Trader, trader } from './broker-journey.ts';
import { gql } from './connector-fixtures.ts';
import { createSetting, eventually } from './notification-fixtures.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { postSignal } from './signal-fixtures.ts';

let database: TestDatabase;
let alpaca: FakeAlpaca;
let tradier: FakeTradier;
let env: Record<string, string>;
let t: TestApp;

const LIMIT = { symbol: 'AAPL', action: 'buy', quantity: 2, type: 'limit', limit_price: 150 };

beforeAll(async () => {
  database = await createTestDatabase();
  alpaca = await startFakeAlpaca({ keyId: 'AKLIVE1234567890', accountNumber: '912345678' });
  tradier = await startFakeTradier({
    token: 'live-token-1',
    accounts: [{ account_number: '6YA00001', type: 'margin' }],
  });
  env = {
    ...brokerVariables('alpaca', { baseUrl: alpaca.url }),
    ...brokerVariables('tradier', { baseUrl: tradier.url }),
  };
  t = await startTestApp({ authenticate: authenticateAsUserId, env, database });
});
afterAll(async () => {
  await t?.close();
  await alpaca?.close();
  await tradier?.close();
  await database?.drop();
});

interface Placed {
  signalId: string;
  accountId: string;
}

/** A live hook of a fresh connection, its setting (when `events`), and one resting limit order. */
async function restingOrder(
  user: Trader,
  provider: string,
  credentials: Record<string, string>,
  events?: string[],
  terms: Record<string, unknown> = {},
) {
  const connector = await connectWithCredentials(t, user, provider, credentials);
  const accountId = (JSON.parse(connector.accounts) as Array<{ id: string }>)[0]?.id ?? '';
  const shortKey = await createLiveHook(t, user, connector, accountId);
  if (events) await createSetting(t, user.headers, connector.key, accountId, 2, { email: 'fills@example.com', events });
  const answer = await postSignal(t, shortKey, { ...LIMIT, ...terms });
  expect(answer.statusCode).toBe(201);
  expect(answer.json()).toMatchObject({ status: 'accepted' });
  // The answer comes first; the broker's status is written just after it.
  const rows = await eventually(
    async () =>
      (
        await t.services.db.$client.query<{ id: string; status: string }>(
          'select id, status from signals where user_id = $1 and provider_name = $2',
          [user.userId, provider],
        )
      ).rows,
    (found) => found.length === 1 && found[0]?.status === 'accepted',
  );
  return { signalId: rows[0]?.id ?? '', accountId } satisfies Placed;
}

/**
 * Look-ups of these signals' orders at the fakes (Alpaca by our client order id, Tradier by its
 * order id), whichever pass made them: each instance's timer runs passes of its own too.
 */
async function lookupsOf(ids: string[]): Promise<number> {
  const { rows } = await t.services.db.$client.query<{ id: string; broker_order_id: string | null }>(
    'select id, broker_order_id from signals where id = any($1)',
    [ids],
  );
  const alpacaIds = new Set(rows.map((r) => r.id));
  const tradierIds = new Set(rows.flatMap((r) => (r.broker_order_id ? [r.broker_order_id] : [])));
  const found = (requests: ReadonlyArray<{ method: string; url: string }>, pattern: RegExp, wanted: Set<string>) =>
    requests.filter((r) => r.method === 'GET' && wanted.has(pattern.exec(r.url)?.[1] ?? '')).length;
  return (
    found(alpaca.requests, /client_order_id=([^&]+)/, alpacaIds) +
    found(tradier.requests, /\/orders\/(\d+)(?:\?|$)/, tradierIds)
  );
}

/** What the follower has due now: these resting orders, as if their next look-up had come. */
const makeDue = (ids: string[]) =>
  t.services.db.$client.query(`update signals set lease_until = null where status = 'accepted' and id = any($1)`, [
    ids,
  ]);

async function rows(ids: string[]) {
  const { rows } = await t.services.db.$client.query<{ id: string; status: string; price: number | null }>(
    'select id, status, price from signals where id = any($1) order by id',
    [ids],
  );
  return rows;
}

async function eventsOf(ids: string[]) {
  const { rows } = await t.services.db.$client.query<{ type: string; signal_id: string; deliveries: number }>(
    `select e.type, e.data->>'signalId' as signal_id,
       (select count(*) from notification_deliveries d where d.event_id = e.id)::int as deliveries
     from notification_events e where e.data->>'signalId' = any($1) order by e.created_at, e.type`,
    [ids],
  );
  return rows;
}

describe('resting orders followed to their fill', () => {
  it('tells order.filled once per order when the broker fills it later, across a restart', async () => {
    const user = await trader(t, 'resting@example.com');
    const alpacaOrder = await restingOrder(user, 'alpaca', alpaca.keys, ['order.placed', 'order.filled']);
    const tradierOrder = await restingOrder(user, 'tradier', { accessToken: tradier.token }, ['order.filled']);
    const other = await trader(t, 'unfollowed@example.com');
    const unfollowed = await restingOrder(other, 'alpaca', alpaca.keys, ['order.placed']);
    const ids = [alpacaOrder.signalId, tradierOrder.signalId];

    // Still resting: looked up (not the order without a setting wanting fills), nothing written.
    await t.app.signalRuntime.followFills(0);
    expect(await lookupsOf(ids)).toBe(2);
    expect(await lookupsOf([unfollowed.signalId])).toBe(0);
    expect((await rows(ids)).map((r) => r.status)).toEqual(['accepted', 'accepted']);

    // The server restarts; meanwhile the market reaches both orders.
    await t.close();
    alpaca.fillResting(alpacaOrder.signalId);
    // This signal's own order: the other tests leave open orders at the same fake.
    const { rows: tradierRows } = await database.pool.query<{ broker_order_id: string }>(
      'select broker_order_id from signals where id = $1',
      [tradierOrder.signalId],
    );
    tradier.fillResting(Number(tradierRows[0]?.broker_order_id));
    t = await startTestApp({ authenticate: authenticateAsUserId, env, database });

    await makeDue([...ids, unfollowed.signalId]);
    await t.app.signalRuntime.followFills(0);
    const filled = await rows(ids);
    expect(filled.map((r) => r.status)).toEqual(['filled', 'filled']);
    expect(filled.every((r) => typeof r.price === 'number' && r.price > 0)).toBe(true);
    expect((await rows([unfollowed.signalId]))[0]?.status).toBe('accepted');
    // The activity entries read the new state: both orders under the 'filled' result.
    const activity = await gql<{ actions: Array<{ metadata: string }> }>(
      t,
      user.headers,
      'query { actions(code: "Order", result: "filled") { metadata } }',
      {},
    );
    const entries = activity.data?.actions.map((a) => (JSON.parse(a.metadata) as { signalId?: string }).signalId);
    expect(entries?.sort()).toEqual([...ids].sort());

    // Once each, and never again (an event no setting wants is not written at all).
    await makeDue([...ids, unfollowed.signalId]);
    const last = await lookupsOf([...ids, unfollowed.signalId]);
    await t.app.signalRuntime.followFills(0);
    expect(await lookupsOf([...ids, unfollowed.signalId])).toBe(last);
    const told = (await eventsOf([...ids, unfollowed.signalId])).map((e) => `${e.signal_id}:${e.type}:${e.deliveries}`);
    expect(told.sort()).toEqual(
      [
        `${alpacaOrder.signalId}:order.placed:1`,
        `${alpacaOrder.signalId}:order.filled:1`,
        `${tradierOrder.signalId}:order.filled:1`,
        `${unfollowed.signalId}:order.placed:1`,
      ].sort(),
    );
  });

  it('tells order.rejected to a setting that wants only rejections when the broker rejects a resting order', async () => {
    // Alpaca accepts an order and may reject it afterwards; a trader who asked to hear only of
    // failures (events: order.rejected) must hear of that one too, not only one wanting fills.
    const user = await trader(t, 'rejections-only@example.com');
    const placed = await restingOrder(user, 'alpaca', alpaca.keys, ['order.rejected']);
    const order = alpaca.orders.find((o) => o.client_order_id === placed.signalId);
    if (!order) throw new Error('no order at the fake');
    Object.assign(order, { status: 'rejected', updated_at: new Date().toISOString() });
    await makeDue([placed.signalId]);
    await t.app.signalRuntime.followFills(0);
    expect((await rows([placed.signalId]))[0]?.status).toBe('rejected');
    const told = (await eventsOf([placed.signalId])).map((e) => `${e.type}:${e.deliveries}`);
    expect(told).toEqual(['order.rejected:1']);
  });

  it('an order of an account its connection no longer holds is not looked up; the connection stays', async () => {
    const user = await trader(t, 'dropped-account@example.com');
    const placed = await restingOrder(user, 'tradier', { accessToken: tradier.token }, ['order.filled']);
    // Reconnected without that account (left out at the broker's consent, or closed there).
    const pool = t.services.db.$client;
    await pool.query(
      `update connectors set accounts = jsonb_build_array(jsonb_set(accounts->0, '{id}', '"6YA09999"')),
         updated_at = clock_timestamp()
       where user_id = $1 and provider_name = 'tradier'`,
      [user.userId],
    );
    const before = await lookupsOf([placed.signalId]);
    await makeDue([placed.signalId]);
    await t.app.signalRuntime.followFills(0);
    const { rows: connectors } = await pool.query<{ is_active: boolean }>(
      `select is_active from connectors where user_id = $1 and provider_name = 'tradier'`,
      [user.userId],
    );
    expect(connectors.map((c) => c.is_active)).toEqual([true]);
    expect(await lookupsOf([placed.signalId])).toBe(before);
  });

  it('two instances: each resting order is looked up by one of them', async () => {
    const user = await trader(t, 'two-followers@example.com');
    const first = await restingOrder(user, 'alpaca', alpaca.keys, ['order.filled']);
    const second = await restingOrder(user, 'tradier', { accessToken: tradier.token }, ['order.filled']);
    const other = await startTestApp({ authenticate: authenticateAsUserId, env, database });
    try {
      await makeDue([first.signalId, second.signalId]);
      const ids = [first.signalId, second.signalId];
      const before = await lookupsOf(ids);
      await Promise.all([t.app.signalRuntime.followFills(0), other.app.signalRuntime.followFills(0)]);
      // Two orders, two look-ups between both instances.
      expect((await lookupsOf(ids)) - before).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('leaves an order past its horizon: a day order after a day, a good-till-canceled one kept', async () => {
    const user = await trader(t, 'horizon@example.com');
    const day = await restingOrder(user, 'alpaca', alpaca.keys, ['order.filled'], { duration: 'day' });
    const gtc = await restingOrder(user, 'tradier', { accessToken: tradier.token }, ['order.filled'], {
      duration: 'gtc',
    });
    await t.services.db.$client.query(
      `update signals set created_at = created_at - interval '2 days' where id = any($1)`,
      [[day.signalId, gtc.signalId]],
    );
    await makeDue([day.signalId, gtc.signalId]);
    await t.app.signalRuntime.followFills(0);
    // Only the good-till-canceled one is looked up; the day order is dropped for good.
    expect(await lookupsOf([gtc.signalId])).toBe(1);
    expect(await lookupsOf([day.signalId])).toBe(0);
    const { rows } = await t.services.db.$client.query<{ id: string; forever: boolean }>(
      `select id, lease_until = 'infinity' as forever from signals where id = any($1)`,
      [[day.signalId, gtc.signalId]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.forever]))).toEqual({
      [day.signalId]: true,
      [gtc.signalId]: false,
    });
  });
});
