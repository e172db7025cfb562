// Notification settings through GraphQL: SPEC §5 validation, live (and paper) accounts only,
// events, the webhook secret shown once and rotated, scoping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { type ConnectorAnswer, connect, gql } from '../../../test/connector-fixtures.ts';
import { fakeKeyBroker } from '../../../test/fake-brokers.ts';

let t: TestApp;
let alice: Record<string, string>;
let bob: Record<string, string>;
let live: ConnectorAnswer;
let paper: ConnectorAnswer;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, brokers: [fakeKeyBroker().broker] });
  ({ headers: alice } = await insertTestUser(t.services, 'alice@example.com'));
  ({ headers: bob } = await insertTestUser(t.services, 'bob@example.com'));
  live = await connect(t, alice, 'keyfake', ['key', 'sekret-ok']);
  paper = await connect(t, alice, 'paper');
});
afterAll(() => t.close());

const FIELDS = 'key type isEnabled metadata connectorKey accountId secret disabledReason';
const CREATE = `mutation($k: String!, $a: String!, $type: Int!, $m: String!) {
  notificationCreate(connectorKey: $k, accountId: $a, type: $type, metadata: $m) { ${FIELDS} } }`;

interface NotificationAnswer {
  key: string;
  type: number;
  isEnabled: boolean;
  metadata: string;
  connectorKey: string;
  accountId: string;
  secret: string | null;
  disabledReason: string | null;
}

const create = (type: number, metadata: unknown, accountId = 'L-1', connectorKey = live.key, headers = alice) =>
  gql<{ notificationCreate: NotificationAnswer }>(t, headers, CREATE, {
    k: connectorKey,
    a: accountId,
    type,
    m: typeof metadata === 'string' ? metadata : JSON.stringify(metadata),
  });

const LIVE_ONLY = 'This setting is currently available for live trading accounts only.';

describe('notificationCreate validation (SPEC §5)', () => {
  const cases: Array<[string, number, unknown, string]> = [
    ['push refused', 4, {}, 'Push and SMS notifications are not available yet'],
    ['SMS refused', 8, { phone: '+15550100' }, 'Push and SMS notifications are not available yet'],
    ['unknown type', 16, {}, 'Unknown notification type'],
    ['email missing', 2, {}, 'Required'],
    ['email blank', 2, { email: ' ' }, 'Required'],
    ['email malformed', 2, { email: 'not-an-email' }, 'Invalid email'],
    ['metadata not JSON', 2, '{email', 'Required'],
    ['URL missing', 1, {}, 'Required'],
    ['URL not http(s)', 1, { url: 'ftp://example.com/x' }, 'Invalid URL'],
    ['URL malformed', 1, { url: 'http//example' }, 'Invalid URL'],
    ['URL javascript', 1, { url: 'javascript:alert(1)' }, 'Invalid URL'],
    ['URL loopback', 1, { url: 'http://127.0.0.1:8080/x' }, 'Invalid URL'],
    ['URL localhost', 1, { url: 'https://localhost/x' }, 'Invalid URL'],
    ['URL private', 1, { url: 'http://192.168.1.10/x' }, 'Invalid URL'],
    ['URL metadata', 1, { url: 'https://169.254.169.254/latest' }, 'Invalid URL'],
    ['URL IPv4-mapped loopback', 1, { url: 'https://[::ffff:127.0.0.1]/x' }, 'Invalid URL'],
    ['URL unique-local', 1, { url: 'https://[fd00:ec2::254]/x' }, 'Invalid URL'],
    ['URL with credentials', 1, { url: 'https://user:pw@hooks.example.com/x' }, 'Invalid URL'],
    ['URL plain http', 1, { url: 'http://hooks.example.com/x' }, 'Webhook URLs must use https'],
    ['events empty', 2, { email: 'a@example.com', events: [] }, 'Choose at least one event'],
    ['events unknown', 2, { email: 'a@example.com', events: ['order.placed', 'order.lost'] }, 'Unknown event'],
    ['events not a list', 1, { url: 'https://hooks.example.com/x', events: 'order.placed' }, 'Unknown event'],
  ];
  it.each(cases)('%s', async (_name, type, metadata, message) => {
    const answer = await create(type, metadata);
    expect(answer.error).toMatchObject({ message, code: 'BAD_USER_INPUT' });
  });

  it("refuses a broker's demo accounts, accepts paper accounts", async () => {
    expect((await create(2, { email: 'a@example.com' }, 'D-2')).error?.message).toBe(LIVE_ONLY);
    const paperAccount = (JSON.parse(paper.accounts) as Array<{ id: string }>)[0]?.id;
    const onPaper = await create(2, { email: 'a@example.com' }, paperAccount, paper.key);
    expect(onPaper.data?.notificationCreate).toMatchObject({ type: 2, isEnabled: true, connectorKey: paper.key });
  });

  it('refuses an account the connector does not have', async () => {
    expect((await create(2, { email: 'a@example.com' }, 'NOPE')).error).toMatchObject({ field: 'accountId' });
  });
});

