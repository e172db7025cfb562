// E*TRADE through the server as a trader meets it, against the protocol fake (ETRADE_BASE_URL):
// OAuth 1.0a (connectorCreate asks for a request token and keeps it sealed with the pending
// connector; the consent page sends the verifier to /callback/etrade), the connection ending at
// midnight US Eastern, one live hook, a signal of each class E*TRADE trades plus a spread, each
// previewed and placed once with our signal id as clientOrderId; the renewal the server runs when
// due; a refusal shown with E*TRADE's title.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EtradeFake, FAKE_APP, startEtradeFake } from '../../../packages/brokers/src/adapters/etrade/fake.ts';
import { sealSecrets } from '../src/crypto/secrets.ts';
import { findConnector } from '../src/db/repositories/connectors.repository.ts';
import { withBrokerSession } from '../src/modules/connectors/index.ts';
import { refreshDueConnectors } from '../src/modules/connectors/refresher.ts';
import { openSession } from '../src/modules/connectors/session.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectorCreate, connectWithOAuth, createLiveHook, type Trader, trader } from './broker-journey.ts';
import { gql } from './connector-fixtures.ts';
import { createSetting, eventually } from './notification-fixtures.ts';
import { postSignal, signalRows } from './signal-fixtures.ts';
import { currentSignal } from './written-at.ts';

const ACCOUNT = 'dBZOKt9xDrtRSAOl4MSiiA';
let t: TestApp;
let fake: EtradeFake;
let user: Trader;
let shortKey: string;
let connectorKey: string;

