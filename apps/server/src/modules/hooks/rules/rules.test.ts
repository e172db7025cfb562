// Risk controls end to end: settings through GraphQL and the service, each control on the real
// hook endpoint (paper broker, real PostgreSQL), refusals answered 4xx with their rule in the
// answer and the activity entry, no order and no credit spent.
import { brokerModules } from '@router/brokers';
import { normalizeOrderOrThrow } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlAs } from '../../../../test/activity-fixtures.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../../test/app.ts';
import { balanceOf, eventually, paperOrders, postSignal, setupTrader } from '../../../../test/signal-fixtures.ts';
import { WRITTEN_AT } from '../../../../test/written-at.ts';
import { listActions } from '../../actions/list-actions.ts';
import { updateHook } from '../index.ts';
import { checkOrder, prepareBody } from './check.ts';
import { compileRules } from './compile.ts';
import { parseHookRules } from './settings.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };
const UPDATE = `mutation($key: String!, $rules: String) { hookUpdate(key: $key, rules: $rules) { key rules } }`;

async function traderWith(email: string, rules: Record<string, unknown>, options: { isTest?: boolean } = {}) {
  const trader = await setupTrader(t, email, { credits: 50, ...options });
  await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
    rules: JSON.stringify(rules),
  });
  return trader;
}

/** The rule named by the last Order entry of the user. */
async function lastRefusal(userId: number): Promise<{ rule?: string; message?: string; status?: string }> {
  await t.app.signalRuntime.writer.flush();
  const [latest] = await listActions(t.services, userId, { code: 'Order' });
  return (JSON.parse(latest?.metadata ?? '{}') as { response?: { rule?: string } }).response ?? {};
}

describe('hookUpdate(key, rules) and hook { rules }', () => {
  // The saving instance kept its cached hook until its own hook_changed came back: a signal sent
  // right after the answer was judged (and placed) by the settings from before.
  it('judges a signal sent right after the answer by the new settings, on the instance that saved them', async () => {
    const trader = await setupTrader(t, 'settings-at-once@example.com');
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'cached' })).statusCode).toBe(201);
    // Whether the notice or the commit's answer comes first is the network's: saved a few times,
    // the old cache lost at least one of them.
    for (const maxQuantity of [5, 4, 3, 2, 1]) {
      await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
        rules: JSON.stringify({ maxQuantity }),
      });
      // What a signal arriving now finds: the hook as saved, not the copy cached before.
      const found = await t.app.signalRuntime.hooks.get(trader.shortKey);
      expect(found?.rules?.settings).toEqual({ maxQuantity });
    }
    const answer = await postSignal(t, trader.shortKey, { ...BUY, quantity: 2, client_id: 'after' });
    expect(answer.json()).toMatchObject({ rule: 'maxQuantity' });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('stores the whole object, reads it back, and refuses invalid settings whole', async () => {
    const trader = await setupTrader(t, 'settings@example.com');
    const good = { maxQuantity: 5, sourceAddresses: ['tradingview', '10.0.0.0/8'], symbolMap: { BTCUSD: 'BTC/USD' } };
    const set = await gqlAs<{ hookUpdate: { rules: string } }>(t, trader.headers, UPDATE, {
      key: trader.hook.key,
      rules: JSON.stringify(good),
    });
    expect(JSON.parse(set.data?.hookUpdate.rules ?? '')).toEqual(good);
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ sourceAddresses: ['10.0.0.0/33'] }, /^sourceAddresses\[0\]: not an address/],
      [{ sourceAddresses: ['nasdaq'] }, /^sourceAddresses\[0\]/],
      // Names every object has are no presets: saved, they broke every signal to the hook.
      [{ sourceAddresses: ['toString'] }, /^sourceAddresses\[0\]: not an address/],
      [{ sourceAddresses: ['10.0.0.1', 'constructor'] }, /^sourceAddresses\[1\]: not an address/],
      [
        { tradingWindows: [{ days: ['mon'], from: '16:00', to: '09:30', timeZone: 'America/New_York' }] },
        /^tradingWindows\[0\]: ends \(09:30\) before it starts \(16:00\)/,
      ],
      [{ tradingWindows: [{ days: ['mon'], from: '09:00', to: '10:00', timeZone: 'Mars/Olympus' }] }, /timeZone/],
      [{ symbolMap: { ES: 'NQ', NQ: 'ES' } }, /^symbolMap\.ES: NQ is mapped again/],
      [{ maxQuantity: -1 }, /^maxQuantity: must be greater than 0/],
      [{ maxQuantity: 1, maxQuantty: 2 }, /^maxQuantty: unknown setting/],
      [{ maxOrdersPerMinute: 1.5 }, /^maxOrdersPerMinute: must be a whole number/],
      [{ fanOut: [{ connectorKey: 'nope', accountId: 'x', multiplier: 1 }] }, /^fanOut\[0\]\.connectorKey/],
      [{ outsideWindow: 'queue' }, /^outsideWindow: needs tradingWindows/],
      [{ outsideWindow: 'later' }, /^outsideWindow: must be refuse or queue/],
      [{ maxPosition: 'ten' }, /^maxPosition: must be a number/],
    ];
    for (const [rules, message] of bad) {
      const answer = await gqlAs(t, trader.headers, UPDATE, { key: trader.hook.key, rules: JSON.stringify(rules) });
      expect(answer.errors?.[0]?.message).toMatch(message);
      expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    // Nothing changed by any of them.
    const read = await gqlAs<{ hook: { rules: string } }>(
      t,
      trader.headers,
      'query($k: String!) { hook(key: $k) { rules } }',
      {
        k: trader.hook.key,
      },
    );
    expect(JSON.parse(read.data?.hook.rules ?? '')).toEqual(good);
    // An empty object removes every control.
    const cleared = await gqlAs<{ hookUpdate: { rules: string } }>(t, trader.headers, UPDATE, {
      key: trader.hook.key,
      rules: '{}',
    });
    expect(cleared.data?.hookUpdate.rules).toBe('{}');
  });
});

