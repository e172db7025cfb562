import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import {
  balanceOf,
  eventually,
  FLAKY_TITLE,
  type FlakyBroker,
  flakyBroker,
  paperOrders,
  postSignal,
  setupTrader,
  signalRows,
} from '../../test/signal-fixtures.ts';
import { listActions } from '../modules/actions/list-actions.ts';

let t: TestApp;
let flaky: FlakyBroker;
beforeAll(async () => {
  flaky = flakyBroker();
  t = await startTestApp({ brokers: [flaky.broker] });
});
afterAll(() => t.close());
// Every case starts with a broker that fills at once, whatever an earlier case made it do.
beforeEach(() => {
  flaky.mode = 'fill';
  flaky.delayMs = 0;
});

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };

describe('exactly once', () => {
  it('answers four sequential repeats with the first answer and places one order', async () => {
    const trader = await setupTrader(t, 'repeat@example.com');
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await postSignal(t, trader.shortKey, BUY, 'text/plain'));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201]);
    for (const a of answers) expect(a.json()).toEqual(answers[0]?.json());
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(4);
  });

  it('answers 50 concurrent duplicates alike with one order and one credit', async () => {
    const trader = await setupTrader(t, 'burst@example.com');
    const body = { ...BUY, quantity: 7 };
    const answers = await Promise.all(Array.from({ length: 50 }, () => postSignal(t, trader.shortKey, body)));
    expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([201]));
    for (const a of answers) expect(a.json()).toEqual(answers[0]?.json());
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(4);
    expect(await signalRows(t, trader.userId)).toHaveLength(1);
  });

  it('treats a repeated client_id with the same order as the same signal, however the body is written', async () => {
    const trader = await setupTrader(t, 'client-id@example.com');
    const first = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'alert-1' });
    // The same order resent: another key order, spacing and a `time` the order does not keep.
    const resend = `{ "client_id": "alert-1",  "quantity": "1", "action": "buy", "symbol": "AAPL", "time": "${new Date().toISOString()}" }`;
    const second = await postSignal(t, trader.shortKey, resend);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    const third = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'alert-2' });
    expect(third.json().id).not.toBe(first.json().id);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
    expect(await balanceOf(t, trader.userId)).toBe(3);
  });

  it('refuses a client_id used again for another order within the window, placing nothing', async () => {
    const trader = await setupTrader(t, 'client-id-reused@example.com');
    const first = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'static' });
    expect(first.statusCode).toBe(201);
    const message =
      'client_id static was already used for another order within the last 60 s: give each order its own client_id';
    const sell = await postSignal(t, trader.shortKey, { ...BUY, action: 'sell', client_id: 'static' });
    expect(sell.statusCode).toBe(400);
    expect(sell.json()).toEqual({ status: 'ValidationError', message });
    const more = await postSignal(t, trader.shortKey, { ...BUY, quantity: 2, client_id: 'static' });
    expect(more.statusCode).toBe(400);
    expect(more.json()).toEqual({ status: 'ValidationError', message });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(4);
    expect(await signalRows(t, trader.userId)).toHaveLength(1);
    // Logged as refusals, each with its own body; the first order's repeat still gets its answer.
    await t.app.signalRuntime.writer.flush();
    const entries = (await listActions(t.services, trader.userId, { code: 'Order' })).map((e) =>
      JSON.parse(e.metadata),
    );
    const refused = entries.filter((m) => m.response?.status === 'ValidationError');
    expect(refused).toHaveLength(2);
    for (const m of refused) expect(m.signalId).toBeUndefined();
    expect(refused.map((m) => m.request.action ?? m.request).sort()).toEqual(['buy', 'sell']);
    const again = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'static' });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
  });

  it('answers accepted when the broker outlives the deadline, and records the outcome later', async () => {
    // An app with a short deadline, closed (and the file's app back) whatever this case's outcome.
    const main = t;
    t = await startTestApp({ brokers: [flaky.broker], env: { HOOK_DEADLINE_MS: '300' } });
    try {
      const trader = await setupTrader(t, 'slow@example.com', { provider: 'flaky' });
      flaky.mode = 'slow';
      flaky.delayMs = 700;
      const placed = flaky.calls.placeOrder;
      const res = await postSignal(t, trader.shortKey, BUY);
      // Answered at the deadline, before the broker's outcome (which would say filled): no clock
      // needed to tell it.
      expect(res.statusCode).toBe(201);
      const [signal] = await signalRows(t, trader.userId);
      expect(res.json()).toEqual({
        id: signal?.id,
        status: 'accepted',
        status_description: `Sent to ${FLAKY_TITLE}; confirmation pending`,
      });
      // A repeat while the call is still running gets the same answer and sends nothing.
      const repeat = await postSignal(t, trader.shortKey, BUY);
      expect(repeat.json()).toEqual(res.json());
      await eventually(async () => (await signalRows(t, trader.userId))[0]?.status === 'filled');
      const [done] = await signalRows(t, trader.userId);
      expect(done).toMatchObject({ credit_held: true, response: res.json() });
      expect(done?.broker_order_id).toMatch(/^FB-/);
      expect(flaky.calls.placeOrder - placed).toBe(1);
      // Past the deadline with only a read sent (IBKR's close waiting for its live orders list):
      // nothing was sent to the broker yet, and the answer does not say it was.
      flaky.mode = 'reading';
      const reading = await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 });
      const readingId = (await signalRows(t, trader.userId)).find((row) => row.id !== signal?.id)?.id;
      expect(reading.json()).toEqual({
        id: readingId,
        status: 'accepted',
        status_description: `Being sent to ${FLAKY_TITLE}; confirmation pending`,
      });
      await eventually(async () => (await signalRows(t, trader.userId)).every((row) => row.status === 'filled'));
    } finally {
      await t.close();
      t = main;
    }
  });

  it('reconciles an unknown outcome by client order id, never sending again', async () => {
    const trader = await setupTrader(t, 'unknown@example.com', { provider: 'flaky' });
    flaky.mode = 'unknown';
    const placed = flaky.calls.placeOrder;
    const res = await postSignal(t, trader.shortKey, BUY);
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe('accepted');
    await eventually(async () => (await signalRows(t, trader.userId))[0]?.status === 'unknown');
    flaky.mode = 'lost';
    const lost = await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 });
    expect(lost.json().status).toBe('accepted');
    await eventually(async () => (await signalRows(t, trader.userId)).every((s) => s.status === 'unknown'));
    expect(await balanceOf(t, trader.userId)).toBe(3);
    await t.app.signalRuntime.reconcile(0);
    const rows = await signalRows(t, trader.userId);
    const found = rows.find((s) => s.id === res.json().id);
    const missing = rows.find((s) => s.id === lost.json().id);
    expect(found).toMatchObject({ status: 'filled', credit_held: true });
    expect(missing).toMatchObject({ status: 'failed', credit_held: false });
    expect(await balanceOf(t, trader.userId)).toBe(4);
    expect(flaky.calls.placeOrder - placed).toBe(2);
  });

  it('answers a refusal 400 with the broker title and gives the credit back', async () => {
    const trader = await setupTrader(t, 'refused@example.com', { provider: 'flaky' });
    flaky.mode = 'refuse';
    const res = await postSignal(t, trader.shortKey, BUY);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'ExecutionError', message: `${FLAKY_TITLE}: insufficient buying power` });
    await eventually(async () => (await balanceOf(t, trader.userId)) === 5);
    expect((await signalRows(t, trader.userId))[0]).toMatchObject({ status: 'rejected', credit_held: false });
    const repeat = await postSignal(t, trader.shortKey, BUY);
    expect(repeat.statusCode).toBe(400);
    expect(repeat.json()).toEqual(res.json());
  });

  it('deactivates the connector when the broker rejects its credentials', async () => {
    const trader = await setupTrader(t, 'revoked@example.com', { provider: 'flaky' });
    flaky.mode = 'auth';
    const res = await postSignal(t, trader.shortKey, BUY);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'AuthenticationError', message: `${FLAKY_TITLE}: token revoked` });
    flaky.mode = 'fill';
    const next = await postSignal(t, trader.shortKey, { ...BUY, quantity: 4 });
    expect(next.json().message).toMatch(/^Broker connection is deactivated/);
    await eventually(async () => (await balanceOf(t, trader.userId)) === 5);
  });

  it('reconciles signals a crash left in flight by client order id', async () => {
    const trader = await setupTrader(t, 'crash@example.com', { provider: 'flaky' });
    const pool = t.services.db.$client;
    const connector = await connectorId(trader.connector.key);
    const insert = (id: string) =>
      pool.query(
        `with c as (update accounts set balance = balance - 1 where user_id = $2)
        insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held, created_at)
        values ($1, $2, $3, $4, 'F-1', 'flaky', 'placing', true, now() - interval '1 minute')`,
        [id, trader.userId, trader.hook.id, connector],
      );
    await insert('crashReachedBroker01');
    await insert('crashNeverSent000001');
    flaky.orders.set('crashReachedBroker01', { id: 'FB-crash', status: 'filled', price: 12 });
    expect(await balanceOf(t, trader.userId)).toBe(3);
    await t.app.signalRuntime.reconcile();
    const rows = await signalRows(t, trader.userId);
    expect(rows.find((s) => s.id === 'crashReachedBroker01')).toMatchObject({
      status: 'filled',
      broker_order_id: 'FB-crash',
      credit_held: true,
    });
    expect(rows.find((s) => s.id === 'crashNeverSent000001')).toMatchObject({ status: 'failed', credit_held: false });
    expect(await balanceOf(t, trader.userId)).toBe(4);
  });
});

async function connectorId(key: string): Promise<number> {
  const { rows } = await t.services.db.$client.query<{ id: string }>('select id from connectors where key = $1', [key]);
  return Number(rows[0]?.id);
}
