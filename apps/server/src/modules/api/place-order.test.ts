// The REST API's orders: each call's Order entry holds the answer its caller got; an Idempotency-Key
// holds for 24 hours (not the hook's 60 s window), a retry after a minute placing nothing.
import { currentExample } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { balanceOf, paperOrders, setupTrader } from '../../../test/signal-fixtures.ts';
import { listActions } from '../actions/list-actions.ts';
import { activateConnector } from '../connectors/index.ts';
import { accountId, requireApiAccount } from './accounts.ts';
import { getApiOrder } from './orders.ts';
import { placeApiOrder } from './place-order.ts';

const KEY_REUSED = 'Idempotency-Key: already used for another order; send a new key for a new order';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('logs an Idempotency-Key reused for another order with the 400 its caller got, not the first order', async () => {
  const trader = await setupTrader(t, 'api-key-reused@example.com');
  const account = await requireApiAccount(t.services, trader.userId, accountId(trader.connector.key, trader.accountId));
  const place = (order: Record<string, unknown>) =>
    placeApiOrder(t.services, t.app.signalRuntime, {
      userId: trader.userId,
      account,
      body: JSON.stringify(order),
      idempotencyKey: 'journal-7',
      client: 'token:1',
      caller: 'API token',
      address: '127.0.0.1',
      receivedAt: performance.now(),
    });
  const first = await place({ symbol: 'AAPL', action: 'buy', quantity: 2 });
  expect(first.statusCode).toBe(201);
  const other = await place({ symbol: 'MSFT', action: 'sell', quantity: 5 });
  expect(other).toEqual({ statusCode: 400, error: { status: 'ValidationError', message: KEY_REUSED } });
  expect(await paperOrders(t, trader.accountId)).toHaveLength(1);

  await t.app.signalRuntime.writer.flush();
  const entries = (await listActions(t.services, trader.userId, { code: 'Order' })).map(
    (entry) => JSON.parse(entry.metadata ?? '{}') as { request?: { symbol?: string }; response?: unknown },
  );
  // Before, the MSFT call's entry held the AAPL order's answer (201, filled).
  const logged = entries.filter((entry) => entry.request?.symbol === 'MSFT');
  expect(logged.map((entry) => entry.response)).toEqual([{ status: 'ValidationError', message: KEY_REUSED }]);
});