describe('controls on the signal path', () => {
  it('maxQuantity: refused 400 naming the rule, no order, no credit; within it placed', async () => {
    const trader = await traderWith('qty@example.com', { maxQuantity: 5 });
    const over = await postSignal(t, trader.shortKey, { ...BUY, quantity: 6 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ status: 'ExecutionError', rule: 'maxQuantity' });
    expect(over.json().message).toMatch(/^maxQuantity: quantity 6 is more than this webhook's maximum of 5/);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    expect(await balanceOf(t, trader.userId)).toBe(50);
    expect(await lastRefusal(trader.userId)).toMatchObject({ rule: 'maxQuantity' });
    expect((await postSignal(t, trader.shortKey, { ...BUY, quantity: 5 })).statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('maxNotional: quantity × limit price; a market order at the last price (broker-limits.test.ts)', async () => {
    const trader = await traderWith('notional@example.com', { maxNotional: 1000 });
    const limit = { ...BUY, type: 'limit', quantity: 10 };
    const over = await postSignal(t, trader.shortKey, { ...limit, limit_price: 101 });
    expect(over.json()).toMatchObject({ rule: 'maxNotional' });
    expect(over.json().message).toMatch(/notional 1010 is more than this webhook's maximum of 1000/);
    const percent = await postSignal(t, trader.shortKey, { ...BUY, quantity_type: 'percent_of_equity', quantity: 1 });
    expect(percent.statusCode).toBe(400);
    expect(percent.json()).toMatchObject({ rule: 'maxNotional' });
    expect((await postSignal(t, trader.shortKey, { ...limit, limit_price: 99 })).statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('symbolMap before normalization, symbols checked after mapping', async () => {
    const trader = await traderWith('symbols@example.com', { symbolMap: { APPLE: 'AAPL' }, symbols: ['AAPL'] });
    const mapped = await postSignal(t, trader.shortKey, { ...BUY, symbol: 'APPLE' });
    expect(mapped.statusCode).toBe(201);
    const orders = await t.services.db.$client.query<{ order: { symbol: string } }>(
      'select "order" from signals where user_id = $1',
      [trader.userId],
    );
    expect(orders.rows[0]?.order.symbol).toBe('AAPL');
    const denied = await postSignal(t, trader.shortKey, { ...BUY, symbol: 'MSFT' });
    expect(denied.statusCode).toBe(400);
    expect(denied.json()).toMatchObject({ rule: 'symbols' });
    expect(denied.json().message).toBe("symbols: MSFT is not among this webhook's symbols");
    expect(await lastRefusal(trader.userId)).toMatchObject({ rule: 'symbols' });
  });

  it('maxLagSeconds: old, missing or unreadable times refused; fresh ones (ISO or epoch) placed', async () => {
    const trader = await traderWith('lag@example.com', { maxLagSeconds: 30 });
    const old = await postSignal(t, trader.shortKey, { ...BUY, time: new Date(Date.now() - 120_000).toISOString() });
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ rule: 'maxLagSeconds' });
    expect(old.json().message).toMatch(/^maxLagSeconds: signal is 12\d s old, more than this webhook's 30 s/);
    const none = await postSignal(t, trader.shortKey, BUY);
    expect(none.json().message).toMatch(/carries no time/);
    const junk = await postSignal(t, trader.shortKey, { ...BUY, timestamp: '{{timenow}}' });
    expect(junk.json()).toMatchObject({ rule: 'maxLagSeconds' });
    const fresh = await postSignal(t, trader.shortKey, { ...BUY, time: new Date().toISOString() });
    expect(fresh.statusCode).toBe(201);
    const epoch = await postSignal(t, trader.shortKey, {
      ...BUY,
      quantity: 2,
      timestamp: Math.floor(Date.now() / 1000),
    });
    expect(epoch.statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
  });

  it('time and timestamp are accepted and unused when the guard is off', async () => {
    const trader = await setupTrader(t, 'noguard@example.com');
    const res = await postSignal(t, trader.shortKey, { ...BUY, time: '2020-01-01T00:00:00Z' });
    expect(res.statusCode).toBe(201);
  });

  it('sourceAddresses: presets and CIDRs; others refused 403 with the address logged', async () => {
    const trader = await traderWith('source@example.com', { sourceAddresses: ['tradingview', '10.1.0.0/16'] });
    let quantity = 0;
    const from = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: `/hook/${trader.shortKey}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ ...BUY, quantity: ++quantity }),
        remoteAddress,
      });
    expect((await from('52.89.214.238')).statusCode).toBe(201);
    expect((await from('::ffff:10.1.200.3')).statusCode).toBe(201);
    const other = await from('3.12.143.24');
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ status: 'ForbiddenError', rule: 'sourceAddresses' });
    await t.app.signalRuntime.writer.flush();
    const [entry] = await listActions(t.services, trader.userId, { code: 'Order' });
    expect(entry?.address).toBe('3.12.143.24');
    expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
  });

  it('tradingWindows: inside a window placed, outside every window refused', async () => {
    const today = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][new Date().getUTCDay()];
    const otherDays = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'].filter((d) => d !== today);
    const trader = await traderWith('window@example.com', {
      tradingWindows: [{ days: otherDays, from: '00:00', to: '23:59', timeZone: 'UTC' }],
      outsideWindow: 'refuse',
    });
    const res = await postSignal(t, trader.shortKey, BUY);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ rule: 'tradingWindows' });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    const open = await traderWith('window-open@example.com', {
      tradingWindows: [
        { days: otherDays, from: '09:30', to: '16:00', timeZone: 'America/New_York' },
        { days: [today], from: '00:00', to: '24:00', timeZone: 'UTC' },
      ],
    });
    expect((await postSignal(t, open.shortKey, BUY)).statusCode).toBe(201);
  });

  it('tradingWindows: a repeat of a signal placed in its window, arriving once it has closed, gets the first answer', async () => {
    const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
    const otherDays = days.filter((d) => d !== days[new Date().getUTCDay()]);
    const trader = await traderWith('window-repeat@example.com', {
      tradingWindows: [{ days, from: '00:00', to: '24:00', timeZone: 'UTC' }],
    });
    const alert = { ...BUY, client_id: 'win-r1' };
    const first = await postSignal(t, trader.shortKey, alert);
    expect(first.statusCode).toBe(201);
    // The window closes; the sender's retry of the same alert comes within the dedupe window.
    await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
      rules: JSON.stringify({ tradingWindows: [{ days: otherDays, from: '00:00', to: '24:00', timeZone: 'UTC' }] }),
    });
    await eventually(
      async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.rules?.windows?.[0]?.days.size === 6,
    );
    const repeat = await postSignal(t, trader.shortKey, alert);
    expect(repeat.statusCode).toBe(201);
    expect(repeat.json()).toEqual(first.json());
    // Another order is refused as outside the windows.
    expect((await postSignal(t, trader.shortKey, { ...alert, client_id: 'win-r2' })).json()).toMatchObject({
      rule: 'tradingWindows',
    });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(49);
  });

  it.each(['refuse', 'queue'])(
    'tradingWindows (outsideWindow %s): a close or cancel outside them is placed now (the way out), a new order is not',
    async (outsideWindow) => {
      const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
      const otherDays = days.filter((d) => d !== days[new Date().getUTCDay()]);
      const trader = await traderWith(`window-exit-${outsideWindow}@example.com`, {});
      expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'win-x1' })).statusCode).toBe(201);
      // The window closes with the position open.
      await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
        rules: JSON.stringify({
          tradingWindows: [{ days: otherDays, from: '00:00', to: '24:00', timeZone: 'UTC' }],
          outsideWindow,
        }),
      });
      await eventually(
        async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.rules?.windows?.[0]?.days.size === 6,
      );
      const more = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'win-x2' });
      expect(more.statusCode).toBe(outsideWindow === 'queue' ? 202 : 400);
      const close = await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'close', client_id: 'win-x3' });
      expect(close.json().rule).toBeUndefined();
      expect(close.statusCode).toBe(201);
      expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
    },
  );

  it('maxOrdersPerMinute counts test-hook drafts; repeats do not count', async () => {
    const trader = await traderWith('minute@example.com', { maxOrdersPerMinute: 2 }, { isTest: true });
    const first = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'a' });
    expect(first.json()).toMatchObject({ status: 'draft' });
    // A repeat of the first gets its answer and counts nothing.
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'a' })).json().id).toBe(first.json().id);
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'b' })).statusCode).toBe(201);
    const third = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'c' });
    expect(third.statusCode).toBe(400);
    expect(third.json()).toMatchObject({ rule: 'maxOrdersPerMinute' });
    expect(await lastRefusal(trader.userId)).toMatchObject({ rule: 'maxOrdersPerMinute' });
  });

  // Saved before the setting was bounded: past PostgreSQL's int, every signal's count failed and
  // the webhook answered 503 to every alert.
  it('maxOrdersPerDay stored past an int counts as the largest int, not as an outage', async () => {
    const trader = await setupTrader(t, 'day-huge@example.com', { credits: 50 });
    await t.services.db.$client.query(`update hooks set rules = $1 where short_key = $2`, [
      JSON.stringify({ maxOrdersPerDay: 10_000_000_000 }),
      trader.shortKey,
    ]);
    const answer = await postSignal(t, trader.shortKey, BUY);
    expect(answer.statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('maxOrdersPerDay reached: a repeat of the signal placed gets its answer, not a refusal', async () => {
    const trader = await traderWith('day-repeat@example.com', { maxOrdersPerDay: 1 });
    const first = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'day-r1' });
    expect(first.statusCode).toBe(201);
    // The sender sends it again (a retry): the limit is reached, but this is no new order.
    const repeat = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'day-r1' });
    expect(repeat.statusCode).toBe(201);
    expect(repeat.json()).toEqual(first.json());
    const another = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'day-r2' });
    expect(another.json()).toMatchObject({ rule: 'maxOrdersPerDay' });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(49);
  });

  it('maxOrdersPerDay counts orders placed: one the broker rejected is given back for the day, not the minute', async () => {
    const trader = await traderWith('day-rejected@example.com', { maxOrdersPerDay: 1, maxOrdersPerMinute: 5 });
    const counts = async () => {
      const { rows } = await t.services.db.$client.query<{ day_count: number; recent: number }>(
        `select c.day_count, cardinality(c.recent) as recent from hook_order_counts c
          join hooks h on h.id = c.hook_id where h.short_key = $1`,
        [trader.shortKey],
      );
      return rows[0];
    };
    // A stop loss the paper broker refuses (below 0): nothing placed, the credit given back.
    const rejected = await postSignal(t, trader.shortKey, {
      ...BUY,
      client_id: 'day-x1',
      stop_loss_price_distance: 1_000_000,
    });
    expect(rejected.statusCode).toBe(400);
    expect(rejected.json()).toMatchObject({ status: 'ExecutionError' });
    expect(rejected.json().rule).toBeUndefined();
    // Given back once its outcome is written (after the answer).
    await eventually(async () => (await counts())?.day_count === 0);
    expect(await counts()).toEqual({ day_count: 0, recent: 1 });
    // The day's one order is still to be placed.
    const placed = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'day-x2' });
    expect(placed.statusCode).toBe(201);
    const another = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'day-x3' });
    expect(another.json()).toMatchObject({ rule: 'maxOrdersPerDay' });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(49);
  });

  // The day was UTC's only: a New York futures trader's count started afresh at 19:00 (20:00 in
  // winter) New York time, in the middle of the evening session.
  it.each([
    // A zone whose date is not UTC's now: Kiritimati is UTC+14, Pago Pago UTC-11.
    [
      'dayTimeZone',
      () => ({ dayTimeZone: new Date().getUTCHours() >= 11 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago' }),
    ],
    // A start an hour from now: now is in the day before's (UTC's, or UTC-1's in UTC's last hour).
    [
      'dayStartsAt',
      () => {
        const hour = new Date().getUTCHours();
        const start = `${String((hour === 23 ? 22 : hour) + 1).padStart(2, '0')}:00`;
        return hour === 23 ? { dayTimeZone: 'Etc/GMT+1', dayStartsAt: start } : { dayStartsAt: start };
      },
    ],
  ] as const)('maxOrdersPerDay counts the day of %s: dated, refused and given back in that day', async (key, day) => {
    const settings: { dayTimeZone?: string; dayStartsAt?: string } = day();
    const zone = settings.dayTimeZone ?? 'UTC';
    const [h = 0, m = 0] = (settings.dayStartsAt ?? '00:00').split(':').map(Number);
    const dateIn = (timeZone: string, startMinutes = 0) =>
      new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date(Date.now() - startMinutes * 60_000));
    const today = dateIn(zone, h * 60 + m);
    const trader = await traderWith(`day-${key}@example.com`, { maxOrdersPerDay: 1, ...settings });
    const counts = async () => {
      const { rows } = await t.services.db.$client.query<{ day: string; day_count: number }>(
        `select c.day::text as day, c.day_count from hook_order_counts c
          join hooks h on h.id = c.hook_id where h.short_key = $1`,
        [trader.shortKey],
      );
      return rows[0];
    };
    // One the broker rejects is given back to that day.
    const rejected = await postSignal(t, trader.shortKey, {
      ...BUY,
      client_id: 'day-z1',
      stop_loss_price_distance: 1_000_000,
    });
    expect(rejected.json()).toMatchObject({ status: 'ExecutionError' });
    await eventually(async () => (await counts())?.day_count === 0);
    expect(await counts()).toEqual({ day: today, day_count: 0 });
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'day-z2' })).statusCode).toBe(201);
    const another = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'day-z3' });
    const from = settings.dayStartsAt ? `, from ${settings.dayStartsAt}` : '';
    expect(another.json()).toMatchObject({
      rule: 'maxOrdersPerDay',
      message: `maxOrdersPerDay: this webhook's 1 orders today (${zone}${from}) are reached`,
    });
    // Counted on UTC's date, the order of the day before is no order of today.
    expect(today).not.toBe(dateIn('UTC'));
    await t.services.db.$client.query(
      `update hook_order_counts set day = $1 where hook_id = (select id from hooks where short_key = $2)`,
      [dateIn('UTC'), trader.shortKey],
    );
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'day-z4' })).statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
  });

  it('maxOrdersPerDay reached: a close is still placed (the way out), a new order is not', async () => {
    const trader = await traderWith('day-close@example.com', { maxOrdersPerDay: 1 });
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'day-c1' })).statusCode).toBe(201);
    const more = await postSignal(t, trader.shortKey, { ...BUY, client_id: 'day-c2' });
    expect(more.json()).toMatchObject({ rule: 'maxOrdersPerDay' });
    // The position opened must not be held until tomorrow because the day's orders are reached.
    const close = await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'close', client_id: 'day-c3' });
    expect(close.json().rule).toBeUndefined();
    expect(close.statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
  });

  it('maxOrdersPerDay: one count shared by two server instances on one database', async () => {
    const trader = await traderWith('day@example.com', { maxOrdersPerDay: 3 });
    const second = await startTestApp({ database: t.database });
    try {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          postSignal(i % 2 ? second : t, trader.shortKey, { ...BUY, client_id: `d${i}` }),
        ),
      );
      const codes = answers.map((a) => a.statusCode);
      expect(codes.filter((c) => c === 201)).toHaveLength(3);
      const refused = answers.filter((a) => a.statusCode === 400).map((a) => a.json().rule);
      expect(refused).toEqual(Array(5).fill('maxOrdersPerDay'));
      expect(await paperOrders(t, trader.accountId)).toHaveLength(3);
      expect(await balanceOf(t, trader.userId)).toBe(47);
    } finally {
      await second.close();
    }
  });
});

