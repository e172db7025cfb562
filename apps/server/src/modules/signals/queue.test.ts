// outsideWindow: "queue" on the real hook endpoint (paper broker, real PostgreSQL): a signal
// outside every window is answered 202 and kept; at the window's opening it is placed exactly
// once (after a restart, with two instances claiming, after a claim lost mid-way), with every
// control applied then and one credit; it can be listed and cancelled; the kill switch refuses it
// at placement, logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlAs } from '../../../test/activity-fixtures.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { balanceOf, eventually, paperOrders, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { closedToday, DAYS, nextMidnight } from '../../../test/trading-windows.ts';
import { listActions } from '../actions/list-actions.ts';
import { deactivateConnector } from '../connectors/deactivate.ts';
import { updateHook } from '../hooks/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

const QUEUE = () => ({ tradingWindows: closedToday(), outsideWindow: 'queue', maxLagSeconds: 30 });
const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };
const fresh = (fields: Record<string, unknown> = {}) => ({ ...BUY, time: new Date().toISOString(), ...fields });

async function queuer(email: string, rules: Record<string, unknown> = QUEUE(), credits = 10) {
  const trader = await setupTrader(t, email, { credits });
  await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
    rules: JSON.stringify(rules),
  });
  return trader;
}

async function queuedRows(userId: number) {
  const { rows } = await t.services.db.$client.query<{
    id: string;
    status: string;
    response: { id?: string; status?: string; rule?: string } | null;
  }>('select id, status, response from queued_signals where user_id = $1 order by created_at', [userId]);
  return rows;
}

