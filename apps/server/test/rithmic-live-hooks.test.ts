// Rithmic through the server as a trader meets it, against its R | Protocol fake
// (RITHMIC_BASE_URL=ws://…): connected through the credential form, one live hook, a futures
// signal of every order form the adapter sends placed exactly once with our signal id as
// user_tag and AUTO tagging, and the refusals (before sending, or the plant's risk rejection)
// answered with the broker's title; one order-plant session for all of it, logged out when the
// server stops.
import { brokerVariables } from '@router/brokers';
import { currentExample } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_CREDENTIALS,
  type RithmicFake,
  startRithmicFake,
} from '../../../packages/brokers/src/adapters/rithmic/fake.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithCredentials, createLiveHook, trader } from './broker-journey.ts';
import { eventually, postSignal } from './signal-fixtures.ts';

let t: TestApp;
let fake: RithmicFake;
let hook = '';
let userId = 0;

beforeAll(async () => {
  fake = await startRithmicFake();
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    env: brokerVariables('rithmic', { baseUrl: fake.baseUrl }),
  });
  const user = await trader(t, 'rithmic-hooks@example.com');
  userId = user.userId;
  await t.services.db.$client.query('update accounts set balance = 50, credits = 50 where user_id = $1', [user.userId]);
  hook = await createLiveHook(t, user, await connectWithCredentials(t, user, 'rithmic', { ...FAKE_CREDENTIALS }));
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

// Contracts as written (ESH2027…), moved to a month still trading: on the real clock they expire.
const [ES = '', NQ = '', CL = ''] = ['ESH2027', 'NQH2027', 'CLF2027'].map((symbol) =>
  currentExample(symbol, Date.now()),
);

describe('Rithmic: a live hook', () => {
  it.each([
    ['market buy (filled)', { symbol: ES, action: 'buy', quantity: 1 }, { template_id: 312, price_type: 2 }],
    [
      'limit sell, gtc',
      { symbol: NQ, action: 'sell', quantity: 2, limit_price: 21000.25 },
      { template_id: 312, price_type: 1, duration: 2 },
    ],
    [
      'stop_limit buy on NYMEX',
      { symbol: CL, action: 'buy', quantity: 1, type: 'stop_limit', stop_price: 72, limit_price: 72.1 },
      { template_id: 312, price_type: 3, exchange: 'NYMEX' },
    ],
    [
      'bracket from exit prices',
      {
        symbol: ES,
        action: 'buy',
        quantity: 1,
        limit_price: 6050,
        take_profit_price: 6060,
        stop_loss_price: 6045,
      },
      { template_id: 330, bracket_type: 3, target_ticks: 40, stop_ticks: 20 },
    ],
    [
      'front month with a bracket in ticks',
      { symbol: 'MNQ1!', action: 'sell', quantity: 1, extra: { target_ticks: 16, stop_ticks: 8 } },
      { template_id: 330, price_type: 2, bracket_type: 3 },
    ],
  ])('%s: placed once, our signal id as user_tag, AUTO', async (_name, signal, wire) => {
    const before = fake.book.orders.length;
    const answer = await postSignal(t, hook, signal);
    expect(answer.statusCode, answer.body).toBe(201);
    expect(fake.book.orders).toHaveLength(before + 1);
    const { id } = answer.json() as { id: string };
    const order = fake.book.orders.at(-1);
    expect(order?.basketId).toBe(id);
    expect(order?.fields).toMatchObject({ ...wire, manual_or_auto: 2, trade_route: 'simulator' });
    const { rows } = await t.services.db.$client.query('select id from signals where id = $1', [
      order?.fields.user_tag,
    ]);
    expect(rows).toHaveLength(1);
    // The trade's detail shows the order message as sent, with no sign-in secret in it.
    const entryOf = () =>
      t.services.db.$client.query<{ metadata: Record<string, unknown> }>(
        `select metadata from actions where user_id = $1 and code = 'Order' and metadata::text like $2`,
        [userId, `%${order?.fields.user_tag}%`],
      );
    await eventually(async () => (await entryOf()).rows.length === 1);
    const entry = await entryOf();
    const sent = entry.rows[0]?.metadata.brokerRequest;
    expect(sent).toMatchObject({
      method: 'WS',
      path: wire.template_id === 330 ? 'RequestBracketOrder' : 'RequestNewOrder',
      body: { user_tag: order?.fields.user_tag },
    });
    expect(JSON.stringify(entry.rows)).not.toContain(FAKE_CREDENTIALS.password);
  });

  it.each([
    [{ symbol: 'AAPL', class: 'stock', action: 'buy', quantity: 1 }, /^Rithmic: class: stock is not supported/],
    [{ symbol: 'ES2!', action: 'buy', quantity: 1 }, /^Rithmic: only the front month \(ES1!\) is resolved/],
    [{ symbol: ES, action: 'buy', quantity: 60 }, /^Rithmic: Insufficient margin/],
  ])('%o is refused with the title', async (signal, message) => {
    const answer = await postSignal(t, hook, signal);
    expect(answer.statusCode).toBe(400);
    expect((answer.json() as { message: string }).message).toMatch(message);
  });
});

describe('Rithmic: the kept session', () => {
  it('serves every signal with one order-plant login, logged out when the server stops', async () => {
    const orderPlantLogins = fake.requests.filter(
      (request) => request.path === '/RequestLogin' && (request.body as { infra_type: number }).infra_type === 2,
    );
    expect(orderPlantLogins).toHaveLength(2); // connecting, then the session the signals share
    await t.app.close();
    expect(fake.counts.logouts).toBe(fake.counts.logins);
  });
});