describe('settings text', () => {
  it('refuses a key given twice (JSON.parse would keep the last without a word)', () => {
    expect(parseHookRules('{"maxQuantity": 5, "symbols": ["AAPL"], "maxQuantity": 500}')).toEqual({
      ok: false,
      message: 'maxQuantity: given twice',
    });
    expect(parseHookRules('{"symbolMap": {"ES1": "ESZ2030", "ES1": "ESH2031"}}')).toEqual({
      ok: false,
      message: 'symbolMap.ES1: given twice',
    });
  });
});

describe('maxLagSeconds reads a time with its zone only', () => {
  // A time without a zone was read in the server's zone, not the sender's: from a sender two hours
  // east of the server, an alert two hours late read as fresh and was placed.
  it('refuses a time without a zone, whatever zone the server runs in, and names its field', () => {
    const rules = compileRules({ maxLagSeconds: 30 });
    if (!rules) throw new Error('no rules');
    const now = Date.now();
    const zoneless = new Date(now).toISOString().slice(0, 19);
    const body = (fields: Record<string, unknown>) => prepareBody(rules, JSON.stringify({ ...BUY, ...fields }), now);
    for (const [field, text] of [
      ['time', zoneless],
      ['timestamp', zoneless.replace('T', ' ')],
      ['time', `${zoneless.slice(0, 16)}`],
    ] as const) {
      expect(body({ [field]: text })).toEqual({
        rule: 'maxLagSeconds',
        message: `maxLagSeconds: ${field}: ${text} gives no time zone; send it in UTC with a Z, as TradingView's {{timenow}} does (2026-03-02T14:30:05Z)`,
      });
    }
    // An unreplaced {{timenow}} is told as such, as the order language tells it when the guard is off.
    expect(body({ timestamp: '{{timenow}}' })).toEqual({
      rule: 'maxLagSeconds',
      message: 'maxLagSeconds: timestamp: placeholder {{timenow}} was not replaced by the sender',
    });
    // Text that is no ISO 8601 at all (read by the engine's own rules, in the server's zone) is no time.
    expect(body({ time: new Date(now).toString() })).toMatchObject({
      message: expect.stringMatching(/^maxLagSeconds: time: not a time: /),
    });
    for (const text of [
      `${zoneless}Z`,
      `${zoneless}.250z`,
      `${zoneless}+00:00`,
      `${zoneless} +0000`.replace(' ', ''),
    ]) {
      expect(body({ time: text })).toMatchObject({ symbol: 'AAPL' });
    }
    expect(body({ time: String(Math.floor(now / 1000)) })).toMatchObject({ symbol: 'AAPL' });
  });

  // Only `time` was read: a stale (or unreplaced) `timestamp` beside a fresh `time` passed as fresh.
  it('reads both time and timestamp when both are given, and refuses them when they disagree', () => {
    const rules = compileRules({ maxLagSeconds: 30 });
    if (!rules) throw new Error('no rules');
    const now = Math.floor(Date.now() / 1000) * 1000 + 250;
    const body = (fields: Record<string, unknown>) => prepareBody(rules, JSON.stringify({ ...BUY, ...fields }), now);
    const fresh = new Date(now).toISOString();
    const seconds = Math.floor(now / 1000);
    expect(body({ time: fresh, timestamp: seconds - 120 })).toEqual({
      rule: 'maxLagSeconds',
      message: "maxLagSeconds: signal is 120 s old, more than this webhook's 30 s",
    });
    expect(body({ time: fresh, timestamp: '{{timenow}}' })).toEqual({
      rule: 'maxLagSeconds',
      message: 'maxLagSeconds: timestamp: placeholder {{timenow}} was not replaced by the sender',
    });
    expect(body({ time: fresh, timestamp: seconds - 20 })).toEqual({
      rule: 'maxLagSeconds',
      message: 'maxLagSeconds: time and timestamp are 20 s apart; send one of them',
    });
    // One instant in two spellings (ISO with milliseconds, epoch seconds) is one time.
    expect(body({ time: fresh, timestamp: seconds })).toMatchObject({ symbol: 'AAPL' });
    expect(body({ timestamp: seconds, time: null })).toMatchObject({ symbol: 'AAPL' });
  });
});

