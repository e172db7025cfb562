// Developer applications over GraphQL: professionals only, SPEC §5 validation, owner-only reads,
// the client secret shown once and stored hashed, and a delete that really deletes.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_START } from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import { CALLBACK_OWNER_ONLY } from './apps.ts';

let t: TestApp;
let pro: { token: string; id: number };
let customer: { token: string; id: number };
let otherPro: { token: string; id: number };
let admin: { token: string; id: number };
beforeAll(async () => {
  t = await startTestApp();
  admin = await confirmedUser(t, 'admin@example.test');
  await t.services.db.$client.query('update users set "group" = 5 where id = $1', [admin.id]);
  pro = await professional('pro@example.test');
  otherPro = await professional('pro2@example.test');
  customer = await confirmedUser(t, 'customer@example.test');
});
afterAll(() => t.close());

const CREATE = `mutation($name: String!, $description: String, $redirectUrl: String!) {
  userAppCreate(name: $name, description: $description, redirectUrl: $redirectUrl) { key secret }
}`;
const APPS = '{ userApps { key name description redirectUrl createdAt } }';
const APP = 'query($key: String!) { userApp(key: $key) { key name description redirectUrl } }';
const UPDATE = `mutation($key: String!, $metadata: JSON!) {
  userAppUpdate(key: $key, metadata: $metadata) { key name description redirectUrl }
}`;
const DELETE = 'mutation($key: String!) { userAppDelete(key: $key) }';

const valid = { name: 'Journal', description: 'Trade journal', redirectUrl: 'https://journal.example.com/oauth' };

/** A confirmed customer with the professional bit (group 20). */
async function professional(email: string) {
  const user = await confirmedUser(t, email);
  await t.services.db.$client.query('update users set "group" = 20 where id = $1', [user.id]);
  return user;
}

async function create(token: string, input: Record<string, unknown> = valid) {
  return gql<{ userAppCreate: { key: string; secret: string } }>(t.app, CREATE, input, bearer(token));
}

