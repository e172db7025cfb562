// Reconciliation with leases: two reconcilers at once look each signal up once and settle it
// once; a claim that outlived its lease cannot overwrite the claim that took over; a signal
// nobody can look up stays unknown; a reconciler stopped during a pass ends it after the batch in
// hand, its outcomes written before stop() resolves, and starts none after. (The lookup routes themselves: reconcile-lookup.test.ts.)
import type { Broker } from '@router/brokers';
import type { OrderResponse } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import {
  balanceOf,
  eventually,
  type FlakyBroker,
  flakyBroker,
  postSignal,
  setupTrader,
  signalRows,
} from '../../../test/signal-fixtures.ts';
import { updateHook } from '../hooks/index.ts';
import { reconcileOnce, startReconciler } from './reconcile.ts';

/** A broker that finds orders by our client order id, counting lookups, each held at `gate`. */
interface Book {
  broker: Broker;
  orders: Map<string, OrderResponse>;
  /** Lookups per client order id. */
  lookups: Map<string, number>;
  gate: Promise<void>;
  /** How its placeOrder behaves (mode 'lost': no answer). */
  flaky: FlakyBroker;
}

function gatedBroker(): Book {
  const flaky = flakyBroker({ knows: 'clientId' });
  const base = flaky.broker;
  const book: Book = { broker: base, orders: new Map(), lookups: new Map(), gate: Promise.resolve(), flaky };
  book.broker = {
    ...base,
    descriptor: { ...base.descriptor, name: 'gated', title: 'Gated Broker' },
    async findByClientId(_ctx, _session, _accountId, clientOrderId) {
      book.lookups.set(clientOrderId, (book.lookups.get(clientOrderId) ?? 0) + 1);
      await book.gate;
      return book.orders.get(clientOrderId) ?? null;
    },
  };
  return book;
}

let t: TestApp;
let book: Book;
beforeAll(async () => {
  book = gatedBroker();
  t = await startTestApp({ brokers: [book.broker] });
});
afterAll(() => t.close());

const options = (owner: string) => ({ owner, inFlight: { ids: () => [] }, staleAfterMs: 0, intervalMs: 1_000 });

/** A live signal a crash left 'placing' (a minute ago: `age`), its credit taken. */
async function placing(trader: Awaited<ReturnType<typeof setupTrader>>, id: string, age = '1 minute') {
  const pool = t.services.db.$client;
  const { rows } = await pool.query<{ id: string }>('select id from connectors where key = $1', [trader.connector.key]);
  await pool.query(
    `with c as (update accounts set balance = balance - 1 where user_id = $2)
    insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held, created_at)
    values ($1, $2, $3, $4, 'F-1', 'gated', 'placing', true, now() - $5::interval)`,
    [id, trader.userId, trader.hook.id, Number(rows[0]?.id), age],
  );
}