describe('symbolMap keys', () => {
  it('match whatever the case, as symbols does: a key written es1! maps the ES1! a sender sends', () => {
    const rules = compileRules({ symbolMap: { 'es1!': 'ESZ2030', BTCUSD: 'BTC/USD' } });
    if (!rules) throw new Error('no rules');
    const mapped = (symbol: string) =>
      (prepareBody(rules, JSON.stringify({ symbol, action: 'buy', quantity: 1 }), Date.now()) as { symbol: string })
        .symbol;
    expect(mapped('ES1!')).toBe('ESZ2030');
    expect(mapped('es1!')).toBe('ESZ2030');
    expect(mapped('btcusd')).toBe('BTC/USD');
    expect(mapped('MSFT')).toBe('MSFT');
  });

  // TradingView's {{exchange}}:{{ticker}}: the map passed CME_MINI:ES1! by, and the broker's own
  // front month was traded, not the contract the trader mapped ES1! to.
  it('map a symbol sent with an exchange prefix by its key, keeping the exchange', () => {
    const rules = compileRules({
      symbolMap: { 'es1!': 'ESZ2030', BTCUSD: 'BTC/USD', 'NYSE:BRK.B': 'BRK-B', X: 'BINANCE:BTCUSDT' },
    });
    if (!rules) throw new Error('no rules');
    const mapped = (symbol: string) =>
      (prepareBody(rules, JSON.stringify({ symbol, action: 'buy', quantity: 1 }), Date.now()) as { symbol: string })
        .symbol;
    expect(mapped('CME_MINI:ES1!')).toBe('CME_MINI:ESZ2030');
    expect(mapped(' coinbase:btcusd ')).toBe('COINBASE:BTC/USD');
    expect(mapped('NYSE:BRK.B')).toBe('BRK-B');
    expect(mapped('NASDAQ:X')).toBe('BINANCE:BTCUSDT');
    expect(mapped('NASDAQ:MSFT')).toBe('NASDAQ:MSFT');
    const legs = prepareBody(
      rules,
      JSON.stringify({ legs: [{ symbol: 'CME:ES1!', action: 'buy' }], 'symbol[2]': 'CME:ES1!', quantity: 1 }),
      0,
    );
    expect(legs).toMatchObject({ legs: [{ symbol: 'CME:ESZ2030' }], 'symbol[2]': 'CME:ESZ2030' });
  });

  it('map a symbol sent as a number (a ticker of 7203), which the order language reads as text', () => {
    const rules = compileRules({ symbolMap: { '7203': '7203.T' } });
    if (!rules) throw new Error('no rules');
    const body = (symbol: unknown) => prepareBody(rules, JSON.stringify({ symbol, action: 'buy', quantity: 1 }), 0);
    expect(body(7203)).toMatchObject({ symbol: '7203.T' });
    expect(body('7203')).toMatchObject({ symbol: '7203.T' });
    const legs = prepareBody(
      rules,
      JSON.stringify({ legs: [{ symbol: 7203, action: 'buy' }], 'symbol[2]': 7203, quantity: 1 }),
      0,
    );
    expect(legs).toMatchObject({ legs: [{ symbol: '7203.T' }], 'symbol[2]': '7203.T' });
  });

  it('take a target named like a member of every object (toString, constructor) as no chain', () => {
    const parsed = parseHookRules(
      JSON.stringify({ symbolMap: { TS: 'toString', C: 'constructor', X: 'hasOwnProperty' } }),
    );
    expect(parsed).toEqual({
      ok: true,
      rules: { symbolMap: { TS: 'toString', C: 'constructor', X: 'hasOwnProperty' } },
    });
    // A real chain is still refused.
    expect(parseHookRules(JSON.stringify({ symbolMap: { A: 'toString', toString: 'B' } }))).toEqual({
      ok: false,
      message: 'symbolMap.A: toString is mapped again (a chain or a loop)',
    });
  });

  it('refuse a chain or a loop whatever the case of the target, as keys match whatever their case', () => {
    // A sender's nq is mapped by the key NQ: ES → nq → YM is a chain.
    expect(parseHookRules(JSON.stringify({ symbolMap: { ES: 'nq', NQ: 'YM' } }))).toEqual({
      ok: false,
      message: 'symbolMap.ES: nq is mapped again (a chain or a loop)',
    });
    expect(parseHookRules(JSON.stringify({ symbolMap: { A: ' b ', b: 'C' } }))).toMatchObject({ ok: false });
    // A key mapped to itself in another case is no chain.
    expect(parseHookRules(JSON.stringify({ symbolMap: { aapl: 'AAPL', APPLE: 'aapl' } }))).toMatchObject({ ok: true });
  });

  it('refuse two keys that are one symbol whatever their case and spaces, mapped otherwise, instead of keeping one', () => {
    expect(parseHookRules(JSON.stringify({ symbolMap: { BTCUSD: 'BTC/USD', btcusd: 'ETH/USD' } }))).toEqual({
      ok: false,
      message:
        'symbolMap.btcusd: the same symbol as BTCUSD (keys match whatever their case and spaces), mapped otherwise; keep one',
    });
    expect(parseHookRules(JSON.stringify({ symbolMap: { ES1: 'ESZ2030', ' ES1 ': 'ESH2031' } }))).toEqual({
      ok: false,
      message:
        'symbolMap.ES1: the same symbol as ES1 (keys match whatever their case and spaces), mapped otherwise; keep one',
    });
    // The same mapping written twice loses nothing.
    expect(parseHookRules(JSON.stringify({ symbolMap: { BTCUSD: 'BTC/USD', btcusd: 'BTC/USD' } }))).toMatchObject({
      ok: true,
    });
  });

  it('refuse a key __proto__ (which an object cannot hold) instead of dropping it silently', () => {
    for (const key of ['__proto__', ' __proto__ ']) {
      expect(parseHookRules(JSON.stringify({ symbolMap: { [key]: 'AAPL', X: 'Y' } }))).toEqual({
        ok: false,
        message: 'symbolMap.__proto__: cannot be mapped (a reserved name)',
      });
    }
    // As a target it is an ordinary symbol.
    expect(parseHookRules(JSON.stringify({ symbolMap: { X: '__proto__' } }))).toEqual({
      ok: true,
      rules: { symbolMap: { X: '__proto__' } },
    });
  });
});