describe('developer applications', () => {
  it('are created by professionals only, the secret shown once and stored hashed', async () => {
    // A professional of its own: the list below is this one application only.
    const creator = await professional('first-app@example.test');
    expect((await gql(t.app, CREATE, valid)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await create(customer.token)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const created = await create(creator.token);
    const { key, secret } = created.data?.userAppCreate ?? { key: '', secret: '' };
    expect(key).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(secret.length).toBeGreaterThanOrEqual(43);
    const { rows } = await t.services.db.$client.query<{ secret_hash: string }>(
      'select secret_hash from user_apps where key = $1',
      [key],
    );
    expect(rows[0]?.secret_hash).toBe(createHash('sha256').update(secret).digest('base64url'));
    const listed = await gql<{ userApps: Array<Record<string, unknown>> }>(t.app, APPS, {}, bearer(creator.token));
    expect(listed.data?.userApps).toEqual([
      {
        key,
        name: 'Journal',
        description: 'Trade journal',
        redirectUrl: valid.redirectUrl,
        createdAt: expect.any(Number),
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(secret);
  });

  it('answers SPEC §5 messages for bad input', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...valid, name: '  ' }, 'name', 'Required'],
      [{ ...valid, name: 'n'.repeat(65) }, 'name', 'At most 64 characters'],
      [{ ...valid, description: 'd'.repeat(257) }, 'description', 'At most 256 characters'],
      [{ ...valid, redirectUrl: '' }, 'redirectUrl', 'Required'],
      [{ ...valid, redirectUrl: 'http://journal.example.com/cb' }, 'redirectUrl', 'Invalid URL'],
      [{ ...valid, redirectUrl: 'https://intranet/cb' }, 'redirectUrl', 'Invalid URL'],
      [{ ...valid, redirectUrl: 'https://journal.example.com/cb#frag' }, 'redirectUrl', 'Invalid URL'],
      // RFC 6749 §3.1.2: no fragment at all, an empty one included (the URL parser reports no hash).
      [{ ...valid, redirectUrl: 'https://journal.example.com/cb#' }, 'redirectUrl', 'Invalid URL'],
      [{ ...valid, redirectUrl: 'http://localhost:3000/cb#' }, 'redirectUrl', 'Invalid URL'],
      [{ ...valid, redirectUrl: 'javascript:alert(1)' }, 'redirectUrl', 'Invalid URL'],
      [
        { ...valid, redirectUrl: `https://journal.example.com/${'p'.repeat(230)}` },
        'redirectUrl',
        'At most 256 characters',
      ],
    ];
    for (const [input, field, message] of cases) {
      const answer = await create(pro.token, input);
      expect(answer.errors?.[0], `${field}: ${message}`).toMatchObject({ message, extensions: { field } });
    }
    for (const redirectUrl of ['http://localhost:3000/cb', 'https://localhost/cb', 'http://127.0.0.1:8080/cb']) {
      expect((await create(pro.token, { name: 'Local', redirectUrl })).data?.userAppCreate.key).toBeTruthy();
    }
  });

  it('shows and changes an application only to its owner', async () => {
    const { key } = (await create(pro.token)).data?.userAppCreate ?? { key: '' };
    expect((await gql(t.app, APP, { key }, bearer(pro.token))).data).toEqual({
      userApp: { key, name: 'Journal', description: 'Trade journal', redirectUrl: valid.redirectUrl },
    });
    expect((await gql(t.app, APP, { key }, bearer(otherPro.token))).data).toEqual({ userApp: null });
    expect((await gql(t.app, APP, { key })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await gql<{ userApps: unknown[] }>(t.app, APPS, {}, bearer(otherPro.token))).data?.userApps).toEqual([]);

    const renamed = await gql(
      t.app,
      UPDATE,
      { key, metadata: { name: 'Journal 2', description: '' } },
      bearer(pro.token),
    );
    expect(renamed.data).toEqual({
      userAppUpdate: { key, name: 'Journal 2', description: null, redirectUrl: valid.redirectUrl },
    });
    const foreign = await gql(t.app, UPDATE, { key, metadata: { name: 'Mine' } }, bearer(otherPro.token));
    expect(foreign.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const badUrl = await gql(
      t.app,
      UPDATE,
      { key, metadata: { redirectUrl: 'ftp://x.example.com' } },
      bearer(pro.token),
    );
    expect(badUrl.errors?.[0]).toMatchObject({ message: 'Invalid URL', extensions: { field: 'metadata.redirectUrl' } });
    const emptyFragment = await gql(
      t.app,
      UPDATE,
      { key, metadata: { redirectUrl: 'https://journal.example.com/oauth#' } },
      bearer(pro.token),
    );
    expect(emptyFragment.errors?.[0]).toMatchObject({
      message: 'Invalid URL',
      extensions: { field: 'metadata.redirectUrl' },
    });
    const unknownField = await gql(t.app, UPDATE, { key, metadata: { secret: 'x' } }, bearer(pro.token));
    expect(unknownField.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const byCustomer = await gql(t.app, UPDATE, { key, metadata: { name: 'x' } }, bearer(customer.token));
    expect(byCustomer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('refuses a key holding \\u0000 as bad input, never an internal error', async () => {
    for (const [doc, vars] of [
      [APP, { key: 'a\u0000b' }],
      [UPDATE, { key: 'a\u0000b', metadata: { name: 'x' } }],
      [DELETE, { key: 'a\u0000b' }],
      ['mutation($key: String!) { userTokenDelete(key: $key) }', { key: 'a\u0000b' }],
    ] as const) {
      const res = await gql(t.app, doc, vars, bearer(pro.token));
      expect(res.errors?.[0]?.extensions?.code, doc).toBe('BAD_USER_INPUT');
    }
  });

  it("deletes an application by key, only the owner's", async () => {
    const { key } = (await create(pro.token)).data?.userAppCreate ?? { key: '' };
    expect((await gql(t.app, DELETE, { key }, bearer(otherPro.token))).data).toEqual({ userAppDelete: false });
    // Not the customer's: nothing to delete, nothing told.
    expect((await gql(t.app, DELETE, { key }, bearer(customer.token))).data).toEqual({ userAppDelete: false });
    expect((await gql(t.app, DELETE, { key })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await gql(t.app, DELETE, { key }, bearer(pro.token))).data).toEqual({ userAppDelete: true });
    expect((await gql(t.app, APP, { key }, bearer(pro.token))).data).toEqual({ userApp: null });
    const { rows } = await t.services.db.$client.query('select 1 from user_apps where key = $1', [key]);
    expect(rows).toEqual([]);
  });

  it('holds the limit of 20 applications when the requests arrive all at once', async () => {
    const burst = await professional('pro-burst@example.test');
    for (let i = 0; i < 18; i++) await create(burst.token);
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(burst.token)));
    expect(answers.filter((a) => a.data?.userAppCreate.key)).toHaveLength(2);
    expect(new Set(answers.flatMap((a) => a.errors?.map((e) => e.message) ?? []))).toEqual(
      new Set(['At most 20 applications; delete one first']),
    );
    const { rows } = await t.services.db.$client.query('select 1 from user_apps where user_id = $1', [burst.id]);
    expect(rows).toHaveLength(20);
  });

  it('is created only by its owner, never by an administrator acting as them (X-User)', async () => {
    const proxied = await professional('proxied-pro@example.test');
    const started = await gql(t.app, PROXY_START, { email: 'proxied-pro@example.test' }, bearer(admin.token));
    expect(started.data).toEqual({ adminProxyStart: 'proxied-pro@example.test' });
    expect(
      (await gql(t.app, CREATE, valid, bearer(admin.token, { 'x-user': 'proxied-pro@example.test' }))).errors?.[0],
    ).toMatchObject({ message: 'Applications can only be created by their owner', extensions: { code: 'FORBIDDEN' } });
    const { rows } = await t.services.db.$client.query('select 1 from user_apps where user_id = $1', [proxied.id]);
    expect(rows).toEqual([]);
  });

  it("keeps its callback URL the owner's: an administrator acting as them (X-User) cannot send the consent elsewhere", async () => {
    const owner = await professional('proxied-callback@example.test');
    const { key } = (await create(owner.token)).data?.userAppCreate ?? { key: '' };
    await gql(t.app, PROXY_START, { email: 'proxied-callback@example.test' }, bearer(admin.token));
    const asOwner = bearer(admin.token, { 'x-user': 'proxied-callback@example.test' });
    const moved = await gql(
      t.app,
      UPDATE,
      { key, metadata: { redirectUrl: 'https://elsewhere.example.com/cb' } },
      asOwner,
    );
    expect(moved.errors?.[0]).toMatchObject({ message: CALLBACK_OWNER_ONLY, extensions: { code: 'FORBIDDEN' } });
    // Renaming stays support's to do; the callback URL is unchanged.
    const renamed = await gql(t.app, UPDATE, { key, metadata: { name: 'Journal (support)' } }, asOwner);
    expect(renamed.data).toEqual({
      userAppUpdate: { key, name: 'Journal (support)', description: 'Trade journal', redirectUrl: valid.redirectUrl },
    });
  });

  it('is deleted by its owner after the professional status is gone', async () => {
    const former = await professional('former-pro@example.test');
    const { key } = (await create(former.token)).data?.userAppCreate ?? { key: '' };
    await t.services.db.$client.query('update users set "group" = 4 where id = $1', [former.id]);
    t.services.identity.sessions.evictUser(former.id); // as a status change does
    expect((await create(former.token)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await gql(t.app, DELETE, { key }, bearer(former.token))).data).toEqual({ userAppDelete: true });
    const { rows } = await t.services.db.$client.query('select 1 from user_apps where key = $1', [key]);
    expect(rows).toEqual([]);
  });
});
