// Every broker end to end, as a user meets it: with `<BROKER>_BASE_URL` (and an OAuth app's
// client id and secret) pointing at the protocol fake of each folder of packages/brokers that has
// one, the user connects through the GraphQL mutations the Brokers & Webhooks screen calls (OAuth
// brokers through their consent page), creates a live hook, a signal sent to it is placed at the
// fake exactly once, and reconciliation's lookup finds that order again. A new broker folder with
// a protocol fake is covered here without naming it; an unavailable one (no public order API) is
// listed and its connection refused with its help text.
import { brokerModules, brokerVariables, findOrder, isUnavailable } from '@router/brokers';
import type { Order } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProtocolFake } from '../../../packages/brokers/src/core/protocol-fake.ts';
import { brokerFolders, loadProtocolFake } from '../../../packages/brokers/src/discover.ts';
import { findConnector } from '../src/db/repositories/connectors.repository.ts';
import { withBrokerSession } from '../src/modules/connectors/index.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import {
  connectorCreate,
  connectWithCredentials,
  connectWithOAuth,
  createLiveHook,
  placeExactlyOnce,
  type Trader,
  trader,
} from './broker-journey.ts';
import { CONNECTOR_FIELDS, type ConnectorAnswer, gql } from './connector-fixtures.ts';
import { paperOrders } from './signal-fixtures.ts';

let t: TestApp;
const fakes = new Map<string, ProtocolFake>();
const unavailable = brokerModules.filter((module) => isUnavailable(module.descriptor)).map((m) => m.descriptor);
const tradable = brokerFolders().filter(
  (folder) => folder !== 'paper' && !unavailable.some((descriptor) => descriptor.name === folder),
);

beforeAll(async () => {
  for (const folder of brokerFolders()) {
    const start = await loadProtocolFake(folder);
    if (start) fakes.set(folder, await start());
  }
  const env = Object.assign({}, ...[...fakes].map(([name, fake]) => brokerVariables(name, fake.config)));
  t = await startTestApp({ authenticate: authenticateAsUserId, env });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([...fakes.values()].map((fake) => fake.close()));
});

function connectTo(name: string, user: Trader, fake: ProtocolFake): Promise<ConnectorAnswer> {
  if (t.services.brokers.descriptor(name)?.authentication.type === 'open') return connectWithOAuth(t, user, name, fake);
  return connectWithCredentials(t, user, name, fake.credentials(''));
}

/** Reconciliation's question for the signal, with what its row knows. */
async function lookUpAgain(user: Trader, connector: ConnectorAnswer, signalId: string) {
  const { rows } = await t.services.db.$client.query<{
    order: Order;
    created_at: Date;
    broker_order_id: string | null;
  }>('select "order", created_at, broker_order_id from signals where id = $1', [signalId]);
  const [row] = rows;
  const stored = await findConnector(t.services.db, user.userId, connector.key);
  if (!row || !stored) throw new Error('signal or connector missing');
  return withBrokerSession(t.services, stored, ({ broker, ctx, session }) =>
    findOrder(broker, ctx, session, {
      accountId: (JSON.parse(connector.accounts) as Array<{ id: string }>)[0]?.id ?? '',
      clientOrderId: signalId,
      ...(row.broker_order_id ? { brokerOrderId: row.broker_order_id } : {}),
      order: row.order,
      sentAt: row.created_at.getTime(),
    }),
  );
}

describe('brokers end to end', () => {
  it('every broker folder with a protocol fake is driven here', () => {
    expect([...fakes.keys()]).toEqual(tradable);
  });

  it('paper: connect without credentials, hook, one paper order', async () => {
    const user = await trader(t, 'paper@example.com');
    const connector = await connectWithCredentials(t, user, 'paper', {});
    const accountId = (JSON.parse(connector.accounts) as Array<{ id: string }>)[0]?.id ?? '';
    const shortKey = await createLiveHook(t, user, connector);
    const orders = () => paperOrders(t, accountId);
    const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };
    const { signalId } = await placeExactlyOnce(t, user, shortKey, BUY, async () => (await orders()).length);
    expect((await orders())[0]?.client_order_id).toBe(signalId);
  });

  it.each(tradable)('%s: connect, live hook, one order, found again', async (name) => {
    const fake = fakes.get(name);
    if (!fake) throw new Error(`${name} has no protocol fake`);
    const user = await trader(t, `${name}@example.com`);
    const connector = await connectTo(name, user, fake);
    expect(connector).toMatchObject({ providerName: name, isActive: true });
    const shortKey = await createLiveHook(t, user, connector);
    const { signalId, answer } = await placeExactlyOnce(t, user, shortKey, fake.signal, fake.orderCount);
    const found = await lookUpAgain(user, connector, signalId);
    expect(found).toMatchObject({ match: expect.stringMatching(/^(exact|probable)$/), order: { id: answer.id } });
  });

  it.each(unavailable.map((descriptor) => [descriptor.name, descriptor] as const))(
    '%s: listed as unavailable, connecting refused with its help text, nothing stored',
    async (name, descriptor) => {
      const user = await trader(t, `${name}@example.com`);
      const listed = await gql<{ provider: string }>(t, user.headers, 'query($n: String!) { provider(name: $n) }', {
        n: name,
      });
      expect(JSON.parse(listed.data?.provider ?? '{}')).toMatchObject({ status: 'unavailable' });
      const refusal = `${descriptor.title}: cannot be connected. ${descriptor.authentication.help}`;
      for (const [query, variables] of [
        ['mutation($p: String!) { connectorCreate(providerName: $p) { type } }', { p: name }],
        [
          `mutation($p: String!, $c: [String!]!) { connectorActivate(providerName: $p, credentials: $c) { ${CONNECTOR_FIELDS} } }`,
          { p: name, c: [] },
        ],
      ] as const) {
        const answer = await gql(t, user.headers, query, variables);
        expect(answer.data).toBeNull();
        expect(answer.error).toMatchObject({ message: refusal, code: 'EXECUTION_ERROR', field: 'providerName' });
      }
      const { rows } = await t.services.db.$client.query('select id from connectors where user_id = $1', [user.userId]);
      expect(rows).toHaveLength(0);
    },
  );

  it('alpaca: wrong keys are refused with the broker message and nothing is stored', async () => {
    const user = await trader(t, 'alpaca-wrong@example.com');
    await connectorCreate(t, user, 'alpaca');
    const keys = fakes.get('alpaca')?.credentials('') ?? {};
    const answer = await gql(
      t,
      user.headers,
      `mutation($p: String!, $c: [String!]!) { connectorActivate(providerName: $p, credentials: $c) { ${CONNECTOR_FIELDS} } }`,
      { p: 'alpaca', c: [keys.apiKeyId, 'not-the-secret'] },
    );
    expect(answer.data).toBeNull();
    expect(answer.error?.message).toMatch(/^Alpaca: /);
    expect(answer.body).not.toContain('not-the-secret');
    const { rows } = await t.services.db.$client.query('select id from connectors where user_id = $1', [user.userId]);
    expect(rows).toHaveLength(0);
  });
});
