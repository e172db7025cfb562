// Cross-user access on the settings calls cross-user.test.ts leaves out: webhooks by key,
// notification settings, their delivery log and re-sends, personal API tokens and developer
// applications. Another user's key or id gets exactly the answer a missing one gets, and changes
// nothing of its owner's (nor sends anything in their name).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../test/app.ts';
import { gql } from '../../test/connector-fixtures.ts';
import { createSetting, deliveries, eventually, sendTest } from '../../test/notification-fixtures.ts';
import { setupTrader } from '../../test/signal-fixtures.ts';

let t: TestApp;
let alice: Awaited<ReturnType<typeof setupTrader>>;
let bob: Awaited<ReturnType<typeof setupTrader>>;
let theirs: Ids;
let missing: Ids;

interface Ids {
  connectorKey: string;
  accountId: string;
  hookKey: string;
  notificationKey: string;
  deliveryId: string;
  tokenKey: string;
  appKey: string;
}

/** A key of the same shape that no row holds. */
const unheld = (key: string) => `${key.slice(0, -4)}zzzz`;

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
  alice = await setupTrader(t, 'settings-alice@example.com');
  bob = await setupTrader(t, 'settings-bob@example.com');
  await t.services.db.$client.query('update users set "group" = "group" | 16');
  const setting = await createSetting(t, alice.headers, alice.connector.key, alice.accountId, 2, {
    email: 'settings-alice@example.com',
  });
  const delivery = await sendTest(t, alice.headers, setting.key);
  // Settled first (the worker tries it at once), so the state compared below holds still.
  await eventually(
    () => deliveries(t, alice.headers, alice.connector.key, alice.accountId),
    (log) => log.every((d) => d.status !== 'pending'),
  );
  const token = await gql<{ userTokenCreate: { key: string } }>(
    t,
    alice.headers,
    'mutation { userTokenCreate(metadata: {name: "bot"}) { key } }',
  );
  const app = await gql<{ userAppCreate: { key: string } }>(
    t,
    alice.headers,
    'mutation { userAppCreate(name: "Journal", redirectUrl: "https://journal.example.com/cb") { key } }',
  );
  expect(token.error ?? app.error).toBeUndefined();
  theirs = {
    connectorKey: alice.connector.key,
    accountId: alice.accountId,
    hookKey: alice.hook.key,
    notificationKey: setting.key,
    deliveryId: delivery.id,
    tokenKey: token.data?.userTokenCreate.key ?? '',
    appKey: app.data?.userAppCreate.key ?? '',
  };
  missing = {
    connectorKey: unheld(alice.connector.key),
    accountId: 'PA-MISSING',
    hookKey: unheld(theirs.hookKey),
    notificationKey: unheld(theirs.notificationKey),
    deliveryId: String(2 ** 30),
    tokenKey: unheld(theirs.tokenKey),
    appKey: unheld(theirs.appKey),
  };
});
afterAll(() => t.close());

interface Call {
  name: string;
  query: string;
  vars: (ids: Ids) => Record<string, unknown>;
  /** A read its owner is answered by (so the refusal is not of a wrong id). */
  read?: boolean;
}

