// Every admin call as the administrator, as a customer and anonymously; rewards and professional
// status with bad input; the audit log's paging and its refusal of edits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT,
  type AuditEntry,
  balanceOf,
  expectRefusal,
  footprint,
  ledgerOf,
  PROFESSIONAL,
  PROXY_END,
  PROXY_START,
  REFERRER_CREATE,
  REFERRER_DELETE,
  REWARD,
  readAudit,
  STATS,
} from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql, SIGNUP, STRONG_PASSWORD } from '../../../test/identity.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof confirmedUser>>;
let bob: Awaited<ReturnType<typeof confirmedUser>>;
let adminApiToken = '';
beforeAll(async () => {
  t = await startTestApp();
  admin = await confirmedUser(t, 'admin@example.test');
  bob = await confirmedUser(t, 'bob@example.test');
  const created = await gql<{ userTokenCreate: { secret: string } }>(
    t.app,
    'mutation { userTokenCreate(metadata: {name: "admin script"}) { secret } }',
    {},
    asAdmin(),
  );
  adminApiToken = created.data?.userTokenCreate.secret ?? '';
});
afterAll(() => t.close());

const asAdmin = () => bearer(admin.token);
const asBob = () => bearer(bob.token);

const auditLog = (limit?: number, from?: number) => readAudit(t, admin.token, limit, from);

/** Every admin call with valid input (it would succeed for an administrator). */
const CALLS: Array<[string, string, Record<string, unknown>]> = [
  ['adminAccountReward', REWARD, { email: 'bob@example.test', credits: 25 }],
  ['adminReferrerCreate', REFERRER_CREATE, { name: 'Spring', credits: 100 }],
  ['adminReferrerDelete', REFERRER_DELETE, { ref: 'abcdefgh' }],
  ['adminReferrerStatsReport', STATS, {}],
  ['adminProxyStart', PROXY_START, { email: 'bob@example.test' }],
  ['adminProxyEnd', PROXY_END, { email: 'bob@example.test' }],
  ['adminUserProfessional', PROFESSIONAL, { email: 'bob@example.test', on: true }],
  ['adminAuditLog', AUDIT, {}],
  // The kill switch of every user is an admin call too.
  [
    'hooksPause(everyone)',
    'mutation($reason: String!) { hooksPause(reason: $reason, everyone: true) }',
    { reason: 'exchange outage' },
  ],
  ['hooksResume(everyone)', 'mutation { hooksResume(everyone: true) }', {}],
];

