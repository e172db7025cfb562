// cTrader through the server as a trader meets it, against its protocol fake (CTRADER_BASE_URL,
// CTRADER_CLIENT_ID, CTRADER_CLIENT_SECRET): connected through the OAuth consent page and
// /callback/ctrader, a live hook on the demo account and one on the live account, a signal of
// every class and order form placed exactly once over the Open API socket, and refusals (before
// sending, and cTrader's own) shown with its title.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CtraderFake, FAKE_APP, startCtraderFake } from '../../../packages/brokers/src/adapters/ctrader/fake.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithOAuth, createLiveHook, trader } from './broker-journey.ts';
import { eventually, postSignal } from './signal-fixtures.ts';

let t: TestApp;
let fake: CtraderFake;
const hooks = { demo: '', live: '' };
let userId = 0;

beforeAll(async () => {
  fake = await startCtraderFake();
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    env: brokerVariables('ctrader', { baseUrl: fake.baseUrl, ...FAKE_APP }),
  });
  const user = await trader(t, 'ctrader-hooks@example.com');
  userId = user.userId;
  await t.services.db.$client.query('update accounts set balance = 50, credits = 50 where user_id = $1', [user.userId]);
  const connector = await connectWithOAuth(t, user, 'ctrader');
  expect(JSON.parse(connector.accounts)).toEqual([
    expect.objectContaining({ id: '44533070', demo: true }),
    expect.objectContaining({ id: '44533071', demo: false }),
  ]);
  hooks.demo = await createLiveHook(t, user, connector, '44533070');
  hooks.live = await createLiveHook(t, user, connector, '44533071');
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const newOrders = () => fake.records.filter((record) => record.path === 'ProtoOANewOrderReq');

describe('cTrader: live hooks', () => {
  it.each([
    [
      'forex market buy, relative stop loss',
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, stop_loss_price_distance: 0.005 },
      'filled',
    ],
    [
      'commodity limit bracket',
      {
        symbol: 'XAUUSD',
        class: 'commodity',
        action: 'buy',
        quantity: 1,
        limit_price: 2600,
        take_profit_price: 2700,
        stop_loss_price: 2550,
      },
      'accepted',
    ],
    [
      'crypto stop sell',
      { symbol: 'BTCUSD', class: 'crypto', action: 'sell', quantity: 0.01, type: 'stop', stop_price: 95000 },
      'accepted',
    ],
    [
      'index stop-limit buy, good till date',
      {
        symbol: 'US500',
        class: 'index',
        action: 'buy',
        quantity: 1,
        type: 'stop_limit',
        stop_price: 6000,
        limit_price: 6001,
        duration: 'gtd',
        extra: { expiration_time: '2099-01-01T00:00:00Z' },
      },
      'accepted',
    ],
    [
      'stock market buy, fill or kill',
      { symbol: 'AAPL', class: 'stock', action: 'buy', quantity: 2, duration: 'fok' },
      'filled',
    ],
  ])('%s: placed once on the demo account', async (_name, signal, status) => {
    const before = fake.book.placed;
    const answer = await postSignal(t, hooks.demo, signal);
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json()).toMatchObject({ status });
    expect(fake.book.placed).toBe(before + 1);
    const { id } = answer.json() as { id: string };
    expect(fake.book.orders.get(Number(id))?.account).toBe(44533070);
  });

  it('the live account trades too', async () => {
    const answer = await postSignal(t, hooks.live, { symbol: 'EURUSD', action: 'sell', quantity: 2000 });
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json() as { id: string };
    expect(fake.book.orders.get(Number(id))?.account).toBe(44533071);
    // The trade's detail shows the order message as sent; the tokens travel apart (account auth).
    const entryOf = () =>
      t.services.db.$client.query<{ metadata: Record<string, unknown> }>(
        `select metadata from actions where user_id = $1 and code = 'Order' and metadata->>'accountId' = '44533071'`,
        [userId],
      );
    await eventually(async () => (await entryOf()).rows.length === 1);
    const { rows } = await entryOf();
    expect(rows[0]?.metadata.brokerRequest).toMatchObject({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      body: { symbolId: expect.any(Number), tradeSide: 2 },
    });
    expect(JSON.stringify(rows)).not.toMatch(/accessToken|refreshToken|validClientSecret/);
  });

  it('refuses before sending what cTrader would refuse, with its title', async () => {
    const before = newOrders().length;
    for (const [signal, message] of [
      [
        { symbol: 'EURUSD', action: 'buy', quantity: 1000, take_profit_price: 1.2 },
        /^cTrader: a market order takes its stop loss/,
      ],
      [
        { symbol: 'EURUSD', action: 'buy', quantity: 1500 },
        /^cTrader: quantity 1500 is not a multiple of EUR\/USD's step/,
      ],
      [
        { symbol: 'EURUSD', action: 'buy', quantity: 1000, duration: 'day' },
        /^cTrader: duration: day is not supported/,
      ],
    ] as const) {
      const answer = await postSignal(t, hooks.demo, signal);
      expect(answer.statusCode).toBe(400);
      expect((answer.json() as { message: string }).message).toMatch(message);
    }
    expect(newOrders()).toHaveLength(before);
  });

  it("answers cTrader's own refusal (ProtoOAOrderErrorEvent) with its title", async () => {
    const answer = await postSignal(t, hooks.demo, { symbol: 'EURUSD', action: 'buy', quantity: 10_000_000 });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ message: 'cTrader: Not enough money (NOT_ENOUGH_MONEY)' });
  });
});