beforeAll(async () => {
  fake = await startEtradeFake({ accounts: [{ accountId: '84345821', accountIdKey: ACCOUNT, cash: 1_000_000 }] });
  const env = brokerVariables('etrade', {
    baseUrl: fake.baseUrl,
    clientId: FAKE_APP.consumerKey,
    clientSecret: FAKE_APP.consumerSecret,
  });
  t = await startTestApp({ authenticate: authenticateAsUserId, env });
  user = await trader(t, 'etrade@example.com');
  await t.services.db.$client.query('update accounts set balance = 50, credits = 50 where user_id = $1', [user.userId]);
  const register = (redirectUrl: string) => fake.oauth.registerCallback(FAKE_APP.consumerKey, redirectUrl);
  const connector = await connectWithOAuth(t, user, 'etrade', { registerCallback: register });
  expect(connector).toMatchObject({ providerName: 'etrade', isActive: true });
  connectorKey = connector.key;
  shortKey = await createLiveHook(t, user, connector);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const lastPlaced = () => {
  const [request] = fake.placements().slice(-1);
  return request
    ? (JSON.parse(request.body) as { PlaceOrderRequest: Record<string, unknown> }).PlaceOrderRequest
    : undefined;
};

describe('E*TRADE: connecting', () => {
  it('keeps the request token sealed with the pending connection, and ends the connection at midnight in New York', async () => {
    const other = await trader(t, 'etrade-pending@example.com');
    const creation = await connectorCreate(t, other, 'etrade');
    expect(creation).toMatchObject({ type: 'open', credentials: ['oauth_verifier'] });
    const token = new URL(creation.requestUrl ?? '').searchParams.get('token') ?? '';
    const { rows } = await t.services.db.$client.query<{ secrets: Buffer | null; oauth_state: string | null }>(
      'select secrets, oauth_state from connectors where user_id = $1',
      [other.userId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.oauth_state).toBeTruthy();
    expect(rows[0]?.secrets?.length).toBeGreaterThan(0);
    expect(rows[0]?.secrets?.toString('latin1')).not.toContain(token);
    const { rows: connected } = await t.services.db.$client.query<{ expires_at: Date }>(
      'select expires_at from connectors where key = $1',
      [connectorKey],
    );
    const hourThere = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      hour: 'numeric',
      hourCycle: 'h23',
    });
    expect(Number(hourThere.format(connected[0]?.expires_at))).toBe(0);
    expect(connected[0]?.expires_at.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
  });

  it('with two sign-ins open, the callback completes the one whose request token it names', async () => {
    const other = await trader(t, 'etrade-two-attempts@example.com');
    const older = await connectorCreate(t, other, 'etrade');
    const newer = await connectorCreate(t, other, 'etrade');
    expect(newer.requestUrl).not.toBe(older.requestUrl);
    const consent = await fetch(older.requestUrl ?? '', { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    const token = back.searchParams.get('oauth_token') ?? '';
    expect(token).toBe(new URL(older.requestUrl ?? '').searchParams.get('token'));
    const answer = await gql<{ connectorActivate: { key: string; isActive: boolean } }>(
      t,
      other.headers,
      'mutation($p: String!, $c: [String!]!) { connectorActivate(providerName: $p, credentials: $c) { key isActive } }',
      { p: 'etrade', c: [back.searchParams.get('oauth_verifier') ?? '', token] },
    );
    expect(answer.error?.message).toBeUndefined();
    expect(answer.data?.connectorActivate).toMatchObject({
      key: JSON.parse(older.metadata ?? '{}').key,
      isActive: true,
    });
  });

  it("refuses E*TRADE's 'already been Authorized' verifier with the broker's words", async () => {
    const other = await trader(t, 'etrade-twice@example.com');
    const creation = await connectorCreate(t, other, 'etrade');
    const answer = await gql(
      t,
      other.headers,
      'mutation($p: String!, $c: [String!]!) { connectorActivate(providerName: $p, credentials: $c) { key } }',
      { p: 'etrade', c: ['Token has already been Authorized'] },
    );
    expect(creation.type).toBe('open');
    expect(answer.error?.message).toBe('E*TRADE: sign-in refused (oauth_problem=verifier_invalid); connect again');
  });
});

describe('E*TRADE: a live hook per class', () => {
  it.each([
    ['stock', { symbol: 'AAPL', action: 'buy', quantity: 3 }, 'EQ'],
    ['option', { symbol: 'AAPL270618C200', action: 'buy_to_open', quantity: 1, limit_price: 4.1 }, 'OPTN'],
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
      'SPREADS',
    ],
  ])('%s: previewed, placed once, with our signal id', async (_name, signal, orderType) => {
    const before = fake.placements().length;
    const answer = await postSignal(t, shortKey, currentSignal(signal));
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json() as { id: string };
    expect(fake.placements()).toHaveLength(before + 1);
    const rows = await signalRows(t, user.userId);
    expect(lastPlaced()).toMatchObject({ orderType, clientOrderId: rows.at(-1)?.id });
    expect(fake.placed().some((order) => order.orderId === Number(id))).toBe(true);
  });

  it('renews the token when the server finds it due, keeping the midnight end', async () => {
    await t.services.db.$client.query(
      `update connectors set refresh_at = now() - interval '1 minute', updated_at = now() where key = $1`,
      [connectorKey],
    );
    const stored = await findConnector(t.services.db, user.userId, connectorKey);
    if (!stored) throw new Error('connector missing');
    const before = fake.requests.filter((r) => r.url === '/oauth/renew_access_token').length;
    const startedAt = Date.now();
    const holdings = await withBrokerSession(t.services, stored, ({ broker, ctx, session }) =>
      (broker.getHoldings as NonNullable<typeof broker.getHoldings>)(ctx, session, ACCOUNT),
    );
    expect(holdings.positions.map((position) => position.symbol)).toContain('AAPL');
    expect(fake.requests.filter((r) => r.url === '/oauth/renew_access_token').length).toBe(before + 1);
    const { rows } = await t.services.db.$client.query<{ refresh_at: Date; expires_at: Date }>(
      'select refresh_at, expires_at from connectors where key = $1',
      [connectorKey],
    );
    // Due again 10 minutes before the next 2 idle hours end, or at midnight Eastern when they
    // reach it (whatever the time of day the test runs at).
    const midnight = stored.expiresAt?.getTime() ?? 0;
    const dueAfter = (renewedAt: number) =>
      renewedAt + 2 * 60 * 60_000 >= midnight ? midnight : renewedAt + 110 * 60_000;
    const refreshAt = rows[0]?.refresh_at.getTime() ?? 0;
    expect(refreshAt).toBeGreaterThanOrEqual(dueAfter(startedAt));
    expect(refreshAt).toBeLessThanOrEqual(dueAfter(Date.now()));
    expect(rows[0]?.expires_at.getTime()).toBe(midnight);
  });

  it("answers E*TRADE's refusal with its title, and places nothing", async () => {
    const before = fake.placements().length;
    const answer = await postSignal(t, shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1_000_000 });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      status: 'ExecutionError',
      message: 'E*TRADE: You do not have enough buying power for this trade.',
    });
    expect(fake.placements()).toHaveLength(before);
  });
});

