// GET /api/v1/accounts/{id}/positions and /balances while the broker is down: the 503 the
// document declares for a dependency that is down (a client retries it), not the 400
// ExecutionError of a refused request; the broker's message is kept.
import { type Broker, BrokerError } from '@router/brokers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { gql } from '../../../test/identity.ts';
import { FLAKY_TITLE, flakyBroker, setupTrader } from '../../../test/signal-fixtures.ts';
import { accountId } from './accounts.ts';

const flaky = flakyBroker();
const broker: Broker = {
  ...flaky.broker,
  descriptor: { ...flaky.broker.descriptor, has: { ...flaky.broker.descriptor.has, getHoldings: true } },
  async getHoldings() {
    throw new BrokerError('BrokerUnavailable', FLAKY_TITLE, 'service unavailable, try again later');
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ brokers: [broker], authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

it('answers 503 with the broker’s message when the broker is down', async () => {
  const trader = await setupTrader(t, 'holdings-down@example.com', { provider: 'flaky' });
  const created = await gql<{ userTokenCreate: { secret: string } }>(
    t.app,
    'mutation { userTokenCreate(metadata: {name: "bot"}) { secret } }',
    {},
    trader.headers,
  );
  const token = created.data?.userTokenCreate.secret;
  if (!token) throw new Error(JSON.stringify(created.errors));
  const id = accountId(trader.connector.key, trader.accountId);
  for (const path of ['positions', 'balances']) {
    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/v1/accounts/${id}/${path}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect({ status: answer.statusCode, body: answer.json() }, path).toEqual({
      status: 503,
      body: { status: 'Error', message: `${FLAKY_TITLE}: service unavailable, try again later` },
    });
  }
});