describe('a hook whose rules read the body', () => {
  it('refuses a key given twice as a hook without rules does, placing nothing', async () => {
    const trader = await traderWith('rules-twice@example.com', { symbolMap: { ES1: 'ESZ2030' } });
    const text = '{"symbol":"AAPL","action":"buy","quantity":1,"action":"sell"}';
    const res = await postSignal(t, trader.shortKey, text, 'text/plain');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'ValidationError', message: 'action: given twice' });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    expect(await balanceOf(t, trader.userId)).toBe(50);
  });
});

describe('symbols as written in the settings', () => {
  it('allow the instrument however it is spelled (BTCUSD is BTC/USD, SPY271217C500 the OCC symbol); others refused', () => {
    const rules = compileRules({ symbols: ['BTCUSD', 'spy271217c500'] });
    if (!rules) throw new Error('no rules');
    const order = (symbol: string) =>
      normalizeOrderOrThrow({ symbol, action: 'buy_to_open', quantity: 1 }, { now: WRITTEN_AT });
    const crypto = normalizeOrderOrThrow({ symbol: 'BTC/USD', action: 'buy', quantity: 1 });
    expect(checkOrder(rules, crypto)).toBeUndefined();
    expect(checkOrder(rules, order('SPY 271217C00500000'))).toBeUndefined();
    expect(checkOrder(rules, order('SPY 271217C00510000'))).toMatchObject({
      rule: 'symbols',
      message: "symbols: SPY   271217C00510000 is not among this webhook's symbols",
    });
  });
});

