// Hooks through GraphQL: create, rename, delete, URL and short key, scoping, NOTIFY hook_changed.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { type ConnectorAnswer, connect, gql, HOOK_FIELDS } from '../../../test/connector-fixtures.ts';
import { HOOK_CHANGED_CHANNEL } from '../../db/repositories/hooks.repository.ts';
import { findHookForSignal } from './index.ts';

interface HookAnswer {
  key: string;
  shortKey: string;
  name: string;
  accountId: string;
  isActive: boolean;
  isTest: boolean;
  connector: { key: string; providerName: string };
  calledAt: number | null;
  url: string;
}

let t: TestApp;
let alice: Record<string, string>;
let aliceId: number;
let bob: Record<string, string>;
let paper: ConnectorAnswer;
let accountId: string;
let listener: pg.Client;
const notified: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, env: { PUBLIC_URL: 'https://router.example' } });
  ({ headers: alice, id: aliceId } = await insertTestUser(t.services, 'alice@example.com'));
  ({ headers: bob } = await insertTestUser(t.services, 'bob@example.com'));
  paper = await connect(t, alice, 'paper');
  accountId = (JSON.parse(paper.accounts) as Array<{ id: string }>)[0]?.id ?? '';
  listener = new pg.Client({ connectionString: t.database.url });
  await listener.connect();
  listener.on('notification', (message) => {
    if (message.channel === HOOK_CHANGED_CHANNEL) notified.push(message.payload ?? '');
  });
  await listener.query(`listen ${HOOK_CHANGED_CHANNEL}`);
});
afterAll(async () => {
  await listener.end();
  await t.close();
});

const CREATE = `mutation($k: String!, $a: String!, $n: String, $test: Boolean) {
  hookCreate(connectorKey: $k, accountId: $a, name: $n, isTest: $test) { ${HOOK_FIELDS} } }`;

async function createHook(headers = alice, name: string | null = 'Main', isTest = false): Promise<HookAnswer> {
  const answer = await gql<{ hookCreate: HookAnswer }>(t, headers, CREATE, {
    k: paper.key,
    a: accountId,
    n: name,
    test: isTest,
  });
  if (!answer.data) throw new Error(answer.error?.message);
  return answer.data.hookCreate;
}

/** Up to 5 s: a NOTIFY crosses PostgreSQL and a listening connection, slower on a loaded machine. */
async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('hookCreate', () => {
  it('creates a hook with a 22-character base62 short key and its webhook URL', async () => {
    const hook = await createHook(alice, 'Main', true);
    expect(hook.shortKey).toMatch(/^[0-9A-Za-z]{22}$/);
    expect(hook.url).toBe(`https://router.example/hook/${hook.shortKey}`);
    expect(hook).toMatchObject({ name: 'Main', accountId, isActive: true, isTest: true, calledAt: null });
    expect(hook.connector).toEqual({ key: paper.key, providerName: 'paper' });
    const { rows } = await t.database.pool.query<{ metadata: Record<string, unknown> }>(
      "select metadata from actions where user_id = $1 and code = 'HookCreate' order by id desc limit 1",
      [aliceId],
    );
    expect(rows[0]?.metadata).toMatchObject({
      shortKey: hook.shortKey,
      name: 'Main',
      providerName: 'paper',
      accountId,
    });
  });

  it('gives different short keys and a default name', async () => {
    const [a, b] = [await createHook(alice, null), await createHook(alice, '  ')];
    expect(a.shortKey).not.toBe(b.shortKey);
    expect(a.name).toBe('Webhook');
    expect(b.name).toBe('Webhook');
  });

  it('refuses an account the connector does not have, and connectors of other users', async () => {
    const wrongAccount = await gql(t, alice, CREATE, { k: paper.key, a: 'PA-OTHER', n: 'x' });
    expect(wrongAccount.error).toMatchObject({ code: 'BAD_USER_INPUT', field: 'accountId' });
    const foreign = await gql(t, bob, CREATE, { k: paper.key, a: accountId, n: 'x' });
    expect(foreign.error).toMatchObject({ code: 'NOT_FOUND', message: 'Connector not found' });
  });
});

