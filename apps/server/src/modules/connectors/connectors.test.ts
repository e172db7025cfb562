// Connectors through GraphQL: paper, a credentials broker, an OAuth broker; scoping; secrets.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { CONNECTOR_FIELDS, connect, gql } from '../../../test/connector-fixtures.ts';
import { fakeKeyBroker, fakeOAuthBroker } from '../../../test/fake-brokers.ts';
import { untilLockWaiters } from '../../../test/lock-waits.ts';
import { sealSecrets } from '../../crypto/secrets.ts';
import { insertConnector } from '../../db/repositories/connectors.repository.ts';
import { insertHook } from '../../db/repositories/hooks.repository.ts';
import { findHookForSignal } from '../hooks/index.ts';
import { sealWebhookSecret, signingSecrets } from '../notifications/secret.ts';
import { OAUTH_STATE_TTL_MS, TOO_MANY_AUTHORIZATIONS } from './create.ts';
import { requireConnector } from './index.ts';
import { openSession } from './session.ts';

let t: TestApp;
let alice: Record<string, string>;
let aliceId: number;
let bob: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    brokers: [fakeOAuthBroker().broker, fakeKeyBroker().broker],
    env: { PUBLIC_URL: 'https://router.example', OAUTHFAKE_CLIENT_ID: 'app-1' },
  });
  ({ headers: alice, id: aliceId } = await insertTestUser(t.services, 'alice@example.com'));
  ({ headers: bob } = await insertTestUser(t.services, 'bob@example.com'));
});
afterAll(() => t.close());

const CREATE = `mutation($p: String!) { connectorCreate(providerName: $p) {
  type credentials referrerBase requestUrl redirectUrl help metadata } }`;
const LIST = `{ connectors { ${CONNECTOR_FIELDS} } }`;
const ONE = `query($k: String!) { connector(key: $k) { ${CONNECTOR_FIELDS} } }`;
const ACTIVATE = `mutation($p: String!, $c: [String!]!) { connectorActivate(providerName: $p, credentials: $c) { key isActive } }`;

async function actionsOf(userId: number, code: string) {
  const { rows } = await t.database.pool.query<{ metadata: Record<string, unknown>; address: string | null }>(
    'select metadata, address from actions where user_id = $1 and code = $2 order by id',
    [userId, code],
  );
  return rows;
}

describe('paper (credential-free)', () => {
  it('describes the form: type credentials, no fields', async () => {
    const { data } = await gql<{ connectorCreate: Record<string, unknown> }>(t, alice, CREATE, { p: 'paper' });
    expect(data?.connectorCreate).toMatchObject({ type: 'credentials', credentials: [], requestUrl: null });
    expect(JSON.parse(String(data?.connectorCreate.metadata))).toEqual({ title: 'Paper Trading' });
  });

  it('connects with no credentials: a demo cash account, listed, with actions recorded', async () => {
    // A user of its own: the activity counted is this connection's alone.
    const { headers: carol, id: carolId } = await insertTestUser(t.services, 'carol@example.com');
    const connector = await connect(t, carol, 'paper');
    expect(connector).toMatchObject({ providerName: 'paper', isActive: true, isDemo: true, status: 0 });
    const accounts = JSON.parse(connector.accounts) as Array<Record<string, unknown>>;
    expect(accounts).toEqual([
      expect.objectContaining({ name: 'Paper account', dataCurrency: 'USD', dataType: 'cash', demo: true }),
    ]);
    const list = await gql<{ connectors: Array<{ key: string }> }>(t, carol, LIST);
    expect(list.data?.connectors.map((c) => c.key)).toEqual([connector.key]);
    const { rows } = await t.database.pool.query('select data from paper_accounts where id = $1', [accounts[0]?.id]);
    expect(rows).toHaveLength(1);
    // One activity line for one connection.
    expect(await actionsOf(carolId, 'ConnectorCreate')).toHaveLength(0);
    const activated = await actionsOf(carolId, 'ConnectorActivate');
    expect(activated).toHaveLength(1);
    expect(activated[0]?.metadata).toMatchObject({ providerName: 'paper', accountIds: [accounts[0]?.id] });
  });

  it('refuses unknown providers', async () => {
    const answer = await gql(t, alice, CREATE, { p: 'nope' });
    expect(answer.error).toMatchObject({ message: 'Provider not found', code: 'NOT_FOUND' });
  });
});

