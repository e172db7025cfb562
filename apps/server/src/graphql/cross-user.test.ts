// Cross-user access on the connector, paper account and activity log calls: another user's
// connector key, account id, action id, signal id or hook key gets exactly the answer a missing one
// gets, and changes nothing of its owner's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../test/app.ts';
import { gql } from '../../test/connector-fixtures.ts';
import { paperOrders, postSignal, setupTrader } from '../../test/signal-fixtures.ts';

let t: TestApp;
let alice: Awaited<ReturnType<typeof setupTrader>>;
let bob: Awaited<ReturnType<typeof setupTrader>>;
/** Alice's ids (what Bob tries) and ids no row holds. */
let theirs: Ids;
let missing: Ids;

interface Ids {
  connectorKey: string;
  accountId: string;
  actionId: number;
  signalId: string;
  hookKey: string;
}

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
  alice = await setupTrader(t, 'cross-alice@example.com');
  bob = await setupTrader(t, 'cross-bob@example.com');
  const order = { symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 10, client_id: 'rest' };
  expect((await postSignal(t, alice.shortKey, order)).statusCode).toBe(201);
  await t.app.signalRuntime.writer.flush();
  const { rows } = await t.services.db.$client.query<{ id: string; signal_id: string }>(
    "select id, metadata ->> 'signalId' as signal_id from actions where user_id = $1 and code = 'Order'",
    [alice.userId],
  );
  const action = rows[0];
  expect(action?.signal_id).toBeTruthy();
  theirs = {
    connectorKey: alice.connector.key,
    accountId: alice.accountId,
    actionId: Number(action?.id),
    signalId: action?.signal_id ?? '',
    hookKey: alice.hook.key,
  };
  missing = {
    connectorKey: 'c_missing',
    accountId: 'PA-MISSING',
    actionId: 2 ** 30,
    signalId: 's_missing',
    hookKey: 'h_x',
  };
});
afterAll(() => t.close());

const PREVIEW = JSON.stringify({ symbol: 'MSFT', action: 'buy', quantity: 1 });

interface Call {
  name: string;
  query: string;
  vars: (ids: Ids) => Record<string, unknown>;
  /** A read its owner is answered by (so the refusal is not of a wrong id). */
  read?: boolean;
}

const CALLS: Call[] = [
  {
    name: 'connector',
    read: true,
    query: 'query($k: String!) { connector(key: $k) { key } }',
    vars: (i) => ({ k: i.connectorKey }),
  },
  {
    name: 'connectorUpdate',
    query: 'mutation($k: String!, $a: String!) { connectorUpdate(key: $k, accounts: $a) { key } }',
    vars: (i) => ({ k: i.connectorKey, a: JSON.stringify([{ id: i.accountId, name: 'Taken' }]) }),
  },
  {
    name: "connectorUpdate of the caller's own connector naming another's account (no account is added)",
    query: 'mutation($k: String!, $a: String!) { connectorUpdate(key: $k, accounts: $a) { accounts } }',
    vars: (i) => ({ k: bob.connector.key, a: JSON.stringify([{ id: i.accountId, name: 'Taken' }]) }),
  },
  {
    name: 'connectorDelete',
    query: 'mutation($k: String!) { connectorDelete(key: $k) }',
    vars: (i) => ({ k: i.connectorKey }),
  },
  {
    name: 'hooks',
    read: true,
    query: 'query($k: String!) { hooks(connectorKey: $k) { key } }',
    vars: (i) => ({ k: i.connectorKey }),
  },
  {
    name: 'paperAccount',
    read: true,
    query: 'query($k: String!, $a: String!) { paperAccount(connectorKey: $k, accountId: $a) { cash } }',
    vars: (i) => ({ k: i.connectorKey, a: i.accountId }),
  },
  {
    name: 'paperAccountReset',
    query: 'mutation($k: String!, $a: String!) { paperAccountReset(connectorKey: $k, accountId: $a) { cash } }',
    vars: (i) => ({ k: i.connectorKey, a: i.accountId }),
  },
  {
    name: "paperAccountReset of another's account on the caller's own connector",
    query: 'mutation($k: String!, $a: String!) { paperAccountReset(connectorKey: $k, accountId: $a) { cash } }',
    vars: (i) => ({ k: bob.connector.key, a: i.accountId }),
  },
  {
    name: 'orderPreview',
    query: 'mutation($k: String!, $a: String, $d: String!) { orderPreview(connectorKey: $k, accountId: $a, data: $d) }',
    vars: (i) => ({ k: i.connectorKey, a: i.accountId, d: PREVIEW }),
  },
  {
    name: "orderPreview of another's account on the caller's own connector",
    query: 'mutation($k: String!, $a: String, $d: String!) { orderPreview(connectorKey: $k, accountId: $a, data: $d) }',
    vars: (i) => ({ k: bob.connector.key, a: i.accountId, d: PREVIEW }),
  },
  {
    name: "hookCreate on another's account through the caller's own connector",
    query: 'mutation($k: String!, $a: String!) { hookCreate(connectorKey: $k, accountId: $a, name: "Taken") { key } }',
    vars: (i) => ({ k: bob.connector.key, a: i.accountId }),
  },
  {
    name: 'action',
    read: true,
    query: 'query($id: Int!) { action(id: $id) { id } }',
    vars: (i) => ({ id: i.actionId }),
  },
  {
    name: 'actions by signalId',
    read: true,
    query: 'query($s: String!) { actions(signalId: $s) { id } }',
    vars: (i) => ({ s: i.signalId }),
  },
  {
    name: 'actions by hookKey',
    read: true,
    query: 'query($h: String!) { actions(hookKey: $h) { id } }',
    vars: (i) => ({ h: i.hookKey }),
  },
  {
    name: 'actions by cursor and search',
    read: true,
    query: 'query($f: Float!) { actions(createdAtFrom: $f, search: "MSFT") { id } }',
    vars: () => ({ f: Date.now() + 60_000 }),
  },
];

/** Everything of Alice's a call could read or change. */
async function aliceState() {
  const db = t.services.db.$client;
  const connectors = await db.query('select key, accounts, is_active from connectors where user_id = $1', [
    alice.userId,
  ]);
  const hooks = await db.query('select key, is_active from hooks where user_id = $1 order by id', [alice.userId]);
  return { connectors: connectors.rows, hooks: hooks.rows, orders: await paperOrders(t, alice.accountId) };
}

describe.each(CALLS)('$name', (call) => {
  it("answers another user's id as a missing one, and changes nothing", async () => {
    const before = await aliceState();
    const foreign = await gql(t, bob.headers, call.query, call.vars(theirs));
    const absent = await gql(t, bob.headers, call.query, call.vars(missing));
    // The call ran: no query or variable the schema refuses.
    expect(foreign.error?.message ?? '').not.toMatch(/^(Variable|Cannot query|Unknown argument|Field)/);
    expect({ data: foreign.data, error: foreign.error }).toEqual({ data: absent.data, error: absent.error });
    expect(foreign.body).not.toContain(alice.connector.key.slice(2));
    expect(await aliceState()).toEqual(before);
    if (!call.read) return;
    const own = await gql(t, alice.headers, call.query, call.vars(theirs));
    expect(own.error).toBeUndefined();
    expect(JSON.stringify(own.data)).not.toMatch(/\[\]|null/);
  });
});
