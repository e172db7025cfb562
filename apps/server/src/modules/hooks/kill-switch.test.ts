// The kill switch on the real hook endpoint: paused webhooks refuse (logged, naming the pause),
// every instance learns it through hook_changed, resume lets signals through again; pausing
// everyone is for admins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlAs } from '../../../test/activity-fixtures.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { balanceOf, eventually, paperOrders, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { insertApiHook } from '../../db/repositories/hooks.repository.ts';
import { listActions } from '../actions/list-actions.ts';
import { pauseHooks, resumeHooks } from './kill-switch.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };
const PAUSE = 'mutation($reason: String!, $everyone: Boolean) { hooksPause(reason: $reason, everyone: $everyone) }';
const RESUME = 'mutation($everyone: Boolean) { hooksResume(everyone: $everyone) }';

describe('hooksPause / hooksResume', () => {
  it("pauses every webhook of the caller (not others'), refusing and logging their signals", async () => {
    const trader = await setupTrader(t, 'pause@example.com');
    const second = await trader.addHook(true);
    const other = await setupTrader(t, 'bystander@example.com');
    // Cached before the pause: hook_changed must drop it.
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    const paused = await gqlAs<{ hooksPause: number }>(t, trader.headers, PAUSE, { reason: 'FOMC day' });
    expect(paused.data?.hooksPause).toBe(2);
    // hook_changed reaches the cache after the commit.
    await eventually(async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.pausedReason === 'FOMC day');
    const answer = await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      status: 'ExecutionError',
      message: 'Webhooks are paused: FOMC day',
      rule: 'paused',
    });
    expect((await postSignal(t, second.shortKey, BUY)).json()).toMatchObject({ rule: 'paused' });
    expect((await postSignal(t, other.shortKey, BUY)).statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(4);
    await t.app.signalRuntime.writer.flush();
    const entries = await listActions(t.services, trader.userId, { code: 'Order' });
    const refused = entries.map((e) => JSON.parse(e.metadata)).filter((m) => m.request?.quantity === 2);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toMatchObject({ request: { ...BUY, quantity: 2 }, response: { rule: 'paused' } });
    const read = await gqlAs<{ hook: { pausedReason: string | null } }>(
      t,
      trader.headers,
      'query($k: String!) { hook(key: $k) { pausedReason } }',
      { k: trader.hook.key },
    );
    expect(read.data?.hook.pausedReason).toBe('FOMC day');

    expect((await gqlAs<{ hooksResume: number }>(t, trader.headers, RESUME)).data?.hooksResume).toBe(2);
    await eventually(async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.pausedReason === null);
    expect((await postSignal(t, trader.shortKey, { ...BUY, quantity: 3 })).statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
  });

  // The pausing instance kept its cached hook until its own hook_changed came back: a signal
  // sent right after the pause was answered could still be placed.
  it('refuses a signal sent right after the pause is answered, on the instance that paused', async () => {
    const trader = await setupTrader(t, 'pause-at-once@example.com');
    const actor = { userId: trader.userId, address: null };
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'cached' })).statusCode).toBe(201);
    // Whether the notice or the commit's answer comes first is the network's: switched a few
    // times, the old cache lost at least one of them.
    for (const reason of ['one', 'two', 'three']) {
      await pauseHooks(t.services, actor, reason);
      expect((await t.app.signalRuntime.hooks.get(trader.shortKey))?.pausedReason).toBe(reason);
      await resumeHooks(t.services, actor);
      expect((await t.app.signalRuntime.hooks.get(trader.shortKey))?.pausedReason).toBeNull();
    }
    await pauseHooks(t.services, actor, 'now');
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'after' })).json()).toMatchObject({
      rule: 'paused',
    });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('pausing everyone is for admins; a blank reason is refused', async () => {
    const trader = await setupTrader(t, 'notadmin@example.com');
    const denied = await gqlAs(t, trader.headers, PAUSE, { reason: 'all', everyone: true });
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const blank = await gqlAs(t, trader.headers, PAUSE, { reason: '  ' });
    expect(blank.errors?.[0]?.message).toBe('Required');
    await t.services.db.$client.query('update users set "group" = 5 where id = $1', [trader.userId]);
    const other = await setupTrader(t, 'everyone@example.com');
    const all = await gqlAs<{ hooksPause: number }>(t, trader.headers, PAUSE, {
      reason: 'exchange outage',
      everyone: true,
    });
    expect(all.data?.hooksPause).toBeGreaterThanOrEqual(2);
    expect((await postSignal(t, other.shortKey, BUY)).json().message).toBe('Webhooks are paused: exchange outage');
    expect(
      (await gqlAs<{ hooksResume: number }>(t, trader.headers, RESUME, { everyone: true })).errors,
    ).toBeUndefined();
    await eventually(async () => (await postSignal(t, other.shortKey, BUY)).statusCode === 201);
  });

  it("an administrator's pause and resume of everyone is logged for each trader whose webhooks it switched", async () => {
    const admin = await setupTrader(t, 'pause-admin-log@example.com');
    await t.services.db.$client.query('update users set "group" = 5 where id = $1', [admin.userId]);
    const trader = await setupTrader(t, 'paused-told@example.com');
    await trader.addHook(true);
    const logged = async (code: string) =>
      (await listActions(t.services, trader.userId, { code })).map((a) => [a.description, JSON.parse(a.metadata)]);
    expect((await gqlAs(t, admin.headers, PAUSE, { reason: 'broker outage', everyone: true })).errors).toBeUndefined();
    expect(await logged('HooksPause')).toEqual([
      ['Webhooks paused: broker outage', { reason: 'broker outage', everyone: true, hooks: 2 }],
    ]);
    expect((await gqlAs(t, admin.headers, RESUME, { everyone: true })).errors).toBeUndefined();
    expect(await logged('HooksResume')).toEqual([['Webhooks resumed', { everyone: true, hooks: 2 }]]);
    // The admin's own entry is the admin's, once.
    expect(await listActions(t.services, admin.userId, { code: 'HooksPause' })).toHaveLength(1);
  });

  it("an administrator's resume of everyone leaves a trader's own pause in place", async () => {
    const admin = await setupTrader(t, 'pause-admin@example.com');
    await t.services.db.$client.query('update users set "group" = 5 where id = $1', [admin.userId]);
    const careful = await setupTrader(t, 'careful@example.com');
    expect((await gqlAs(t, careful.headers, PAUSE, { reason: 'earnings week' })).errors).toBeUndefined();
    expect(
      (await gqlAs(t, admin.headers, PAUSE, { reason: 'exchange outage', everyone: true })).errors,
    ).toBeUndefined();
    expect((await gqlAs(t, admin.headers, RESUME, { everyone: true })).errors).toBeUndefined();
    expect((await readPause(careful.headers, careful.hook.key)).data?.hook.pausedReason).toBe('earnings week');
    expect((await readPause(admin.headers, admin.hook.key)).data?.hook.pausedReason).toBeNull();
  });

  it("a trader's resume leaves an administrator's pause of everyone in place", async () => {
    const admin = await setupTrader(t, 'pause-admin2@example.com');
    await t.services.db.$client.query('update users set "group" = 5 where id = $1', [admin.userId]);
    const bold = await setupTrader(t, 'bold@example.com');
    expect((await gqlAs(t, admin.headers, PAUSE, { reason: 'broker outage', everyone: true })).errors).toBeUndefined();
    await gqlAs(t, bold.headers, RESUME);
    const during = (await readPause(bold.headers, bold.hook.key)).data?.hook.pausedReason;
    expect((await gqlAs(t, admin.headers, RESUME, { everyone: true })).errors).toBeUndefined();
    expect(during).toBe('broker outage');
    expect((await readPause(bold.headers, bold.hook.key)).data?.hook.pausedReason).toBeNull();
  });

  it("a trader's resume of a pause that took over an administrator's pause of everyone hands it back", async () => {
    const admin = await setupTrader(t, 'pause-admin4@example.com');
    await t.services.db.$client.query('update users set "group" = 5 where id = $1', [admin.userId]);
    const trader = await setupTrader(t, 'takeover@example.com');
    expect((await gqlAs(t, admin.headers, PAUSE, { reason: 'broker outage', everyone: true })).errors).toBeUndefined();
    expect((await gqlAs(t, trader.headers, PAUSE, { reason: 'my own reasons' })).errors).toBeUndefined();
    expect((await gqlAs(t, trader.headers, RESUME)).errors).toBeUndefined();
    const during = await pauseOf(trader.shortKey);
    expect((await gqlAs(t, admin.headers, RESUME, { everyone: true })).errors).toBeUndefined();
    expect(during).toEqual({ paused_reason: 'broker outage', paused_by_admin: true });
    expect(await pauseOf(trader.shortKey)).toEqual({ paused_reason: null, paused_by_admin: false });
  });
});