describe('who may call the admin API', () => {
  it('makes the first confirmed account the administrator, and only it', () => {
    expect(admin.group).toBe(5);
    expect(bob.group).toBe(4);
  });

  it.each(CALLS)(
    '%s: FORBIDDEN for a customer, UNAUTHENTICATED anonymously, and nothing changes',
    async (_n, doc, vars) => {
      const before = await footprint(t);
      const byCustomer = await gql(t.app, doc, vars, asBob());
      expect(byCustomer.data).toBeNull();
      expect(byCustomer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const anonymous = await gql(t.app, doc, vars);
      expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      // An API token of a customer is no way in either, nor naming the administrator as X-User.
      const proxied = await gql(t.app, doc, vars, bearer(bob.token, { 'x-user': 'admin@example.test' }));
      expect(proxied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      // Nor the administrator's own personal API token: a leaked one must not run the installation.
      const byToken = await gql(t.app, doc, vars, bearer(adminApiToken));
      expect(byToken.data ?? null).toBeNull();
      expect(byToken.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(await footprint(t)).toEqual(before);
    },
  );
});

describe('adminAccountReward', () => {
  it('adds the credits through the ledger, once, with an audit entry', async () => {
    const before = await balanceOf(t, 'bob@example.test');
    const res = await gql(t.app, REWARD, { email: ' BOB@example.test ', credits: 25 }, asAdmin());
    expect(res).toEqual({ data: { adminAccountReward: true } });
    expect(await balanceOf(t, 'bob@example.test')).toBe(before + 25);
    const [entry] = await auditLog(1);
    expect(entry).toMatchObject({
      adminEmail: 'admin@example.test',
      targetEmail: 'bob@example.test',
      action: 'reward',
    });
    expect(JSON.parse(entry?.details ?? '')).toEqual({ credits: 25 });
    const ledger = await ledgerOf(t, 'bob@example.test');
    expect(ledger.at(-1)).toEqual({ cause: 'reward', credits: 25, reference: `audit:${entry?.id}` });
    expect(ledger.reduce((sum, row) => sum + row.credits, 0)).toBe(before + 25);
    // The balance every screen reads agrees.
    const account = await gql<{ account: { balance: number } }>(t.app, '{ account { balance } }', {}, asBob());
    expect(account.data?.account.balance).toBe(before + 25);
  });

  it.each([
    [{ email: 'nobody@example.test', credits: 25 }, 'User not registered or not activated'],
    [{ email: 'not an email', credits: 25 }, 'Invalid email'],
    [{ email: '', credits: 25 }, 'Required'],
    [{ email: 'bob@example.test', credits: 0 }, 'Must be greater than 0'],
    [{ email: 'bob@example.test', credits: -5 }, 'Must be greater than 0'],
    [{ email: 'bob@example.test', credits: 1_000_001 }, 'At most 1000000'],
    // Credits are a GraphQL Int: a fraction or a number beyond 32 bits never reaches the resolver.
    [{ email: 'bob@example.test', credits: 2.5 }, /Int cannot represent non-integer value: 2.5/],
    [{ email: 'bob@example.test', credits: 1e12 }, /Int cannot represent non 32-bit signed integer value/],
  ])('refuses %o with "%s" and changes nothing', async (vars, message) => {
    const before = await footprint(t);
    expectRefusal(await gql(t.app, REWARD, vars, asAdmin()), message);
    expect(await footprint(t)).toEqual(before);
  });

  it('grants once for a resubmission with the same idempotency key (a lost answer, a double click)', async () => {
    const KEYED = `mutation($email: String!, $credits: Int!, $key: String) {
      adminAccountReward(email: $email, credits: $credits, idempotencyKey: $key)
    }`;
    const before = await balanceOf(t, 'bob@example.test');
    const [newest] = await auditLog(1);
    const vars = { email: 'bob@example.test', credits: 7, key: 'form-submission-0001' };
    // Two at once (a double click), then one more (a retry after the answer was lost).
    const twice = await Promise.all([gql(t.app, KEYED, vars, asAdmin()), gql(t.app, KEYED, vars, asAdmin())]);
    expect(twice).toEqual([{ data: { adminAccountReward: true } }, { data: { adminAccountReward: true } }]);
    expect(await gql(t.app, KEYED, { ...vars, email: 'BOB@example.test' }, asAdmin())).toEqual({
      data: { adminAccountReward: true },
    });
    expect(await balanceOf(t, 'bob@example.test')).toBe(before + 7);
    const entries = (await auditLog(5)).filter((e) => e.id > (newest?.id ?? 0));
    expect(entries.map((e) => [e.action, JSON.parse(e.details)])).toEqual([
      ['reward', { credits: 7, idempotencyKey: 'form-submission-0001' }],
    ]);
    expect(
      (await ledgerOf(t, 'bob@example.test')).filter((r) => r.reference === 'request:form-submission-0001'),
    ).toEqual([{ cause: 'reward', credits: 7, reference: 'request:form-submission-0001' }]);
    // The same key for other values is a mistake, not a repeat: refused, nothing granted.
    const other = await gql(t.app, KEYED, { ...vars, credits: 8 }, asAdmin());
    expect(other.errors?.[0]?.message).toBe('This idempotency key was used for another reward');
    expectRefusal(await gql(t.app, KEYED, { ...vars, key: 'short' }, asAdmin()), /idempotency key must be 8 to 64/);
    expect(await balanceOf(t, 'bob@example.test')).toBe(before + 7);
    // A new submission (a new key) grants again.
    expect((await gql(t.app, KEYED, { ...vars, key: 'form-submission-0002' }, asAdmin())).data).toEqual({
      adminAccountReward: true,
    });
    expect(await balanceOf(t, 'bob@example.test')).toBe(before + 14);
  });

  it('refuses the same idempotency key for two users, even sent at once, and grants it once', async () => {
    const KEYED = `mutation($email: String!, $credits: Int!, $key: String) {
      adminAccountReward(email: $email, credits: $credits, idempotencyKey: $key)
    }`;
    await confirmedUser(t, 'carol@example.test');
    const before = { bob: await balanceOf(t, 'bob@example.test'), carol: await balanceOf(t, 'carol@example.test') };
    const key = 'form-submission-two-users';
    const answers = await Promise.all([
      gql(t.app, KEYED, { email: 'bob@example.test', credits: 3, key }, asAdmin()),
      gql(t.app, KEYED, { email: 'carol@example.test', credits: 3, key }, asAdmin()),
    ]);
    // One is granted, the other refused with the validation error (never an internal error).
    expect(answers.filter((a) => a.data?.adminAccountReward === true)).toHaveLength(1);
    const refused = answers.find((a) => a.errors);
    expect(refused?.errors?.[0]).toMatchObject({
      message: 'This idempotency key was used for another reward',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const after = { bob: await balanceOf(t, 'bob@example.test'), carol: await balanceOf(t, 'carol@example.test') };
    expect(after.bob - before.bob + after.carol - before.carol).toBe(3);
    // And one after the other: the second user is refused as well, nothing granted.
    const again = await gql(t.app, KEYED, { email: 'carol@example.test', credits: 3, key: `${key}-2` }, asAdmin());
    expect(again.data).toEqual({ adminAccountReward: true });
    const other = await gql(t.app, KEYED, { email: 'bob@example.test', credits: 3, key: `${key}-2` }, asAdmin());
    expect(other.errors?.[0]?.message).toBe('This idempotency key was used for another reward');
    expect(await balanceOf(t, 'bob@example.test')).toBe(after.bob);
  });

  it('refuses an unconfirmed user', async () => {
    await gql(t.app, SIGNUP, { credentials: { email: 'pending@example.test', password: STRONG_PASSWORD } });
    const res = await gql(t.app, REWARD, { email: 'pending@example.test', credits: 25 }, asAdmin());
    expect(res.errors?.[0]?.message).toBe('User not registered or not activated');
    expect(await balanceOf(t, 'pending@example.test')).toBe(5);
  });
});

describe('adminUserProfessional', () => {
  it('grants and removes group 16, each recorded', async () => {
    const on = await gql(t.app, PROFESSIONAL, { email: 'bob@example.test', on: true }, asAdmin());
    expect(on.data).toEqual({ adminUserProfessional: { email: 'bob@example.test', group: 20 } });
    const me = await gql<{ user: { group: number } }>(t.app, '{ user { group } }', {}, asBob());
    expect(me.data?.user.group).toBe(20);
    const off = await gql(t.app, PROFESSIONAL, { email: 'bob@example.test', on: false }, asAdmin());
    expect(off.data).toEqual({ adminUserProfessional: { email: 'bob@example.test', group: 4 } });
    const [removed, granted] = await auditLog(2);
    expect([granted?.action, removed?.action]).toEqual(['professional_grant', 'professional_remove']);
    expect(removed?.targetEmail).toBe('bob@example.test');
    const unknown = await gql(t.app, PROFESSIONAL, { email: 'nobody@example.test', on: true }, asAdmin());
    expect(unknown.errors?.[0]?.message).toBe('User not registered or not activated');
    // Removing it again changes nothing, and the log says nothing happened: before, a second
    // 'Professional status removed' read as if Bob had had it again in between.
    const again = await gql(t.app, PROFESSIONAL, { email: 'bob@example.test', on: false }, asAdmin());
    expect(again.data).toEqual({ adminUserProfessional: { email: 'bob@example.test', group: 4 } });
    const [newest] = await auditLog(1);
    expect(newest?.id).toBe(removed?.id);
  });
});

describe('hooksPause / hooksResume of everyone', () => {
  const PAUSE = 'mutation($reason: String!, $everyone: Boolean) { hooksPause(reason: $reason, everyone: $everyone) }';
  const RESUME = 'mutation($everyone: Boolean) { hooksResume(everyone: $everyone) }';

  it("an administrator's kill switch of every user is recorded, a user's own pause is not", async () => {
    const paused = await gql(t.app, PAUSE, { reason: 'exchange outage', everyone: true }, asAdmin());
    expect(paused.errors).toBeUndefined();
    const [pause] = await auditLog(1);
    expect(pause).toMatchObject({ action: 'hooks_pause_all', adminEmail: 'admin@example.test', targetEmail: null });
    expect(JSON.parse(pause?.details ?? '')).toMatchObject({ reason: 'exchange outage' });

    const resumed = await gql(t.app, RESUME, { everyone: true }, asAdmin());
    expect(resumed.errors).toBeUndefined();
    const [resume] = await auditLog(1);
    expect(resume).toMatchObject({ action: 'hooks_resume_all', adminEmail: 'admin@example.test', targetEmail: null });

    const count = (await auditLog(100)).length;
    expect((await gql(t.app, PAUSE, { reason: 'my own', everyone: false }, asBob())).errors).toBeUndefined();
    expect((await gql(t.app, RESUME, {}, asBob())).errors).toBeUndefined();
    expect(await auditLog(100)).toHaveLength(count);
  });
});

describe('adminAuditLog', () => {
  it('pages newest first like actions, and the table refuses edits', async () => {
    // Five entries of its own: pages of two end on a partial page, whatever ran before.
    for (let i = 0; i < 5; i++) await gql(t.app, STATS, {}, asAdmin());
    const all = await auditLog(100);
    expect(all.length).toBeGreaterThanOrEqual(5);
    const times = all.map((e) => e.createdAt);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const entry of all.slice(0, 5)) {
      expect(entry).toMatchObject({ action: 'stats_download', adminEmail: 'admin@example.test', targetEmail: null });
    }

    const pages: AuditEntry[] = [];
    let from: number | undefined;
    for (;;) {
      const page = await auditLog(2, from);
      if (page.length === 0) break;
      pages.push(...page);
      from = page.at(-1)?.createdAt;
    }
    expect(pages.map((e) => e.id)).toEqual(all.map((e) => e.id));

    const bad = await gql(t.app, AUDIT, { limit: 0 }, asAdmin());
    expect(bad.errors?.[0]?.message).toBe('Limit must be between 1 and 100');
    // A time no timestamp can hold is bad input, never a database error; the far future pages from the newest.
    for (const from of [1e300, -1e300]) {
      const outside = await gql(t.app, AUDIT, { from }, asAdmin());
      expect(outside.errors?.[0]).toMatchObject({
        message: 'Invalid createdAtFrom',
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    expect((await auditLog(100, 8.64e15)).map((e) => e.id)).toEqual(all.map((e) => e.id));

    for (const statement of [
      "update admin_audit_log set action = 'nothing'",
      'delete from admin_audit_log',
      'truncate admin_audit_log',
    ]) {
      await expect(t.services.db.$client.query(statement)).rejects.toThrow(/append-only/);
    }
    expect((await auditLog(100)).map((e) => e.id)).toEqual(all.map((e) => e.id));
  });
});
