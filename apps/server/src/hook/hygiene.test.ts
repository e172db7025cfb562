import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, stoppedClock, type TestApp } from '../../test/app.ts';
import { createSetting } from '../../test/notification-fixtures.ts';
import { eventually, postSignal, setupTrader } from '../../test/signal-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    env: { HOOK_INVALID_THRESHOLD: '3', HOOK_RATE_PER_HOOK: '1/5', HOOK_RATE_PER_ADDRESS: '0', HOOK_TIMINGS: 'true' },
    authenticate: authenticateAsUserId,
    // A hook's allowance refills one a second: a stopped clock keeps a slow run from earning one back.
    now: stoppedClock(),
  });
});
afterAll(() => t.close());

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };

describe('hook hygiene', () => {
  it('deactivates a hook past the invalid-request threshold and logs it', async () => {
    const trader = await setupTrader(t, 'noisy@example.com');
    for (let i = 0; i < 3; i++) expect((await postSignal(t, trader.shortKey, { symbol: 'AAPL' })).statusCode).toBe(400);
    await eventually(async () => {
      const res = await t.services.db.$client.query('select is_active from hooks where id = $1', [trader.hook.id]);
      return res.rows[0]?.is_active === false;
    });
    await eventually(async () => (await postSignal(t, trader.shortKey, BUY)).json().message?.includes('deactivated'));
    expect((await postSignal(t, trader.shortKey, BUY)).json()).toEqual({
      status: 'ExecutionError',
      message: 'Webhook is deactivated: too many invalid requests',
    });
    // The entry is queued when the counting statement's answer comes back, which can be after the
    // hook_changed notification of its commit has already made the hook answer 'deactivated'.
    const deactivations = async () => {
      await t.app.signalRuntime.writer.flush();
      const { rows } = await t.services.db.$client.query<{ metadata: Record<string, unknown> }>(
        `select metadata from actions where user_id = $1 and code = 'HookDeactivate'`,
        [trader.userId],
      );
      return rows;
    };
    await eventually(async () => (await deactivations()).length > 0);
    const rows = await deactivations();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.metadata).toMatchObject({ hook: { key: trader.hook.key }, reason: 'too many invalid requests' });
  });

  it('answers 429 past the per-hook burst', async () => {
    const trader = await setupTrader(t, 'fast@example.com', { isTest: true });
    const codes = [];
    for (let i = 0; i < 8; i++)
      codes.push((await postSignal(t, trader.shortKey, { ...BUY, quantity: i + 1 })).statusCode);
    expect(codes).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    const res = await postSignal(t, trader.shortKey, BUY);
    expect(res.json()).toEqual({ status: 'Error', message: 'Too many requests: slow down' });
    // When to try again, in whole seconds (RFC 9110): the burst refills within a second or so.
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it("tells a live hook's trader of signals refused over its rate (signal.refused, once a minute)", async () => {
    // A trader whose strategy outruns the limit loses those signals (4xx: the sender does not
    // retry): told as any refusal, but once a minute per hook however many are refused.
    const trader = await setupTrader(t, 'outrun@example.com', { credits: 20 });
    await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, { email: 'outrun@example.com' });
    const codes = [];
    for (let i = 0; i < 9; i++)
      codes.push((await postSignal(t, trader.shortKey, { ...BUY, quantity: i + 1 })).statusCode);
    expect(codes.filter((code) => code === 429)).toHaveLength(4);
    await t.app.signalRuntime.writer.flush();
    const { rows } = await t.services.db.$client.query<{ data: Record<string, unknown> }>(
      `select data from notification_events where user_id = $1 and type = 'signal.refused'`,
      [trader.userId],
    );
    expect(rows.map((r) => r.data)).toEqual([
      expect.objectContaining({
        reason: 'refused',
        message: 'Too many requests: slow down',
        hook: { key: trader.hook.key, name: 'Main' },
        accountId: trader.accountId,
      }),
    ]);
  });

  it("tells a live hook's trader of alerts too large to read (413, signal.refused, once a minute)", async () => {
    // TradingView does not resend a refused alert: a body over 64 KiB is a lost signal, told
    // without reading it, as one over the hook's rate is.
    const trader = await setupTrader(t, 'verbose@example.com');
    await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, { email: 'verbose@example.com' });
    const huge = JSON.stringify({ ...BUY, comment: 'x'.repeat(70_000) });
    for (let i = 0; i < 2; i++) expect((await postSignal(t, trader.shortKey, huge)).statusCode).toBe(413);
    // Another key of the same shape, known to nobody: nothing to tell, still 413.
    expect((await postSignal(t, 'AAAAAAAAAAAAAAAAAAAAAA', huge)).statusCode).toBe(413);
    const told = async () => {
      await t.app.signalRuntime.writer.flush();
      const { rows } = await t.services.db.$client.query<{ data: Record<string, unknown> }>(
        `select data from notification_events where user_id = $1 and type = 'signal.refused'`,
        [trader.userId],
      );
      return rows.map((r) => r.data);
    };
    await eventually(async () => (await told()).length > 0);
    expect(await told()).toEqual([
      expect.objectContaining({
        reason: 'invalid',
        message: 'body: larger than 64 KiB',
        hook: { key: trader.hook.key, name: 'Main' },
        accountId: trader.accountId,
      }),
    ]);
  });

  it('drops a cached hook on hook_changed', async () => {
    const trader = await setupTrader(t, 'renamed@example.com', { isTest: true });
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    expect(t.app.signalRuntime.hooks.size).toBeGreaterThan(0);
    await t.services.db.$client.query('delete from hooks where id = $1', [trader.hook.id]);
    await t.services.db.$client.query(`select pg_notify('hook_changed', $1)`, [trader.shortKey]);
    await eventually(async () => (await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 })).statusCode === 404);
  });

  it('exposes per-phase timings when HOOK_TIMINGS is on', async () => {
    const timings = () => t.app.inject({ method: 'GET', url: '/api/internal/hook-timings' });
    const before = (await timings()).json<Record<string, { count: number }>>();
    // A signal of this case's own, so the timings read below include one it caused.
    const trader = await setupTrader(t, 'timed@example.com', { isTest: true });
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    const res = await timings();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['lookup', 'parse', 'store', 'broker', 'answer', 'own']);
    expect(body.store.count).toBe((before.store?.count ?? 0) + 1);
    expect(body.own.p50Us).toBeGreaterThan(0);
  });
});