describe('E*TRADE: the connection ended at midnight', () => {
  /** As the last renewal of the day leaves it: active until midnight, due then, and midnight passed. */
  async function endedAtMidnight(owner: Trader, key: string): Promise<void> {
    const row = await findConnector(t.services.db, owner.userId, key);
    if (!row) throw new Error('connector missing');
    const midnight = Date.now() - 60_000;
    const session = openSession(t.services, row).secrets;
    fake.oauth.endDay(session.accessToken ?? '');
    const sealed = sealSecrets(t.services.secretsKey, row.key, {
      ...session,
      accessExpiresAt: String(midnight),
      expiresAt: String(midnight),
    });
    await t.services.db.$client.query(
      'update connectors set secrets = $2, expires_at = $3, refresh_at = $3, updated_at = now() where key = $1',
      [row.key, sealed.data, new Date(midnight)],
    );
  }

  /** The connection is as the midnight left it: active, shown expired, nothing logged or mailed of a deactivation. */
  async function expectNotDeactivated(owner: Trader, key: string): Promise<void> {
    const after = await findConnector(t.services.db, owner.userId, key);
    expect(after).toMatchObject({ isActive: true, deactivatedReason: null });
    const { rows } = await t.services.db.$client.query<{ n: number }>(
      `select (select count(*) from actions where user_id = $1 and code = 'ConnectorDeactivate')
        + (select count(*) from notification_events where user_id = $1 and type = 'connector.deactivated') as n`,
      [owner.userId],
    );
    expect(Number(rows[0]?.n)).toBe(0);
  }

  it('is left to show expired: no background pass deactivates it every night and mails its user', async () => {
    const other = await trader(t, 'etrade-overnight@example.com');
    const register = (redirectUrl: string) => fake.oauth.registerCallback(FAKE_APP.consumerKey, redirectUrl);
    const connector = await connectWithOAuth(t, other, 'etrade', { registerCallback: register });
    await endedAtMidnight(other, connector.key);
    const renewals = () => fake.requests.filter((r) => r.url === '/oauth/renew_access_token').length;
    const before = renewals();
    await refreshDueConnectors(t.services);
    await expectNotDeactivated(other, connector.key);
    expect(renewals()).toBe(before);
  });

  it('is left to show expired when the fill follower asks after a resting order past midnight', async () => {
    const other = await trader(t, 'etrade-resting@example.com');
    const register = (redirectUrl: string) => fake.oauth.registerCallback(FAKE_APP.consumerKey, redirectUrl);
    const connector = await connectWithOAuth(t, other, 'etrade', { registerCallback: register });
    const hook = await createLiveHook(t, other, connector);
    // The follower asks after resting orders of accounts with a setting that wants their fills.
    await createSetting(t, other.headers, connector.key, ACCOUNT, 2, {
      email: 'resting@example.com',
      events: ['order.filled'],
    });
    const answer = await postSignal(t, hook, { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 1 });
    expect(answer.statusCode, answer.body).toBe(201);
    // Resting: its answer is stored just after the hook's.
    await eventually(
      () => signalRows(t, other.userId),
      (rows) => rows[0]?.status === 'accepted',
    );
    await endedAtMidnight(other, connector.key);
    // The look-up meets the ended session (E*TRADE's adapter refuses it before sending): the order
    // is looked at again later, the connection left to show expired.
    expect(await t.app.signalRuntime.followFills(0)).toBe(0);
    expect((await signalRows(t, other.userId)).map((row) => row.status)).toEqual(['accepted']);
    await expectNotDeactivated(other, connector.key);
  });
});
