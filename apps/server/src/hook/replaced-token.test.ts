// Two server instances on one database: one holds a connection's session (and its hook) in
// memory; the other renews the session in the background, and the broker ends the access token
// it replaced. The first instance's next signal is placed, once: refused with the ended token, it
// goes again with the token stored since (a refused token placed nothing).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertTestUser, startTestApp, type TestApp } from '../../test/app.ts';
import { fakeKeyBroker } from '../../test/fake-brokers.ts';
import { postSignal } from '../../test/signal-fixtures.ts';
import { activateConnector } from '../modules/connectors/index.ts';
import { refreshDueConnectors } from '../modules/connectors/refresher.ts';
import { createHook } from '../modules/hooks/index.ts';

const fake = fakeKeyBroker();
const reference = {
  symbol: { required: true },
  action: { required: true, values: ['buy', 'sell'] },
  quantity: { required: true },
};
const broker = { ...fake.broker, descriptor: { ...fake.broker.descriptor, reference } };
let t: TestApp;
let other: TestApp;
beforeAll(async () => {
  t = await startTestApp({ brokers: [broker] });
  other = await startTestApp({ database: t.database, brokers: [broker] });
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };

it("places a signal once when another instance's renewal ended the token this one holds", async () => {
  const { id: userId } = await insertTestUser(t.services, 'replaced-token@example.com');
  await t.services.db.$client.query('insert into accounts (user_id, balance, credits) values ($1, 5, 5)', [userId]);
  const actor = { userId, address: null };
  fake.refreshInMs = -60_000;
  const connector = await activateConnector(t.services, actor, 'keyfake', ['key-replaced', 'sekret-ok']);
  fake.refreshInMs = 3_600_000;
  const hook = await createHook(t.services, actor, {
    connectorKey: connector.key,
    accountId: 'L-1',
    name: 'Main',
    isTest: false,
  });
  // The first signal renews the session here and keeps it (with the hook) in memory.
  expect((await postSignal(t, hook.shortKey, BUY)).statusCode).toBe(201);
  // The other instance renews it in the background; the broker ends the token held here.
  await t.database.pool.query("update connectors set refresh_at = now() - interval '1 second' where key = $1", [
    connector.key,
  ]);
  const refreshes = fake.calls.refresh;
  expect(await refreshDueConnectors(other.services)).toMatchObject({ refreshed: 1, failed: 0 });
  expect(fake.calls.refresh - refreshes).toBe(1);
  fake.endReplacedTokens = true;
  try {
    const placing = fake.calls.placeOrder;
    const res = await postSignal(t, hook.shortKey, { ...BUY, quantity: 2 });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status: 201, body: { status: 'filled' } });
    // Refused once with the ended token, placed once with the stored one.
    expect(fake.calls.placeOrder - placing).toBe(2);
    expect(fake.calls.refresh - refreshes).toBe(1);
  } finally {
    fake.endReplacedTokens = false;
  }
  const { rows } = await t.database.pool.query('select is_active from connectors where key = $1', [connector.key]);
  expect(rows).toEqual([{ is_active: true }]);
});
