// rules.fanOut on the real hook endpoint (paper accounts, real PostgreSQL): each leg its own
// order with a derived client order id, one credit each, exactly once (a repeat places no leg),
// its own Order entry with its accountId; a leg that cannot be placed does not stop the others.
import { currentExample } from '@router/orders';
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
import { listActions } from '../actions/list-actions.ts';
import { activateConnector, deactivateConnector } from '../connectors/index.ts';
import { updateHook } from '../hooks/index.ts';
import { legSignalId } from './signal-id.ts';

let t: TestApp;
/** A broker that quotes no last price (and reports no positions), for legs on it. */
const unquoted = flakyBroker();
beforeAll(async () => {
  t = await startTestApp({ brokers: [unquoted.broker] });
});
afterAll(() => t.close());

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 3, client_id: 'fan-1' };

describe('fanOut', () => {
  it('places every leg exactly once, sized by its multiplier, one credit each', async () => {
    const trader = await setupTrader(t, 'fan@example.com', { credits: 10 });
    const actor = { userId: trader.userId, address: null };
    const copy = await activateConnector(t.services, actor, 'paper', []);
    const broken = await activateConnector(t.services, actor, 'paper', []);
    const copyAccount = copy.accounts[0]?.id as string;
    const rules = {
      fanOut: [
        { connectorKey: broken.key, accountId: broken.accounts[0]?.id, multiplier: 1 },
        { connectorKey: copy.key, accountId: copyAccount, multiplier: 2 },
      ],
    };
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
    const brokenId = (await t.services.db.$client.query('select id from connectors where key = $1', [broken.key]))
      .rows[0]?.id;
    await deactivateConnector(t.services, Number(brokenId), 'test');

    const first = await postSignal(t, trader.shortKey, BUY);
    expect(first.statusCode).toBe(201);
    const firstId = (
      await t.services.db.$client.query('select id from signals where user_id = $1 and account_id = $2', [
        trader.userId,
        trader.accountId,
      ])
    ).rows[0]?.id as string;
    await eventually(async () => (await paperOrders(t, copyAccount)).length === 1);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    const [legOrder] = await paperOrders(t, copyAccount);
    expect(legOrder?.client_order_id).toBe(legSignalId(firstId, 2));
    const quantities = await t.services.db.$client.query<{ quantity: string }>(
      "select (data->>'quantity') as quantity from paper_orders where account_id = $1",
      [copyAccount],
    );
    expect(Number(quantities.rows[0]?.quantity)).toBe(6);
    expect(await balanceOf(t, trader.userId)).toBe(8);

    // The sender retries: the first leg's answer, no leg placed again.
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    await t.app.signalRuntime.writer.flush();
    expect(await paperOrders(t, copyAccount)).toHaveLength(1);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(8);

    const entries = (await listActions(t.services, trader.userId, { code: 'Order' })).map((a) =>
      JSON.parse(a.metadata),
    );
    const byAccount = (id: string) => entries.filter((m) => m.accountId === id);
    expect(byAccount(copyAccount)).toHaveLength(1);
    expect(byAccount(copyAccount)[0]).toMatchObject({ signalId: legSignalId(firstId, 2) });
    expect(byAccount(broken.accounts[0]?.id as string)[0]?.response.message).toMatch(/deactivated/);
  });

  it('refuses another order under a used client_id: no first order, no leg, no credit', async () => {
    const trader = await setupTrader(t, 'fan-reused@example.com', { credits: 10 });
    const actor = { userId: trader.userId, address: null };
    const copy = await activateConnector(t.services, actor, 'paper', []);
    const copyAccount = copy.accounts[0]?.id as string;
    const rules = { fanOut: [{ connectorKey: copy.key, accountId: copyAccount, multiplier: 2 }] };
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    await eventually(async () => (await paperOrders(t, copyAccount)).length === 1);
    expect(await balanceOf(t, trader.userId)).toBe(8);

    const sell = await postSignal(t, trader.shortKey, { ...BUY, action: 'sell' });
    expect(sell.statusCode).toBe(400);
    expect(sell.json().message).toMatch(/^client_id fan-1 was already used for another order/);
    // The same order again is still the repeat it was (the leg's order is its own, scaled).
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    await t.app.signalRuntime.writer.flush();
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await paperOrders(t, copyAccount)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(8);
  });

  it("keys a leg apart from any sender's client_id: a client_id ending in #1 is a signal of its own", async () => {
    const trader = await setupTrader(t, 'fan-key@example.com', { credits: 10 });
    const actor = { userId: trader.userId, address: null };
    const copy = await activateConnector(t.services, actor, 'paper', []);
    const copyAccount = copy.accounts[0]?.id as string;
    const rules = { fanOut: [{ connectorKey: copy.key, accountId: copyAccount, multiplier: 1 }] };
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'L' })).statusCode).toBe(201);
    await eventually(async () => (await paperOrders(t, copyAccount)).length === 1);

    // Another order whose client_id happens to be the first's plus "#1": not a repeat of the leg.
    const next = await postSignal(t, trader.shortKey, { ...BUY, quantity: 2, client_id: 'L#1' });
    expect(next.statusCode).toBe(201);
    await eventually(async () => (await paperOrders(t, copyAccount)).length === 2);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
    expect(await balanceOf(t, trader.userId)).toBe(6);
  });

  it('names maxNotional when a leg’s broker quotes no price for a market order under it', async () => {
    const trader = await setupTrader(t, 'fan-notional@example.com', { credits: 10 });
    const actor = { userId: trader.userId, address: null };
    const copy = await activateConnector(t.services, actor, 'flaky', []);
    const copyAccount = copy.accounts[0]?.id as string;
    const rules = { maxNotional: 100_000, fanOut: [{ connectorKey: copy.key, accountId: copyAccount, multiplier: 1 }] };
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'fan-notional-1' })).statusCode).toBe(201);
    const legEntry = async () => {
      await t.app.signalRuntime.writer.flush();
      return (await listActions(t.services, trader.userId, { code: 'Order' }))
        .map((a) => JSON.parse(a.metadata))
        .find((m) => m.accountId === copyAccount);
    };
    await eventually(async () => (await legEntry()) !== undefined);
    expect((await legEntry())?.response).toMatchObject({
      rule: 'maxNotional',
      message:
        'fanOut[0]: maxNotional: a market order has no price to value it with and Flaky Broker quotes no last price here; send a limit price',
    });
    expect(unquoted.calls.placeOrder).toBe(0);
  });

  // Settings saved before the multiplier had a bound still load: a copy at 1e300 was an order of
  // 3e300 shares sent to the leg's broker.
  it('refuses a leg whose stored multiplier is past the bound settings now have, placing nothing there', async () => {
    const trader = await setupTrader(t, 'fan-huge@example.com', { credits: 10 });
    const actor = { userId: trader.userId, address: null };
    const copy = await activateConnector(t.services, actor, 'paper', []);
    const copyAccount = copy.accounts[0]?.id as string;
    const rules = { fanOut: [{ connectorKey: copy.key, accountId: copyAccount, multiplier: 1e300 }] };
    await t.services.db.$client.query('update hooks set rules = $1::jsonb where short_key = $2', [
      JSON.stringify(rules),
      trader.shortKey,
    ]);
    t.app.signalRuntime.hooks.invalidate(trader.shortKey);
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'fan-huge' })).statusCode).toBe(201);
    const copyEntry = async () => {
      await t.app.signalRuntime.writer.flush();
      return (await listActions(t.services, trader.userId, { code: 'Order' }))
        .map((a) => JSON.parse(a.metadata))
        .find((m) => m.accountId === copyAccount);
    };
    await eventually(async () => (await copyEntry()) !== undefined);
    expect((await copyEntry())?.response).toMatchObject({
      rule: 'fanOut',
      message: "fanOut[0].multiplier: 1e+300 is more than 1000; save this webhook's risk controls with a smaller one",
    });
    expect(await paperOrders(t, copyAccount)).toHaveLength(0);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('refuses a leg whose percent quantity the multiplier takes past 100, placing nothing there', async () => {
    const trader = await setupTrader(t, 'fan-percent@example.com', { credits: 10 });
    const actor = { userId: trader.userId, address: null };
    const copy = await activateConnector(t.services, actor, 'paper', []);
    const copyAccount = copy.accounts[0]?.id as string;
    const rules = { fanOut: [{ connectorKey: copy.key, accountId: copyAccount, multiplier: 2 }] };
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
    // A stock: six ES contracts on the copy need more buying power than the account has at some
    // prices of the simulated feed, which made the case depend on the hour it ran.
    expect((await postSignal(t, trader.shortKey, { ...BUY, client_id: 'fan-pct-1' })).statusCode).toBe(201);
    await eventually(async () => (await paperOrders(t, copyAccount)).length === 1);

    // 60 % of the position is 120 % on the copy: more than the 6 shares it holds.
    const sell = { symbol: 'AAPL', action: 'sell', quantity: 60, quantity_type: 'percent_of_position' };
    expect((await postSignal(t, trader.shortKey, { ...sell, client_id: 'fan-pct-2' })).statusCode).toBe(201);
    await t.app.signalRuntime.writer.flush();
    await eventually(async () => {
      await t.app.signalRuntime.writer.flush();
      const entries = (await listActions(t.services, trader.userId, { code: 'Order' })).map((a) =>
        JSON.parse(a.metadata),
      );
      return entries.filter((m) => m.accountId === copyAccount).length === 2;
    });
    const copyEntries = (await listActions(t.services, trader.userId, { code: 'Order' }))
      .map((a) => JSON.parse(a.metadata))
      .filter((m) => m.accountId === copyAccount);
    expect(copyEntries[0]?.response).toMatchObject({
      rule: 'fanOut',
      message: 'fanOut[0]: quantity: must be at most 100 with quantity_type percent_of_position (50 means 50 %)',
    });
    expect(await paperOrders(t, copyAccount)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(7);
  });

  it('rounds a copy of contracts down to whole ones, and refuses a leg the multiplier takes to nothing', async () => {
    const trader = await setupTrader(t, 'fan-whole@example.com', { credits: 10 });
    const actor = { userId: trader.userId, address: null };
    const copy = await activateConnector(t.services, actor, 'paper', []);
    const copyAccount = copy.accounts[0]?.id as string;
    const rules = { fanOut: [{ connectorKey: copy.key, accountId: copyAccount, multiplier: 0.5 }] };
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
    // An option of 2027-12-17 as written, moved to a current expiry: on the real clock it expires.
    const option = { symbol: currentExample('SPY271217C00500000', Date.now()), action: 'buy_to_open' };
    // Three contracts at half size: one contract on the copy, not 1.5 (no broker takes that).
    expect((await postSignal(t, trader.shortKey, { ...option, quantity: 3, client_id: 'w-3' })).statusCode).toBe(201);
    await eventually(async () => (await paperOrders(t, copyAccount)).length === 1);
    const quantities = await t.services.db.$client.query<{ quantity: string }>(
      "select (data->>'quantity') as quantity from paper_orders where account_id = $1",
      [copyAccount],
    );
    expect(Number(quantities.rows[0]?.quantity)).toBe(1);
    // One contract at half size is none: refused on the copy, nothing sent there.
    expect((await postSignal(t, trader.shortKey, { ...option, quantity: 1, client_id: 'w-1' })).statusCode).toBe(201);
    const copyEntries = async () => {
      await t.app.signalRuntime.writer.flush();
      return (await listActions(t.services, trader.userId, { code: 'Order' }))
        .map((a) => JSON.parse(a.metadata))
        .filter((m) => m.accountId === copyAccount);
    };
    await eventually(async () => (await copyEntries()).length === 2);
    expect((await copyEntries())[0]?.response).toMatchObject({
      rule: 'fanOut',
      message: 'fanOut[0]: quantity 1 × multiplier 0.5 comes to 0 whole contracts: nothing to place on this account',
    });
    expect(await paperOrders(t, copyAccount)).toHaveLength(1);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
  });

  it('sizes a copy at or below its exact share, never rounded up past it', async () => {
    const trader = await setupTrader(t, 'fan-share@example.com', { credits: 10 });
    const actor = { userId: trader.userId, address: null };
    const copy = await activateConnector(t.services, actor, 'paper', []);
    const copyAccount = copy.accounts[0]?.id as string;
    const rules = { fanOut: [{ connectorKey: copy.key, accountId: copyAccount, multiplier: 0.123456789 }] };
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
    // 0.001 BTC × 0.123456789 is 0.000123456789 BTC: 0.00012345 on the copy, not 0.00012346.
    const order = { symbol: 'BTC/USD', action: 'buy', quantity: 0.001, client_id: 'share-1' };
    expect((await postSignal(t, trader.shortKey, order)).statusCode).toBe(201);
    await eventually(async () => (await paperOrders(t, copyAccount)).length === 1);
    const quantities = await t.services.db.$client.query<{ quantity: string }>(
      "select (data->>'quantity') as quantity from paper_orders where account_id = $1",
      [copyAccount],
    );
    expect(Number(quantities.rows[0]?.quantity)).toBe(0.00012345);
  });
});
