// Fills and rejections the broker reports later: reconciliation's findings (found filled, not
// found) and a resting paper order that fills, each told once by a signed webhook.
import { type BrokerSession, createPaperBroker, type PaperOrder } from '@router/brokers';
import { sampleOrder } from '@router/brokers/paper/store-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { eventually, flakyBroker, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { paperTransaction, savePaperChanges } from '../../db/repositories/paper.repository.ts';
import { findSignalState } from '../../db/repositories/signals.repository.ts';
import { createPostgresPaperStore } from '../paper/store.ts';

let t: TestApp;
let receiver: WebhookReceiver;
const flaky = flakyBroker();
/** A broker found again by listing its recent orders, with our ids (Coinbase's way): it lists none. */
const listing = flakyBroker({ name: 'listing', knows: 'nothing' });
listing.broker = {
  ...listing.broker,
  descriptor: {
    ...listing.broker.descriptor,
    title: 'Listing Broker',
    has: { ...listing.broker.descriptor.has, listRecentOrders: true },
    clientOrderId: { maxLength: 64, pattern: '^.+$' },
  },
  listRecentOrders: async () => [],
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await startTestApp({
    env: { ALLOW_PRIVATE_WEBHOOKS: 'true' },
    authenticate: authenticateAsUserId,
    brokers: [flaky.broker, listing.broker],
    notifications: { pollMs: 25 },
  });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

async function listen(trader: Awaited<ReturnType<typeof setupTrader>>) {
  const setting = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 1, {
    url: `${receiver.url}/in`,
  });
  receiver.secret = setting.secret ?? '';
}

/** A paper trader whose webhook setting points at the receiver, with its connector's row id. */
async function listeningPaperTrader(email: string) {
  const trader = await setupTrader(t, email, { credits: 10 });
  await listen(trader);
  const pool = t.services.db.$client;
  const { rows } = await pool.query<{ id: string }>('select id from connectors where key = $1', [trader.connector.key]);
  return { trader, accountId: trader.accountId, connectorId: Number(rows[0]?.id), pool };
}

const told = (signalId: string) =>
  receiver.received.filter((r) => r.verifyError === null && r.payload?.data.signalId === signalId);

