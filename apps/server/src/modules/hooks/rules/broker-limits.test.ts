// The limits that ask the broker, on the real hook endpoint (paper broker, real PostgreSQL):
// maxNotional of a market order at the broker's last price, maxPosition from the positions it
// reports; brokers that quote no price or report no positions refuse with why.
import type { Holding } from '@router/brokers';
import { normalizeOrderOrThrow as normalizeAt } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlAs } from '../../../../test/activity-fixtures.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../../test/app.ts';
import {
  balanceOf,
  eventually,
  flakyBroker,
  paperOrders,
  postSignal,
  setupTrader,
} from '../../../../test/signal-fixtures.ts';
import { WRITTEN_AT } from '../../../../test/written-at.ts';
import { listActions } from '../../actions/list-actions.ts';
import { activateConnector } from '../../connectors/index.ts';
import { updateHook } from '../index.ts';
import { checkWithBroker, wayOut } from './broker-limits.ts';
import { checkOrder } from './check.ts';
import { compileRules } from './compile.ts';

/** Orders as of the day this file was written: its options (SPY 271217) expire on the real clock. */
const normalizeOrderOrThrow = (raw: unknown) => normalizeAt(raw, { now: WRITTEN_AT });

let t: TestApp;
const flaky = flakyBroker();
// A broker whose quantities are lots (as MetaTrader's): 1 lot of EURUSD is 100,000 EUR.
const lots = flakyBroker({ name: 'lots' });
lots.broker = { ...lots.broker, descriptor: { ...lots.broker.descriptor, quantityInLots: true } };
// A broker that reports positions but quotes no price.
const holds = flakyBroker({ name: 'holds' });
holds.broker = {
  ...holds.broker,
  descriptor: {
    ...holds.broker.descriptor,
    has: { ...holds.broker.descriptor.has, getHoldings: true },
    reference: { ...holds.broker.descriptor.reference, quantity_type: { values: ['fixed', 'cash'] } },
  },
  getHoldings: async () => ({ positions: holdsPositions }),
};
/** What the `holds` broker reports as held (a test sets it, and puts it back). */
let holdsPositions: Holding[] = [];
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, brokers: [flaky.broker, lots.broker, holds.broker] });
});
afterAll(() => t.close());

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };
const UPDATE = `mutation($key: String!, $rules: String) { hookUpdate(key: $key, rules: $rules) { key rules } }`;

async function traderWith(email: string, rules: Record<string, unknown>, provider = 'paper') {
  const trader = await setupTrader(t, email, { credits: 50, provider });
  await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
    rules: JSON.stringify(rules),
  });
  return trader;
}

/** The paper broker's price of AAPL now, as the hook path reads it. */
async function paperPrice(accountId: string): Promise<number> {
  const paper = await t.services.brokers.load('paper');
  const session = { secrets: { accountId }, accounts: [{ id: accountId, name: 'Paper account', demo: true }] };
  const price = await paper?.lastPrice?.({ baseUrl: '' }, session, accountId, 'AAPL', 'stock');
  if (typeof price !== 'number') throw new Error('paper quotes no AAPL');
  return price;
}

