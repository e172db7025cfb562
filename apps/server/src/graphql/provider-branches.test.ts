// providerMetatraderBranches (SPEC §7): signed-in users only, server names from MetaApi's known
// server search (the MetaTrader protocol fake behind METATRADER_BASE_URL), and the server the
// user connects on stored as the connector's branch (SPEC §3).
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMetaApi, startFakeMetaApi } from '../../../../packages/brokers/src/adapters/metatrader/fake.ts';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../test/app.ts';
import { connect, gql } from '../../test/connector-fixtures.ts';

const QUERY = 'query($s: String!) { providerMetatraderBranches(search: $s) { name broker platform } }';
let t: TestApp;
let bare: TestApp;
let fake: FakeMetaApi;

beforeAll(async () => {
  fake = await startFakeMetaApi();
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    env: brokerVariables('metatrader', { baseUrl: fake.url, clientSecret: fake.operatorToken }),
  });
  // A site without a MetaApi token, on the same database.
  bare = await startTestApp({
    authenticate: authenticateAsUserId,
    database: t.database,
    env: brokerVariables('metatrader', { baseUrl: fake.url }),
  });
});
afterAll(async () => {
  await bare?.close();
  await t?.close();
  await fake?.close();
});

describe('providerMetatraderBranches', () => {
  it('refuses anonymous callers, asking nothing of MetaApi', async () => {
    const since = fake.requests.length;
    const answer = await gql(t, {}, QUERY, { s: 'icm' });
    expect(answer.data).toBeNull();
    expect(answer.error?.code).toBe('UNAUTHENTICATED');
    expect(fake.requests.slice(since)).toEqual([]);
  });

  it('answers a signed-in user with MT5 and MT4 servers from MetaApi’s search', async () => {
    const { headers } = await insertTestUser(t.services, 'branches@example.com');
    const since = fake.requests.length;
    const answer = await gql<{ providerMetatraderBranches: unknown[] }>(t, headers, QUERY, { s: 'icmarketssc' });
    expect(answer.error).toBeUndefined();
    expect(answer.data?.providerMetatraderBranches).toEqual([
      { name: 'ICMarketsSC-Demo', broker: 'Raw Trading Ltd', platform: 'mt5' },
      { name: 'ICMarketsSC-MT5', broker: 'Raw Trading Ltd', platform: 'mt5' },
      { name: 'ICMarketsSC-Demo02', broker: 'Raw Trading Ltd', platform: 'mt4' },
      { name: 'ICMarketsSC-Live07', broker: 'Raw Trading Ltd', platform: 'mt4' },
    ]);
    expect(fake.requests.slice(since).map((r) => [r.url, r.headers['auth-token']])).toEqual([
      ['/known-mt-servers/5/search?query=icmarketssc', fake.operatorToken],
      ['/known-mt-servers/4/search?query=icmarketssc', fake.operatorToken],
    ]);
    const short = await gql<{ providerMetatraderBranches: unknown[] }>(t, headers, QUERY, { s: 'i' });
    expect(short.data?.providerMetatraderBranches).toEqual([]);
    const long = await gql(t, headers, QUERY, { s: 'x'.repeat(101) });
    expect(long.error).toMatchObject({ code: 'BAD_USER_INPUT', message: 'At most 100 characters' });
  });

  it('says so when the site has no MetaApi token', async () => {
    const { headers } = await insertTestUser(bare.services, 'branches-bare@example.com');
    const answer = await gql(bare, headers, QUERY, { s: 'ftmo' });
    expect(answer.data).toBeNull();
    expect(answer.error?.message).toMatch(/^MetaTrader: this site has no MetaApi token \(METATRADER_CLIENT_SECRET\)/);
  });

  it('stores the server an account is connected on as the connector’s branch', async () => {
    const { headers } = await insertTestUser(t.services, 'branch-connect@example.com');
    const connector = await connect(t, headers, 'metatrader', ['1234567', 'master-pass', 'ICMarketsSC-Demo']);
    expect(connector).toMatchObject({ providerName: 'metatrader', branch: 'ICMarketsSC-Demo', isDemo: true });
    expect(JSON.parse(connector.accounts)).toEqual([
      expect.objectContaining({ id: '1234567@ICMarketsSC-Demo', dataTitle: '1234567', demo: true }),
    ]);
  });
});