describe('events of later findings', () => {
  it('tells what reconciliation finds: an order filled, an order the broker never got', async () => {
    const trader = await setupTrader(t, 'recon@example.com', { provider: 'flaky', credits: 10 });
    await listen(trader);
    const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };
    flaky.mode = 'unknown';
    const kept = (await postSignal(t, trader.shortKey, BUY)).json().id as string;
    flaky.mode = 'lost';
    const lost = (await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 })).json().id as string;
    flaky.mode = 'fill';
    const pool = t.services.db.$client;
    await eventually(
      async () =>
        (await pool.query(`select 1 from signals where user_id = $1 and status = 'unknown'`, [trader.userId]))
          .rowCount === 2,
    );
    expect(told(kept)).toHaveLength(0);
    await t.app.signalRuntime.reconcile(0);
    await eventually(async () => told(kept).length === 2 && told(lost).length === 1);
    // Delivered side by side: either may arrive first.
    expect(
      told(kept)
        .map((r) => r.payload?.type)
        .sort(),
    ).toEqual(['order.filled', 'order.placed']);
    const filled = told(kept).find((r) => r.payload?.type === 'order.filled');
    expect(filled?.payload?.data).toMatchObject({ status: 'filled', brokerOrderId: 'FB-1', price: 10 });
    expect(told(lost)[0]?.payload).toMatchObject({
      type: 'order.rejected',
      data: { status: 'failed', message: 'Flaky Broker: the order was not found at the broker; nothing was placed' },
    });
    // Settled signals are not looked up again, so nothing is told twice.
    await t.app.signalRuntime.reconcile(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(told(kept).length + told(lost).length).toBe(3);
  });

  it("gives a signal a crash left unanswered its activity entry when reconciliation settles it: the mail's link finds it", async () => {
    const trader = await setupTrader(t, 'recon-entry@example.com', { provider: 'flaky', credits: 10 });
    await listen(trader);
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string }>('select id from connectors where key = $1', [
      trader.connector.key,
    ]);
    // Answered before the crash: its entry is written already.
    flaky.mode = 'unknown';
    const answered = (await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 3 })).json()
      .id as string;
    flaky.mode = 'fill';
    // Killed during their broker calls, a minute ago: stored, never answered, so never logged.
    // The broker has the first; the second never reached it.
    const crashed = { crashFilled00000001: 'FB-90', crashLost000000001: undefined };
    for (const [id, brokerId] of Object.entries(crashed)) {
      await pool.query(
        `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held,
           "order", request, address, created_at)
        values ($1, $2, $3, $4, $5, 'flaky', 'placing', true, $6, $6, '203.0.113.9', now() - interval '1 minute')`,
        [
          id,
          trader.userId,
          trader.hook.id,
          Number(rows[0]?.id),
          trader.accountId,
          JSON.stringify({ symbol: 'MSFT', action: 'buy', quantity: 1 }),
        ],
      );
      if (brokerId) flaky.orders.set(id, { id: brokerId, status: 'filled', status_description: 'Filled', price: 12 });
    }
    await eventually(
      async () =>
        (await pool.query(`select 1 from signals where id = $1 and status = 'unknown'`, [answered])).rowCount === 1,
    );
    // Its entry is written by the activity batch (every 200 ms); reconcile(0) must not pass before it
    // (in use, reconciliation waits HOOK_RECONCILE_AFTER_MS, 35 s), or the answered one is taken for unlogged.
    await eventually(
      async () =>
        (await pool.query(`select 1 from actions where metadata ->> 'signalId' = $1`, [answered])).rowCount === 1,
    );
    await t.app.signalRuntime.reconcile(0);
    await eventually(async () => told('crashFilled00000001').length === 2 && told('crashLost000000001').length === 1);
    const entries = async (signalId: string) =>
      (
        await pool.query<{ code: string; address: string; metadata: Record<string, unknown>; at: boolean }>(
          `select a.code, a.address, a.metadata, a.created_at = s.created_at as at from actions a
           join signals s on s.id = a.metadata ->> 'signalId'
           where a.user_id = $1 and a.metadata ->> 'signalId' = $2`,
          [trader.userId, signalId],
        )
      ).rows;
    const [filled] = await entries('crashFilled00000001');
    expect(filled).toMatchObject({
      code: 'Order',
      address: '203.0.113.9',
      at: true,
      metadata: {
        hook: { key: trader.hook.key, shortKey: trader.shortKey },
        connector: { key: trader.connector.key, providerName: 'flaky' },
        accountId: trader.accountId,
        signalId: 'crashFilled00000001',
        response: { id: 'FB-90', status: 'filled', price: 12 },
      },
    });
    expect((await entries('crashLost000000001'))[0]?.metadata.response).toEqual({
      status: 'ExecutionError',
      message: 'Flaky Broker: the order was not found at the broker; nothing was placed',
    });
    // One entry each, however often reconciliation passes: the answered one keeps its own only.
    await t.app.signalRuntime.reconcile(0);
    expect(await entries('crashFilled00000001')).toHaveLength(1);
    expect(await entries('crashLost000000001')).toHaveLength(1);
    expect(await entries(answered)).toHaveLength(1);
  });

  it('a full close whose closing order the broker never got tells that its open orders were canceled and the position is still open', async () => {
    const trader = await setupTrader(t, 'reconclose@example.com', { provider: 'listing', credits: 10 });
    await listen(trader);
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string }>('select id from connectors where key = $1', [
      trader.connector.key,
    ]);
    // Left 'placing' a minute ago: a crash after the cancels, with the closing order sent or not.
    const orders = {
      lostFullClose0000001: { symbol: 'AAPL', action: 'close', type: 'market' },
      lostPartClose0000001: { symbol: 'AAPL', action: 'close', type: 'market', quantity: 2, quantity_type: 'fixed' },
    };
    for (const [id, order] of Object.entries(orders)) {
      await pool.query(
        `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held, "order", created_at)
        values ($1, $2, $3, $4, $5, 'listing', 'placing', true, $6, now() - interval '1 minute')`,
        [id, trader.userId, trader.hook.id, Number(rows[0]?.id), trader.accountId, JSON.stringify(order)],
      );
    }
    await t.app.signalRuntime.reconcile(0);
    await eventually(async () => Object.keys(orders).every((id) => told(id).length === 1));
    expect(told('lostFullClose0000001')[0]?.payload).toMatchObject({
      type: 'order.rejected',
      data: {
        status: 'failed',
        message:
          'Listing Broker: the closing order was not found at the broker, so it was not placed and the position is still open; open orders of AAPL may have been canceled before it (check them at the broker)',
      },
    });
    // A close of part keeps the open orders: nothing changed.
    expect(told('lostPartClose0000001')[0]?.payload?.data).toMatchObject({
      message: 'Listing Broker: the order was not found at the broker; nothing was placed',
    });
  });

  it('tells a resting paper order of a signal that fills, once', async () => {
    const { trader, accountId, connectorId, pool } = await listeningPaperTrader('paper@example.com');
    const signalId = 'paperFillSignal000001';
    await pool.query(
      `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held, "order")
      values ($1, $2, $3, $4, $5, 'paper', 'accepted', true, $6)`,
      [signalId, trader.userId, trader.hook.id, connectorId, accountId, { symbol: 'AAPL', action: 'buy' }],
    );
    const order = sampleOrder(accountId, 'PO-1', { clientOrderId: signalId, createdAt: Date.now() });
    const save = (o: PaperOrder) =>
      paperTransaction(t.services.db, accountId, (tx) => savePaperChanges(tx, accountId, { orders: [o], symbols: [] }));
    await save(order);
    const filled = { ...order, status: 'filled' as const, fillPrice: 99.5, filledAt: Date.now(), reservation: 0 };
    await save(filled);
    await save(filled); // saved again (a later batch): no new event
    await eventually(async () => told(signalId).length === 1);
    expect(told(signalId)[0]?.payload).toMatchObject({
      type: 'order.filled',
      data: { signalId, status: 'filled', brokerOrderId: 'PO-1', price: 99.5, providerName: 'paper', accountId },
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(told(signalId)).toHaveLength(1);
  });

  it('moves the signal of a resting paper limit order that fills on a later price to filled, told once', async () => {
    // The signal answered 'accepted' (its order rests); the market reaches the limit later, when
    // another call sweeps the symbol: the signal reads filled (API, activity), order.filled once.
    const { trader, accountId } = await listeningPaperTrader('paper-resting@example.com');
    const placed = await postSignal(t, trader.shortKey, {
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      type: 'limit',
      limit_price: 1,
      duration: 'gtc',
    });
    // The answer's id is the paper broker's order id; the signal's own id is its client order id.
    expect(placed.json()).toMatchObject({ status: 'accepted' });
    const brokerOrderId = placed.json().id as string;
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string }>('select id from signals where user_id = $1', [trader.userId]);
    const signalId = rows[0]?.id ?? '';
    await eventually(async () => (await findSignalState(pool, signalId))?.status === 'accepted');
    // The same account on a second paper broker whose market is hand-set: at 0.5 two minutes later.
    let now = Date.now();
    const market = createPaperBroker({
      store: createPostgresPaperStore(t.services.db),
      quote: () => 0.5,
      now: () => now,
    });
    const session: BrokerSession = { secrets: {}, accounts: [{ id: accountId, name: 'Paper account', demo: true }] };
    now += 2 * 60_000;
    await market.getHoldings({ baseUrl: '' }, session, accountId);
    expect(await market.findByClientId({ baseUrl: '' }, session, accountId, signalId)).toMatchObject({
      id: brokerOrderId,
      status: 'filled',
    });
    const fills = () => told(signalId).filter((r) => r.payload?.type === 'order.filled');
    await eventually(async () => fills().length === 1);
    expect(await findSignalState(pool, signalId)).toMatchObject({
      status: 'filled',
      broker_order_id: brokerOrderId,
      price: 1, // a buy limit fills at its limit
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(fills()).toHaveLength(1);
  });

  it('tells a resting paper order of a signal that the paper broker rejects when it triggers, once', async () => {
    // A resting order that can no longer trade when the market reaches it (the buying power spent
    // meanwhile) is rejected by the paper broker: order.rejected with its message, as a live
    // broker's later rejection is told.
    const { trader, accountId, connectorId, pool } = await listeningPaperTrader('paper-rejected@example.com');
    const signalId = 'paperRejectSignal0001';
    await pool.query(
      `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held, "order")
      values ($1, $2, $3, $4, $5, 'paper', 'accepted', true, $6)`,
      [signalId, trader.userId, trader.hook.id, connectorId, accountId, { symbol: 'AAPL', action: 'buy' }],
    );
    const order = sampleOrder(accountId, 'PO-R', { clientOrderId: signalId, createdAt: Date.now() });
    const save = (o: PaperOrder) =>
      paperTransaction(t.services.db, accountId, (tx) => savePaperChanges(tx, accountId, { orders: [o], symbols: [] }));
    await save(order);
    const rejected = {
      ...order,
      status: 'rejected' as const,
      statusDescription: 'Rejected: insufficient buying power',
      reservation: 0,
    };
    await save(rejected);
    await save(rejected); // saved again (a later batch): no new event
    await eventually(async () => told(signalId).length === 1);
    expect(told(signalId)[0]?.payload).toMatchObject({
      type: 'order.rejected',
      data: {
        signalId,
        status: 'rejected',
        brokerOrderId: 'PO-R',
        providerName: 'paper',
        accountId,
        message: 'Paper Trading: Rejected: insufficient buying power',
      },
    });
    // The signal reads rejected too (it was placed: its credit stays spent, as a live broker's).
    expect(await findSignalState(pool, signalId)).toMatchObject({ status: 'rejected', broker_order_id: 'PO-R' });
    await new Promise((r) => setTimeout(r, 200));
    expect(told(signalId)).toHaveLength(1);
  });

  it('moves the signal of a resting paper order that ends canceled (a day order expired) to canceled, untold', async () => {
    // As the fill follower writes a live broker's canceled order: the API and the activity no
    // longer show it resting, and canceled after placed tells nothing.
    const { trader, accountId, connectorId, pool } = await listeningPaperTrader('paper-expired@example.com');
    const signalId = 'paperExpiredSignal001';
    await pool.query(
      `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held, "order")
      values ($1, $2, $3, $4, $5, 'paper', 'accepted', true, $6)`,
      [signalId, trader.userId, trader.hook.id, connectorId, accountId, { symbol: 'AAPL', action: 'buy' }],
    );
    const order = sampleOrder(accountId, 'PO-E', { clientOrderId: signalId, createdAt: Date.now() });
    const save = (o: PaperOrder) =>
      paperTransaction(t.services.db, accountId, (tx) => savePaperChanges(tx, accountId, { orders: [o], symbols: [] }));
    await save(order);
    await save({
      ...order,
      status: 'canceled',
      statusDescription: 'Canceled: expired at the end of the day',
      reservation: 0,
    });
    expect(await findSignalState(pool, signalId)).toMatchObject({ status: 'canceled', broker_order_id: 'PO-E' });
    await new Promise((r) => setTimeout(r, 200));
    expect(told(signalId)).toHaveLength(0);
  });

  it('finds the filled signals of a paper write by id, however many signals the user has', async () => {
    // With notification settings, the paper write's generic plan once walked every signal of the
    // user (by user_id) on each write to find the few that filled: its cost grew with the history.
    const { trader, accountId, connectorId, pool } = await listeningPaperTrader('history@example.com');
    await pool.query(
      `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, "order")
      select 'history' || lpad(n::text, 14, '0'), $1, $2, $3, $4, 'paper', 'filled', '{}'::jsonb
      from generate_series(1, 3000) n`,
      [trader.userId, trader.hook.id, connectorId, accountId],
    );
    // One of them rests (answered 'accepted'): its fill moves it to filled by id too.
    await pool.query(`update signals set status = 'accepted' where id = 'history00000000000001'`);
    const order = sampleOrder(accountId, 'PO-H', { clientOrderId: 'history00000000000001', createdAt: Date.now() });
    const read = await paperTransaction(t.services.db, accountId, async (tx) => {
      // The plan a long-prepared statement settles on, whatever this connection has cached: a
      // generic plan cached while the table held a few rows (earlier tests on this connection) may
      // seq-scan it until it is analyzed, and would count the rows before the one found.
      await tx.query('discard plans');
      await tx.query('set local plan_cache_mode = force_generic_plan');
      // The backend's counts not yet reported (earlier transactions' too): read before and after.
      const signalReads = async () =>
        Number(
          (
            await tx.query<{ read: string }>(
              `select coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0) as read
              from pg_stat_xact_user_tables where relname = 'signals'`,
            )
          ).rows[0]?.read ?? 0,
        );
      const before = await signalReads();
      await savePaperChanges(tx, accountId, { orders: [order], symbols: [] });
      const filled = { ...order, status: 'filled' as const, fillPrice: 99.5, filledAt: Date.now(), reservation: 0 };
      await savePaperChanges(tx, accountId, { orders: [filled], symbols: [] });
      const read = (await signalReads()) - before;
      const told = await tx.query(`select 1 from notification_events where data->>'signalId' = $1`, [
        order.clientOrderId,
      ]);
      const [signal] = (await tx.query(`select status, price from signals where id = $1`, [order.clientOrderId])).rows;
      return { read, told: told.rowCount, signal };
    });
    expect(read).toEqual({ read: expect.any(Number), told: 1, signal: { status: 'filled', price: 99.5 } });
    expect(read.read).toBeLessThan(10);
  });
});
