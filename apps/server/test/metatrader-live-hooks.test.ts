// MetaTrader through the server as a trader meets it, against the MetaApi protocol fake
// (METATRADER_BASE_URL, METATRADER_CLIENT_SECRET as the site's MetaApi token): the account
// added with login, password and server, one live hook, a signal of every class MetaTrader
// trades here (forex, commodity, crypto, index, stock CFD) plus a bracket and a close, each one
// trade carrying our signal id as clientId; a refusal MetaApi gives shown with its title; and a
// trade whose outcome MetaApi could not tell (-11) left to reconciliation, never sent again.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeMetaApi, startFakeMetaApi } from '../../../packages/brokers/src/adapters/metatrader/fake.ts';
import { MT_ACCOUNTS } from '../../../packages/brokers/src/adapters/metatrader/fake-data.ts';
import { reconcileOnce } from '../src/modules/signals/reconcile.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithCredentials, createLiveHook, type Trader, trader } from './broker-journey.ts';
import { postSignal, signalRows } from './signal-fixtures.ts';

let t: TestApp;
let fake: FakeMetaApi;
let user: Trader;
let shortKey: string;

beforeAll(async () => {
  fake = await startFakeMetaApi();
  const env = brokerVariables('metatrader', { baseUrl: fake.url, clientSecret: fake.operatorToken });
  t = await startTestApp({ authenticate: authenticateAsUserId, env });
  user = await trader(t, 'metatrader@example.com');
  await t.services.db.$client.query('update accounts set balance = 50, credits = 50 where user_id = $1', [user.userId]);
  const connector = await connectWithCredentials(t, user, 'metatrader', {
    login: '1234567',
    password: 'master-pass',
    server: 'ICMarketsSC-Demo',
  });
  expect(connector).toMatchObject({ branch: 'ICMarketsSC-Demo', isActive: true, isDemo: true, expiresAt: null });
  shortKey = await createLiveHook(t, user, connector);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const lastTrade = () => JSON.parse(fake.trades().at(-1)?.body ?? '{}') as Record<string, unknown>;

describe('MetaTrader: a live hook per class', () => {
  it.each([
    ['forex', { symbol: 'EURUSD', action: 'buy', quantity: 0.1 }, 'EURUSD'],
    ['commodity', { symbol: 'XAUUSD', class: 'commodity', action: 'sell', quantity: 0.01 }, 'XAUUSD'],
    ['crypto', { symbol: 'BTC/USD', action: 'buy', quantity: 0.02 }, 'BTCUSD'],
    ['index', { symbol: 'US30', class: 'index', action: 'buy', quantity: 0.1, limit_price: 38_500 }, 'US30'],
    ['stock CFD', { symbol: 'AAPL', action: 'buy', quantity: 3 }, 'AAPL.NAS'],
    [
      'bracket',
      { symbol: 'GBPUSD', action: 'buy', quantity: 0.1, take_profit_price: 1.3, stop_loss_price: 1.25 },
      'GBPUSD',
    ],
  ])('%s: placed once, with our signal id as clientId', async (_name, signal, symbol) => {
    const before = fake.trades().length;
    const answer = await postSignal(t, shortKey, signal);
    expect(answer.statusCode, answer.body).toBe(201);
    expect(fake.trades()).toHaveLength(before + 1);
    const rows = await signalRows(t, user.userId);
    expect(lastTrade()).toMatchObject({ symbol, clientId: rows.at(-1)?.id });
    const { id } = answer.json() as { id: string };
    const terminal = fake.terminals.get(MT_ACCOUNTS[0]?.metaApiId ?? '');
    expect(terminal?.orders.has(id) || terminal?.history.some((order) => order.id === id)).toBe(true);
  });

  it('close: the symbol’s positions closed in one trade', async () => {
    const answer = await postSignal(t, shortKey, { symbol: 'EURUSD', action: 'close' });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(lastTrade()).toEqual({ actionType: 'POSITIONS_CLOSE_SYMBOL', symbol: 'EURUSD' });
  });

  it("answers MetaTrader's refusal with its title", async () => {
    const answer = await postSignal(t, shortKey, { symbol: 'XAUUSD', action: 'buy', quantity: 80 });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      status: 'ExecutionError',
      message: 'MetaTrader: Not enough money to complete the request (TRADE_RETCODE_NO_MONEY)',
    });
    const unknown = await postSignal(t, shortKey, { symbol: 'NZDCAD', action: 'buy', quantity: 1 });
    expect(unknown.json()).toMatchObject({ message: 'MetaTrader: Symbol not found: NZDCAD (not on ICMarketsSC-Demo)' });
  });

  it('-11 (disconnected during the trade): pending, sent once, and reconciliation finds the order by our id', async () => {
    const before = fake.trades().length;
    fake.disconnectDuringNextTrade();
    const answer = await postSignal(t, shortKey, { symbol: 'EURUSD', action: 'buy', quantity: 0.05 });
    expect(answer.statusCode, answer.body).toBe(201);
    const { id, status } = answer.json() as { id: string; status: string };
    expect(status).toBe('accepted');
    expect(fake.trades()).toHaveLength(before + 1);
    const stored = async () => (await signalRows(t, user.userId)).find((row) => row.id === id);
    // The outcome is written after the answer: wait for that write, which is the state under test.
    await vi.waitFor(
      async () => expect(await stored()).toMatchObject({ status: 'unknown', broker_order_id: null, credit_held: true }),
      { timeout: 10_000 },
    );

    const options = { owner: 'metatrader-test', inFlight: { ids: () => [] }, staleAfterMs: 0, intervalMs: 1_000 };
    expect(await reconcileOnce(t.services, options)).toBe(1);
    const filled = fake.terminals.get(MT_ACCOUNTS[0]?.metaApiId ?? '')?.history.find((order) => order.clientId === id);
    expect(filled?.state).toBe('ORDER_STATE_FILLED');
    expect(await stored()).toMatchObject({ status: 'filled', broker_order_id: filled?.id, credit_held: true });
    expect(fake.trades()).toHaveLength(before + 1);
  });
});
