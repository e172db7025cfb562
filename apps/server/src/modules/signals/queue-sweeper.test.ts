// The queue sweeper stopped (the server shutting down) while it places a backlog due at one
// opening: it ends after the batch in hand, leaving the rest queued and claimed by nobody, so the
// next pass (of this or another instance) places each of them once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { balanceOf, eventually, paperOrders, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { updateHook } from '../hooks/index.ts';
import { startQueueSweeper } from './queue-sweeper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** Windows on every day but today (UTC): a signal now is queued until 00:00 UTC. */
const closedToday = () => {
  const today = DAYS[new Date().getUTCDay()];
  return [{ days: DAYS.filter((d) => d !== today), from: '00:00', to: '24:00', timeZone: 'UTC' }];
};
const nextMidnight = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
};

describe('the queue sweeper stopped during a backlog', () => {
  it('places the batch in hand, leaves the rest queued unclaimed, and the next pass places each once', async () => {
    const trader = await setupTrader(t, 'queue-stop@example.com', { credits: 60 });
    await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
      rules: JSON.stringify({ tradingWindows: closedToday(), outsideWindow: 'queue', maxLagSeconds: 30 }),
    });
    for (let i = 0; i < 45; i++) {
      const body = { symbol: 'AAPL', action: 'buy', quantity: 1, time: new Date().toISOString(), client_id: `s-${i}` };
      expect((await postSignal(t, trader.shortKey, body)).statusCode).toBe(202);
    }
    const pool = t.services.db.$client;
    const rows = async (status: string, owner?: string) =>
      (
        await pool.query<{ n: number }>(
          `select count(*)::int as n from queued_signals
          where user_id = $1 and status = $2 and ($3::text is null or lease_owner = $3)`,
          [trader.userId, status, owner ?? null],
        )
      ).rows[0]?.n;
    // The credits row held: the first batch's placements wait on it while the sweeper is stopped.
    const holder = await pool.connect();
    await holder.query('begin');
    await holder.query('select 1 from accounts where user_id = $1 for update', [trader.userId]);
    const sweeper = startQueueSweeper(t.app.signalRuntime, 'stopping', 60_000);
    const pass = sweeper.runOnce(nextMidnight());
    await eventually(async () => (await rows('queued', 'stopping')) === 20);
    const stopped = sweeper.stop();
    await holder.query('commit');
    holder.release();
    expect(await pass).toBe(20);
    await stopped;
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
});