const CALLS: Call[] = [
  { name: 'hook', read: true, query: 'query($k: String!) { hook(key: $k) { key } }', vars: (i) => ({ k: i.hookKey }) },
  {
    name: 'hookUpdate',
    query: 'mutation($k: String!) { hookUpdate(key: $k, name: "Taken") { key } }',
    vars: (i) => ({ k: i.hookKey }),
  },
  {
    name: 'hookActivate',
    query: 'mutation($k: String!) { hookActivate(key: $k) { key } }',
    vars: (i) => ({ k: i.hookKey }),
  },
  { name: 'hookDelete', query: 'mutation($k: String!) { hookDelete(key: $k) }', vars: (i) => ({ k: i.hookKey }) },
  {
    name: 'notification',
    read: true,
    query: 'query($k: String!) { notification(key: $k) { key metadata } }',
    vars: (i) => ({ k: i.notificationKey }),
  },
  {
    name: 'notifications',
    read: true,
    query: 'query($k: String!, $a: String) { notifications(connectorKey: $k, accountId: $a) { key } }',
    vars: (i) => ({ k: i.connectorKey, a: i.accountId }),
  },
  {
    name: 'notificationDeliveries',
    read: true,
    query: 'query($k: String!, $a: String!) { notificationDeliveries(connectorKey: $k, accountId: $a) { id } }',
    vars: (i) => ({ k: i.connectorKey, a: i.accountId }),
  },
  {
    name: "notificationDeliveries of another's account on the caller's own connector",
    query: 'query($k: String!, $a: String!) { notificationDeliveries(connectorKey: $k, accountId: $a) { id } }',
    vars: (i) => ({ k: bob.connector.key, a: i.accountId }),
  },
  {
    name: "notificationCreate on another's account through the caller's own connector",
    query: `mutation($k: String!, $a: String!) {
      notificationCreate(connectorKey: $k, accountId: $a, type: 2, metadata: "{\\"email\\":\\"x@example.com\\"}") { key } }`,
    vars: (i) => ({ k: bob.connector.key, a: i.accountId }),
  },
  {
    name: 'notificationUpdate',
    query: 'mutation($k: String!, $m: String!) { notificationUpdate(key: $k, metadata: $m) { key } }',
    vars: (i) => ({ k: i.notificationKey, m: JSON.stringify({ email: 'settings-bob@example.com' }) }),
  },
  {
    name: 'notificationSecretRotate',
    query: 'mutation($k: String!) { notificationSecretRotate(key: $k) { secret } }',
    vars: (i) => ({ k: i.notificationKey }),
  },
  {
    name: 'notificationTest',
    query: 'mutation($k: String!) { notificationTest(key: $k) { id } }',
    vars: (i) => ({ k: i.notificationKey }),
  },
  {
    name: 'notificationDeliveryResend',
    query: 'mutation($id: String!) { notificationDeliveryResend(id: $id) { id } }',
    vars: (i) => ({ id: i.deliveryId }),
  },
  {
    name: 'notificationDelete',
    query: 'mutation($k: String!) { notificationDelete(key: $k) }',
    vars: (i) => ({ k: i.notificationKey }),
  },
  {
    name: 'userToken',
    read: true,
    query: 'query($k: String!) { userToken(key: $k) { key } }',
    vars: (i) => ({ k: i.tokenKey }),
  },
  {
    name: 'userTokenUpdate',
    query: 'mutation($k: String!) { userTokenUpdate(key: $k, metadata: {name: "taken"}) { key } }',
    vars: (i) => ({ k: i.tokenKey }),
  },
  {
    name: 'userTokenDelete',
    query: 'mutation($k: String!) { userTokenDelete(key: $k) }',
    vars: (i) => ({ k: i.tokenKey }),
  },
  {
    name: 'userTokenDelete of an application key',
    query: 'mutation($k: String!) { userTokenDelete(key: $k) }',
    vars: (i) => ({ k: i.appKey }),
  },
  {
    name: 'userApp',
    read: true,
    query: 'query($k: String!) { userApp(key: $k) { key } }',
    vars: (i) => ({ k: i.appKey }),
  },
  {
    name: 'userAppUpdate',
    query: 'mutation($k: String!) { userAppUpdate(key: $k, metadata: {name: "Taken"}) { key } }',
    vars: (i) => ({ k: i.appKey }),
  },
  {
    name: 'userAppSecretRotate',
    query: 'mutation($k: String!) { userAppSecretRotate(key: $k) { secret } }',
    vars: (i) => ({ k: i.appKey }),
  },
  { name: 'userAppDelete', query: 'mutation($k: String!) { userAppDelete(key: $k) }', vars: (i) => ({ k: i.appKey }) },
];

/** Everything of Alice's a call could read, change or send. */
async function aliceState() {
  const db = t.services.db.$client;
  const of = (sql: string) => db.query(sql, [alice.userId]).then((r) => r.rows);
  return {
    hooks: await of('select key, name, is_active from hooks where user_id = $1 order by id'),
    notifications: await of('select * from notifications where user_id = $1 order by id'),
    deliveries: await of(
      'select d.id, d.status, d.attempts from notification_deliveries d join notifications n on n.id = d.notification_id where n.user_id = $1 order by d.id',
    ),
    apps: await of('select * from user_apps where user_id = $1 order by id'),
    sessions: await of('select * from sessions where user_id = $1 order by id'),
  };
}

describe.each(CALLS)('$name', (call) => {
  it("answers another user's key as a missing one, and changes nothing", async () => {
    const before = await aliceState();
    const foreign = await gql(t, bob.headers, call.query, call.vars(theirs));
    const absent = await gql(t, bob.headers, call.query, call.vars(missing));
    // The call ran: no query or variable the schema refuses.
    expect(foreign.error?.message ?? '').not.toMatch(/^(Variable|Cannot query|Unknown argument|Field|Expected)/);
    expect({ data: foreign.data, error: foreign.error }).toEqual({ data: absent.data, error: absent.error });
    expect(await aliceState()).toEqual(before);
    if (!call.read) return;
    const own = await gql(t, alice.headers, call.query, call.vars(theirs));
    expect(own.error).toBeUndefined();
    expect(JSON.stringify(own.data)).not.toMatch(/null|\[\]/);
  });
});
