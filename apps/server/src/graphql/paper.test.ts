// The paper broker through the hook (every class on a live and a test hook, unknown symbols
// refused) and the paper account calls: paperAccount and paperAccountReset, scoped to the caller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../test/app.ts';
import { gql } from '../../test/connector-fixtures.ts';
import { postSignal, setupTrader } from '../../test/signal-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

/** SPY options of next December: an OCC symbol that stays unexpired whenever the test runs. */
const year = String(new Date().getUTCFullYear() + 1).slice(2);
const spy = (right: 'C' | 'P', strike: number) => `SPY_${year}1217${right}${String(strike * 1000).padStart(8, '0')}`;
const SIGNALS: Array<[string, Record<string, unknown>]> = [
  ['stock', { symbol: 'NASDAQ:AAPL', action: 'buy', quantity: 2 }],
  ['OCC option', { symbol: spy('C', 600), action: 'buy_to_open', quantity: 1 }],
  [
    'iron condor',
    {
      symbol: spy('P', 440),
      action: 'buy_to_open',
      'symbol[2]': spy('P', 450),
      'action[2]': 'sell_to_open',
      'symbol[3]': spy('C', 600),
      'action[3]': 'sell_to_open',
      'symbol[4]': spy('C', 610),
      'action[4]': 'buy_to_open',
      quantity: 1,
      type: 'limit',
      limit_price: -0.5,
    },
  ],
  ['continuous future', { symbol: 'ES1!', action: 'buy', quantity: 1 }],
  ['dated future', { symbol: `NQZ${Number(year) + 2000}`, action: 'sell', quantity: 1 }],
  ['forex', { symbol: 'EUR/USD', action: 'buy', quantity: 10000 }],
  ['crypto', { symbol: 'BTCUSDT', action: 'buy', quantity: 0.01 }],
  ['cfd', { symbol: 'US500', class: 'cfd', action: 'buy', quantity: 1 }],
];

const ACCOUNT = `query($connectorKey: String!, $accountId: String!) {
  paperAccount(connectorKey: $connectorKey, accountId: $accountId) {
    connectorKey accountId name currency startingCash cash equity buyingPower asOf resetAt openOrderCount
    positions { symbol class quantity averagePrice price marketValue unrealizedPnl }
    openOrders { id clientOrderId symbol class action side type quantity limitPrice stopPrice duration statusDescription createdAt legs { symbol action ratio } }
    fills { id clientOrderId symbol class side quantity price filledAt description }
  }
}`;
const RESET = `mutation($connectorKey: String!, $accountId: String!) {
  paperAccountReset(connectorKey: $connectorKey, accountId: $accountId) { cash equity openOrderCount resetAt positions { symbol } fills { id } }
}`;

interface Account {
  cash: number;
  equity: number;
  openOrderCount: number;
  positions: Array<{ symbol: string; class: string; quantity: number }>;
  openOrders: Array<{ symbol: string; limitPrice: number }>;
  fills: Array<{ clientOrderId: string }>;
}

describe('the paper broker through the hook', () => {
  it.each(SIGNALS)('places a %s signal on a live hook', async (_kind, body) => {
    const trader = await setupTrader(t, `live-${_kind.replaceAll(' ', '-')}@example.com`);
    const res = await postSignal(t, trader.shortKey, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(['filled', 'accepted']).toContain(res.json().status);
  });

  it.each(SIGNALS)('answers a %s signal on a test hook with a draft', async (_kind, body) => {
    const trader = await setupTrader(t, `test-${_kind.replaceAll(' ', '-')}@example.com`, { isTest: true });
    const res = await postSignal(t, trader.shortKey, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().status).toBe('draft');
  });

  it('refuses a symbol it does not list, like a real broker', async () => {
    const trader = await setupTrader(t, 'unknown-symbol@example.com');
    const res = await postSignal(t, trader.shortKey, { symbol: 'ZZZZZQ', action: 'buy', quantity: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'ExecutionError', message: 'Paper Trading: Symbol not found: ZZZZZQ' });
  });
});

describe('paperAccount and paperAccountReset', () => {
  it("shows the caller's paper account and resets it; another user finds nothing and changes nothing", async () => {
    const trader = await setupTrader(t, 'paper-view@example.com');
    const ids = { connectorKey: trader.connector.key, accountId: trader.accountId };
    expect(
      (await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 3, client_id: 'a' })).statusCode,
    ).toBe(201);
    const limit = { symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 10, client_id: 'b' };
    expect((await postSignal(t, trader.shortKey, limit)).statusCode).toBe(201);

    const view = await gql<{ paperAccount: Account }>(t, trader.headers, ACCOUNT, ids);
    expect(view.error).toBeUndefined();
    const account = view.data?.paperAccount;
    expect(account).toMatchObject({
      connectorKey: trader.connector.key,
      accountId: trader.accountId,
      startingCash: 100_000,
      openOrderCount: 1,
      positions: [{ symbol: 'AAPL', class: 'stock', quantity: 3 }],
      openOrders: [{ symbol: 'MSFT', limitPrice: 10 }],
    });
    expect(account?.fills.map((fill) => fill.clientOrderId)).toHaveLength(1);
    expect(account?.cash).toBeLessThan(100_000 - 10);

    const stranger = await insertTestUser(t.services, 'paper-stranger@example.com');
    const foreign = await gql(t, stranger.headers, ACCOUNT, ids);
    expect(foreign.error).toMatchObject({ code: 'NOT_FOUND', message: 'Connector not found' });
    const foreignReset = await gql(t, stranger.headers, RESET, ids);
    expect(foreignReset.error?.code).toBe('NOT_FOUND');
    const wrongAccount = await gql(t, trader.headers, ACCOUNT, { ...ids, accountId: 'PA-NOTMINE' });
    expect(wrongAccount.error).toMatchObject({ code: 'NOT_FOUND', message: 'Paper account not found' });
    const still = await gql<{ paperAccount: Account }>(t, trader.headers, ACCOUNT, ids);
    expect(still.data?.paperAccount.positions).toHaveLength(1);

    const reset = await gql<{ paperAccountReset: Account & { resetAt: number } }>(t, trader.headers, RESET, ids);
    expect(reset.error).toBeUndefined();
    expect(reset.data?.paperAccountReset).toMatchObject({
      cash: 100_000,
      equity: 100_000,
      openOrderCount: 0,
      positions: [],
      fills: [],
    });
    expect(reset.data?.paperAccountReset.resetAt).toBeGreaterThan(0);
  });
});