describe('an Idempotency-Key holds for 24 hours, not the hook’s dedupe window', () => {
  /** Places `order` under `key` for the trader, as the REST API route does. */
  async function placer(email: string) {
    const trader = await setupTrader(t, email);
    const account = await requireApiAccount(
      t.services,
      trader.userId,
      accountId(trader.connector.key, trader.accountId),
    );
    const place = (order: Record<string, unknown>, key: string | undefined) =>
      placeApiOrder(t.services, t.app.signalRuntime, {
        userId: trader.userId,
        account,
        body: JSON.stringify(order),
        idempotencyKey: key,
        client: 'token:1',
        caller: 'API token',
        address: '127.0.0.1',
        receivedAt: performance.now(),
      });
    return { trader, place };
  }
  /** Moves the trader's keys `seconds` towards their expiry, as that much time passing would. */
  const age = (userId: number, seconds: number) =>
    t.services.db.$client.query(
      `update signal_keys set expires_at = expires_at - $2 * interval '1 second'
       where hook_id in (select id from hooks where user_id = $1)`,
      [userId, seconds],
    );
  const ORDER = { symbol: 'AAPL', action: 'buy', quantity: 2 };
  const orderId = (r: Awaited<ReturnType<typeof placeApiOrder>>) => ('order' in r ? r.order.id : r.error.message);

  it('answers a retry after the 60 s window (an hour later) with the first order, placing and charging nothing', async () => {
    const { trader, place } = await placer('api-key-hour@example.com');
    const first = await place(ORDER, 'retry-1');
    expect(first.statusCode).toBe(201);
    const before = await balanceOf(t, trader.userId);
    await age(trader.userId, 3600);
    const retry = await place(ORDER, 'retry-1');
    expect(retry.statusCode).toBe(201);
    expect(orderId(retry)).toBe(orderId(first));
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(before);
    // Past 24 hours the key is free again (Stripe's rule): a new order.
    await age(trader.userId, 24 * 3600);
    const later = await place(ORDER, 'retry-1');
    expect(later.statusCode).toBe(201);
    expect(orderId(later)).not.toBe(orderId(first));
  });

  it('refuses the key with another body after the 60 s window, placing nothing', async () => {
    const { trader, place } = await placer('api-key-other@example.com');
    expect((await place(ORDER, 'retry-2')).statusCode).toBe(201);
    await age(trader.userId, 120);
    const other = await place({ symbol: 'MSFT', action: 'sell', quantity: 5 }, 'retry-2');
    expect(other).toEqual({ statusCode: 400, error: { status: 'ValidationError', message: KEY_REUSED } });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('places one order for concurrent identical requests, also when retried after the window', async () => {
    const { trader, place } = await placer('api-key-race@example.com');
    const answers = await Promise.all(Array.from({ length: 5 }, () => place(ORDER, 'retry-3')));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map(orderId)).size).toBe(1);
    await age(trader.userId, 90);
    const retries = await Promise.all(Array.from({ length: 5 }, () => place(ORDER, 'retry-3')));
    expect(new Set([...answers, ...retries].map(orderId)).size).toBe(1);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('places one order for concurrent requests under one key with different bodies, refusing the others', async () => {
    const { trader, place } = await placer('api-key-race-other@example.com');
    const answers = await Promise.all([1, 2, 3, 4, 5].map((quantity) => place({ ...ORDER, quantity }, 'retry-4')));
    const placed = answers.filter((a) => a.statusCode === 201);
    expect(placed).toHaveLength(1);
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(refused).toEqual(
      Array.from({ length: 4 }, () => ({ statusCode: 400, error: { status: 'ValidationError', message: KEY_REUSED } })),
    );
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('keeps keys without an Idempotency-Key (client_id, body) to the hook’s dedupe window', async () => {
    const { trader, place } = await placer('api-key-window@example.com');
    expect((await place(ORDER, 'retry-4')).statusCode).toBe(201);
    expect((await place({ ...ORDER, quantity: 3 }, undefined)).statusCode).toBe(201);
    const { rows } = await t.services.db.$client.query<{ kind: string; left: number }>(
      `select left(key, 1) as kind, round(extract(epoch from expires_at - now()))::int as left from signal_keys
       where hook_id in (select id from hooks where user_id = $1) order by kind`,
      [trader.userId],
    );
    const window = t.services.config.HOOK_DEDUPE_WINDOW_S;
    expect(rows.map((r) => r.kind)).toEqual(['h', 'i']);
    expect(rows[0]?.left).toBeLessThanOrEqual(window);
    expect(rows[1]?.left).toBeGreaterThan(24 * 3600 - 60);
  });
});

it('scopes an Idempotency-Key to its account and its caller: the same key elsewhere is another order', async () => {
  const trader = await setupTrader(t, 'api-key-scope@example.com');
  const second = await activateConnector(t.services, { userId: trader.userId, address: null }, 'paper', []);
  const place = async (connectorKey: string, brokerAccount: string, client: string) =>
    placeApiOrder(t.services, t.app.signalRuntime, {
      userId: trader.userId,
      account: await requireApiAccount(t.services, trader.userId, accountId(connectorKey, brokerAccount)),
      body: JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1 }),
      idempotencyKey: 'same-key',
      client,
      caller: client,
      address: '127.0.0.1',
      receivedAt: performance.now(),
    });
  const ids = [];
  for (const [connectorKey, brokerAccount, client] of [
    [trader.connector.key, trader.accountId, 'token:1'],
    [trader.connector.key, trader.accountId, 'token:1'], // the repeat: the first order
    [trader.connector.key, trader.accountId, 'token:2'], // another token: another order
    [second.key, second.accounts[0]?.id as string, 'token:1'], // another account: another order
  ] as const) {
    const placed = await place(connectorKey, brokerAccount, client);
    if (!('order' in placed)) throw new Error(JSON.stringify(placed.error));
    ids.push(placed.order.id);
  }
  expect(ids[1]).toBe(ids[0]);
  expect(new Set(ids).size).toBe(3);
});

it('shows every leg of a combo order, not only its first', async () => {
  // Options of 2027-12-17 as written, moved to a current expiry: on the real clock they expire.
  const [long = '', short = ''] = ['SPY 271217C00500000', 'SPY 271217C00510000'].map((s) =>
    currentExample(s, Date.now()),
  );
  const padded = (symbol: string) => symbol.replace('SPY ', 'SPY   ');
  const trader = await setupTrader(t, 'api-combo@example.com');
  const account = await requireApiAccount(t.services, trader.userId, accountId(trader.connector.key, trader.accountId));
  const placed = await placeApiOrder(t.services, t.app.signalRuntime, {
    userId: trader.userId,
    account,
    body: JSON.stringify({
      legs: [
        { symbol: long, action: 'buy_to_open' },
        { symbol: short, action: 'sell_to_open' },
      ],
      quantity: 1,
    }),
    idempotencyKey: undefined,
    client: 'token:1',
    caller: 'API token',
    address: '127.0.0.1',
    receivedAt: performance.now(),
  });
  if (!('order' in placed)) throw new Error(JSON.stringify(placed.error));
  const legs = [
    expect.objectContaining({ symbol: padded(long), action: 'buy_to_open', quantity: 1 }),
    expect.objectContaining({ symbol: padded(short), action: 'sell_to_open', quantity: 1 }),
  ];
  expect(placed.order).toMatchObject({ group: 'combo', legs });
  const read = await getApiOrder(t.services, t.app.signalRuntime, trader.userId, placed.order.id);
  expect(read).toMatchObject({ group: 'combo', legs });
});
