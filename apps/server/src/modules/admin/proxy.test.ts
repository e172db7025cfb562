// Proxy mode through the API: applying it checks the user and records 'proxy on'; every mutation
// sent with X-User is recorded (secrets redacted) before it runs; the reset records 'proxy off';
// a customer sending X-User changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { footprint, PROXY_END, PROXY_START, readAudit } from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { fakeKeyBroker } from '../../../test/fake-brokers.ts';
import { bearer, confirmedUser, gql, SIGNIN, STRONG_PASSWORD } from '../../../test/identity.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof confirmedUser>>;
let bob: Awaited<ReturnType<typeof confirmedUser>>;
beforeAll(async () => {
  t = await startTestApp({ brokers: [fakeKeyBroker().broker] });
  admin = await confirmedUser(t, 'admin@example.test');
  bob = await confirmedUser(t, 'bob@example.test');
});
afterAll(() => t.close());

const RENAME = `mutation($firstName: String) { userUpdate(firstName: $firstName) { email firstName } }`;

const latestAudit = (limit: number) => readAudit(t, admin.token, limit);

/** The administrator's headers acting as `email`, proxy mode applied first (adminProxyStart). */
async function proxiedAs(email: string, token = admin.token): Promise<Record<string, string>> {
  const started = await gql(t.app, PROXY_START, { email }, bearer(token));
  expect(started.data).toEqual({ adminProxyStart: email });
  return bearer(token, { 'x-user': email });
}

