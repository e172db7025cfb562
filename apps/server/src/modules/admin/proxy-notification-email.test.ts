// An email notification setting goes on mailing the user's orders, fills and refusals after the
// proxy ended, as a webhook would: an administrator acting as the user may point one only at the
// account's own address (the owner chooses freely), and cannot move the owner's setting elsewhere.
import { NOTIFICATION_TYPE } from '@router/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_START } from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof confirmedUser>>;
let jo: Awaited<ReturnType<typeof confirmedUser>>;
let paper: { k: string; a: string };
let asJo: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  admin = await confirmedUser(t, 'admin@example.test');
  jo = await confirmedUser(t, 'jo@example.test');
  const made = await gql<{ connectorActivate: { key: string; accounts: string } }>(
    t.app,
    'mutation { connectorActivate(providerName: "paper", credentials: []) { key accounts } }',
    {},
    bearer(jo.token),
  );
  const accounts = JSON.parse(made.data?.connectorActivate.accounts ?? '[]') as Array<{ id: string }>;
  paper = { k: made.data?.connectorActivate.key ?? '', a: accounts[0]?.id ?? '' };
  const started = await gql(t.app, PROXY_START, { email: 'jo@example.test' }, bearer(admin.token));
  expect(started.data).toEqual({ adminProxyStart: 'jo@example.test' });
  asJo = bearer(admin.token, { 'x-user': 'jo@example.test' });
});
afterAll(() => t.close());

const REFUSED = "An administrator acting as the user can send email notifications only to the account's own address";
const CREATE = `mutation($k: String!, $a: String!, $m: String!) {
  notificationCreate(connectorKey: $k, accountId: $a, type: ${NOTIFICATION_TYPE.EMAIL}, metadata: $m) { key metadata } }`;
const UPDATE = 'mutation($key: String!, $m: String!) { notificationUpdate(key: $key, metadata: $m) { metadata } }';
const meta = (email: string, events?: string[]) => JSON.stringify(events ? { email, events } : { email });

async function storedEmails(): Promise<string[]> {
  const { rows } = await t.services.db.$client.query<{ email: string }>(
    "select metadata ->> 'email' as email from notifications where user_id = $1 order by id",
    [jo.id],
  );
  return rows.map((row) => row.email);
}

describe('an email notification in proxy mode', () => {
  it("is created for the account's own address only, and its address is not moved elsewhere", async () => {
    const elsewhere = await gql(t.app, CREATE, { ...paper, m: meta('admin@example.test') }, asJo);
    expect(elsewhere.errors?.[0]).toMatchObject({ message: REFUSED, extensions: { code: 'FORBIDDEN' } });
    expect(await storedEmails()).toEqual([]);

    const own = await gql<{ notificationCreate: { key: string } }>(
      t.app,
      CREATE,
      { ...paper, m: meta('JO@example.test') },
      asJo,
    );
    expect(own.errors).toBeUndefined();
    const key = own.data?.notificationCreate.key ?? '';

    // The owner picks the address; the administrator then changes its events, not its address.
    const mine = await gql(t.app, UPDATE, { key, m: meta('jo-desk@example.test') }, bearer(jo.token));
    expect(mine.errors).toBeUndefined();
    const events = await gql(t.app, UPDATE, { key, m: meta('jo-desk@example.test', ['order.filled']) }, asJo);
    expect(events.errors).toBeUndefined();
    const moved = await gql(t.app, UPDATE, { key, m: meta('admin@example.test') }, asJo);
    expect(moved.errors?.[0]).toMatchObject({ message: REFUSED, extensions: { code: 'FORBIDDEN' } });
    // Nor through notificationCreate, which updates the account's existing setting of that type.
    const upsert = await gql(t.app, CREATE, { ...paper, m: meta('admin@example.test') }, asJo);
    expect(upsert.errors?.[0]?.message).toBe(REFUSED);
    expect(await storedEmails()).toEqual(['jo-desk@example.test']);
  });
});