describe('notification data', () => {
  it('creates email and webhook settings, lists, updates and deletes them', async () => {
    const email = (await create(2, { email: 'alice@example.com' })).data?.notificationCreate;
    const hook = (
      await create(1, {
        url: 'https://hooks.example.com/in',
        events: ['order.rejected', 'order.placed', 'order.placed'],
      })
    ).data?.notificationCreate;
    expect(email).toMatchObject({ type: 2, isEnabled: true, connectorKey: live.key, accountId: 'L-1', secret: null });
    expect(JSON.parse(email?.metadata ?? '')).toEqual({ email: 'alice@example.com' });
    // Events are kept once each, in the order of the list of events.
    expect(JSON.parse(hook?.metadata ?? '')).toEqual({
      url: 'https://hooks.example.com/in',
      events: ['order.placed', 'order.rejected'],
    });

    // Creating the same type again updates the one setting.
    const again = (await create(2, { email: 'other@example.com' })).data?.notificationCreate;
    expect(again?.key).toBe(email?.key);

    const LIST = `query($k: String!, $a: String) { notifications(connectorKey: $k, accountId: $a) { key type } }`;
    const list = await gql<{ notifications: NotificationAnswer[] }>(t, alice, LIST, { k: live.key, a: 'L-1' });
    expect(list.data?.notifications.map((n) => n.type)).toEqual([1, 2]);
    expect((await gql(t, alice, LIST, { k: live.key, a: 'D-2' })).data).toEqual({ notifications: [] });

    const UPDATE = `mutation($k: String!, $m: String!) { notificationUpdate(key: $k, metadata: $m) { metadata } }`;
    const updated = await gql<{ notificationUpdate: { metadata: string } }>(t, alice, UPDATE, {
      k: hook?.key,
      m: JSON.stringify({ url: 'https://hooks.example.com/v2' }),
    });
    expect(JSON.parse(updated.data?.notificationUpdate.metadata ?? '')).toEqual({
      url: 'https://hooks.example.com/v2',
    });
    const invalid = await gql(t, alice, UPDATE, { k: hook?.key, m: JSON.stringify({ url: 'nope' }) });
    expect(invalid.error?.message).toBe('Invalid URL');

    const DELETE = `mutation($k: String!) { notificationDelete(key: $k) }`;
    expect((await gql(t, alice, DELETE, { k: hook?.key })).data).toEqual({ notificationDelete: true });
    const ONE = `query($k: String!) { notification(key: $k) { ${FIELDS} } }`;
    expect((await gql(t, alice, ONE, { k: hook?.key })).error?.message).toBe('Notification not found');
    expect((await gql(t, alice, ONE, { k: email?.key })).data).toBeTruthy();
  });

  it('refuses an update that notificationCreate would refuse, and changes nothing', async () => {
    const UPDATE = `mutation($k: String!, $m: String!) { notificationUpdate(key: $k, metadata: $m) { metadata } }`;
    const ONE = `query($k: String!) { notification(key: $k) { metadata isEnabled } }`;
    const email = (await create(2, { email: 'before@example.com' }, 'L-1')).data?.notificationCreate;
    const sql = t.services.db.$client;
    const setDemo = (demo: boolean) =>
      sql.query(
        `update connectors set accounts = (select jsonb_agg(case when a->>'id' = 'L-1'
           then jsonb_set(a, '{demo}', to_jsonb($2::boolean)) else a end) from jsonb_array_elements(accounts) a)
         where key = $1`,
        [live.key, demo],
      );
    await sql.query('update notifications set is_enabled = false where key = $1', [email?.key]);
    try {
      // The account became a broker demo account (a reconnect): it cannot have a setting.
      await setDemo(true);
      const demo = await gql(t, alice, UPDATE, { k: email?.key, m: JSON.stringify({ email: 'after@example.com' }) });
      expect(demo.error?.message).toBe(LIVE_ONLY);
      expect((await gql(t, alice, ONE, { k: email?.key })).data).toEqual({
        notification: { metadata: JSON.stringify({ email: 'before@example.com' }), isEnabled: false },
      });
    } finally {
      await setDemo(false);
    }
    // The account left the connector.
    await sql.query(`update notifications set account_id = 'GONE' where key = $1`, [email?.key]);
    try {
      const gone = await gql(t, alice, UPDATE, { k: email?.key, m: JSON.stringify({ email: 'after@example.com' }) });
      expect(gone.error).toMatchObject({ field: 'accountId' });
      expect((await gql(t, alice, ONE, { k: email?.key })).data).toEqual({
        notification: { metadata: JSON.stringify({ email: 'before@example.com' }), isEnabled: false },
      });
    } finally {
      await sql.query(`update notifications set account_id = 'L-1', is_enabled = true where key = $1`, [email?.key]);
    }
  });

  it("answers another user's notification or connector as not found", async () => {
    const email = (await create(2, { email: 'alice@example.com' })).data?.notificationCreate;
    for (const query of [
      `query($k: String!) { notification(key: $k) { key } }`,
      `mutation($k: String!) { notificationUpdate(key: $k, metadata: "{}") { key } }`,
      `mutation($k: String!) { notificationDelete(key: $k) }`,
    ]) {
      const answer = await gql(t, bob, query, { k: email?.key });
      expect(answer.error).toMatchObject({ code: 'NOT_FOUND', message: 'Notification not found' });
    }
    const foreign = await create(2, { email: 'bob@example.com' }, 'L-1', live.key, bob);
    expect(foreign.error).toMatchObject({ code: 'NOT_FOUND', message: 'Connector not found' });
  });
});