describe('credentials broker', () => {
  it('takes credentials in the descriptor order and validates each', async () => {
    const form = await gql<{ connectorCreate: { credentials: string[] } }>(t, alice, CREATE, { p: 'keyfake' });
    expect(form.data?.connectorCreate.credentials).toEqual(['apiKey', 'apiSecret']);
    const short = await gql(t, alice, ACTIVATE, { p: 'keyfake', c: ['k'] });
    expect(short.error?.code).toBe('BAD_USER_INPUT');
    const blank = await gql(t, alice, ACTIVATE, { p: 'keyfake', c: ['k', '  '] });
    expect(blank.error).toMatchObject({ message: 'Required', field: 'apiSecret' });
  });

  it("answers the broker's refusal with its message", async () => {
    const answer = await gql(t, alice, ACTIVATE, { p: 'keyfake', c: ['k', 'wrong'] });
    expect(answer.error).toMatchObject({ message: 'Key Fake: invalid API key', code: 'BROKER_AUTHENTICATION' });
  });

  it('keeps secrets encrypted and out of every answer; a reconnect reuses the connector', async () => {
    const connector = await connect(t, alice, 'keyfake', ['key-1', 'sekret-ok']);
    expect(connector.isDemo).toBe(false);
    expect(connector.expiresAt).toBeGreaterThan(Date.now());
    for (const answer of [await gql(t, alice, LIST), await gql(t, alice, ONE, { k: connector.key })]) {
      expect(answer.body).not.toContain('sekret-ok');
      expect(answer.body).not.toMatch(/secret/i);
    }
    const { rows } = await t.database.pool.query<{ secrets: Buffer; secrets_key_id: string }>(
      'select secrets, secrets_key_id from connectors where key = $1',
      [connector.key],
    );
    expect(rows[0]?.secrets.toString('latin1')).not.toContain('sekret-ok');
    expect(rows[0]?.secrets_key_id).toMatch(/^[0-9a-f]{8}$/);
    const again = await connect(t, alice, 'keyfake', ['key-1', 'sekret-ok']);
    expect(again.key).toBe(connector.key);
  });

  it('two connects of the same accounts at once (a second tab, a retried request) make one connector', async () => {
    const { headers: erin } = await insertTestUser(t.services, 'erin@example.com');
    const both = await Promise.all([
      connect(t, erin, 'keyfake', ['key-twice', 'sekret-ok']),
      connect(t, erin, 'keyfake', ['key-twice', 'sekret-ok']),
    ]);
    expect(both[1].key).toBe(both[0].key);
    const list = await gql<{ connectors: Array<{ key: string }> }>(t, erin, LIST);
    expect(list.data?.connectors.map((c) => c.key)).toEqual([both[0].key]);
  });

  it('renames accounts, skipping empty names and unknown ids', async () => {
    const connector = await connect(t, alice, 'keyfake', ['key-2', 'sekret-ok']);
    const accounts = JSON.stringify([
      { id: 'L-1', name: ' Main ' },
      { id: 'D-2', name: '' },
      { id: 'X-9', name: 'Ghost' },
    ]);
    const answer = await gql<{ connectorUpdate: { accounts: string } }>(
      t,
      alice,
      `mutation($k: String!, $a: String!) { connectorUpdate(key: $k, accounts: $a) { accounts } }`,
      { k: connector.key, a: accounts },
    );
    const names = (
      JSON.parse(answer.data?.connectorUpdate.accounts ?? '[]') as Array<{ id: string; name: string }>
    ).map((a) => [a.id, a.name]);
    expect(names).toEqual([
      ['L-1', 'Main'],
      ['D-2', 'Demo two'],
    ]);
    const bad = await gql(t, alice, `mutation($k: String!) { connectorUpdate(key: $k, accounts: "nope") { key } }`, {
      k: connector.key,
    });
    expect(bad.error?.code).toBe('BAD_USER_INPUT');
  });

  it('a rename waiting on a reconnect renames the accounts the reconnect left, not the ones it read before', async () => {
    const { headers: fay } = await insertTestUser(t.services, 'fay@example.com');
    const connector = await connect(t, fay, 'keyfake', ['key-race', 'sekret-ok']);
    // A reconnect in flight: D-2 gone, N-3 new, not committed yet.
    const reconnect = await t.database.pool.connect();
    try {
      await reconnect.query('begin');
      await reconnect.query(
        `update connectors set accounts = '[{"id":"L-1","name":"Live one","demo":false},{"id":"N-3","name":"New three","demo":false}]'::jsonb
         where key = $1`,
        [connector.key],
      );
      const renaming = gql<{ connectorUpdate: { accounts: string } }>(
        t,
        fay,
        `mutation($k: String!, $a: String!) { connectorUpdate(key: $k, accounts: $a) { accounts } }`,
        { k: connector.key, a: JSON.stringify([{ id: 'L-1', name: 'Main' }]) },
      );
      // The rename has read the connector and now waits on the reconnect's row lock.
      await untilLockWaiters(t.database.pool);
      await reconnect.query('commit');
      const answer = await renaming;
      const names = (
        JSON.parse(answer.data?.connectorUpdate.accounts ?? '[]') as Array<{ id: string; name: string }>
      ).map((a) => [a.id, a.name]);
      expect(names).toEqual([
        ['L-1', 'Main'],
        ['N-3', 'New three'],
      ]);
    } finally {
      reconnect.release();
    }
  });
});