describe('webhooks made while paused', () => {
  const DELETE = 'mutation($k: String!) { hookDelete(key: $k) }';

  it("are born paused under the trader's own pause, even one begun with no webhook left", async () => {
    const trader = await setupTrader(t, 'born-paused@example.com');
    expect((await gqlAs(t, trader.headers, DELETE, { k: trader.hook.key })).errors).toBeUndefined();
    const paused = await gqlAs<{ hooksPause: number }>(t, trader.headers, PAUSE, { reason: 'on vacation' });
    expect(paused.data?.hooksPause).toBe(0);
    const made = await trader.addHook(false);
    expect(made.pausedReason).toBe('on vacation');
    expect((await postSignal(t, made.shortKey, BUY)).json()).toEqual({
      status: 'ExecutionError',
      message: 'Webhooks are paused: on vacation',
      rule: 'paused',
    });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    // The REST API's own hook, made on a first API order, likewise.
    await insertApiHook(t.services.db, {
      key: `api-key-${trader.userId}`,
      shortKey: `api_born_paused_${trader.userId}`,
      userId: trader.userId,
      connectorId: await connectorId(trader.connector.key),
      accountId: trader.accountId,
      name: 'REST API',
    });
    expect(await pauseOf(`api_born_paused_${trader.userId}`)).toEqual({
      paused_reason: 'on vacation',
      paused_by_admin: false,
    });
    // One webhook resumed, as the trader counts them: the API's hook is never listed, so it is
    // not counted either (before, '2 webhooks resumed' for a trader who had one).
    expect((await gqlAs<{ hooksResume: number }>(t, trader.headers, RESUME)).data?.hooksResume).toBe(1);
    expect(await pauseOf(`api_born_paused_${trader.userId}`)).toEqual({ paused_reason: null, paused_by_admin: false });
    // hook_changed reaches the cache after the commit.
    await eventually(async () => (await postSignal(t, made.shortKey, BUY)).statusCode === 201);
    // Resumed: no pause is in force any more for the next one.
    expect((await trader.addHook(false)).pausedReason).toBeNull();
  });

  it("are born under an administrator's pause of everyone, for a trader who had none: only the admin's resume lifts it", async () => {
    const admin = await setupTrader(t, 'pause-admin3@example.com');
    await t.services.db.$client.query('update users set "group" = 5 where id = $1', [admin.userId]);
    expect((await gqlAs(t, admin.headers, PAUSE, { reason: 'market halt', everyone: true })).errors).toBeUndefined();
    const newcomer = await setupTrader(t, 'newcomer@example.com');
    expect(newcomer.hook.pausedReason).toBe('market halt');
    expect(await pauseOf(newcomer.shortKey)).toEqual({ paused_reason: 'market halt', paused_by_admin: true });
    expect((await postSignal(t, newcomer.shortKey, BUY)).json()).toMatchObject({ rule: 'paused' });
    await gqlAs(t, newcomer.headers, RESUME);
    const afterOwnResume = (await readPause(newcomer.headers, newcomer.hook.key)).data?.hook.pausedReason;
    expect((await gqlAs(t, admin.headers, RESUME, { everyone: true })).errors).toBeUndefined();
    expect(afterOwnResume).toBe('market halt');
    expect((await readPause(newcomer.headers, newcomer.hook.key)).data?.hook.pausedReason).toBeNull();
    expect((await newcomer.addHook(false)).pausedReason).toBeNull();
    await eventually(async () => (await postSignal(t, newcomer.shortKey, BUY)).statusCode === 201);
  });
});

async function connectorId(key: string): Promise<number> {
  const { rows } = await t.services.db.$client.query<{ id: number }>('select id from connectors where key = $1', [key]);
  return Number(rows[0]?.id);
}

async function pauseOf(shortKey: string) {
  const { rows } = await t.services.db.$client.query(
    'select paused_reason, paused_by_admin from hooks where short_key = $1',
    [shortKey],
  );
  return rows[0];
}

function readPause(headers: Record<string, string>, key: string) {
  return gqlAs<{ hook: { pausedReason: string | null } }>(
    t,
    headers,
    'query($k: String!) { hook(key: $k) { pausedReason } }',
    { k: key },
  );
}
