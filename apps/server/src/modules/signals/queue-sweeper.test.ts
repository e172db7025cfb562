// The queue sweeper stopped (the server shutting down) while it places a backlog due at one
// opening: it ends after the batch in hand, leaving the rest queued and claimed by nobody, so the
// next pass (of this or another instance) places each of them once. The runtime's stop tells it
// at once, not after the other passes (a reconciliation held at a broker) have ended.
import type { Broker } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import {
  balanceOf,
  eventually,
  flakyBroker,
  paperOrders,
  postSignal,
  setupTrader,
} from '../../../test/signal-fixtures.ts';
import { closedToday, nextMidnight } from '../../../test/trading-windows.ts';
import { updateHook } from '../hooks/index.ts';
import { startQueueSweeper } from './queue-sweeper.ts';

/** A broker whose order lookups wait for `open()`. */
const flaky = flakyBroker();
let open = () => {};
const gate = new Promise<void>((resolve) => {
  open = resolve;
});
const gated: Broker = {
  ...flaky.broker,
  descriptor: { ...flaky.broker.descriptor, name: 'gated' },
  async findByClientId() {
    await gate;
    return null;
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ brokers: [gated] });
});
afterAll(async () => {
  open();
  await t.close();
});

/** A trader with 45 signals queued until midnight; `rows(status, owner?)` counts theirs ('*': any claim). */
async function backlog(email: string) {
  const trader = await setupTrader(t, email, { credits: 60 });
  await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
    rules: JSON.stringify({ tradingWindows: closedToday(), outsideWindow: 'queue', maxLagSeconds: 30 }),
  });
  for (let i = 0; i < 45; i++) {
    const body = { symbol: 'AAPL', action: 'buy', quantity: 1, time: new Date().toISOString(), client_id: `s-${i}` };
    expect((await postSignal(t, trader.shortKey, body)).statusCode).toBe(202);
  }
  const rows = async (status: string, owner?: string) =>
    (
      await t.services.db.$client.query<{ n: number }>(
        `select count(*)::int as n from queued_signals
        where user_id = $1 and status = $2
          and ($3::text is null or lease_owner = $3 or ($3 = '*' and lease_until > now()))`,
        [trader.userId, status, owner ?? null],
      )
    ).rows[0]?.n;
  return { trader, rows };
}

/** The trader's credits row held by another session: placements wait on it until released (once). */
async function holdCredits(userId: number): Promise<() => Promise<void>> {
  const holder = await t.services.db.$client.connect();
  await holder.query('begin');
  await holder.query('select 1 from accounts where user_id = $1 for update', [userId]);
  let held = true;
  return async () => {
    if (!held) return;
    held = false;
    await holder.query('commit');
    holder.release();
  };
}

describe('the queue sweeper stopped during a backlog', () => {
  it('places the batch in hand, leaves the rest queued unclaimed, and the next pass places each once', async () => {
    const { trader, rows } = await backlog('queue-stop@example.com');
    const release = await holdCredits(trader.userId);
    const sweeper = startQueueSweeper(t.app.signalRuntime, 'stopping', 60_000);
    try {
      const pass = sweeper.runOnce(nextMidnight());
      await eventually(async () => (await rows('queued', 'stopping')) === 20);
      const stopped = sweeper.stop();
      await release();
      expect(await pass).toBe(20);
      await stopped;
    } finally {
      await release();
    }
    expect(await paperOrders(t, trader.accountId)).toHaveLength(20);
    expect(await rows('placed')).toBe(20);
    expect(await rows('queued', 'stopping')).toBe(0);
    expect(await sweeper.runOnce(nextMidnight())).toBe(0);
    // The next pass (the next start, or another instance) places the rest, each once.
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBe(25);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(45);
    expect(await rows('placed')).toBe(45);
    expect(await balanceOf(t, trader.userId)).toBe(60 - 45);
  });

  // Stops the app's runtime: the last case.
  it('is told by the runtime stop at once, not after a reconciliation pass held at a broker ends', async () => {
    const rt = t.app.signalRuntime;
    const lost = await setupTrader(t, 'queue-stop-lost@example.com', { provider: 'gated' });
    const { rows: connector } = await t.services.db.$client.query<{ id: string }>(
      'select id from connectors where key = $1',
      [lost.connector.key],
    );
    await t.services.db.$client.query(
      `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held, created_at)
      values ('queueStopLost0000001', $1, $2, $3, 'F-1', 'gated', 'placing', true, now() - interval '1 minute')`,
      [lost.userId, lost.hook.id, Number(connector[0]?.id)],
    );
    const reconciling = rt.reconcile();
    const { trader, rows } = await backlog('queue-stop-runtime@example.com');
    const release = await holdCredits(trader.userId);
    try {
      const pass = rt.sweepQueue(nextMidnight());
      await eventually(async () => (await rows('queued', '*')) === 20);
      const stopped = rt.stop();
      await release();
      expect(await pass).toBe(20);
      expect(await rows('placed')).toBe(20);
      open();
      await reconciling;
      await stopped;
      expect(await rows('queued')).toBe(25);
    } finally {
      await release();
      open();
    }
  });
});