describe('a reconnect bringing accounts of two connections', () => {
  it('takes the accounts over, with their hooks, fan-out legs and notification settings', async () => {
    const { headers: gus, id: gusId } = await insertTestUser(t.services, 'gus@example.com');
    // Two connections of the same broker: L-1 under one login, D-2 under another.
    const first = await connect(t, gus, 'keyfake', ['key-one', 'sekret-ok']);
    await t.database.pool.query(
      `update connectors set accounts = '[{"id":"L-1","name":"Live one","demo":false}]'::jsonb where key = $1`,
      [first.key],
    );
    const secondKey = 'second-connection';
    const sealed = sealSecrets(t.services.secretsKey, secondKey, { apiKey: 'key-two', apiSecret: 'sekret-ok' });
    const second = await insertConnector(t.services.db, {
      key: secondKey,
      userId: gusId,
      providerName: 'keyfake',
      isActive: true,
      accounts: [{ id: 'D-2', name: 'My demo', demo: true }],
      secrets: sealed.data,
      secretsKeyId: sealed.keyId,
    });
    const hookCreate = `mutation($k: String!, $a: String!) { hookCreate(connectorKey: $k, accountId: $a) { key shortKey } }`;
    const onDemo = await gql<{ hookCreate: { shortKey: string } }>(t, gus, hookCreate, { k: secondKey, a: 'D-2' });
    const onLive = await gql<{ hookCreate: { shortKey: string } }>(t, gus, hookCreate, { k: first.key, a: 'L-1' });
    const demoShortKey = onDemo.data?.hookCreate.shortKey ?? '';
    const liveShortKey = onLive.data?.hookCreate.shortKey ?? '';
    await t.database.pool.query(
      `update hooks set rules = jsonb_build_object('fanOut', jsonb_build_array(
         jsonb_build_object('connectorKey', $1::text, 'accountId', 'D-2', 'multiplier', 1))) where short_key = $2`,
      [secondKey, liveShortKey],
    );
    const setting = { connectorId: second.id, accountId: 'D-2', type: 1 };
    const secret = sealWebhookSecret(t.services.secretsKey, setting, 'whsec_dGVzdA==');
    await t.database.pool.query(
      `insert into notifications (key, user_id, connector_id, account_id, type, metadata, secret, secret_key_id)
       values ('setting-d2', $1, $2, 'D-2', 1, '{"url":"https://hooks.example/x"}', $3, $4)`,
      [gusId, second.id, secret.data, secret.keyId],
    );

    // A hook of a third connection whose fan-out names D-2: only its rules change.
    const thirdKey = 'third-connection';
    const thirdSealed = sealSecrets(t.services.secretsKey, thirdKey, { apiKey: 'key-three', apiSecret: 'sekret-ok' });
    await insertConnector(t.services.db, {
      key: thirdKey,
      userId: gusId,
      providerName: 'keyfake',
      isActive: true,
      accounts: [{ id: 'X-3', name: 'Other', demo: true }],
      secrets: thirdSealed.data,
      secretsKeyId: thirdSealed.keyId,
    });
    const onOther = await gql<{ hookCreate: { shortKey: string } }>(t, gus, hookCreate, { k: thirdKey, a: 'X-3' });
    const otherShortKey = onOther.data?.hookCreate.shortKey ?? '';
    await t.database.pool.query(
      `update hooks set rules = jsonb_build_object('fanOut', jsonb_build_array(
         jsonb_build_object('connectorKey', $1::text, 'accountId', 'D-2', 'multiplier', 1))) where short_key = $2`,
      [secondKey, otherShortKey],
    );
    // Every instance hears which hooks changed (their cached entries name the old connection).
    const listener = await t.database.pool.connect();
    const changed: string[] = [];
    listener.on('notification', (message) => changed.push(message.payload ?? ''));
    await listener.query('listen hook_changed');

    // The broker now brings both accounts under one login.
    const reconnected = await connect(t, gus, 'keyfake', ['key-both', 'sekret-ok']);
    await vi.waitFor(
      () => expect(changed).toEqual(expect.arrayContaining([demoShortKey, liveShortKey, otherShortKey])),
      { timeout: 10_000 },
    );
    await listener.query('unlisten hook_changed');
    listener.release();
    expect(reconnected.key).toBe(first.key);
    const names = (JSON.parse(reconnected.accounts) as Array<{ id: string; name: string }>).map((a) => [a.id, a.name]);
    expect(names).toEqual([
      ['L-1', 'Live one'],
      ['D-2', 'My demo'],
    ]);
    // D-2 belongs to one connection: the old one no longer holds it, nor its hook, fan-out leg or
    // setting; left with nothing, it is gone rather than listed empty until the user deletes it.
    const { rows: held } = await t.database.pool.query<{ key: string; accounts: Array<{ id: string }> }>(
      'select key, accounts from connectors where user_id = $1 order by id',
      [gusId],
    );
    expect(held.map((row) => [row.key, row.accounts.map((a) => a.id)])).toEqual([
      [first.key, ['L-1', 'D-2']],
      [thirdKey, ['X-3']],
    ]);
    const listed = await gql<{ connectors: Array<{ key: string }> }>(t, gus, LIST);
    expect(listed.data?.connectors.map((c) => c.key)).toEqual([first.key, thirdKey]);
    const hook = await findHookForSignal(t.services, demoShortKey);
    expect(hook?.connector.key).toBe(first.key);
    expect(openSession(t.services, hook?.connector ?? second).secrets.apiKey).toBe('key-both');
    const { rows: legs } = await t.database.pool.query<{ rules: { fanOut: Array<{ connectorKey: string }> } }>(
      'select rules from hooks where short_key = $1',
      [liveShortKey],
    );
    expect(legs[0]?.rules.fanOut.map((leg) => leg.connectorKey)).toEqual([first.key]);
    const { rows: settings } = await t.database.pool.query<{
      connector_id: number;
      secret: Buffer;
      secret_key_id: string;
    }>(`select connector_id, secret, secret_key_id from notifications where key = 'setting-d2'`);
    const moved = settings[0];
    expect(Number(moved?.connector_id)).toBe(Number((await requireConnector(t.services, gusId, first.key)).id));
    expect(
      signingSecrets(
        t.services.secretsKey,
        { ...setting, connectorId: Number(moved?.connector_id) },
        {
          data: moved?.secret ?? Buffer.alloc(0),
          keyId: moved?.secret_key_id ?? '',
        },
        null,
      ),
    ).toEqual(['whsec_dGVzdA==']);
  });
});