describe('maxNotional of a market order', () => {
  it('is valued at the broker’s last price: over it refused, under it placed', async () => {
    const probe = await setupTrader(t, 'probe@example.com');
    const price = await paperPrice(probe.accountId);
    // Ten shares are worth 10 × price; the synthetic price moves far less than 10 % in a test.
    const trader = await traderWith('market-notional@example.com', { maxNotional: Math.round(price * 9) });
    const over = await postSignal(t, trader.shortKey, { ...BUY, quantity: 10 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ status: 'ExecutionError', rule: 'maxNotional' });
    expect(over.json().message).toMatch(/^maxNotional: notional \d+(\.\d+)? is more than this webhook's maximum/);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    expect(await balanceOf(t, trader.userId)).toBe(50);
    expect((await postSignal(t, trader.shortKey, { ...BUY, quantity: 5 })).statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('is refused with why at a broker that quotes no price; a limit price still works there', async () => {
    const trader = await traderWith('no-quote@example.com', { maxNotional: 1000 }, 'flaky');
    const before = flaky.calls.placeOrder;
    const market = await postSignal(t, trader.shortKey, BUY);
    expect(market.statusCode).toBe(400);
    expect(market.json()).toMatchObject({ rule: 'maxNotional' });
    expect(market.json().message).toMatch(/quotes no last price here; send a limit price$/);
    const limit = await postSignal(t, trader.shortKey, { ...BUY, type: 'limit', limit_price: 10, quantity: 5 });
    expect(limit.statusCode).toBe(201);
    expect(flaky.calls.placeOrder).toBe(before + 1);
  });
});

describe('maxNotional of an order its own price does not bound', () => {
  // Valued at its own price, a short sale at a limit of 0.01 (it sells at the bid) or a buy stop at
  // 0.01 (it buys at the ask) passed any maximum: 10 shares were worth 0.10, and were placed.
  it('is valued at the last price when the market is past it: a sell limit or a buy stop at 0.01', async () => {
    const probe = await setupTrader(t, 'past-probe@example.com');
    const price = await paperPrice(probe.accountId);
    const trader = await traderWith('past-price@example.com', { maxNotional: Math.round(price * 9) });
    for (const order of [
      { action: 'sell_short', type: 'limit', limit_price: 0.01 },
      { action: 'buy', type: 'stop', stop_price: 0.01 },
      { action: 'sell_short', type: 'stop_limit', stop_price: price * 2, limit_price: 0.01 },
    ]) {
      const over = await postSignal(t, trader.shortKey, { symbol: 'AAPL', quantity: 10, ...order });
      expect(over.statusCode).toBe(400);
      expect(over.json().message).toMatch(/^maxNotional: notional \d+(\.\d+)? is more than this webhook's maximum/);
    }
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    // Bounded by their price: a buy limit fills at most at it, a sell stop triggers at or below it.
    expect(
      (await postSignal(t, trader.shortKey, { ...BUY, quantity: 10, type: 'limit', limit_price: 1 })).statusCode,
    ).toBe(201);
    const stop = { symbol: 'AAPL', action: 'sell_short', quantity: 10, type: 'stop', stop_price: 1 };
    expect((await postSignal(t, trader.shortKey, stop)).statusCode).toBe(201);
    // Within the maximum at the market: placed.
    const within = { symbol: 'AAPL', action: 'sell_short', quantity: 5, type: 'limit', limit_price: 0.01 };
    expect((await postSignal(t, trader.shortKey, within)).statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(3);
  });

  // 50 to sell short at a limit of 1 is 50 shares (the paper broker sizes a cash amount at the
  // order's own price), sold at the bid: its notional was taken as the 50.
  it('values a cash amount at such a price by the units it buys, at the last price', async () => {
    const probe = await setupTrader(t, 'cash-past-probe@example.com');
    const price = await paperPrice(probe.accountId);
    const trader = await traderWith('cash-past@example.com', { maxNotional: Math.round(price * 9) });
    const short = { symbol: 'AAPL', action: 'sell_short', quantity: 50, quantity_type: 'cash' };
    const over = await postSignal(t, trader.shortKey, { ...short, type: 'limit', limit_price: 1 });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toMatch(/^maxNotional: notional \d+(\.\d+)? is more than this webhook's maximum/);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    // At a limit the market is not past, the amount is what it sells.
    const resting = await postSignal(t, trader.shortKey, { ...short, type: 'limit', limit_price: price * 2 });
    expect(resting.statusCode).toBe(201);
  });

  it('keeps valuing it at its own price at a broker that quotes no last price', async () => {
    const trader = await traderWith('past-no-quote@example.com', { maxNotional: 1000 }, 'flaky');
    const before = flaky.calls.placeOrder;
    const sell = { symbol: 'AAPL', action: 'sell', quantity: 5, type: 'limit', limit_price: 10 };
    expect((await postSignal(t, trader.shortKey, sell)).statusCode).toBe(201);
    expect(flaky.calls.placeOrder).toBe(before + 1);
  });
});

describe('maxPosition', () => {
  it('refuses an order that would hold more than the maximum, and lets a reducing one through', async () => {
    const trader = await traderWith('position@example.com', { maxPosition: 5 });
    expect((await postSignal(t, trader.shortKey, { ...BUY, quantity: 3, client_id: 'p1' })).statusCode).toBe(201);
    // Another order (its own client_id: the same body again would be the first one's repeat).
    const over = await postSignal(t, trader.shortKey, { ...BUY, quantity: 3, client_id: 'p2' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ rule: 'maxPosition' });
    expect(over.json().message).toBe(
      "maxPosition: AAPL position would be 6 (now 3), more than this webhook's maximum of 5",
    );
    expect((await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 })).statusCode).toBe(201);
    expect((await postSignal(t, trader.shortKey, { ...BUY, action: 'sell', quantity: 4 })).statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(3);
    expect(await balanceOf(t, trader.userId)).toBe(47);
  });

  it('is refused as a setting on a webhook whose broker reports no positions, nothing changed', async () => {
    const trader = await traderWith('no-positions@example.com', { maxQuantity: 5 }, 'flaky');
    const answer = await gqlAs(t, trader.headers, UPDATE, {
      key: trader.hook.key,
      rules: JSON.stringify({ maxPosition: 10 }),
    });
    expect(answer.errors?.[0]?.message).toBe(
      'maxPosition: Flaky Broker does not report positions, so no position can be checked',
    );
    const bad = await gqlAs(t, trader.headers, UPDATE, { key: trader.hook.key, rules: '{"maxPosition": 0}' });
    expect(bad.errors?.[0]?.message).toBe('maxPosition: must be greater than 0');
    const read = await gqlAs<{ hook: { rules: string } }>(
      t,
      trader.headers,
      'query($k: String!) { hook(key: $k) { rules } }',
      {
        k: trader.hook.key,
      },
    );
    expect(JSON.parse(read.data?.hook.rules ?? '')).toEqual({ maxQuantity: 5 });
  });
});

describe('maxQuantity and maxNotional on the way out of a position', () => {
  /** A trader holding `held` AAPL (bought before the rules were set), then with `rules`. */
  async function holding(email: string, held: number, rules: Record<string, unknown>) {
    const trader = await traderWith(email, {});
    expect((await postSignal(t, trader.shortKey, { ...BUY, quantity: held, client_id: 'in' })).statusCode).toBe(201);
    await updateHook(t.services, { userId: trader.userId, address: null }, trader.hook.key, {
      rules: JSON.stringify(rules),
    });
    // The hook is cached from the buy: wait for hook_changed to reach this instance.
    await eventually(async () => {
      const cached = (await t.app.signalRuntime.hooks.get(trader.shortKey))?.rules?.settings as Record<string, unknown>;
      return (
        cached !== undefined &&
        Object.entries(rules).every(([key, value]) => JSON.stringify(cached[key]) === JSON.stringify(value))
      );
    });
    return trader;
  }

  it('let a sell of at most the long held through, refuse one that would open a short', async () => {
    const trader = await holding('way-out-qty@example.com', 8, { maxQuantity: 5 });
    const past = await postSignal(t, trader.shortKey, { ...BUY, action: 'sell', quantity: 9, client_id: 's9' });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ rule: 'maxQuantity' });
    expect(
      (await postSignal(t, trader.shortKey, { ...BUY, action: 'sell', quantity: 6, client_id: 's6' })).statusCode,
    ).toBe(201);
    // A buy growing the long is still limited.
    const grow = await postSignal(t, trader.shortKey, { ...BUY, quantity: 6, client_id: 'b6' });
    expect(grow.json()).toMatchObject({ rule: 'maxQuantity' });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(2);
  });

  it('let a close with a quantity and a sell of a percent of the position through, at market past maxNotional', async () => {
    const trader = await holding('way-out-notional@example.com', 8, { maxNotional: 100, maxQuantity: 1 });
    const close = await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'close', quantity: 3 });
    expect(close.statusCode).toBe(201);
    const sell = await postSignal(t, trader.shortKey, { ...BUY, action: 'sell', quantity: 4, client_id: 's4' });
    expect(sell.statusCode).toBe(201);
    const rest = { ...BUY, action: 'sell', quantity: 100, quantity_type: 'percent_of_position', client_id: 'all' };
    expect((await postSignal(t, trader.shortKey, rest)).statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(4);
  });

  it('stand at a broker that reports no positions, which is not asked to place anything', async () => {
    const trader = await traderWith('way-out-unknown@example.com', { maxQuantity: 1 }, 'flaky');
    const before = flaky.calls.placeOrder;
    const sell = await postSignal(t, trader.shortKey, { ...BUY, action: 'sell', quantity: 2 });
    expect(sell.statusCode).toBe(400);
    expect(sell.json()).toMatchObject({ rule: 'maxQuantity' });
    expect(flaky.calls.placeOrder).toBe(before);
  });

  it('let a symbol taken off the symbols list be left: a close, a cancel, a sell of at most the long', async () => {
    const trader = await holding('way-out-symbols@example.com', 8, { symbols: ['MSFT'] });
    const post = (body: Record<string, unknown>) => postSignal(t, trader.shortKey, body);
    // Opening or growing anything on AAPL stays refused, so does a sell past the long (a short).
    for (const body of [
      { ...BUY, client_id: 'b1' },
      { ...BUY, action: 'sell', quantity: 9, client_id: 's9' },
    ]) {
      const refused = await post(body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ rule: 'symbols' });
    }
    expect((await post({ ...BUY, action: 'sell', quantity: 3, client_id: 's3' })).statusCode).toBe(201);
    expect((await post({ symbol: 'AAPL', action: 'cancel' })).statusCode).toBe(201);
    expect((await post({ symbol: 'AAPL', action: 'close' })).statusCode).toBe(201);
    // The buy of 8, the sell of 3, the cancel (a row of its own at the paper broker), the close.
    expect(await paperOrders(t, trader.accountId)).toHaveLength(4);
  });

  it('never refuse a close, which at most flattens what is held', () => {
    const rules = compileRules({ maxQuantity: 1, maxNotional: 10 });
    if (!rules) throw new Error('no rules');
    const close = normalizeOrderOrThrow({ symbol: 'AAPL', action: 'close', quantity: 50 });
    expect(checkOrder(rules, close)).toBeUndefined();
    expect(checkWithBroker(rules, close, { lastPrice: 190 })).toBeUndefined();
  });
});

describe('maxPosition on a fanOut leg whose broker reports no positions', () => {
  it('refuses the leg at signal time with the same reason a setting gets', async () => {
    const trader = await traderWith('fan-no-positions@example.com', {});
    const actor = { userId: trader.userId, address: null };
    const copy = await activateConnector(t.services, actor, 'flaky', []);
    const rules = {
      maxPosition: 10,
      fanOut: [{ connectorKey: copy.key, accountId: copy.accounts[0]?.id, multiplier: 1 }],
    };
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    const copyEntry = async () => {
      await t.app.signalRuntime.writer.flush();
      return (await listActions(t.services, trader.userId, { code: 'Order' }))
        .map((a) => JSON.parse(a.metadata))
        .find((m) => m.accountId === copy.accounts[0]?.id);
    };
    await eventually(async () => (await copyEntry()) !== undefined);
    expect((await copyEntry())?.response).toMatchObject({
      rule: 'maxPosition',
      message: 'fanOut[0]: maxPosition: Flaky Broker does not report positions, so no position can be checked',
    });
  });
});

describe('maxPosition of an order that turns a position round', () => {
  // Long 100 past a maximum of 50 (lowered since, or grown by signals arriving together): a sell
  // of 190 was let through as "smaller" (90 < 100), and opened a short of 90.
  it('refuses a reversal past the maximum, and lets one that only shrinks the position through', () => {
    const rules = compileRules({ maxPosition: 50 });
    if (!rules) throw new Error('no rules');
    const sell = (quantity: number) => normalizeOrderOrThrow({ symbol: 'AAPL', action: 'sell', quantity });
    const held = { positions: [{ symbol: 'AAPL', quantity: 100 }] };
    expect(checkWithBroker(rules, sell(190), held)).toEqual({
      rule: 'maxPosition',
      message: "maxPosition: AAPL position would be -90 (now 100), more than this webhook's maximum of 50",
    });
    // Towards flat, to flat, and round to a short within the maximum: each placed.
    for (const quantity of [40, 100, 150]) expect(checkWithBroker(rules, sell(quantity), held)).toBeUndefined();
    const buy = normalizeOrderOrThrow({ symbol: 'AAPL', action: 'buy', quantity: 180 });
    expect(checkWithBroker(rules, buy, { positions: [{ symbol: 'AAPL', quantity: -100 }] })).toMatchObject({
      message: "maxPosition: AAPL position would be 80 (now -100), more than this webhook's maximum of 50",
    });
  });
});

describe('maxPosition of a multi-leg order', () => {
  const spread = (quantity: number) =>
    normalizeOrderOrThrow({
      legs: [
        { symbol: 'SPY 271217C00500000', action: 'buy_to_open' },
        { symbol: 'SPY 271217C00510000', action: 'sell_to_open' },
      ],
      quantity,
    });
  const rules = compileRules({ maxPosition: 10 });
  if (!rules) throw new Error('no rules');

  it('counts each leg’s own quantity (the contracts it trades), not times the order’s', () => {
    // Four contracts a leg, none held: each position would be 4 (or -4), within 10.
    expect(checkWithBroker(rules, spread(4), { positions: [] })).toBeUndefined();
    expect(checkWithBroker(rules, spread(11), { positions: [] })).toMatchObject({
      rule: 'maxPosition',
      message:
        "maxPosition: SPY   271217C00500000 position would be 11 (now 0), more than this webhook's maximum of 10",
    });
  });
});

describe('maxPosition against the positions as a broker names them', () => {
  const rules = compileRules({ maxPosition: 5 });
  if (!rules) throw new Error('no rules');
  const buy = (symbol: string) => normalizeOrderOrThrow({ symbol, action: 'buy', quantity: 3 });
  const holding = (symbol: string, quantity: number) => ({ symbol, quantity, averagePrice: 1, marketValue: 1 });

  it('finds a future held as ESZ0 for an order on ESZ2030, and a front-month one for ES1!', () => {
    // Tradovate names contracts with a one-digit year: 5 held plus 3 is 8, over 5.
    expect(checkWithBroker(rules, buy('ESZ2030'), { positions: [holding('ESZ0', 5)] })).toMatchObject({
      rule: 'maxPosition',
      message: "maxPosition: ESZ2030 position would be 8 (now 5), more than this webhook's maximum of 5",
    });
    expect(checkWithBroker(rules, buy('ES1!'), { positions: [holding('ESZ0', 5)] })).toMatchObject({
      rule: 'maxPosition',
    });
    expect(checkWithBroker(rules, buy('NQ1!'), { positions: [holding('ESZ0', 5)] })).toBeUndefined();
  });

  it('finds the coins a spot exchange reports as a balance (BTC, XBT) and a swap ccxt names BTC/USD:BTC', () => {
    // Kraken and Coinbase report what is held as balances per currency: 4 BTC held plus 3 is 7.
    const over = "maxPosition: BTC/USD position would be 7 (now 4), more than this webhook's maximum of 5";
    for (const held of ['BTC', 'XBT', 'BTC/USD:BTC']) {
      expect(checkWithBroker(rules, buy('BTCUSD'), { positions: [holding(held, 4)] })).toEqual({
        rule: 'maxPosition',
        message: over,
      });
    }
    expect(checkWithBroker(rules, buy('BTC/USDT'), { positions: [holding('BTC', 4)] })).toMatchObject({
      rule: 'maxPosition',
    });
    // The quote currency held is no position in the pair: ETH/BTC is bought with BTC.
    expect(checkWithBroker(rules, buy('ETH/BTC'), { positions: [holding('BTC', 4)] })).toBeUndefined();
  });

  it('finds a coin held under its exchange code (XBTUSD for BTC/USD)', () => {
    expect(checkWithBroker(rules, buy('BTCUSD'), { positions: [holding('XBTUSD', 4)] })).toMatchObject({
      rule: 'maxPosition',
      message: "maxPosition: BTC/USD position would be 7 (now 4), more than this webhook's maximum of 5",
    });
  });
});

describe('positions at Saxo, named by their listing (AAPL:xnas)', () => {
  const sell = (extra?: Record<string, string>) =>
    normalizeOrderOrThrow({ symbol: 'AAPL', action: 'sell', quantity: 5, ...(extra ? { extra } : {}) });
  const held = [{ symbol: 'AAPL:xnas', quantity: 8 }];

  // Read as the exchange AAPL's ticker XNAS, Saxo's positions matched nothing: maxPosition counted
  // none held, and a sell of the long was never the way out.
  it('are counted for maxPosition and the way out', () => {
    const rules = compileRules({ maxPosition: 10 });
    if (!rules) throw new Error('no rules');
    const buy = normalizeOrderOrThrow({ symbol: 'AAPL', action: 'buy', quantity: 3 });
    expect(checkWithBroker(rules, buy, { positions: held })).toEqual({
      rule: 'maxPosition',
      message: "maxPosition: AAPL position would be 11 (now 8), more than this webhook's maximum of 10",
    });
    expect(wayOut(sell(), held)).toBe(true);
  });

  it('are the way out of an order on extra.exchange only when held on that listing', () => {
    expect(wayOut(sell({ exchange: 'xnas' }), held)).toBe(true);
    // Saxo would sell the Xetra listing, where nothing is held: a new short.
    expect(wayOut(sell({ exchange: 'XETR' }), held)).toBe(false);
    expect(wayOut(sell({ exchange: 'XETR' }), [...held, { symbol: 'AAPL:xetr', quantity: 5 }])).toBe(true);
  });

  // A sell on Xetra of the long held on Nasdaq was judged to flatten it; at Saxo it opens a short
  // of 8 on Xetra, past a maximum of 5.
  it('judge maxPosition of an order on extra.exchange by that listing too', () => {
    const rules = compileRules({ maxPosition: 5 });
    if (!rules) throw new Error('no rules');
    const eight = (extra: Record<string, string>) =>
      normalizeOrderOrThrow({ symbol: 'AAPL', action: 'sell', quantity: 8, extra });
    expect(checkWithBroker(rules, eight({ exchange: 'XETR' }), { positions: held })).toEqual({
      rule: 'maxPosition',
      message: "maxPosition: AAPL position would be -8 (now 0), more than this webhook's maximum of 5",
    });
    expect(checkWithBroker(rules, eight({ exchange: 'xnas' }), { positions: held })).toBeUndefined();
    // A buy named by another name of the listing (NASDAQ, not xnas) still counts what is held.
    const buy = normalizeOrderOrThrow({ symbol: 'AAPL', action: 'buy', quantity: 1, extra: { exchange: 'NASDAQ' } });
    expect(checkWithBroker(rules, buy, { positions: held })).toMatchObject({ rule: 'maxPosition' });
  });
});

describe('Saxo listings named by their ExchangeId (NASDAQ) or their code (xnas)', () => {
  const held = [{ symbol: 'AAPL:xnas', quantity: 8 }];
  const sell = (quantity: number, exchange: string) =>
    normalizeOrderOrThrow({ symbol: 'AAPL', action: 'sell', quantity, extra: { exchange } });

  // extra.exchange NASDAQ, as Saxo's descriptor documents it, matched no position (Saxo names them
  // AAPL:xnas): the sell of the Nasdaq long was no way out, and maxPosition took it for a new short.
  it('are one listing for the way out and for maxPosition', () => {
    expect(wayOut(sell(8, 'NASDAQ'), held)).toBe(true);
    expect(wayOut(sell(8, 'nasdaq'), held)).toBe(true);
    expect(wayOut(sell(8, 'XETR'), held)).toBe(false);
    expect(wayOut(sell(9, 'NASDAQ'), held)).toBe(false);
    const rules = compileRules({ maxPosition: 5 });
    if (!rules) throw new Error('no rules');
    expect(checkWithBroker(rules, sell(8, 'NASDAQ'), { positions: held })).toBeUndefined();
    expect(checkWithBroker(rules, sell(8, 'NYSE'), { positions: held })).toEqual({
      rule: 'maxPosition',
      message: "maxPosition: AAPL position would be -8 (now 0), more than this webhook's maximum of 5",
    });
  });
});

describe('maxNotional of options and futures', () => {
  const rules = compileRules({ maxNotional: 10_000 });
  if (!rules) throw new Error('no rules');
  const option = (quantity: number, price?: number) =>
    normalizeOrderOrThrow({
      symbol: 'SPY 271217C00500000',
      action: 'buy_to_open',
      quantity,
      ...(price === undefined ? {} : { type: 'limit', limit_price: price }),
    });

  it('values an option contract as 100 shares: 10 contracts at 50 are 50,000, not 500', () => {
    expect(checkOrder(rules, option(10, 50))).toEqual({
      rule: 'maxNotional',
      message: "maxNotional: notional 50000 is more than this webhook's maximum of 10000",
    });
    expect(checkOrder(rules, option(2, 50))).toBeUndefined();
    // A market order at the broker's last price, the same way.
    expect(checkWithBroker(rules, option(10), { lastPrice: 50 })).toMatchObject({
      message: "maxNotional: notional 50000 is more than this webhook's maximum of 10000",
    });
    expect(checkWithBroker(rules, option(2), { lastPrice: 50 })).toBeUndefined();
  });

  it('values a spread of options in contracts of 100 too', () => {
    const spread = normalizeOrderOrThrow({
      legs: [
        { symbol: 'SPY 271217C00500000', action: 'buy_to_open' },
        { symbol: 'SPY 271217C00510000', action: 'sell_to_open' },
      ],
      quantity: 30,
      type: 'limit',
      limit_price: 4,
    });
    expect(checkOrder(rules, spread)).toMatchObject({
      message: "maxNotional: notional 12000 is more than this webhook's maximum of 10000",
    });
  });

  it('values a spread at a net price of 0 by its legs, not at 0: unpriced legs are refused', () => {
    const spread = (legPrices: [number, number] | []) =>
      normalizeOrderOrThrow({
        legs: [
          { symbol: 'SPY 271217C00500000', action: 'buy_to_open', limit_price: legPrices[0] },
          { symbol: 'SPY 271217C00510000', action: 'sell_to_open', limit_price: legPrices[1] },
        ],
        quantity: 1000,
        type: 'limit',
        limit_price: 0,
      });
    // 1,000 spreads, 100,000 shares a leg: a net price of 0 says nothing of what they are worth.
    const unpriced = spread([]);
    expect(checkOrder(rules, unpriced) ?? checkWithBroker(rules, unpriced, { lastPrice: 12 })).toEqual({
      rule: 'maxNotional',
      message:
        'maxNotional: the leg on SPY   271217C00500000 has no price to value it with (a net price of 0 values none of the legs); give every leg a limit price',
    });
    // Each leg at its own price: 1,000 × 100 × (12 + 12).
    expect(checkOrder(rules, spread([12, 12]))).toEqual({
      rule: 'maxNotional',
      message: "maxNotional: notional 2400000 is more than this webhook's maximum of 10000",
    });
  });

  // A credit spread sent at its net credit (-0.05) was valued at |1,000 × 0.05 × 100| = 5,000 and
  // passed a maximum of 10,000, writing 100,000 shares of calls a leg.
  it('values a combo at a net credit by its legs, not at the credit: unpriced legs are refused', () => {
    const spread = (legPrices: [number, number] | []) =>
      normalizeOrderOrThrow({
        legs: [
          { symbol: 'SPY 271217C00500000', action: 'sell_to_open', limit_price: legPrices[0] },
          { symbol: 'SPY 271217C00510000', action: 'buy_to_open', limit_price: legPrices[1] },
        ],
        quantity: 1000,
        type: 'limit',
        limit_price: -0.05,
      });
    const unpriced = spread([]);
    expect(checkOrder(rules, unpriced) ?? checkWithBroker(rules, unpriced, { lastPrice: 12 })).toEqual({
      rule: 'maxNotional',
      message:
        'maxNotional: the leg on SPY   271217C00500000 has no price to value it with (a net credit values none of the legs); give every leg a limit price',
    });
    // Each leg at its own price: 1,000 × 100 × (12.05 + 12).
    expect(checkOrder(rules, spread([12.05, 12]))).toEqual({
      rule: 'maxNotional',
      message: "maxNotional: notional 2405000 is more than this webhook's maximum of 10000",
    });
    // Within the maximum: 1,000 × 100 × (0.05 + 0.01) = 6,000.
    expect(checkOrder(rules, spread([0.05, 0.01]))).toBeUndefined();
  });

  it('values every leg of a multi-leg order without a price of its own, not only the first', () => {
    const legs = (second: Record<string, unknown>) =>
      normalizeOrderOrThrow({
        legs: [
          { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 190 },
          { symbol: 'TSLA', action: 'buy', quantity: 100, ...second },
        ],
        group: 'oto',
      });
    // 1 AAPL at 190 and 100 TSLA at 250: 25,190, not the first leg's 190.
    const priced = legs({ limit_price: 250 });
    const over = {
      rule: 'maxNotional',
      message: "maxNotional: notional 25190 is more than this webhook's maximum of 10000",
    };
    expect(checkOrder(rules, priced) ?? checkWithBroker(rules, priced, { lastPrice: 190 })).toEqual(over);
    // A leg at market: AAPL's last price values no TSLA; refused, never valued at 190.
    const market = legs({});
    expect(checkOrder(rules, market) ?? checkWithBroker(rules, market, { lastPrice: 190 })).toEqual({
      rule: 'maxNotional',
      message:
        "maxNotional: the leg on TSLA has no price to value it with (an oto's legs are orders of their own); give every leg a limit price",
    });
    // Within the limit: 1 AAPL at 190 and 10 TSLA at 250.
    expect(checkOrder(rules, legs({ quantity: 10, limit_price: 250 }))).toBeUndefined();
  });

  // An oco or oto sent with a limit_price of its own as well was valued at it: 0.01 × 1,000 is
  // 10, while its legs are placed each at its own price (Saxo's oco), 590,000 in all.
  it('values an oco or oto by its legs even with a limit_price of its own, which prices none of them', () => {
    for (const group of ['oco', 'oto']) {
      const pair = (legPrices: [number, number] | [number]) =>
        normalizeOrderOrThrow({
          legs: [
            { symbol: 'AAPL', action: 'buy', quantity: 1000, type: 'limit', limit_price: legPrices[0] },
            {
              symbol: 'MSFT',
              action: 'buy',
              quantity: 1000,
              ...(legPrices[1] === undefined ? {} : { type: 'limit', limit_price: legPrices[1] }),
            },
          ],
          group,
          type: 'limit',
          limit_price: 0.01,
        });
      const priced = pair([190, 400]);
      expect(checkOrder(rules, priced) ?? checkWithBroker(rules, priced, { lastPrice: 190 })).toEqual({
        rule: 'maxNotional',
        message: "maxNotional: notional 590000 is more than this webhook's maximum of 10000",
      });
      const market = pair([190]);
      expect(checkOrder(rules, market) ?? checkWithBroker(rules, market, { lastPrice: 190 })).toEqual({
        rule: 'maxNotional',
        message: `maxNotional: the leg on MSFT has no price to value it with (an ${group}'s legs are orders of their own); give every leg a limit price`,
      });
    }
    // A combo is placed at its net price: valued at it, as before.
    const combo = normalizeOrderOrThrow({
      legs: [
        { symbol: 'SPY 271217C00500000', action: 'buy_to_open' },
        { symbol: 'SPY 271217C00510000', action: 'sell_to_open' },
      ],
      quantity: 20,
      type: 'limit',
      limit_price: 4,
    });
    expect(checkOrder(rules, combo)).toBeUndefined();
  });

  it('refuses a future, whose value per point it cannot know, before asking the broker anything', () => {
    const future = (extra: Record<string, unknown>) =>
      normalizeOrderOrThrow({ symbol: 'ESZ2030', action: 'buy', quantity: 1, ...extra });
    const why =
      'maxNotional: the notional of a future cannot be known here (the value of a point of ESZ2030 is not); limit futures with maxQuantity';
    expect(checkOrder(rules, future({ type: 'limit', limit_price: 5000 }))).toEqual({
      rule: 'maxNotional',
      message: why,
    });
    expect(checkOrder(rules, future({}))).toEqual({ rule: 'maxNotional', message: why });
    // A cash amount is its own notional.
    expect(checkOrder(rules, future({ quantity: 5000, quantity_type: 'cash' }))).toBeUndefined();
  });

  it('maxPosition sizes a cash amount of options in contracts of 100 shares', () => {
    const position = compileRules({ maxPosition: 20 });
    if (!position) throw new Error('no rules');
    // 5,000 at 5 a share is 10 contracts (as the paper broker sizes it), not 1,000.
    const cash = normalizeOrderOrThrow({
      symbol: 'SPY 271217C00500000',
      action: 'buy_to_open',
      quantity: 5000,
      quantity_type: 'cash',
      type: 'limit',
      limit_price: 5,
    });
    expect(checkWithBroker(position, cash, { positions: [] })).toBeUndefined();
    expect(checkWithBroker(position, { ...cash, quantity: 15_000 }, { positions: [] })).toMatchObject({
      message:
        "maxPosition: SPY   271217C00500000 position would be 30 (now 0), more than this webhook's maximum of 20",
    });
  });
});

describe('maxNotional at a broker whose quantities are lots', () => {
  const why =
    'maxNotional: Flaky Broker takes quantities in lots, whose size differs per symbol, so no notional can be known; limit them with maxQuantity';

  it('is refused as a setting, nothing changed', async () => {
    const trader = await traderWith('lots-setting@example.com', { maxQuantity: 5 }, 'lots');
    const answer = await gqlAs(t, trader.headers, UPDATE, {
      key: trader.hook.key,
      rules: JSON.stringify({ maxNotional: 10_000 }),
    });
    expect(answer.errors?.[0]?.message).toBe(why);
    const read = await gqlAs<{ hook: { rules: string } }>(
      t,
      trader.headers,
      'query($k: String!) { hook(key: $k) { rules } }',
      {
        k: trader.hook.key,
      },
    );
    expect(JSON.parse(read.data?.hook.rules ?? '')).toEqual({ maxQuantity: 5 });
  });

  it('refuses a fanOut leg there at signal time rather than valuing 10 lots at 1.08 as 10.8', async () => {
    const trader = await traderWith('lots-fan@example.com', {});
    const actor = { userId: trader.userId, address: null };
    const copy = await activateConnector(t.services, actor, 'lots', []);
    const rules = {
      maxNotional: 10_000,
      fanOut: [{ connectorKey: copy.key, accountId: copy.accounts[0]?.id, multiplier: 1 }],
    };
    await updateHook(t.services, actor, trader.hook.key, { rules: JSON.stringify(rules) });
    const before = lots.calls.placeOrder;
    const eurusd = { symbol: 'AAPL', action: 'buy', quantity: 10, type: 'limit', limit_price: 1.08 };
    expect((await postSignal(t, trader.shortKey, eurusd)).statusCode).toBe(201);
    const copyEntry = async () => {
      await t.app.signalRuntime.writer.flush();
      return (await listActions(t.services, trader.userId, { code: 'Order' }))
        .map((a) => JSON.parse(a.metadata))
        .find((m) => m.accountId === copy.accounts[0]?.id);
    };
    await eventually(async () => (await copyEntry()) !== undefined);
    expect((await copyEntry())?.response).toMatchObject({ rule: 'maxNotional', message: `fanOut[0]: ${why}` });
    expect(lots.calls.placeOrder).toBe(before);
  });
});

describe('the way out at a broker that quotes no price', () => {
  // A market sell of a long held was refused by maxNotional for want of a quote, the way out
  // notwithstanding: the positions were never asked.
  it('lets a market sell within the long held through maxNotional; a larger one or a buy stays refused', async () => {
    const trader = await traderWith('no-quote-way-out@example.com', { maxNotional: 1000 }, 'holds');
    holdsPositions = [{ symbol: 'AAPL', quantity: 50 }];
    try {
      const before = holds.calls.placeOrder;
      const sell = await postSignal(t, trader.shortKey, { ...BUY, action: 'sell', quantity: 20 });
      expect(sell.statusCode).toBe(201);
      expect(holds.calls.placeOrder).toBe(before + 1);
      for (const order of [
        { ...BUY, action: 'sell', quantity: 60 },
        { ...BUY, quantity: 2 },
      ]) {
        const refused = await postSignal(t, trader.shortKey, order);
        expect(refused.statusCode).toBe(400);
        expect(refused.json().message).toMatch(/^maxNotional: .*quotes no last price here; send a limit price$/);
      }
      expect(holds.calls.placeOrder).toBe(before + 1);
    } finally {
      holdsPositions = [];
    }
  });
});

describe('the last price maxPosition alone needs', () => {
  it('is refused in maxPosition’s name, not maxNotional’s, when a cash amount at market cannot be sized', async () => {
    // maxNotional values a cash amount as itself (500, within 100,000): only maxPosition needs a price.
    const trader = await traderWith('cash-size@example.com', { maxNotional: 100_000, maxPosition: 10 }, 'holds');
    const before = holds.calls.placeOrder;
    const answer = await postSignal(t, trader.shortKey, { ...BUY, quantity: 500, quantity_type: 'cash' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      rule: 'maxPosition',
      message:
        'maxPosition: a market order has no price to value it with and Flaky Broker quotes no last price here; send a limit price',
    });
    expect(holds.calls.placeOrder).toBe(before);
  });
});
