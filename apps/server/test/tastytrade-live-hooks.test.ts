// tastytrade through the server as a trader meets it, against the protocol fake
// (TASTYTRADE_BASE_URL): OAuth through the consent page, one live hook, a signal of every class
// tastytrade trades (stock, option, future, crypto) plus a multi-leg order and a bracket, each
// placed once with our signal id as its external-identifier; the token refreshed by the server
// when due; and a refusal tastytrade gives shown with its title.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTastytradeFake, type TastytradeFake } from '../../../packages/brokers/src/adapters/tastytrade/fake.ts';
import { findConnector } from '../src/db/repositories/connectors.repository.ts';
import { withBrokerSession } from '../src/modules/connectors/index.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithOAuth, createLiveHook, type Trader, trader } from './broker-journey.ts';
import { postSignal, signalRows } from './signal-fixtures.ts';
import { currentSignal } from './written-at.ts';

const APP = { clientId: 'e2e-tasty-app', clientSecret: 'e2e-tasty-secret' };
let t: TestApp;
let fake: TastytradeFake;
let user: Trader;
let shortKey: string;
let connectorKey: string;

beforeAll(async () => {
  fake = await startTastytradeFake({ ...APP, accounts: [{ number: '5WT00001', cash: 1_000_000 }] });
  const env = brokerVariables('tastytrade', { baseUrl: fake.baseUrl, ...APP });
  t = await startTestApp({ authenticate: authenticateAsUserId, env });
  user = await trader(t, 'tasty@example.com');
  await t.services.db.$client.query('update accounts set balance = 50, credits = 50 where user_id = $1', [user.userId]);
  const connector = await connectWithOAuth(t, user, 'tastytrade');
  expect(connector).toMatchObject({ providerName: 'tastytrade', isActive: true, expiresAt: null });
  connectorKey = connector.key;
  shortKey = await createLiveHook(t, user, connector);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const lastPosted = () => {
  const [request] = fake.submissions().slice(-1);
  return request ? (JSON.parse(request.body) as Record<string, unknown>) : undefined;
};
const entryOf = (body: Record<string, unknown> | undefined) =>
  (body?.['trigger-order'] ?? body) as Record<string, unknown> | undefined;

describe('tastytrade: a live hook per class', () => {
  it.each([
    ['stock', { symbol: 'AAPL', action: 'buy', quantity: 3 }, 'Equity'],
    ['option', { symbol: 'AAPL280616C200', action: 'buy_to_open', quantity: 1, limit_price: 4.1 }, 'Equity Option'],
    ['future', { symbol: 'ESZ2026', action: 'sell', quantity: 1, limit_price: 5500, class: 'future' }, 'Future'],
    ['crypto', { symbol: 'BTCUSD', action: 'buy', quantity: 0.01 }, 'Cryptocurrency'],
    [
      'multi-leg option',
      {
        symbol: 'SPY_271217C00600000',
        action: 'buy_to_open',
        'symbol[2]': 'SPY_271217C00610000',
        'action[2]': 'sell_to_open',
        quantity: 1,
        limit_price: 2.5,
      },
      'Equity Option',
    ],
    ['bracket', { symbol: 'MSFT', action: 'buy', quantity: 1, take_profit_price: 130, stop_loss_price: 80 }, 'Equity'],
  ])('%s: placed once, with our signal id', async (_name, signal, instrumentType) => {
    const before = fake.submissions().length;
    const answer = await postSignal(t, shortKey, currentSignal(signal));
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json() as { id: string };
    expect(fake.submissions()).toHaveLength(before + 1);
    const rows = await signalRows(t, user.userId);
    const entry = entryOf(lastPosted());
    expect(entry?.['external-identifier']).toBe(rows.at(-1)?.id);
    const legs = (entry?.legs ?? []) as Array<{ 'instrument-type': string }>;
    expect(legs[0]?.['instrument-type']).toBe(instrumentType);
    expect(fake.orders.some((order) => order.id === Number(id))).toBe(true);
  });

  it('renews the access token when it is due, and stores the renewed one', async () => {
    // As if 14 minutes had passed: the stored refresh time is due.
    await t.services.db.$client.query(
      `update connectors set refresh_at = now() - interval '1 minute', updated_at = now() where key = $1`,
      [connectorKey],
    );
    const stored = await findConnector(t.services.db, user.userId, connectorKey);
    if (!stored) throw new Error('connector missing');
    const before = fake.requests.filter((r) => r.url === '/oauth/token').length;
    const holdings = await withBrokerSession(t.services, stored, ({ broker, ctx, session }) =>
      (broker.getHoldings as NonNullable<typeof broker.getHoldings>)(ctx, session, '5WT00001'),
    );
    expect(holdings.positions.length).toBeGreaterThan(0);
    const tokens = fake.requests.filter((r) => r.url === '/oauth/token').slice(before);
    expect(tokens.map((r) => JSON.parse(r.body).grant_type)).toEqual(['refresh_token']);
    const { rows } = await t.services.db.$client.query<{ refresh_at: Date; expires_at: Date | null }>(
      'select refresh_at, expires_at from connectors where key = $1',
      [connectorKey],
    );
    expect(rows[0]?.refresh_at.getTime()).toBeGreaterThan(Date.now() + 13 * 60_000);
    expect(rows[0]?.expires_at).toBeNull();
  });

  it('an order meeting an access token revoked early is refused, not resent; the grant renews, the hook works on', async () => {
    fake.revokeAccessTokens();
    const refused = await postSignal(t, shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ status: 'AuthenticationError' });
    const stored = await findConnector(t.services.db, user.userId, connectorKey);
    expect(stored?.isActive).toBe(true);
    // Another signal (the same one again would be answered as the first was).
    const next = await postSignal(t, shortKey, { symbol: 'AAPL', action: 'buy', quantity: 2 });
    expect(next.statusCode, next.body).toBe(201);
  });

  it("answers tastytrade's refusal with its title, and spends nothing", async () => {
    const answer = await postSignal(t, shortKey, { symbol: 'KO', action: 'sell', quantity: 5 });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      status: 'ExecutionError',
      message: 'tastytrade: One or more preflight checks failed: Closing quantity exceeds the KO position',
    });
    const continuous = await postSignal(t, shortKey, { symbol: 'ES1!', action: 'buy', quantity: 1 });
    expect(continuous.json()).toMatchObject({
      message: 'tastytrade: ES1! is a continuous contract; give the contract month, such as ESZ2026',
    });
  });
});