describe('a connection a reconnect left with no account', () => {
  it('stays listed while it still holds a webhook of the user (on an account it no longer brings)', async () => {
    const { headers: hal, id: halId } = await insertTestUser(t.services, 'hal@example.com');
    const first = await connect(t, hal, 'keyfake', ['key-first', 'sekret-ok']);
    await t.database.pool.query(
      `update connectors set accounts = '[{"id":"L-1","name":"Live one","demo":false}]'::jsonb where key = $1`,
      [first.key],
    );
    const oldKey = 'old-connection';
    const sealed = sealSecrets(t.services.secretsKey, oldKey, { apiKey: 'key-old', apiSecret: 'sekret-ok' });
    const old = await insertConnector(t.services.db, {
      key: oldKey,
      userId: halId,
      providerName: 'keyfake',
      isActive: true,
      accounts: [{ id: 'D-2', name: 'My demo', demo: true }],
      secrets: sealed.data,
      secretsKeyId: sealed.keyId,
    });
    // A webhook of an account an earlier reconnect of it no longer brought.
    await insertHook(t.services.db, {
      key: 'hook-left-behind',
      shortKey: 'LeftBehind0123456789ab',
      userId: halId,
      connectorId: old.id,
      accountId: 'Z-9',
      name: 'left behind',
    });
    const reconnected = await connect(t, hal, 'keyfake', ['key-new', 'sekret-ok']);
    expect(reconnected.key).toBe(first.key);
    const list = await gql<{ connectors: Array<{ key: string; accounts: string }> }>(t, hal, LIST);
    expect(list.data?.connectors.map((c) => [c.key, (JSON.parse(c.accounts) as unknown[]).length])).toEqual([
      [first.key, 2],
      [oldKey, 0],
    ]);
  });
});

