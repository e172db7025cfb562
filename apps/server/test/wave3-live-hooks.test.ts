// Robinhood and FOREX.com through the server as a trader meets them, against their protocol fakes
// (ROBINHOOD_BASE_URL, FOREX_BASE_URL): connected through the credential form, one live hook each,
// a signal of every class and order form each broker trades placed exactly once, and the refusals
// each gives (before sending, or inside FOREX.com's HTTP 200 answers) shown with its title.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForexFake, startForexFake } from '../../../packages/brokers/src/adapters/forex/fake.ts';
import { type RobinhoodFake, startRobinhoodFake } from '../../../packages/brokers/src/adapters/robinhood/fake.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithCredentials, createLiveHook, trader } from './broker-journey.ts';
import { postSignal } from './signal-fixtures.ts';

let t: TestApp;
let robinhood: RobinhoodFake;
let forex: ForexFake;
const hooks: Record<'robinhood' | 'forex', string> = { robinhood: '', forex: '' };

beforeAll(async () => {
  robinhood = await startRobinhoodFake({ holdings: { BTC: 1, ETH: 5 } });
  forex = await startForexFake();
  const env = {
    ...brokerVariables('robinhood', { baseUrl: robinhood.url }),
    ...brokerVariables('forex', { baseUrl: forex.url }),
  };
  t = await startTestApp({ authenticate: authenticateAsUserId, env });
  const user = await trader(t, 'wave3@example.com');
  await t.services.db.$client.query('update accounts set balance = 50, credits = 50 where user_id = $1', [user.userId]);
  hooks.robinhood = await createLiveHook(
    t,
    user,
    await connectWithCredentials(t, user, 'robinhood', robinhood.credentials),
  );
  hooks.forex = await createLiveHook(t, user, await connectWithCredentials(t, user, 'forex', forex.credentials));
});
afterAll(async () => {
  await t?.close();
  await robinhood?.close();
  await forex?.close();
});

describe('Robinhood: a live hook', () => {
  it.each([
    ['crypto market buy', { symbol: 'BTC-USD', action: 'buy', quantity: 0.001 }, 'market'],
    ['crypto limit sell', { symbol: 'ETHUSD', action: 'sell', quantity: 0.5, limit_price: 4000 }, 'limit'],
    [
      'crypto stop-limit sell',
      { symbol: 'BTC/USD', action: 'sell', quantity: 0.01, type: 'stop_limit', stop_price: 50000, limit_price: 49500 },
      'stop_limit',
    ],
  ])('%s: placed once, with our signal id as a UUID', async (_name, signal, type) => {
    const before = robinhood.orders.length;
    const answer = await postSignal(t, hooks.robinhood, signal);
    expect(answer.statusCode, answer.body).toBe(201);
    expect(robinhood.orders).toHaveLength(before + 1);
    const { id } = answer.json() as { id: string };
    expect(robinhood.orders.find((order) => order.id === id)).toMatchObject({
      type,
      client_order_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    });
  });

  it('refuses stocks, saying why, and places nothing', async () => {
    const before = robinhood.orders.length;
    const answer = await postSignal(t, hooks.robinhood, { symbol: 'AAPL', class: 'stock', action: 'buy', quantity: 1 });
    expect(answer.statusCode).toBe(400);
    expect((answer.json() as { message: string }).message).toContain(
      'Robinhood has no public order API for stocks and options',
    );
    expect(robinhood.orders).toHaveLength(before);
  });
});

describe('FOREX.com: a live hook', () => {
  it.each([
    [
      'forex market buy with exits',
      { symbol: 'EUR/USD', action: 'buy', quantity: 10000, take_profit_price: 1.1, stop_loss_price: 1.07 },
    ],
    ['forex limit entry', { symbol: 'GBPUSD', action: 'sell', quantity: 5000, limit_price: 1.27 }],
    ['commodity (gold) market buy', { symbol: 'XAU/USD', action: 'buy', quantity: 2, class: 'commodity' }],
  ])('%s: placed once', async (_name, signal) => {
    const before = forex.orderCount();
    const answer = await postSignal(t, hooks.forex, signal);
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json() as { id: string };
    const known = [...forex.trading.positions, ...forex.trading.working].map((order) => String(order.OrderId));
    expect(known).toContain(id);
    expect(forex.orderCount()).toBeGreaterThan(before);
  });

  it("answers FOREX.com's refusal inside HTTP 200 with its title", async () => {
    const answer = await postSignal(t, hooks.forex, { symbol: 'USD/TRY', action: 'buy', quantity: 1000 });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ message: 'FOREX.com: Market is Closed (status reason 10)' });
  });
});
