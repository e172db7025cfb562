// The detail view's broker request (issue #21 point 2): a live signal through the real hook
// endpoint to the Alpaca protocol fake keeps, in its Order entry, the order's request as it went
// on the wire (method, path, body) with the API key and secret nowhere in it; a test hook's
// signal keeps none, since nothing was sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAlpaca } from '../../../../../packages/brokers/src/adapters/alpaca/fake.ts';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { eventually, postSignal } from '../../../test/signal-fixtures.ts';
import { activateConnector } from '../connectors/index.ts';
import { createHook } from '../hooks/index.ts';

const KEYS = { keyId: 'PKWIRE0123456789AB', secretKey: 'wire-secret-0123456789abcdef' };
let t: TestApp;
let alpaca: Awaited<ReturnType<typeof startFakeAlpaca>>;
let userId: number;

async function orderEntries(): Promise<Array<Record<string, unknown>>> {
  const { rows } = await t.services.db.$client.query<{ metadata: Record<string, unknown> }>(
    `select metadata from actions where user_id = $1 and code = 'Order' order by id`,
    [userId],
  );
  return rows.map((row) => row.metadata);
}

beforeAll(async () => {
  alpaca = await startFakeAlpaca(KEYS);
  t = await startTestApp({ authenticate: authenticateAsUserId, env: { ALPACA_BASE_URL: alpaca.url } });
  ({ id: userId } = await insertTestUser(t.services, 'wire@example.com'));
  await t.services.db.$client.query('insert into accounts (user_id, balance, credits) values ($1, 5, 5)', [userId]);
  const actor = { userId, address: null };
  const connector = await activateConnector(t.services, actor, 'alpaca', [KEYS.keyId, KEYS.secretKey]);
  const accountId = connector.accounts[0]?.id as string;
  const hook = (isTest: boolean, name: string) =>
    createHook(t.services, actor, { connectorKey: connector.key, accountId, name, isTest });
  const [live, test] = [await hook(false, 'Live'), await hook(true, 'Test')];
  const signal = { symbol: 'AAPL', action: 'buy', quantity: 2, type: 'limit', limit_price: 150 };
  expect((await postSignal(t, live.shortKey, signal)).statusCode).toBe(201);
  expect((await postSignal(t, test.shortKey, signal)).statusCode).toBe(201);
  await eventually(async () => (await orderEntries()).length === 2);
});
afterAll(async () => {
  await t?.close();
  await alpaca?.close();
});

describe('the broker request of an order', () => {
  it('is kept as it went on the wire, with no secret in it', async () => {
    const [live] = await orderEntries();
    const sent = alpaca.requests.filter((request) => request.method === 'POST' && request.url === '/v2/orders');
    expect(sent).toHaveLength(1);
    expect(live?.brokerRequest).toMatchObject({
      method: 'POST',
      path: '/v2/orders',
      headers: { 'content-type': 'application/json' },
      body: { symbol: 'AAPL', qty: '2', side: 'buy', type: 'limit', limit_price: '150' },
    });
    const stored = JSON.stringify(live);
    for (const secret of [KEYS.keyId, KEYS.secretKey]) expect(stored).not.toContain(secret);
    expect(stored).not.toMatch(/apca-api/i);
  });

  it('is absent for a test hook, which sends nothing', async () => {
    const [, test] = await orderEntries();
    expect(test?.isTest).toBe(true);
    expect(test).not.toHaveProperty('brokerRequest');
  });
});