describe('OAuth broker', () => {
  async function start(headers: Record<string, string>) {
    const { data } = await gql<{ connectorCreate: { type: string; requestUrl: string; redirectUrl: string } }>(
      t,
      headers,
      CREATE,
      { p: 'oauthfake' },
    );
    const created = data?.connectorCreate;
    if (!created) throw new Error('connectorCreate failed');
    return { ...created, state: new URL(created.requestUrl).searchParams.get('state') ?? '' };
  }

  it('returns the authorization URL with a state bound to the user', async () => {
    // A user of its own, with no OAuth connection another case made.
    const { headers: dave } = await insertTestUser(t.services, 'dave@example.com');
    const created = await start(dave);
    expect(created.type).toBe('open');
    expect(created.state).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(created.redirectUrl).toBe('https://router.example/callback/oauthfake');
    expect(created.requestUrl).toContain('client_id=app-1');
    const list = await gql<{ connectors: Array<{ providerName: string }> }>(t, dave, LIST);
    expect(list.data?.connectors.some((c) => c.providerName === 'oauthfake')).toBe(false);
  });

  it('refuses a wrong state, and another user using the state', async () => {
    const { state } = await start(alice);
    const wrong = await gql(t, alice, ACTIVATE, { p: 'oauthfake', c: ['good', 'x'.repeat(32)] });
    expect(wrong.error?.message).toMatch(/authorization has expired or does not match/);
    const stolen = await gql(t, bob, ACTIVATE, { p: 'oauthfake', c: ['good', state] });
    expect(stolen.error?.message).toMatch(/authorization has expired or does not match/);
  });

  it("refuses a code without our state (login CSRF: an attacker's code), changing nothing", async () => {
    // Victim: a pending attempt of their own; the attacker's callback link carries only a code.
    const { headers: victim, id: victimId } = await insertTestUser(t.services, 'csrf-victim@example.com');
    await start(victim);
    const forged = await gql(t, victim, ACTIVATE, { p: 'oauthfake', c: ['good'] });
    expect(forged.error?.message).toBe('The authorization has expired or does not match. Please connect again.');
    const list = await gql<{ connectors: Array<{ providerName: string }> }>(t, victim, LIST);
    expect(list.data?.connectors.some((c) => c.providerName === 'oauthfake')).toBe(false);
    expect(await actionsOf(victimId, 'ConnectorActivate')).toHaveLength(0);
  });

  it("activates with [code, state]; a refused code is the broker's message", async () => {
    const { state } = await start(alice);
    const refused = await gql(t, alice, ACTIVATE, { p: 'oauthfake', c: ['bad', state] });
    expect(refused.error).toMatchObject({ message: 'OAuth Fake: invalid authorization code' });
    const connector = await connect(t, alice, 'oauthfake', ['good', state]);
    expect(connector).toMatchObject({ providerName: 'oauthfake', isActive: true, isDemo: false });
    const again = await gql(t, alice, ACTIVATE, { p: 'oauthfake', c: ['good', state] });
    expect(again.error?.message).toMatch(/authorization has expired/);
  });

  it('bounds the authorizations a user has under way, also when asked for at once', async () => {
    const { headers: gina, id: ginaId } = await insertTestUser(t.services, 'many-attempts@example.com');
    const answers = await Promise.all(Array.from({ length: 12 }, () => gql(t, gina, CREATE, { p: 'oauthfake' })));
    expect(answers.filter((answer) => answer.data?.connectorCreate)).toHaveLength(10);
    // Room again once the oldest attempt is forgotten: the wait says when.
    const wait = expect.toSatisfy((s: number) => Number.isInteger(s) && s >= 1 && s <= OAUTH_STATE_TTL_MS / 1000);
    expect(answers.filter((answer) => answer.error).map((answer) => answer.error)).toEqual([
      { message: TOO_MANY_AUTHORIZATIONS, code: 'RATE_LIMITED', field: undefined, retryAfter: wait },
      { message: TOO_MANY_AUTHORIZATIONS, code: 'RATE_LIMITED', field: undefined, retryAfter: wait },
    ]);
    const { rows } = await t.database.pool.query(
      'select 1 from connectors where user_id = $1 and oauth_state is not null',
      [ginaId],
    );
    expect(rows).toHaveLength(10);
    // Another user is not held back by it.
    const { headers: hal } = await insertTestUser(t.services, 'one-attempt@example.com');
    expect((await start(hal)).type).toBe('open');
  });

  it('a callback submitted twice at once connects once: the second is refused, the connection stays', async () => {
    // A first connection of these accounts: the pending row itself becomes the connector.
    const { headers: frank, id: frankId } = await insertTestUser(t.services, 'double-callback@example.com');
    const { state } = await start(frank);
    const both = await Promise.all([
      gql<{ connectorActivate: { key: string } }>(t, frank, ACTIVATE, { p: 'oauthfake', c: ['good', state] }),
      gql<{ connectorActivate: { key: string } }>(t, frank, ACTIVATE, { p: 'oauthfake', c: ['good', state] }),
    ]);
    const made = both.filter((answer) => answer.data);
    expect(made).toHaveLength(1);
    expect(both.find((answer) => answer.error)?.error?.message).toBe(
      'The authorization has expired or does not match. Please connect again.',
    );
    const list = await gql<{ connectors: Array<{ key: string; isActive: boolean }> }>(t, frank, LIST);
    expect(list.data?.connectors).toEqual([
      expect.objectContaining({ key: made[0]?.data?.connectorActivate.key, isActive: true }),
    ]);
    expect(await actionsOf(frankId, 'ConnectorActivate')).toHaveLength(1);
  });
});

