// A queued signal refused at its opening is told (signal.refused) and logged once, though the
// claim that refused it fails before its end is written: the refusal's entry and event are
// written in the transaction that ends the claim, so the claim taken over after the lease tells it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { gqlAs } from '../../../test/activity-fixtures.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { eventually, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { closedToday, nextMidnight } from '../../../test/trading-windows.ts';
import { listActions } from '../actions/list-actions.ts';
import { updateHook } from '../hooks/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

it('a queued signal refused by a claim whose end failed is told and logged once, by the claim taken over', async () => {
  const trader = await setupTrader(t, 'queued-refused-once@example.com', { credits: 10 });
  await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
    rules: JSON.stringify({ tradingWindows: closedToday(), outsideWindow: 'queue', maxLagSeconds: 30 }),
  });
  await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
    email: 'queued-refused-once@example.com',
    events: ['signal.refused'],
  });
  const body = { symbol: 'AAPL', action: 'buy', quantity: 1, time: new Date().toISOString() };
  expect((await postSignal(t, trader.shortKey, body)).statusCode).toBe(202);
  // The kill switch refuses it at the opening.
  await gqlAs(t, trader.headers, 'mutation { hooksPause(reason: "CPI day") }');
  await eventually(async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.pausedReason === 'CPI day');
  const pool = t.services.db.$client;
  // The claim's end fails (as a crash or an outage between refusing and writing its end would).
  await pool.query(`create function queued_end_fails() returns trigger language plpgsql as $$
    begin if new.status = 'refused' and new.user_id = ${trader.userId} then raise exception 'injected'; end if;
    return new; end $$`);
  await pool.query(`create trigger queued_end_fails before update on queued_signals
    for each row execute function queued_end_fails()`);
  try {
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBe(1);
    await t.app.signalRuntime.writer.flush();
  } finally {
    await pool.query('drop trigger queued_end_fails on queued_signals');
    await pool.query('drop function queued_end_fails()');
  }
  // Its lease runs out: the next claim refuses it again.
  await pool.query(
    "update queued_signals set lease_until = now() - interval '1 second' where user_id = $1 and status = 'queued'",
    [trader.userId],
  );
  expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBe(1);
  await t.app.signalRuntime.writer.flush();
  const { rows } = await pool.query<{ status: string }>('select status from queued_signals where user_id = $1', [
    trader.userId,
  ]);
  expect(rows).toEqual([{ status: 'refused' }]);
  const events = await pool.query(
    `select data from notification_events where user_id = $1 and type = 'signal.refused'`,
    [trader.userId],
  );
  expect(events.rows).toHaveLength(1);
  const entries = await listActions(t.services, trader.userId, { code: 'Order' });
  expect(entries.map((entry) => entry.trade?.result)).toEqual(['refused', 'queued']);
});
