// Webull through the server as a trader meets it, against the Webull fake (WEBULL_BASE_URL):
// signed App Keys with the 2FA approval, a live hook per account (stocks and options, futures,
// crypto), a signal of every class Webull trades plus a bracket and an option strategy, each
// placed once with our signal id as its client_order_id; and a refusal Webull gives, titled.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebullFake, type WebullFake } from '../../../packages/brokers/src/adapters/webull/fake.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithCredentials, createLiveHook, type Trader, trader } from './broker-journey.ts';
import { postSignal, signalRows } from './signal-fixtures.ts';
import { currentSignal } from './written-at.ts';

let t: TestApp;
let fake: WebullFake;
let user: Trader;
const hooks: Record<string, string> = {};

beforeAll(async () => {
  fake = await startWebullFake({ cash: 1_000_000, twoFactor: { approveAfterChecks: 0 } });
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    env: brokerVariables('webull', { baseUrl: fake.baseUrl }),
  });
  user = await trader(t, 'webull@example.com');
  await t.services.db.$client.query('update accounts set balance = 50, credits = 50 where user_id = $1', [user.userId]);
  const connector = await connectWithCredentials(t, user, 'webull', fake.keys);
  // The 2FA approval lasts 15 days: the connection expires with it.
  expect(Number(connector.expiresAt) - Date.now()).toBeGreaterThan(14 * 24 * 60 * 60_000);
  for (const account of ['DEMOACCT0001', 'DEMOFUT00001', 'DEMOCRY00001'])
    hooks[account] = await createLiveHook(t, user, connector, account);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const lastPlaced = () => {
  const [request] = fake.submissions().slice(-1);
  return request
    ? {
        category: request.headers.category,
        body: JSON.parse(request.body) as { new_orders: Array<Record<string, unknown>> },
      }
    : undefined;
};

describe('webull: a live hook per class', () => {
  it.each([
    ['stock', 'DEMOACCT0001', { symbol: 'AAPL', action: 'buy', quantity: 3 }, 'US_EQUITY'],
    [
      'option',
      'DEMOACCT0001',
      { symbol: 'AAPL261218C00200000', action: 'buy_to_open', quantity: 1, limit_price: 4.1 },
      'US_OPTION',
    ],
    [
      'bracket',
      'DEMOACCT0001',
      { symbol: 'F', action: 'buy', quantity: 5, limit_price: 10, take_profit_price: 12, stop_loss_price: 9 },
      'US_EQUITY',
    ],
    [
      'option strategy',
      'DEMOACCT0001',
      {
        symbol: 'SPY_261218C00600000',
        action: 'buy_to_open',
        'symbol[2]': 'SPY_261218C00610000',
        'action[2]': 'sell_to_open',
        quantity: 1,
        limit_price: 2.5,
      },
      'US_OPTION',
    ],
    ['future', 'DEMOFUT00001', { symbol: 'ESZ2026', action: 'sell', quantity: 1, limit_price: 5100 }, 'US_FUTURES'],
    ['crypto', 'DEMOCRY00001', { symbol: 'BTC/USD', action: 'buy', quantity: 0.01 }, 'US_CRYPTO'],
  ])('%s: placed once, with our signal id', async (_name, account, signal, category) => {
    const before = fake.submissions().length;
    const answer = await postSignal(t, hooks[account] ?? '', currentSignal(signal));
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json() as { id: string };
    expect(fake.submissions()).toHaveLength(before + 1);
    const rows = await signalRows(t, user.userId);
    const placed = lastPlaced();
    expect(placed?.category).toBe(category);
    expect(placed?.body.new_orders[0]?.client_order_id).toBe(rows.at(-1)?.id);
    expect(fake.orders.some((order) => order.order_id === id)).toBe(true);
  });

  it("answers Webull's refusal with its title", async () => {
    const answer = await postSignal(t, hooks.DEMOFUT00001 ?? '', { symbol: 'AAPL', action: 'buy', quantity: 1 });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ status: 'ExecutionError', message: 'Webull: This account does not trade EQUITY' });
  });
});