describe('scoping', () => {
  it("answers another user's connector key as not found, for every call", async () => {
    const connector = await connect(t, alice, 'paper');
    const k = connector.key;
    const calls = [
      [ONE, { k }],
      [`mutation($k: String!) { connectorUpdate(key: $k, accounts: "[]") { key } }`, { k }],
      [`mutation($k: String!) { connectorDelete(key: $k) }`, { k }],
      [`query($k: String!) { hooks(connectorKey: $k) { key } }`, { k }],
      [`query($k: String!) { notifications(connectorKey: $k) { key } }`, { k }],
    ] as const;
    for (const [query, variables] of calls) {
      const answer = await gql(t, bob, query, variables);
      expect(answer.error).toMatchObject({ message: 'Connector not found', code: 'NOT_FOUND' });
    }
    const bobs = await gql<{ connectors: unknown[] }>(t, bob, LIST);
    expect(bobs.data?.connectors).toEqual([]);
    expect((await gql(t, alice, ONE, { k })).data).toBeTruthy();
  });

  it('requires sign-in', async () => {
    const answer = await gql(t, {}, LIST);
    expect(answer.error?.code).toBe('UNAUTHENTICATED');
  });
});

describe('connectorDelete', () => {
  it('deletes the connector with its hooks and records the action', async () => {
    const connector = await connect(t, alice, 'paper');
    const accountId = (JSON.parse(connector.accounts) as Array<{ id: string }>)[0]?.id;
    await gql(t, alice, `mutation($k: String!, $a: String!) { hookCreate(connectorKey: $k, accountId: $a) { key } }`, {
      k: connector.key,
      a: accountId,
    });
    const deleted = await gql<{ connectorDelete: boolean }>(
      t,
      alice,
      `mutation($k: String!) { connectorDelete(key: $k) }`,
      {
        k: connector.key,
      },
    );
    expect(deleted.data?.connectorDelete).toBe(true);
    expect((await gql(t, alice, ONE, { k: connector.key })).error?.code).toBe('NOT_FOUND');
    const { rows } = await t.database.pool.query(
      'select 1 from hooks h join connectors c on c.id = h.connector_id where c.key = $1',
      [connector.key],
    );
    expect(rows).toHaveLength(0);
    const actions = await actionsOf(aliceId, 'ConnectorDelete');
    expect(actions.at(-1)?.metadata).toMatchObject({ providerName: 'paper', accountIds: [accountId] });
  });
});