describe('symbols with an exchange prefix', () => {
  it('an exchange-qualified entry allows that exchange only; a bare entry any exchange', () => {
    const rules = compileRules({ symbols: ['NASDAQ:AAPL', 'msft', 'nse:infy'] });
    if (!rules) throw new Error('no rules');
    const order = (symbol: string) => normalizeOrderOrThrow({ symbol, action: 'buy', quantity: 1 });
    expect(checkOrder(rules, order('NASDAQ:AAPL'))).toBeUndefined();
    expect(checkOrder(rules, order('nasdaq:aapl'))).toBeUndefined();
    expect(checkOrder(rules, order('NSE:INFY'))).toBeUndefined();
    for (const other of ['NYSE:AAPL', 'AAPL', 'BSE:INFY', 'INFY']) {
      expect(checkOrder(rules, order(other))).toMatchObject({ rule: 'symbols' });
    }
    expect(checkOrder(rules, order('NYSE:AAPL'))?.message).toBe(
      "symbols: NYSE:AAPL is not among this webhook's symbols",
    );
    for (const any of ['MSFT', 'NASDAQ:MSFT', 'BATS:MSFT']) expect(checkOrder(rules, order(any))).toBeUndefined();
  });

  // Saxo trades the listing extra.exchange names, not the prefix's: NASDAQ:AAPL with
  // extra.exchange XETR passed NASDAQ:AAPL and was placed on Xetra.
  it('an order routed by extra.exchange (Saxo) is allowed only on an exchange the entries allow', () => {
    const saxo = brokerModules.find((module) => module.descriptor.name === 'saxo')?.descriptor;
    if (!saxo) throw new Error('no saxo');
    const rules = compileRules({ symbols: ['NASDAQ:AAPL', 'msft'] });
    if (!rules) throw new Error('no rules');
    const order = (symbol: string, exchange?: string) =>
      normalizeOrderOrThrow(
        { symbol, action: 'buy', quantity: 1, ...(exchange ? { extra: { exchange } } : {}) },
        { provider: saxo },
      );
    expect(checkOrder(rules, order('NASDAQ:AAPL', 'XETR'))).toEqual({
      rule: 'symbols',
      message: "symbols: XETR:AAPL is not among this webhook's symbols",
    });
    expect(checkOrder(rules, order('AAPL', 'xetr'))).toMatchObject({ rule: 'symbols' });
    expect(checkOrder(rules, order('NASDAQ:AAPL', 'nasdaq'))).toBeUndefined();
    expect(checkOrder(rules, order('AAPL', 'NASDAQ'))).toBeUndefined();
    expect(checkOrder(rules, order('NASDAQ:AAPL'))).toBeUndefined();
    expect(checkOrder(rules, order('MSFT', 'XETR'))).toBeUndefined();
  });

  // extra.exchange xnas (the listing as Saxo's positions name it, which the way out documents) was
  // refused as XNAS:AAPL by an entry NASDAQ:AAPL: the same listing.
  it("an order routed by Saxo's listing code (xnas) is allowed by the exchange's entry (NASDAQ:AAPL)", () => {
    const rules = compileRules({ symbols: ['NASDAQ:AAPL'] });
    if (!rules) throw new Error('no rules');
    const order = (symbol: string, exchange: string) =>
      normalizeOrderOrThrow({ symbol, action: 'buy', quantity: 1, extra: { exchange } });
    expect(checkOrder(rules, order('AAPL', 'xnas'))).toBeUndefined();
    expect(checkOrder(rules, order('NASDAQ:AAPL', 'XNAS'))).toBeUndefined();
    expect(checkOrder(rules, order('AAPL', 'xnys'))).toEqual({
      rule: 'symbols',
      message: "symbols: NYSE:AAPL is not among this webhook's symbols",
    });
    const byCode = compileRules({ symbols: ['xnas:AAPL'] });
    if (!byCode) throw new Error('no rules');
    expect(checkOrder(byCode, order('AAPL', 'NASDAQ'))).toBeUndefined();
  });
});

