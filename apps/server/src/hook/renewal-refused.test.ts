// The broker refusing the connection's credentials answers a live signal the same whether it
// refused the order itself or the renewal of the session before it (SPEC §8: 400
// AuthenticationError with the broker's message), and the REST API's placing agrees.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertTestUser, startTestApp, type TestApp } from '../../test/app.ts';
import { fakeKeyBroker } from '../../test/fake-brokers.ts';
import { balanceOf, eventually, postSignal } from '../../test/signal-fixtures.ts';
import { activateConnector } from '../modules/connectors/index.ts';
import { createHook } from '../modules/hooks/index.ts';

const fake = fakeKeyBroker();
// Orders it takes: a symbol, a side and a quantity.
const reference = {
  symbol: { required: true },
  action: { required: true, values: ['buy', 'sell'] },
  quantity: { required: true },
};
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ brokers: [{ ...fake.broker, descriptor: { ...fake.broker.descriptor, reference } }] });
});
afterAll(() => t.close());

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };

it('answers a renewal the broker refused as an order it refused: AuthenticationError', async () => {
  const { id: userId } = await insertTestUser(t.services, 'renewal-refused@example.com');
  await t.services.db.$client.query('insert into accounts (user_id, balance, credits) values ($1, 5, 5)', [userId]);
  const actor = { userId, address: null };
  // Its session is due for renewal at once, and the broker refuses it.
  fake.refreshInMs = -60_000;
  const connector = await activateConnector(t.services, actor, 'keyfake', ['key-r', 'sekret-ok']);
  const hook = await createHook(t.services, actor, {
    connectorKey: connector.key,
    accountId: 'L-1',
    name: 'Main',
    isTest: false,
  });
  fake.rejectCredentials = true;
  const res = await postSignal(t, hook.shortKey, BUY);
  expect({ status: res.statusCode, body: res.json() }).toEqual({
    status: 400,
    body: { status: 'AuthenticationError', message: 'Key Fake: token revoked' },
  });
  expect(fake.calls.placeOrder).toBe(0);
  // Its credit goes back (written just after the answer).
  await eventually(async () => (await balanceOf(t, userId)) === 5);
});