describe('outsideWindow: "queue"', () => {
  it('answers 202 with when it will be placed, logs it queued, places nothing and takes no credit', async () => {
    const trader = await queuer('queued@example.com');
    const answer = await postSignal(t, trader.shortKey, fresh({ client_id: 'q-1' }));
    expect(answer.statusCode).toBe(202);
    const body = answer.json();
    expect(body).toMatchObject({ status: 'queued', place_at: nextMidnight().toISOString() });
    expect(body.status_description).toBe(
      `Outside this webhook's trading windows: queued, to be placed when its window opens at ${nextMidnight().toISOString()}`,
    );
    // A repeat while queued is the same queued signal.
    expect((await postSignal(t, trader.shortKey, fresh({ client_id: 'q-1' }))).json().id).toBe(body.id);
    expect(await queuedRows(trader.userId)).toHaveLength(1);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    expect(await balanceOf(t, trader.userId)).toBe(10);
    await t.app.signalRuntime.writer.flush();
    const [entry] = await listActions(t.services, trader.userId, { code: 'Order' });
    expect(JSON.parse(entry?.metadata ?? '{}')).toMatchObject({ response: { status: 'queued', id: body.id } });
    // Its activity entry reads queued, not refused, and the Result filter finds it so.
    expect(entry?.trade).toMatchObject({ result: 'queued', status: 'queued', symbol: 'AAPL' });
    const results = async (result: string) =>
      (await listActions(t.services, trader.userId, { code: 'Order', result })).map((action) => action.trade?.result);
    expect(await results('queued')).toEqual(['queued', 'queued']); // the call and its repeat
    expect(await results('refused')).toEqual([]);
    // Nothing is due before the window opens.
    expect(await t.app.signalRuntime.sweepQueue(new Date(nextMidnight().getTime() - 60_000))).toBe(0);
  });

  it('places a backlog due at one opening in one pass, not 20 a pass', async () => {
    const trader = await queuer('backlog@example.com', QUEUE(), 60);
    for (let i = 0; i < 45; i++) {
      expect((await postSignal(t, trader.shortKey, fresh({ client_id: `b-${i}` }))).statusCode).toBe(202);
    }
    // Other cases' signals due then go too.
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBeGreaterThanOrEqual(45);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(45);
    expect((await queuedRows(trader.userId)).every((row) => row.status === 'placed')).toBe(true);
  });

  it('places a queued signal at the instant it is due, not at the next regular pass', async () => {
    const trader = await queuer('instant@example.com');
    expect((await postSignal(t, trader.shortKey, fresh({ client_id: 'w-1' }))).statusCode).toBe(202);
    // Due at midnight: later than the next regular pass, so nothing is set up for it yet.
    expect(t.app.signalRuntime.queueWakesAt()).toBeNull();
    // Now its window opens in a moment.
    await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
      rules: JSON.stringify({
        ...QUEUE(),
        tradingWindows: [{ days: DAYS, from: '00:00', to: '24:00', timeZone: 'UTC' }],
      }),
    });
    const releaseAt = new Date(Date.now() + 1_000);
    await t.services.db.$client.query('update queued_signals set release_at = $1 where user_id = $2', [
      releaseAt,
      trader.userId,
    ]);
    // A pass (the regular one every few seconds) finds it due before the next: a pass is set up
    // for that instant. queue.ts tells the sweeper the same way when it queues one.
    expect(await t.app.signalRuntime.sweepQueue()).toBe(0);
    expect(t.app.signalRuntime.queueWakesAt()).toEqual(releaseAt);
    await eventually(async () => (await queuedRows(trader.userId))[0]?.status === 'placed', 10_000);
    // Never before its time.
    expect(Date.now()).toBeGreaterThanOrEqual(releaseAt.getTime());
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('follows windows changed while it waits: placed at once when they now open earlier (open now) or are gone', async () => {
    const trader = await queuer('queued-earlier@example.com');
    const actor = { userId: trader.userId, address: null };
    const cachedDays = async (days: number | undefined) =>
      (await t.app.signalRuntime.hooks.get(trader.shortKey))?.rules?.windows?.[0]?.days.size === days;
    expect((await postSignal(t, trader.shortKey, fresh({ client_id: 'earlier-1' }))).statusCode).toBe(202);
    // The trader opens the window on every day: it is open now, so the signal is due now, not at
    // the midnight stored when it was queued.
    const always = [{ days: DAYS, from: '00:00', to: '24:00', timeZone: 'UTC' }];
    await updateHook(t.services, actor, trader.hook.key, {
      rules: JSON.stringify({ tradingWindows: always, outsideWindow: 'queue' }),
    });
    await eventually(() => cachedDays(7));
    await t.app.signalRuntime.sweepQueue(new Date());
    expect((await queuedRows(trader.userId)).map((row) => row.status)).toEqual(['placed']);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);

    // Queued again under closed windows, then the windows are removed: due at once too.
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(QUEUE()) });
    await eventually(() => cachedDays(6));
    expect((await postSignal(t, trader.shortKey, fresh({ client_id: 'earlier-2' }))).statusCode).toBe(202);
    await updateHook(t.services, actor, trader.hook.key, { rules: '{}' });
    await eventually(async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.rules === null);
    await t.app.signalRuntime.sweepQueue(new Date());
    expect((await queuedRows(trader.userId)).map((row) => row.status)).toEqual(['placed', 'placed']);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
    expect(await balanceOf(t, trader.userId)).toBe(8);
  });

  it('judges a signal moved by new settings on the hook as stored, not on the windows an instance still caches', async () => {
    const trader = await queuer('queued-cached@example.com');
    expect((await postSignal(t, trader.shortKey, fresh({ client_id: 'cached-1' }))).statusCode).toBe(202);
    // Another instance caches the hook with its windows closed today.
    const second = await startTestApp({ database: t.database });
    try {
      const cachedDays = async () =>
        (await second.app.signalRuntime.hooks.get(trader.shortKey))?.rules?.windows?.[0]?.days.size;
      expect(await cachedDays()).toBe(6);
      // The windows saved open now and the signal moved to now, as hookUpdate does, before that
      // instance hears of it (no notification here).
      const always = [{ days: DAYS, from: '00:00', to: '24:00', timeZone: 'UTC' }];
      const pool = t.services.db.$client;
      await pool.query('update hooks set rules = $1::jsonb where short_key = $2', [
        JSON.stringify({ tradingWindows: always, outsideWindow: 'queue' }),
        trader.shortKey,
      ]);
      await pool.query('update queued_signals set release_at = now() where user_id = $1', [trader.userId]);
      expect(await cachedDays()).toBe(6);
      await second.app.signalRuntime.sweepQueue(new Date());
      // This instance's regular pass may have claimed it first, on its own stale cache (it cached
      // the hook when the signal came in): either way it is placed, once, not put back.
      await eventually(async () => (await queuedRows(trader.userId))[0]?.status === 'placed', 10_000);
      expect((await queuedRows(trader.userId)).map((row) => row.status)).toEqual(['placed']);
      expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('refuses on arrival what can be judged then: a stale signal, an unreadable order, a limit', async () => {
    const trader = await queuer('queued-refused@example.com', { ...QUEUE(), maxQuantity: 5 });
    const stale = await postSignal(t, trader.shortKey, { ...BUY, time: new Date(Date.now() - 120_000).toISOString() });
    expect(stale.json()).toMatchObject({ rule: 'maxLagSeconds' });
    expect((await postSignal(t, trader.shortKey, fresh({ action: 'hold' }))).statusCode).toBe(400);
    expect((await postSignal(t, trader.shortKey, fresh({ quantity: 6 }))).json()).toMatchObject({
      rule: 'maxQuantity',
    });
    expect(await queuedRows(trader.userId)).toHaveLength(0);
  });

  it('queues a sell over maxQuantity that is the way out of the long held, judged again at the opening', async () => {
    const trader = await queuer('queued-way-out@example.com', {});
    expect((await postSignal(t, trader.shortKey, { ...BUY, quantity: 8 })).statusCode).toBe(201);
    await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
      rules: JSON.stringify({ ...QUEUE(), maxQuantity: 5 }),
    });
    // The hook is cached from the buy: wait for hook_changed to reach this instance.
    await eventually(async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.rules?.maxQuantity === 5);
    expect((await postSignal(t, trader.shortKey, fresh({ action: 'sell', quantity: 6 }))).statusCode).toBe(202);
    // Past the long held (it would open a short), or a buy growing it: refused on arrival.
    const past = await postSignal(t, trader.shortKey, fresh({ action: 'sell', quantity: 9 }));
    expect(past.json()).toMatchObject({ rule: 'maxQuantity' });
    expect((await postSignal(t, trader.shortKey, fresh({ quantity: 6 }))).json()).toMatchObject({
      rule: 'maxQuantity',
    });
    expect(await queuedRows(trader.userId)).toHaveLength(1);
  });

  it('a repeat of a signal placed in its window, arriving once the window has closed, is that repeat: never queued and placed again', async () => {
    const always = [{ days: DAYS, from: '00:00', to: '24:00', timeZone: 'UTC' }];
    const trader = await queuer('queued-repeat-after-close@example.com', {
      tradingWindows: always,
      outsideWindow: 'queue',
    });
    const alert = { ...BUY, client_id: 'close-1' };
    const first = await postSignal(t, trader.shortKey, alert);
    expect(first.statusCode).toBe(201);
    // The window closes; the sender's retry of the same alert comes within the dedupe window.
    await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
      rules: JSON.stringify({ tradingWindows: closedToday(), outsideWindow: 'queue' }),
    });
    await eventually(
      async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.rules?.windows?.[0]?.days.size === 6,
    );
    const repeat = await postSignal(t, trader.shortKey, alert);
    expect(repeat.statusCode).toBe(201);
    expect(repeat.json()).toEqual(first.json());
    expect(await queuedRows(trader.userId)).toHaveLength(0);
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(9);
  });

  it('the same signal sent several times at once is queued once, each answered 202 with it', async () => {
    const trader = await queuer('queued-at-once@example.com');
    const alert = fresh({ client_id: 'once-1' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => postSignal(t, trader.shortKey, alert)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(202));
    const [row, ...others] = await queuedRows(trader.userId);
    expect(others).toHaveLength(0);
    expect(new Set(answers.map((a) => a.json().id))).toEqual(new Set([row?.id]));
  });

  it('survives a restart: queued by one instance, placed once by a fresh one at the opening, one credit', async () => {
    const trader = await queuer('queued-restart@example.com');
    const first = await startTestApp({ database: t.database });
    const queued = (await postSignal(first, trader.shortKey, fresh())).json();
    await first.close();
    // Hours later the window opens; the signal is older than maxLagSeconds by then: placed anyway.
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBeGreaterThanOrEqual(1);
    const orders = await paperOrders(t, trader.accountId);
    expect(orders).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(9);
    const [row] = await queuedRows(trader.userId);
    expect(row).toMatchObject({ id: queued.id, status: 'placed', response: { status: 'filled' } });
    const signals = await t.services.db.$client.query('select id from signals where user_id = $1', [trader.userId]);
    expect(signals.rows).toEqual([{ id: orders[0]?.client_order_id }]);
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBe(0);
  });

  it('two instances claiming at once place each queued signal once; a lost claim taken over repeats, never re-places', async () => {
    const trader = await queuer('queued-two@example.com');
    // Other cases' signals due at the opening go first, so the counts below are this case's.
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    for (const id of ['a', 'b', 'c', 'd']) {
      expect((await postSignal(t, trader.shortKey, fresh({ client_id: id }))).statusCode).toBe(202);
    }
    const second = await startTestApp({ database: t.database });
    try {
      const claimed = await Promise.all([
        t.app.signalRuntime.sweepQueue(nextMidnight()),
        second.app.signalRuntime.sweepQueue(nextMidnight()),
      ]);
      expect(claimed[0] + claimed[1]).toBe(4);
      expect(await paperOrders(t, trader.accountId)).toHaveLength(4);
      expect(await balanceOf(t, trader.userId)).toBe(6);
      // A claim that placed its signal and died before writing so: its lease runs out, the next
      // claim sends it again, and the signal path answers it as a repeat.
      const [lost] = await queuedRows(trader.userId);
      await t.services.db.$client.query(
        "update queued_signals set status = 'queued', lease_until = now() - interval '1 second' where id = $1",
        [lost?.id],
      );
      expect(await second.app.signalRuntime.sweepQueue(nextMidnight())).toBe(1);
      expect(await paperOrders(t, trader.accountId)).toHaveLength(4);
      expect(await balanceOf(t, trader.userId)).toBe(6);
      expect((await queuedRows(trader.userId)).map((r) => r.status)).toEqual(Array(4).fill('placed'));
    } finally {
      await second.close();
    }
  });

  it('a lost claim taken over after the key window ran out finds the placed signal and places nothing', async () => {
    const trader = await queuer('queued-late-takeover@example.com');
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    expect((await postSignal(t, trader.shortKey, fresh({ client_id: 'late-1' }))).statusCode).toBe(202);
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBe(1);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    const [lost] = await queuedRows(trader.userId);
    // The claim died before writing its end; its 60 s lease ran out, and so did the key's 60 s
    // window (HOOK_DEDUPE_WINDOW_S) that began a moment after the claim.
    await t.services.db.$client.query(
      "update queued_signals set status = 'queued', lease_until = now() - interval '1 second' where id = $1",
      [lost?.id],
    );
    await t.services.db.$client.query(
      "update signal_keys set expires_at = now() - interval '1 second' where hook_id = $1",
      [trader.hook.id],
    );
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBe(1);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(9);
    expect(await queuedRows(trader.userId)).toMatchObject([{ status: 'placed', response: { status: 'filled' } }]);
  });

  it('a lost claim taken over logs the placement its crashed claim had not logged yet, once', async () => {
    const trader = await queuer('queued-takeover-log@example.com');
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    expect((await postSignal(t, trader.shortKey, fresh({ client_id: 'log-1' }))).statusCode).toBe(202);
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBe(1);
    await t.app.signalRuntime.writer.flush();
    const [lost] = await queuedRows(trader.userId);
    const signals = await t.services.db.$client.query<{ id: string }>('select id from signals where user_id = $1', [
      trader.userId,
    ]);
    const signalId = signals.rows[0]?.id ?? '';
    expect(signals.rows).toHaveLength(1);
    // The claim placed it and died before its row's end and its activity entry were written.
    await t.services.db.$client.query(
      "update queued_signals set status = 'queued', lease_until = now() - interval '1 second' where id = $1",
      [lost?.id],
    );
    await t.services.db.$client.query("delete from actions where user_id = $1 and metadata ->> 'signalId' = $2", [
      trader.userId,
      signalId,
    ]);
    const placements = async () => {
      await t.app.signalRuntime.writer.flush();
      return listActions(t.services, trader.userId, { code: 'Order', signalId });
    };
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBe(1);
    const logged = await placements();
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0]?.metadata ?? '{}')).toMatchObject({ signalId, response: { status: 'filled' } });
    // Taken over again (its entry written this time): not logged twice.
    await t.services.db.$client.query(
      "update queued_signals set status = 'queued', lease_until = now() - interval '1 second' where id = $1",
      [lost?.id],
    );
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBe(1);
    expect(await placements()).toHaveLength(1);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('cannot cancel a signal a lost claim already placed: the next claim writes it placed', async () => {
    const trader = await queuer('queued-cancel-placed@example.com');
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    const queued = (await postSignal(t, trader.shortKey, fresh({ client_id: 'cp-1' }))).json();
    expect(await t.app.signalRuntime.sweepQueue(nextMidnight())).toBe(1);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    // The claim placed it and died before writing so; its lease ran out.
    await t.services.db.$client.query(
      "update queued_signals set status = 'queued', lease_until = now() - interval '1 second' where id = $1",
      [queued.id],
    );
    const CANCEL = 'mutation($id: String!) { queuedSignalCancel(id: $id) { id status } }';
    const cancel = await gqlAs(t, trader.headers, CANCEL, { id: queued.id });
    expect(cancel.errors?.[0]?.message).toBe('Queued signal cannot be cancelled: it is being placed now');
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    expect(await queuedRows(trader.userId)).toMatchObject([{ status: 'placed', response: { status: 'filled' } }]);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(9);
  });

  it('applies the controls as they are at placement, and the windows as they are then', async () => {
    const trader = await queuer('queued-rules@example.com');
    expect((await postSignal(t, trader.shortKey, fresh({ quantity: 3 }))).statusCode).toBe(202);
    await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
      rules: JSON.stringify({ ...QUEUE(), maxQuantity: 2 }),
    });
    await eventually(async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.rules?.maxQuantity === 2);
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    expect(await queuedRows(trader.userId)).toMatchObject([{ status: 'refused', response: { rule: 'maxQuantity' } }]);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    expect(await balanceOf(t, trader.userId)).toBe(10);
  });

  /** The hook's windows change meanwhile (tomorrow closed too, outside refused); the sweep runs at the opening. */
  async function refuseAtOpening(trader: Awaited<ReturnType<typeof queuer>>) {
    const tomorrow = DAYS[nextMidnight().getUTCDay()];
    const [window] = closedToday();
    const days = window?.days.filter((d) => d !== tomorrow);
    await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
      rules: JSON.stringify({ ...QUEUE(), tradingWindows: [{ ...window, days }], outsideWindow: 'refuse' }),
    });
    await eventually(
      async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.rules?.settings.outsideWindow === 'refuse',
    );
    await t.app.signalRuntime.sweepQueue(nextMidnight());
  }

  it('tells signal.refused when the windows, changed meanwhile, refuse a queued signal at its opening', async () => {
    // Queued when sent; its hook's rules then changed to refuse outside the windows: at the
    // opening it becomes no order, and the trader hears of it as of any other refused signal.
    const trader = await queuer('queued-window-refused@example.com');
    await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'trader@example.com',
      events: ['signal.refused'],
    });
    expect((await postSignal(t, trader.shortKey, fresh())).statusCode).toBe(202);
    await refuseAtOpening(trader);
    expect(await queuedRows(trader.userId)).toMatchObject([
      { status: 'refused', response: { rule: 'tradingWindows' } },
    ]);
    await t.app.signalRuntime.writer.flush();
    const { rows } = await t.services.db.$client.query<{ data: Record<string, unknown> }>(
      `select data from notification_events where user_id = $1 and type = 'signal.refused'`,
      [trader.userId],
    );
    expect(rows).toMatchObject([{ data: { reason: 'refused', rule: 'tradingWindows', accountId: trader.accountId } }]);
  });

  it('logs the refusal when the windows, changed meanwhile, refuse a queued signal at its opening', async () => {
    // The trader saw it queued in the activity log; its end must be there too, not only queued.
    const trader = await queuer('queued-window-logged@example.com');
    expect((await postSignal(t, trader.shortKey, fresh())).statusCode).toBe(202);
    await refuseAtOpening(trader);
    expect(await queuedRows(trader.userId)).toMatchObject([{ status: 'refused' }]);
    await t.app.signalRuntime.writer.flush();
    const entries = await listActions(t.services, trader.userId, { code: 'Order' });
    expect(entries.map((entry) => entry.trade?.result)).toEqual(['refused', 'queued']);
    expect(JSON.parse(entries[0]?.metadata ?? '{}')).toMatchObject({
      response: { rule: 'tradingWindows' },
      request: { symbol: 'AAPL' },
    });
  });

  it('logs the refusal of a queued signal whose broker connection was deactivated before its opening', async () => {
    const trader = await queuer('queued-connector-off@example.com');
    expect((await postSignal(t, trader.shortKey, fresh())).statusCode).toBe(202);
    const { rows } = await t.services.db.$client.query<{ id: number }>('select id from connectors where key = $1', [
      trader.connector.key,
    ]);
    expect(await deactivateConnector(t.services, rows[0]?.id ?? 0, 'token revoked')).toBe(true);
    await eventually(async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.connectorActive === false);
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    expect(await queuedRows(trader.userId)).toMatchObject([{ status: 'refused' }]);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    await t.app.signalRuntime.writer.flush();
    // Not only 'queued': the log tells what became of it.
    const entries = await listActions(t.services, trader.userId, { code: 'Order' });
    expect(entries.map((entry) => entry.trade?.result)).toEqual(['refused', 'queued']);
    expect(entries[0]?.description).toContain('call failed');
  });

  it('the kill switch refuses a queued signal at its opening, logged, nothing placed or charged', async () => {
    const trader = await queuer('queued-paused@example.com');
    expect((await postSignal(t, trader.shortKey, fresh())).statusCode).toBe(202);
    await gqlAs(t, trader.headers, 'mutation { hooksPause(reason: "CPI day") }');
    await eventually(async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.pausedReason === 'CPI day');
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    expect(await queuedRows(trader.userId)).toMatchObject([{ status: 'refused', response: { rule: 'paused' } }]);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    expect(await balanceOf(t, trader.userId)).toBe(10);
    await t.app.signalRuntime.writer.flush();
    const [entry] = await listActions(t.services, trader.userId, { code: 'Order' });
    expect(JSON.parse(entry?.metadata ?? '{}')).toMatchObject({ response: { rule: 'paused' } });
  });

  it('lists the caller’s queued signals and cancels one before its opening; not another user’s', async () => {
    const trader = await queuer('queued-cancel@example.com');
    const other = await queuer('queued-other@example.com');
    const queued = (await postSignal(t, trader.shortKey, fresh())).json();
    const LIST = '{ queuedSignals { id status placeAt hookKey order } }';
    const list = await gqlAs<{
      queuedSignals: Array<{ id: string; status: string; placeAt: number; hookKey: string }>;
    }>(t, trader.headers, LIST);
    expect(list.data?.queuedSignals).toMatchObject([
      { id: queued.id, status: 'queued', placeAt: nextMidnight().getTime(), hookKey: trader.hook.key },
    ]);
    expect((await gqlAs<{ queuedSignals: unknown[] }>(t, other.headers, LIST)).data?.queuedSignals).toEqual([]);
    const CANCEL = 'mutation($id: String!) { queuedSignalCancel(id: $id) { id status } }';
    const stolen = await gqlAs(t, other.headers, CANCEL, { id: queued.id });
    expect(stolen.errors?.[0]?.message).toBe('Queued signal not found');
    const cancelled = await gqlAs<{ queuedSignalCancel: { status: string } }>(t, trader.headers, CANCEL, {
      id: queued.id,
    });
    expect(cancelled.data?.queuedSignalCancel.status).toBe('cancelled');
    expect((await gqlAs(t, trader.headers, CANCEL, { id: queued.id })).errors?.[0]?.message).toBe(
      'Queued signal cannot be cancelled: it is already cancelled',
    );
    // At the opening (other cases' signals due then may go), the cancelled one stays cancelled.
    await t.app.signalRuntime.sweepQueue(nextMidnight());
    expect((await queuedRows(trader.userId)).map((row) => row.status)).toEqual(['cancelled']);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
  });
});