describe('webhook signing secret', () => {
  const ROTATE = `mutation($k: String!) { notificationSecretRotate(key: $k) { key secret } }`;

  it('is answered once on creation, sealed at rest, and rotated on request', async () => {
    const created = (await create(1, { url: 'https://receiver.example.com/a' }, 'L-1')).data?.notificationCreate;
    const secret = created?.secret ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Creating the type again updates the setting and does not show the secret again.
    const again = (await create(1, { url: 'https://receiver.example.com/b' }, 'L-1')).data?.notificationCreate;
    expect(again).toMatchObject({ key: created?.key, secret: null });
    const ONE = `query($k: String!) { notification(key: $k) { secret } }`;
    expect((await gql(t, alice, ONE, { k: created?.key })).data).toEqual({ notification: { secret: null } });
    const { rows } = await t.services.db.$client.query<{ secret: Buffer }>(
      'select secret from notifications where key = $1',
      [created?.key],
    );
    expect(rows[0]?.secret.includes(Buffer.from(secret.slice(6)))).toBe(false);

    const rotated = await gql<{ notificationSecretRotate: { secret: string } }>(t, alice, ROTATE, { k: created?.key });
    expect(rotated.data?.notificationSecretRotate.secret).toMatch(/^whsec_/);
    expect(rotated.data?.notificationSecretRotate.secret).not.toBe(secret);
    expect((await gql(t, bob, ROTATE, { k: created?.key })).error?.message).toBe('Notification not found');
    const email = (await create(2, { email: 'alice@example.com' }, 'L-1')).data?.notificationCreate;
    expect((await gql(t, alice, ROTATE, { k: email?.key })).error?.message).toBe(
      'Only webhook notifications have a secret',
    );
  });
});