describe('proxy', () => {
  it('applies to confirmed users only, recording it', async () => {
    const res = await gql(t.app, PROXY_START, { email: 'BOB@Example.test' }, bearer(admin.token));
    expect(res).toEqual({ data: { adminProxyStart: 'bob@example.test' } });
    const [entry] = await latestAudit(1);
    expect(entry).toMatchObject({
      action: 'proxy_on',
      adminEmail: 'admin@example.test',
      targetEmail: 'bob@example.test',
    });

    const before = await footprint(t);
    for (const email of ['nobody@example.test', 'not an email']) {
      const refused = await gql(t.app, PROXY_START, { email }, bearer(admin.token));
      expect(refused.errors?.[0]?.message).toBe(
        email.includes(' ') ? 'Invalid email' : 'User not registered or not activated',
      );
    }
    expect(await footprint(t)).toEqual(before);
  });

  it('shows the proxied user’s data and records each mutation made as them, secrets redacted', async () => {
    const asBob = await proxiedAs('bob@example.test');
    const me = await gql(t.app, '{ user { email group } }', {}, asBob);
    expect(me.data).toEqual({ user: { email: 'bob@example.test', group: 4 } });

    const renamed = await gql(t.app, RENAME, { firstName: 'Robert' }, asBob);
    expect(renamed.data).toEqual({ userUpdate: { email: 'bob@example.test', firstName: 'Robert' } });
    const refused = await gql(
      t.app,
      'mutation { userPasscodeUpdate(secret: "JBSWY3DPEHPK3PXP", passcode: "123456") { isActive } }',
      {},
      asBob,
    );
    expect(refused.errors).toBeDefined();

    const [passcode, rename] = await latestAudit(2);
    expect(rename).toMatchObject({
      action: 'proxied_mutation',
      adminEmail: 'admin@example.test',
      targetEmail: 'bob@example.test',
    });
    expect(JSON.parse(rename?.details ?? '')).toMatchObject({
      mutation: 'userUpdate',
      arguments: { firstName: 'Robert' },
    });
    const details = JSON.parse(passcode?.details ?? '');
    expect(details).toMatchObject({
      mutation: 'userPasscodeUpdate',
      arguments: { secret: '[redacted]', passcode: '[redacted]' },
    });
    expect(passcode?.details).not.toContain('JBSWY3DPEHPK3PXP');

    // Queries are not audit entries (they are logged); the admin's own calls record themselves once.
    const count = (await latestAudit(100)).length;
    await gql(t.app, '{ account { balance } }', {}, asBob);
    await gql(t.app, PROXY_START, { email: 'admin@example.test' }, asBob);
    const after = await latestAudit(100);
    // No proxied_mutation entry for the admin call: its own, and the end of Bob's proxy it means.
    expect(after.length).toBe(count + 2);
    expect(after[0]).toMatchObject({ action: 'proxy_on', targetEmail: 'admin@example.test' });
    expect(after[1]).toMatchObject({ action: 'proxy_off', targetEmail: 'bob@example.test' });
  });

  it('records the end of the proxy of one user when the administrator switches to another', async () => {
    await confirmedUser(t, 'erin@example.test');
    const asBob = await proxiedAs('bob@example.test');
    const [newest] = await latestAudit(1);
    // The admin screen's Save while Bob is proxied sends X-User: bob with the new email.
    const res = await gql(t.app, PROXY_START, { email: 'erin@example.test' }, asBob);
    expect(res).toEqual({ data: { adminProxyStart: 'erin@example.test' } });
    const entries = (await latestAudit(10)).filter((e) => e.id > (newest?.id ?? 0));
    expect([...entries].reverse().map((e) => [e.action, e.adminEmail, e.targetEmail])).toEqual([
      ['proxy_off', 'admin@example.test', 'bob@example.test'],
      ['proxy_on', 'admin@example.test', 'erin@example.test'],
    ]);
    // Applying the user already proxied again is no switch: nothing ends.
    const asErin = bearer(admin.token, { 'x-user': 'erin@example.test' });
    await gql(t.app, PROXY_START, { email: 'erin@example.test' }, asErin);
    const [again, previous] = await latestAudit(2);
    expect([again?.action, again?.targetEmail]).toEqual(['proxy_on', 'erin@example.test']);
    expect(previous?.id).toBe(entries[0]?.id);
  });

  it('records the reset', async () => {
    const res = await gql(t.app, PROXY_END, { email: 'bob@example.test' }, bearer(admin.token));
    expect(res).toEqual({ data: { adminProxyEnd: true } });
    const [entry] = await latestAudit(1);
    expect(entry).toMatchObject({ action: 'proxy_off', targetEmail: 'bob@example.test' });
  });

  it('never hands the administrator a credential of the user: API token, second factor, email change', async () => {
    const carol = await confirmedUser(t, 'carol@example.test');
    const asCarol = await proxiedAs('carol@example.test');
    const token = await gql(t.app, 'mutation { userTokenCreate(metadata: {name: "x"}) { secret } }', {}, asCarol);
    expect(token.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const seed = await gql<{ userPasscode: { secret: string; isActive: boolean } }>(
      t.app,
      '{ userPasscode { secret isActive } }',
      {},
      asCarol,
    );
    expect(seed.data?.userPasscode).toEqual({ secret: '', isActive: false });
    const email = await gql(
      t.app,
      'mutation($e: String) { userUpdate(email: $e) { email } }',
      { e: 'admin-box@example.test' },
      asCarol,
    );
    expect(email.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const { rows } = await t.services.db.$client.query(
      `select (select count(*)::int from sessions where user_id = $1 and kind = 'api') as tokens,
              (select passcode_secret is null from users where id = $1) as no_seed,
              (select count(*)::int from email_tokens where user_id = $1 and purpose = 'email_change') as changes`,
      [carol.id],
    );
    expect(rows[0]).toEqual({ tokens: 0, no_seed: true, changes: 0 });
  });

  it("never answers or rotates a webhook's signing secret while proxied, nor for an API token", async () => {
    const dave = await confirmedUser(t, 'dave@example.test');
    const asDave = await proxiedAs('dave@example.test');
    const paper = await gql<{ connectorActivate: { key: string; accounts: string } }>(
      t.app,
      'mutation { connectorActivate(providerName: "paper", credentials: []) { key accounts } }',
      {},
      bearer(dave.token),
    );
    const connectorKey = paper.data?.connectorActivate.key ?? '';
    const accountId = (JSON.parse(paper.data?.connectorActivate.accounts ?? '[]') as Array<{ id: string }>)[0]?.id;
    const CREATE = `mutation($k: String!, $a: String!, $type: Int!, $m: String!) {
      notificationCreate(connectorKey: $k, accountId: $a, type: $type, metadata: $m) { key secret } }`;
    const hook = { k: connectorKey, a: accountId, type: 1, m: JSON.stringify({ url: 'https://example.com/hooks' }) };
    const proxied = await gql(t.app, CREATE, hook, asDave);
    expect(proxied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(proxied.data?.notificationCreate ?? null).toBeNull();
    // An email setting has no secret: the administrator may make it.
    const mail = await gql(t.app, CREATE, { ...hook, type: 2, m: '{"email":"dave@example.test"}' }, asDave);
    expect(mail.data).toEqual({ notificationCreate: { key: expect.any(String), secret: null } });

    const own = await gql<{ notificationCreate: { key: string; secret: string } }>(
      t.app,
      CREATE,
      hook,
      bearer(dave.token),
    );
    expect(own.data?.notificationCreate.secret).toMatch(/^whsec_/);
    const sealed = async () =>
      (
        await t.services.db.$client.query('select secret from notifications where key = $1', [
          own.data?.notificationCreate.key,
        ])
      ).rows[0]?.secret;
    const before = await sealed();
    const ROTATE = 'mutation($k: String!) { notificationSecretRotate(key: $k) { secret } }';
    const rotated = await gql(t.app, ROTATE, { k: own.data?.notificationCreate.key }, asDave);
    expect(rotated.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(rotated.data?.notificationSecretRotate ?? null).toBeNull();
    const token = await gql<{ userTokenCreate: { secret: string } }>(
      t.app,
      'mutation { userTokenCreate(metadata: {name: "script"}) { secret } }',
      {},
      bearer(dave.token),
    );
    const byToken = await gql(
      t.app,
      ROTATE,
      { k: own.data?.notificationCreate.key },
      bearer(token.data?.userTokenCreate.secret ?? ''),
    );
    expect(byToken.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await sealed()).toEqual(before);
    // The owner rotates it.
    const mine = await gql<{ notificationSecretRotate: { secret: string } }>(
      t.app,
      ROTATE,
      { k: own.data?.notificationCreate.key },
      bearer(dave.token),
    );
    expect(mine.data?.notificationSecretRotate.secret).toMatch(/^whsec_/);
  });

  it("never sends a webhook's signed notifications elsewhere while proxied, nor for an API token", async () => {
    const frank = await confirmedUser(t, 'frank@example.test');
    const asFrank = await proxiedAs('frank@example.test');
    const paper = await gql<{ connectorActivate: { key: string; accounts: string } }>(
      t.app,
      'mutation { connectorActivate(providerName: "paper", credentials: []) { key accounts } }',
      {},
      bearer(frank.token),
    );
    const connectorKey = paper.data?.connectorActivate.key ?? '';
    const accountId = (JSON.parse(paper.data?.connectorActivate.accounts ?? '[]') as Array<{ id: string }>)[0]?.id;
    const own = await gql<{ notificationCreate: { key: string } }>(
      t.app,
      `mutation($k: String!, $a: String!, $m: String!) {
        notificationCreate(connectorKey: $k, accountId: $a, type: 1, metadata: $m) { key } }`,
      { k: connectorKey, a: accountId, m: JSON.stringify({ url: 'https://example.com/frank' }) },
      bearer(frank.token),
    );
    const key = own.data?.notificationCreate.key ?? '';
    const UPDATE = 'mutation($k: String!, $m: String!) { notificationUpdate(key: $k, metadata: $m) { metadata } }';
    const elsewhere = JSON.stringify({ url: 'https://example.org/collector' });
    const stored = async () =>
      (await t.services.db.$client.query('select metadata from notifications where key = $1', [key])).rows[0]?.metadata;
    const proxied = await gql(t.app, UPDATE, { k: key, m: elsewhere }, asFrank);
    expect(proxied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const token = await gql<{ userTokenCreate: { secret: string } }>(
      t.app,
      'mutation { userTokenCreate(metadata: {name: "script"}) { secret } }',
      {},
      bearer(frank.token),
    );
    const byToken = await gql(
      t.app,
      UPDATE,
      { k: key, m: elsewhere },
      bearer(token.data?.userTokenCreate.secret ?? ''),
    );
    expect(byToken.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await stored()).toEqual({ url: 'https://example.com/frank' });
    // The same receiver with other events is no new destination: the administrator may help there.
    const events = JSON.stringify({ url: 'https://example.com/frank', events: ['order.filled'] });
    expect((await gql(t.app, UPDATE, { k: key, m: events }, asFrank)).errors).toBeUndefined();
    // The owner moves it.
    const mine = await gql(t.app, UPDATE, { k: key, m: elsewhere }, bearer(frank.token));
    expect(mine.errors).toBeUndefined();
    expect(await stored()).toEqual({ url: 'https://example.org/collector' });
  });

  it("records a notification's webhook URL by its origin only: its path and query may be the receiver's secret", async () => {
    const owner = await confirmedUser(t, 'audit-url@example.test');
    const asOwner = await proxiedAs('audit-url@example.test');
    const paper = await gql<{ connectorActivate: { key: string; accounts: string } }>(
      t.app,
      'mutation { connectorActivate(providerName: "paper", credentials: []) { key accounts } }',
      {},
      bearer(owner.token),
    );
    const connectorKey = paper.data?.connectorActivate.key ?? '';
    const accountId = (JSON.parse(paper.data?.connectorActivate.accounts ?? '[]') as Array<{ id: string }>)[0]?.id;
    const url = 'https://hooks.example.com/services/T0/B0/pathSecret42?token=querySecret42';
    const own = await gql<{ notificationCreate: { key: string } }>(
      t.app,
      `mutation($k: String!, $a: String!, $m: String!) {
        notificationCreate(connectorKey: $k, accountId: $a, type: 1, metadata: $m) { key } }`,
      { k: connectorKey, a: accountId, m: JSON.stringify({ url }) },
      bearer(owner.token),
    );
    const key = own.data?.notificationCreate.key ?? '';
    // The administrator changes the events of the same receiver (allowed while proxied).
    const updated = await gql(
      t.app,
      'mutation($k: String!, $m: String!) { notificationUpdate(key: $k, metadata: $m) { key } }',
      { k: key, m: JSON.stringify({ url, events: ['order.filled'] }) },
      asOwner,
    );
    expect(updated.errors).toBeUndefined();
    const [entry] = await latestAudit(1);
    expect(entry?.details).not.toMatch(/Secret42/);
    const details = JSON.parse(entry?.details ?? '') as {
      mutation: string;
      arguments: { key: string; metadata: string };
    };
    expect(details.mutation).toBe('notificationUpdate');
    expect(JSON.parse(details.arguments.metadata)).toEqual({
      url: 'https://hooks.example.com/[redacted]',
      events: ['order.filled'],
    });
  });

  it("never connects a broker with a login while proxied: it would be the administrator's, in the user's account", async () => {
    const hank = await confirmedUser(t, 'hank@example.test');
    const asHank = await proxiedAs('hank@example.test');
    const ACTIVATE = `mutation($p: String!, $c: [String!]!) {
      connectorActivate(providerName: $p, credentials: $c) { key providerName } }`;
    const connectors = async () =>
      (
        await t.services.db.$client.query<{ provider_name: string }>(
          'select provider_name from connectors where user_id = $1 order by id',
          [hank.id],
        )
      ).rows.map((row) => row.provider_name);
    const refused = await gql(t.app, ACTIVATE, { p: 'keyfake', c: ['admins-key', 'sekret-ok'] }, asHank);
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(refused.data?.connectorActivate ?? null).toBeNull();
    expect(await connectors()).toEqual([]);
    // Paper trading needs no login: the administrator may set it up.
    const paper = await gql(t.app, ACTIVATE, { p: 'paper', c: [] }, asHank);
    expect(paper.data?.connectorActivate).toMatchObject({ providerName: 'paper' });
    // The owner connects their broker.
    const own = await gql(t.app, ACTIVATE, { p: 'keyfake', c: ['hanks-key', 'sekret-ok'] }, bearer(hank.token));
    expect(own.data?.connectorActivate).toMatchObject({ providerName: 'keyfake' });
    expect(await connectors()).toEqual(['paper', 'keyfake']);
  });

  it('honours X-User only once adminProxyStart recorded it, in that sign-in session, until adminProxyEnd', async () => {
    const gina = await confirmedUser(t, 'gina@example.test');
    const asGina = bearer(admin.token, { 'x-user': 'gina@example.test' });
    const ginaName = async () =>
      (await gql<{ user: { firstName: string | null } }>(t.app, '{ user { firstName } }', {}, bearer(gina.token))).data
        ?.user.firstName;
    const refusedAsGina = async () => {
      const before = await footprint(t);
      const read = await gql(t.app, '{ user { email } }', {}, asGina);
      expect(read.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(read.data?.user ?? null).toBeNull();
      const renamed = await gql(t.app, RENAME, { firstName: 'Unrecorded' }, asGina);
      expect(renamed.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(await ginaName()).toBeNull();
      expect(await footprint(t)).toEqual(before);
    };
    // Never applied: the header alone acts as nobody, and records nothing.
    await refusedAsGina();

    // Applied in another sign-in session of the administrator: not in this one.
    const other = await gql<{ signin: { token: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'admin@example.test', password: STRONG_PASSWORD },
    });
    const otherToken = other.data?.signin.token ?? '';
    expect(otherToken).not.toBe('');
    await proxiedAs('gina@example.test', otherToken);
    await refusedAsGina();

    // Applied here: honoured, each mutation recorded.
    await proxiedAs('gina@example.test');
    const me = await gql(t.app, '{ user { email } }', {}, asGina);
    expect(me.data).toEqual({ user: { email: 'gina@example.test' } });

    // Reset: refused again, in every session.
    expect((await gql(t.app, PROXY_END, { email: 'gina@example.test' }, bearer(admin.token))).data).toEqual({
      adminProxyEnd: true,
    });
    await refusedAsGina();
    const otherAsGina = await gql(
      t.app,
      '{ user { email } }',
      {},
      bearer(otherToken, { 'x-user': 'gina@example.test' }),
    );
    expect(otherAsGina.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it("ends the proxy open in this session at Reset, even when the user's email changed meanwhile", async () => {
    const ivan = await confirmedUser(t, 'ivan@example.test');
    await proxiedAs('ivan@example.test');
    // Ivan moves to another address while the administrator acts as him.
    await t.services.db.$client.query('update users set email = $2 where id = $1', [ivan.id, 'ivan2@example.test']);
    const [before] = await latestAudit(1);
    // Reset names the email the admin screen kept: it no longer names anyone.
    const reset = await gql(t.app, PROXY_END, { email: 'ivan@example.test' }, bearer(admin.token));
    expect(reset.data).toEqual({ adminProxyEnd: true });
    // Before, the 'proxy off' named nobody and Ivan's proxy stayed open: X-User with his new
    // address still acted as him, with no record that it began again.
    const asIvan = await gql(t.app, '{ user { email } }', {}, bearer(admin.token, { 'x-user': 'ivan2@example.test' }));
    expect(asIvan.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(asIvan.data?.user ?? null).toBeNull();
    const ended = (await latestAudit(20)).filter((e) => e.id > (before?.id ?? 0) && e.targetEmail?.startsWith('ivan'));
    expect(ended.map((e) => [e.action, e.targetEmail]).sort()).toEqual([
      ['proxy_off', 'ivan2@example.test'],
      ['proxy_off', 'ivan@example.test'],
    ]);
  });

  it("is FORBIDDEN with a personal API token, even an administrator's, and changes nothing", async () => {
    const created = await gql<{ userTokenCreate: { secret: string } }>(
      t.app,
      'mutation { userTokenCreate(metadata: {name: "script"}) { secret } }',
      {},
      bearer(admin.token),
    );
    const api = created.data?.userTokenCreate.secret ?? '';
    expect(api).not.toBe('');
    const before = await footprint(t);
    const asBob = bearer(api, { 'x-user': 'bob@example.test' });
    const read = await gql(t.app, '{ user { email } }', {}, asBob);
    expect(read.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(read.errors?.[0]?.message).toMatch(/sign in to the dashboard/i);
    const renamed = await gql(t.app, RENAME, { firstName: 'Scripted' }, asBob);
    expect(renamed.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const bobUser = await gql<{ user: { firstName: string | null } }>(
      t.app,
      '{ user { firstName } }',
      {},
      bearer(bob.token),
    );
    expect(bobUser.data?.user.firstName).not.toBe('Scripted');
    expect(await footprint(t)).toEqual(before);
    // The token still works for its own account.
    const own = await gql(t.app, '{ user { email } }', {}, bearer(api));
    expect(own.data).toEqual({ user: { email: 'admin@example.test' } });
  });

  it('is FORBIDDEN to a customer, whose X-User changes nothing', async () => {
    const before = await footprint(t);
    const res = await gql(
      t.app,
      RENAME,
      { firstName: 'Mallory' },
      bearer(bob.token, { 'x-user': 'admin@example.test' }),
    );
    expect(res.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const adminUser = await gql<{ user: { firstName: string | null } }>(
      t.app,
      '{ user { firstName } }',
      {},
      bearer(admin.token),
    );
    expect(adminUser.data?.user.firstName).toBeNull();
    expect(await footprint(t)).toEqual(before);
  });

  it("records no source address in the user's activity log for what the administrator does as them", async () => {
    const ivy = await confirmedUser(t, 'ivy@example.test');
    const asIvy = await proxiedAs('ivy@example.test');
    const paper = await gql<{ connectorActivate: { key: string; accounts: string } }>(
      t.app,
      'mutation { connectorActivate(providerName: "paper", credentials: []) { key accounts } }',
      {},
      bearer(ivy.token),
    );
    const connectorKey = paper.data?.connectorActivate.key ?? '';
    const accountId = (JSON.parse(paper.data?.connectorActivate.accounts ?? '[]') as Array<{ id: string }>)[0]?.id;
    const created = await gql<{ hookCreate: { key: string } }>(
      t.app,
      'mutation($c: String!, $a: String!) { hookCreate(connectorKey: $c, accountId: $a, name: "By support") { key } }',
      { c: connectorKey, a: accountId },
      asIvy,
    );
    const hookKey = created.data?.hookCreate.key ?? '';
    expect(hookKey).toBeTruthy();
    const steps = [
      ['mutation($k: String!) { hookDelete(key: $k) }', { k: hookKey }],
      ['mutation { hooksPause(reason: "support") }', {}],
      ['mutation($k: String!) { connectorDelete(key: $k) }', { k: connectorKey }],
    ] as const;
    for (const [query, variables] of steps)
      expect((await gql(t.app, query, variables, asIvy)).errors, query).toBeUndefined();
    const { rows } = await t.services.db.$client.query(
      'select code, address from actions where user_id = $1 order by id',
      [ivy.id],
    );
    const byAdmin = rows.filter((row) =>
      ['HookCreate', 'HookDelete', 'HooksPause', 'ConnectorDelete'].includes(row.code),
    );
    expect(byAdmin.map((row) => row.code)).toEqual(['HookCreate', 'HookDelete', 'HooksPause', 'ConnectorDelete']);
    expect(byAdmin.map((row) => row.address)).toEqual([null, null, null, null]);
    // The user's own call keeps its address.
    expect(rows.find((row) => row.code === 'ConnectorActivate')?.address).toBeTruthy();
  });
});