describe('maxQuantity of a quantity not in units', () => {
  const rules = compileRules({ maxQuantity: 10 });
  if (!rules) throw new Error('no rules');
  const order = (fields: Record<string, unknown>) =>
    normalizeOrderOrThrow({ symbol: 'AAPL', action: 'buy', ...fields });

  it('turns a cash amount at the order’s own price into units', () => {
    const cash = { quantity_type: 'cash', type: 'limit', limit_price: 100 };
    expect(checkOrder(rules, order({ ...cash, quantity: 1000 }))).toBeUndefined();
    expect(checkOrder(rules, order({ ...cash, quantity: 5000 }))).toEqual({
      rule: 'maxQuantity',
      message: "maxQuantity: cash 5000 at 100 buys 50 units, which is more than this webhook's maximum of 10",
    });
  });

  it('refuses a percent of the equity or a cash amount at market, which it cannot count, rather than passing it', () => {
    expect(checkOrder(rules, order({ quantity_type: 'percent_of_equity', quantity: 100 }))).toEqual({
      rule: 'maxQuantity',
      message: 'maxQuantity: a percent_of_equity quantity cannot be counted in units here; send a fixed quantity',
    });
    expect(checkOrder(rules, order({ quantity_type: 'cash', quantity: 100_000 }))).toMatchObject({
      rule: 'maxQuantity',
    });
  });
});
