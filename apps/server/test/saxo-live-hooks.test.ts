// Saxo through the server as a trader meets it, against the protocol fake (SAXO_BASE_URL): OAuth
// through the consent page, one live hook, a signal of every class the adapter offers (stock, FX,
// future, option) plus a bracket and a one-cancels-other pair, each placed once with our signal id as ExternalReference and
// X-Request-ID; the rotating refresh token renewed by the server and stored; a refusal shown with
// Saxo's title.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FAKE_ACCOUNT_KEY,
  FAKE_APP,
  type SaxoFake,
  startSaxoFake,
} from '../../../packages/brokers/src/adapters/saxo/fake.ts';
import { INSTRUMENTS, OPTIONS } from '../../../packages/brokers/src/adapters/saxo/fake-ref.ts';
import { findConnector } from '../src/db/repositories/connectors.repository.ts';
import { withBrokerSession } from '../src/modules/connectors/index.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithOAuth, createLiveHook, type Trader, trader } from './broker-journey.ts';
import { postSignal, signalRows } from './signal-fixtures.ts';
import { currentSignal } from './written-at.ts';

// The contracts as of the day the test runs (ESZ2026 and AAPL's December 2026 call expire): the
// server reads the real clock, and the fake lists what is current too.
const futureSignal = currentSignal({ symbol: 'ESZ2026', action: 'buy', quantity: 1, limit_price: 5400 });
const optionSignal = currentSignal({ symbol: 'AAPL261218C200', action: 'buy_to_open', quantity: 1, limit_price: 2.4 });
const futureUic = INSTRUMENTS.find((item) =>
  [2, 1].some(
    (digits) => item.Symbol === `${futureSignal.symbol.slice(0, 3)}${futureSignal.symbol.slice(-digits)}:xcme`,
  ),
)?.Identifier;
const optionExpiry = `20${optionSignal.symbol.slice(4, 6)}-${optionSignal.symbol.slice(6, 8)}-${optionSignal.symbol.slice(8, 10)}`;
const optionUic = OPTIONS.find(
  (item) => item.root === 'AAPL' && item.expiry === optionExpiry && item.PutCall === 'Call' && item.StrikePrice === 200,
)?.Uic;

let t: TestApp;
let fake: SaxoFake;
let user: Trader;
let shortKey: string;
let connectorKey: string;

beforeAll(async () => {
  fake = await startSaxoFake({ cash: 10_000_000 });
  const env = brokerVariables('saxo', {
    baseUrl: fake.baseUrl,
    clientId: FAKE_APP.appKey,
    clientSecret: FAKE_APP.appSecret,
  });
  t = await startTestApp({ authenticate: authenticateAsUserId, env });
  user = await trader(t, 'saxo@example.com');
  await t.services.db.$client.query('update accounts set balance = 50, credits = 50 where user_id = $1', [user.userId]);
  const connector = await connectWithOAuth(t, user, 'saxo');
  expect(connector).toMatchObject({ providerName: 'saxo', isActive: true, isDemo: true });
  connectorKey = connector.key;
  shortKey = await createLiveHook(t, user, connector);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('Saxo: a live hook per class', () => {
  it.each([
    ['stock', { symbol: 'AAPL', action: 'buy', quantity: 3 }, { Uic: 211, AssetType: 'Stock' }],
    [
      'forex',
      { symbol: 'EUR/USD', action: 'sell', quantity: 10000, limit_price: 1.25 },
      { Uic: 21, AssetType: 'FxSpot' },
    ],
    ['future', futureSignal, { Uic: futureUic, AssetType: 'ContractFutures' }],
    ['option', optionSignal, { Uic: optionUic, AssetType: 'StockOption', ToOpenClose: 'ToOpen' }],
    [
      'bracket',
      { symbol: 'MSFT', action: 'buy', quantity: 1, take_profit_price: 450, stop_loss_price: 380 },
      {
        Uic: 261,
        Orders: [
          { OrderType: 'Limit', OrderPrice: 450 },
          { OrderType: 'StopIfTraded', OrderPrice: 380 },
        ],
      },
    ],
  ])('%s: placed once, with our signal id', async (_name, signal, wire) => {
    expect(typeof wire.Uic).toBe('number');
    const before = fake.placements().length;
    const answer = await postSignal(t, shortKey, signal);
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json() as { id: string };
    expect(fake.placements()).toHaveLength(before + 1);
    const [request] = fake.placements().slice(-1);
    const rows = await signalRows(t, user.userId);
    const signalId = rows.at(-1)?.id;
    expect(request?.headers['x-request-id']).toBe(signalId);
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({
      ...wire,
      ExternalReference: signalId,
      ManualOrder: false,
    });
    expect(fake.state.activities.some((activity) => activity.OrderId === id)).toBe(true);
  });

  it('oco: the pair placed once, both legs carrying our signal id', async () => {
    const before = fake.placements().length;
    const legs = [
      { symbol: 'EUR/USD', action: 'buy', quantity: 10000, limit_price: 1.2 },
      { symbol: 'EUR/USD', action: 'sell', quantity: 10000, limit_price: 1.22 },
    ];
    const answer = await postSignal(t, shortKey, { group: 'oco', duration: 'gtc', legs });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(fake.placements()).toHaveLength(before + 1);
    const signalId = (await signalRows(t, user.userId)).at(-1)?.id;
    const leg = { Uic: 21, AssetType: 'FxSpot', Amount: 10000, OrderType: 'Limit', ExternalReference: signalId };
    expect(JSON.parse(fake.placements().at(-1)?.body ?? '{}')).toMatchObject({
      Orders: [
        { ...leg, BuySell: 'Buy', OrderPrice: 1.2 },
        { ...leg, BuySell: 'Sell', OrderPrice: 1.22 },
      ],
    });
  });

  it('renews the tokens when due and stores the rotated refresh token and the later expiry', async () => {
    await t.services.db.$client.query(
      `update connectors set refresh_at = now() - interval '1 minute', updated_at = now() where key = $1`,
      [connectorKey],
    );
    const stored = await findConnector(t.services.db, user.userId, connectorKey);
    if (!stored) throw new Error('connector missing');
    const before = fake.requests.filter((r) => r.url === '/token').length;
    const holdings = await withBrokerSession(t.services, stored, ({ broker, ctx, session }) =>
      (broker.getHoldings as NonNullable<typeof broker.getHoldings>)(ctx, session, FAKE_ACCOUNT_KEY),
    );
    expect(holdings.positions.map((position) => position.symbol)).toContain('AAPL:xnas');
    const tokens = fake.requests.filter((r) => r.url === '/token').slice(before);
    expect(tokens.map((r) => new URLSearchParams(r.body).get('grant_type'))).toEqual(['refresh_token']);
    const { rows } = await t.services.db.$client.query<{ refresh_at: Date; expires_at: Date }>(
      'select refresh_at, expires_at from connectors where key = $1',
      [connectorKey],
    );
    expect(rows[0]?.refresh_at.getTime()).toBeGreaterThan(Date.now() + 15 * 60_000);
    expect(rows[0]?.expires_at.getTime()).toBeGreaterThan(stored.expiresAt?.getTime() ?? 0);
  });

  it("answers Saxo's refusal with its title, and places nothing", async () => {
    const before = fake.state.placedCount;
    const answer = await postSignal(t, shortKey, { symbol: 'SAP', action: 'buy', quantity: 1 });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      status: 'ExecutionError',
      message: 'Saxo: SAP is listed on several exchanges (XETR, NYSE); give extra.exchange',
    });
    expect(fake.state.placedCount).toBe(before);
  });
});