describe('hook, hooks, hookUpdate, hookDelete', () => {
  it('lists the connector hooks and reads one', async () => {
    const hook = await createHook();
    const list = await gql<{ hooks: HookAnswer[] }>(
      t,
      alice,
      `query($k: String!) { hooks(connectorKey: $k) { key } }`,
      {
        k: paper.key,
      },
    );
    expect(list.data?.hooks.map((h) => h.key)).toContain(hook.key);
    const one = await gql<{ hook: HookAnswer }>(t, alice, `query($k: String!) { hook(key: $k) { ${HOOK_FIELDS} } }`, {
      k: hook.key,
    });
    expect(one.data?.hook).toEqual(hook);
  });

  it("renames; an empty name is 'Required'", async () => {
    const hook = await createHook();
    const RENAME = `mutation($k: String!, $n: String!) { hookUpdate(key: $k, name: $n) { name } }`;
    expect((await gql(t, alice, RENAME, { k: hook.key, n: ' Renamed ' })).data).toEqual({
      hookUpdate: { name: 'Renamed' },
    });
    expect((await gql(t, alice, RENAME, { k: hook.key, n: '   ' })).error).toMatchObject({
      message: 'Required',
      field: 'name',
    });
  });

  it('deletes: NOTIFY hook_changed with the short key, an action, then not found', async () => {
    const hook = await createHook();
    const answer = await gql(t, alice, `mutation($k: String!) { hookDelete(key: $k) }`, { k: hook.key });
    expect(answer.data).toEqual({ hookDelete: true });
    await waitFor(() => notified.includes(hook.shortKey));
    expect(notified).toContain(hook.shortKey);
    expect((await gql(t, alice, `query($k: String!) { hook(key: $k) { key } }`, { k: hook.key })).error?.message).toBe(
      'Hook not found',
    );
    const { rows } = await t.database.pool.query<{ metadata: Record<string, unknown> }>(
      "select metadata from actions where user_id = $1 and code = 'HookDelete'",
      [aliceId],
    );
    expect(rows.at(-1)?.metadata).toMatchObject({ shortKey: hook.shortKey, providerName: 'paper', accountId });
  });

  it("answers another user's hook key as not found", async () => {
    const hook = await createHook();
    for (const query of [
      `query($k: String!) { hook(key: $k) { key } }`,
      `mutation($k: String!) { hookUpdate(key: $k, name: "mine") { key } }`,
      `mutation($k: String!) { hookDelete(key: $k) }`,
    ]) {
      expect((await gql(t, bob, query, { k: hook.key })).error).toMatchObject({
        code: 'NOT_FOUND',
        message: 'Hook not found',
      });
    }
    expect((await gql(t, alice, `query($k: String!) { hook(key: $k) { name } }`, { k: hook.key })).data).toEqual({
      hook: { name: 'Main' },
    });
  });
});

describe('findHookForSignal', () => {
  it('returns the hook with its connector, and nothing for unknown or malformed keys', async () => {
    const hook = await createHook();
    const found = await findHookForSignal(t.services, hook.shortKey);
    expect(found).toMatchObject({ hookKey: hook.key, accountId, isActive: true, userId: aliceId });
    expect(found?.connector).toMatchObject({ key: paper.key, providerName: 'paper', isActive: true, isDemo: true });
    expect(found?.connector.secrets).toBeInstanceOf(Buffer);
    expect(await findHookForSignal(t.services, 'A'.repeat(22))).toBeUndefined();
    expect(await findHookForSignal(t.services, "x' or 1=1 --")).toBeUndefined();
  });

  it('notifies every hook of a deleted connector', async () => {
    const other = await connect(t, alice, 'paper');
    const otherAccount = (JSON.parse(other.accounts) as Array<{ id: string }>)[0]?.id;
    const hook = (await gql<{ hookCreate: HookAnswer }>(t, alice, CREATE, { k: other.key, a: otherAccount, n: 'x' }))
      .data?.hookCreate;
    await gql(t, alice, `mutation($k: String!) { connectorDelete(key: $k) }`, { k: other.key });
    await waitFor(() => notified.includes(hook?.shortKey ?? ''));
    expect(notified).toContain(hook?.shortKey);
    expect(await findHookForSignal(t.services, hook?.shortKey ?? '')).toBeUndefined();
  });
});