describe('reconciliation', () => {
  it('two reconcilers at once look each signal up once and settle it once', async () => {
    const trader = await setupTrader(t, 'two@example.com', { provider: 'gated', credits: 30 });
    const ids = Array.from({ length: 25 }, (_, i) => `twoReconcilers${String(i).padStart(6, '0')}`);
    for (const [i, id] of ids.entries()) {
      if (i % 2 === 0) book.orders.set(id, { id: `T-${i}`, status: 'filled' });
      await placing(trader, id);
    }
    let open = () => {};
    book.gate = new Promise((resolve) => {
      open = resolve;
    });
    const passes = Promise.all([reconcileOnce(t.services, options('a')), reconcileOnce(t.services, options('b'))]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    open();
    await passes;
    book.gate = Promise.resolve();
    for (const id of ids) expect(book.lookups.get(id)).toBe(1);
    const rows = await signalRows(t, trader.userId);
    expect(rows.filter((s) => s.status === 'filled' && s.credit_held)).toHaveLength(13);
    expect(rows.filter((s) => s.status === 'failed' && !s.credit_held)).toHaveLength(12);
    // 30 credits, 25 taken, 12 given back.
    expect(await balanceOf(t, trader.userId)).toBe(30 - 25 + 12);
    const owners = await t.services.db.$client.query<{ lease_owner: string }>(
      'select distinct lease_owner from signals where user_id = $1',
      [trader.userId],
    );
    expect(owners.rows.map((r) => r.lease_owner).sort()).toEqual(['a', 'b']);
  });

  it('drops the outcome of a claim whose lease another claim took over', async () => {
    const trader = await setupTrader(t, 'lapsed@example.com', { provider: 'gated' });
    await placing(trader, 'lapsedLease000000001');
    const gate = () => {
      let open = () => {};
      book.gate = new Promise((resolve) => {
        open = resolve;
      });
      return open;
    };
    const lookedUp = (times: number) => eventually(async () => book.lookups.get('lapsedLease000000001') === times);
    // The slow claim waits at the broker until its lease ran out and another claim took over.
    const openSlow = gate();
    const slow = reconcileOnce(t.services, options('slow'));
    await lookedUp(1);
    await t.services.db.$client.query(`update signals set lease_until = now() - interval '1 second' where id = $1`, [
      'lapsedLease000000001',
    ]);
    const openFast = gate();
    const fast = reconcileOnce(t.services, options('fast'));
    await lookedUp(2);
    // The slow one hears "no such order" first: its claim is no longer the row's, nothing is written.
    openSlow();
    await slow;
    expect((await signalRows(t, trader.userId))[0]).toMatchObject({ status: 'placing', credit_held: true });
    book.orders.set('lapsedLease000000001', { id: 'L-1', status: 'filled' });
    openFast();
    await fast;
    book.gate = Promise.resolve();
    expect(book.lookups.get('lapsedLease000000001')).toBe(2);
    expect((await signalRows(t, trader.userId))[0]).toMatchObject({ status: 'filled', credit_held: true });
    expect(await balanceOf(t, trader.userId)).toBe(4);
  });

  it('keeps a signal nobody can look up unknown, its credit held, tells the user, and stops asking', async () => {
    const trader = await setupTrader(t, 'orphan@example.com', { provider: 'gated' });
    await placing(trader, 'orphanedSignal000001');
    // Its broker connection is gone (deleted since): nobody can tell whether the order exists.
    await t.services.db.$client.query('update signals set connector_id = -1 where id = $1', ['orphanedSignal000001']);
    expect(await reconcileOnce(t.services, options('one'))).toBe(1);
    expect(await reconcileOnce(t.services, options('two'))).toBe(0);
    const { rows } = await t.services.db.$client.query(
      'select status, credit_held, response, attempts, completed_at is not null as done from signals where id = $1',
      ['orphanedSignal000001'],
    );
    expect(rows[0]).toEqual({
      status: 'unknown',
      credit_held: true,
      response: {
        id: 'orphanedSignal000001',
        status: 'accepted',
        status_description: "Gated Broker: the order's outcome could not be confirmed; check your Gated Broker account",
      },
      attempts: 1,
      done: true,
    });
    expect(await balanceOf(t, trader.userId)).toBe(4);
  });

  it("gives back a lost signal's maxOrdersPerDay count once when it is found rejected, never one never taken", async () => {
    const trader = await setupTrader(t, 'lost-day@example.com', { provider: 'gated', credits: 10 });
    const pool = t.services.db.$client;
    const dayCount = async () =>
      (
        await pool.query<{ day_count: number }>('select day_count from hook_order_counts where hook_id = $1', [
          trader.hook.id,
        ])
      ).rows[0]?.day_count;
    const lostSignal = async (clientId: string) => {
      book.flaky.mode = 'lost';
      const answer = await postSignal(t, trader.shortKey, {
        symbol: 'AAPL',
        action: 'buy',
        quantity: 1,
        client_id: clientId,
      });
      book.flaky.mode = 'fill';
      expect(answer.json()).toMatchObject({ status: 'accepted' });
      const id = answer.json().id as string;
      await eventually(async () =>
        (await signalRows(t, trader.userId)).some((s) => s.id === id && s.status === 'unknown'),
      );
      return id;
    };
    const setRules = (rules: Record<string, unknown>) =>
      updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
        rules: JSON.stringify(rules),
      });

    // Taken before any limit was set: no count of it to give back.
    const uncounted = await lostSignal('lostDay0');
    await setRules({ maxOrdersPerDay: 2 });
    // Its cache is told by a notification: not waited for.
    t.app.signalRuntime.hooks.invalidate(trader.shortKey);
    const counted = await lostSignal('lostDay1');
    book.flaky.mode = 'fill';
    const placed = await postSignal(t, trader.shortKey, {
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      client_id: 'lostDay2',
    });
    expect(placed.statusCode).toBe(201);
    await eventually(async () => (await signalRows(t, trader.userId)).every((s) => s.status !== 'placing'));
    expect(await dayCount()).toBe(2);

    // The broker never placed either lost one.
    book.orders.set(uncounted, { id: 'R-0', status: 'rejected', status_description: 'insufficient buying power' });
    book.orders.set(counted, { id: 'R-1', status: 'rejected', status_description: 'insufficient buying power' });
    await reconcileOnce(t.services, options('day'));
    const rows = await signalRows(t, trader.userId);
    expect(rows.filter((s) => s.status === 'rejected')).toHaveLength(2);
    // Only the counted one's count is given back, once, however often reconciliation runs.
    expect(await dayCount()).toBe(1);
    await reconcileOnce(t.services, options('day-again'));
    expect(await dayCount()).toBe(1);
    // The day's second order may still go; a third may not.
    const second = await postSignal(t, trader.shortKey, {
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      client_id: 'lostDay3',
    });
    expect(second.statusCode).toBe(201);
    const third = await postSignal(t, trader.shortKey, {
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      client_id: 'lostDay4',
    });
    expect(third.json()).toMatchObject({ rule: 'maxOrdersPerDay' });
  });

  it('stopped during a pass, ends it after the batch in hand with its outcomes written, and starts no other', async () => {
    const trader = await setupTrader(t, 'stopping@example.com', { provider: 'gated', credits: 20 });
    const ids = Array.from({ length: 15 }, (_, i) => `stopMidPass${String(i).padStart(9, '0')}`);
    for (const id of ids) {
      book.orders.set(id, { id: `S-${id}`, status: 'filled' });
      // Just now: the app's own reconciler (35 s) leaves them to this one.
      await placing(trader, id, '0 seconds');
    }
    let open = () => {};
    book.gate = new Promise((resolve) => {
      open = resolve;
    });
    const reconciler = startReconciler(t.services, { ...options('stopping'), intervalMs: 60_000 });
    const atBroker = () => ids.filter((id) => book.lookups.has(id)).length;
    // The first batch's first lookups are held at the broker.
    await eventually(async () => atBroker() === 5);
    const stopped = reconciler.stop();
    open();
    await stopped;
    book.gate = Promise.resolve();
    const settled = async () => (await signalRows(t, trader.userId)).filter((s) => s.status === 'filled').length;
    // Written before stop() resolved (the pool closes next), and not one batch more.
    expect(await settled()).toBe(10);
    expect(atBroker()).toBe(10);
    expect(await reconciler.runOnce(0)).toBe(0);
    expect(await settled()).toBe(10);
    expect(atBroker()).toBe(10);
  });
});
