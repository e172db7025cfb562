// Issue 8 end to end, stock brokers: with `<BROKER>_BASE_URL` pointing at each broker's protocol
// fake (packages/brokers), a user connects through the GraphQL mutations the Brokers & Webhooks
// screen calls (Schwab through its OAuth consent), creates a live hook, and a signal sent to it
// is placed at the fake exactly once. The crypto exchanges are in brokers-end-to-end-crypto.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAlpaca, startFakeAlpaca } from '../../../packages/brokers/src/adapters/alpaca/fake.ts';
import { type SchwabFake, startSchwabFake } from '../../../packages/brokers/src/adapters/schwab/fake.ts';
import { type FakeTradier, startFakeTradier } from '../../../packages/brokers/src/adapters/tradier/fake.ts';
import { startTrading212Fake, type Trading212Fake } from '../../../packages/brokers/src/adapters/trading212/fake.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import {
  connectorCreate,
  connectWithCredentials,
  connectWithOAuth,
  createLiveHook,
  placeExactlyOnce,
  trader,
} from './broker-journey.ts';
import { CONNECTOR_FIELDS, gql } from './connector-fixtures.ts';
import { paperOrders } from './signal-fixtures.ts';

const SCHWAB_APP = { clientId: 'e2e-schwab-app', clientSecret: 'e2e-schwab-secret' };
const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };

let t: TestApp;
let alpaca: FakeAlpaca;
let tradier: FakeTradier;
let schwab: SchwabFake;
let trading212: Trading212Fake;

beforeAll(async () => {
  [alpaca, tradier, schwab, trading212] = await Promise.all([
    startFakeAlpaca(),
    startFakeTradier(),
    startSchwabFake(SCHWAB_APP),
    startTrading212Fake(),
  ]);
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    env: {
      ALPACA_BASE_URL: alpaca.url,
      TRADIER_BASE_URL: tradier.url,
      SCHWAB_BASE_URL: schwab.baseUrl,
      SCHWAB_CLIENT_ID: SCHWAB_APP.clientId,
      SCHWAB_CLIENT_SECRET: SCHWAB_APP.clientSecret,
      TRADING212_BASE_URL: trading212.baseUrl,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([alpaca?.close(), tradier?.close(), schwab?.close(), trading212?.close()]);
});

describe('stock brokers end to end', () => {
  it('paper: connect without credentials, hook, one paper order', async () => {
    const user = await trader(t, 'paper@example.com');
    const connector = await connectWithCredentials(t, user, 'paper', {});
    const accountId = (JSON.parse(connector.accounts) as Array<{ id: string }>)[0]?.id ?? '';
    const shortKey = await createLiveHook(t, user, connector);
    const orders = () => paperOrders(t, accountId);
    const { signalId } = await placeExactlyOnce(t, user, shortKey, BUY, async () => (await orders()).length);
    expect((await orders())[0]?.client_order_id).toBe(signalId);
  });

  it('alpaca: API key id and secret, client_order_id is the signal id', async () => {
    const user = await trader(t, 'alpaca@example.com');
    const connector = await connectWithCredentials(t, user, 'alpaca', alpaca.keys);
    expect(connector).toMatchObject({ providerName: 'alpaca', isActive: true });
    const shortKey = await createLiveHook(t, user, connector);
    const { signalId } = await placeExactlyOnce(t, user, shortKey, BUY, () => alpaca.submissions().length);
    expect(alpaca.orders).toHaveLength(1);
    expect(alpaca.orders[0]).toMatchObject({ symbol: 'AAPL', side: 'buy', client_order_id: signalId });
  });

  it('alpaca: wrong keys are refused with the broker message and nothing is stored', async () => {
    const user = await trader(t, 'alpaca-wrong@example.com');
    await connectorCreate(t, user, 'alpaca');
    const answer = await gql(
      t,
      user.headers,
      `mutation($p: String!, $c: [String!]!) { connectorActivate(providerName: $p, credentials: $c) { ${CONNECTOR_FIELDS} } }`,
      { p: 'alpaca', c: [alpaca.keys.apiKeyId, 'not-the-secret'] },
    );
    expect(answer.data).toBeNull();
    expect(answer.error?.message).toMatch(/^Alpaca: /);
    expect(answer.body).not.toContain('not-the-secret');
    const { rows } = await t.services.db.$client.query('select id from connectors where user_id = $1', [user.userId]);
    expect(rows).toHaveLength(0);
  });

  it('tradier: access token, the order tagged with the signal id', async () => {
    const user = await trader(t, 'tradier@example.com');
    const connector = await connectWithCredentials(t, user, 'tradier', { accessToken: tradier.token });
    const shortKey = await createLiveHook(t, user, connector);
    const { signalId } = await placeExactlyOnce(t, user, shortKey, BUY, () => tradier.orders.length);
    expect(tradier.orders[0]).toMatchObject({ symbol: 'AAPL', side: 'buy', quantity: 1 });
    expect(tradier.orders[0]?.tag).toBe(signalId.replace(/[^A-Za-z0-9-]/g, '-'));
  });

  it('schwab: OAuth consent with state, code exchanged, order placed on the account hash', async () => {
    const user = await trader(t, 'schwab@example.com');
    const connector = await connectWithOAuth(t, user, 'schwab');
    expect(connector).toMatchObject({ providerName: 'schwab', isActive: true });
    expect(connector.expiresAt).toBeGreaterThan(Date.now());
    const shortKey = await createLiveHook(t, user, connector);
    await placeExactlyOnce(t, user, shortKey, BUY, () => schwab.orders.size);
    expect(schwab.submissions()).toBe(1);
    const [order] = [...schwab.orders.values()];
    expect(JSON.stringify(order)).toContain('AAPL');
  });

  it('trading212: API key and secret, one equity order', async () => {
    const user = await trader(t, 'trading212@example.com');
    const connector = await connectWithCredentials(t, user, 'trading212', {
      apiKey: 'fake-key',
      apiSecret: 'fake-secret',
    });
    const shortKey = await createLiveHook(t, user, connector);
    const account = () => [...trading212.accounts.values()][0];
    await placeExactlyOnce(t, user, shortKey, BUY, () => account()?.orders.size ?? 0);
    expect(trading212.submissions()).toBe(1);
    expect([...(account()?.orders.values() ?? [])][0]).toMatchObject({ ticker: 'AAPL_US_EQ' });
  });
});
