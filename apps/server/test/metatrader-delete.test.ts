// Deleting a MetaTrader connection through the server, against the MetaApi protocol fake: the
// account the site added at MetaApi is undeployed (a running terminal is billed to the site's
// token), but only once no other connection, the user's or another user's, holds that account.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMetaApi, startFakeMetaApi } from '../../../packages/brokers/src/adapters/metatrader/fake.ts';
import { MT_ACCOUNTS } from '../../../packages/brokers/src/adapters/metatrader/fake-data.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithCredentials, type Trader, trader } from './broker-journey.ts';
import { gql } from './connector-fixtures.ts';

let t: TestApp;
let fake: FakeMetaApi;

beforeAll(async () => {
  fake = await startFakeMetaApi();
  const env = brokerVariables('metatrader', { baseUrl: fake.url, clientSecret: fake.operatorToken });
  t = await startTestApp({ authenticate: authenticateAsUserId, env });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const CREDENTIALS = { login: '1234567', password: 'master-pass', server: 'ICMarketsSC-Demo' };
const metaApiId = MT_ACCOUNTS[0]?.metaApiId ?? '';
const undeploys = () => fake.requests.filter((r) => r.url === `/users/current/accounts/${metaApiId}/undeploy`);

async function remove(user: Trader, key: string) {
  const answer = await gql<{ connectorDelete: boolean }>(
    t,
    user.headers,
    'mutation($k: String!) { connectorDelete(key: $k) }',
    {
      k: key,
    },
  );
  expect(answer.data?.connectorDelete).toBe(true);
}

describe('MetaTrader: a deleted connection', () => {
  it("stops the site's MetaApi account once the last connection holding it is deleted", async () => {
    const alice = await trader(t, 'mt-delete-alice@example.com');
    const bob = await trader(t, 'mt-delete-bob@example.com');
    const first = await connectWithCredentials(t, alice, 'metatrader', CREDENTIALS);
    const second = await connectWithCredentials(t, bob, 'metatrader', CREDENTIALS);
    expect(fake.accounts.get(metaApiId)?.state).toBe('DEPLOYED');

    await remove(alice, first.key);
    expect(undeploys()).toHaveLength(0);
    expect(fake.accounts.get(metaApiId)?.state).toBe('DEPLOYED');

    await remove(bob, second.key);
    expect(undeploys().map((r) => r.headers['auth-token'])).toEqual([fake.operatorToken]);
    expect(fake.accounts.get(metaApiId)?.state).toBe('UNDEPLOYED');
  });

  it('is deleted even when MetaApi cannot be reached, and connecting again deploys the account', async () => {
    const carol = await trader(t, 'mt-delete-carol@example.com');
    const connector = await connectWithCredentials(t, carol, 'metatrader', CREDENTIALS);
    expect(fake.accounts.get(metaApiId)?.state).toBe('DEPLOYED');
    fake.inject({ method: 'POST', path: /\/undeploy$/, status: 503, body: { error: 'ServiceUnavailable' } });
    await remove(carol, connector.key);
    const { rows } = await t.services.db.$client.query('select 1 from connectors where key = $1', [connector.key]);
    expect(rows).toHaveLength(0);
    expect(fake.accounts.get(metaApiId)?.state).toBe('DEPLOYED');
  });
});
