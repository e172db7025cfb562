// Bearer credentials (sessions, API tokens), the admin proxy header, and rate limits: wrong,
// expired, revoked and other users' credentials fail cleanly.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PROXY_START } from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, type GqlResult, gql, SIGNIN, SIGNUP, STRONG_PASSWORD } from '../../../test/identity.ts';
import { RULES } from './rate-limit.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof confirmedUser>>;
let alice: Awaited<ReturnType<typeof confirmedUser>>;
beforeAll(async () => {
  t = await startTestApp();
  admin = await confirmedUser(t, 'admin@example.test');
  alice = await confirmedUser(t, 'alice@example.test');
});
afterAll(() => t.close());

const USER = '{ user { email } }';
const TOKENS = '{ userTokens { key suffix createdAt metadata userApp { key } } }';

describe('bearer tokens', () => {
  it('refuses unknown, malformed, expired and revoked tokens with UNAUTHENTICATED and no stack', async () => {
    const expiring = await gql<{ signin: { token: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'alice@example.test', password: STRONG_PASSWORD },
    });
    await t.services.db.$client.query(
      `update sessions set expires_at = now() - interval '1 second' where id = (select max(id) from sessions)`,
    );
    for (const headers of [
      bearer('x'.repeat(43)),
      bearer(expiring.data?.signin.token ?? ''),
      { authorization: 'Basic abc' },
      { authorization: 'Bearer' },
      {},
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/graphql', payload: { query: USER }, headers });
      expect(res.json().errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(res.body).not.toMatch(/\.ts:\d+|stack/);
    }
    // Public operations still work with a stale token.
    const est = await gql(t.app, 'mutation { authPasswordEstimate(password: "abcd") }', {}, bearer('x'.repeat(43)));
    expect(est.errors).toBeUndefined();
  });

  it('creates, lists, uses, renames and deletes API tokens', async () => {
    const created = await gql<{ userTokenCreate: { key: string; secret: string } }>(
      t.app,
      'mutation($m: JSON) { userTokenCreate(metadata: $m) { key secret } }',
      { m: { name: 'bot' } },
      bearer(alice.token),
    );
    const { key, secret } = created.data?.userTokenCreate ?? { key: '', secret: '' };
    expect(secret).toMatch(/^[\w-]{43}$/);
    const list = await gql<{ userTokens: Array<Record<string, unknown>> }>(t.app, TOKENS, {}, bearer(alice.token));
    expect(list.data?.userTokens).toEqual([
      { key, suffix: secret.slice(-4), createdAt: expect.any(Number), metadata: { name: 'bot' }, userApp: null },
    ]);
    expect(JSON.stringify(list)).not.toContain(secret);
    expect((await gql(t.app, USER, {}, bearer(secret))).data).toEqual({ user: { email: 'alice@example.test' } });
    // Sign-out with an API token does not delete it.
    await gql(t.app, 'mutation { signout }', {}, bearer(secret));
    expect((await gql(t.app, USER, {}, bearer(secret))).data).toEqual({ user: { email: 'alice@example.test' } });

    const renamed = await gql(
      t.app,
      'mutation($k: String!) { userTokenUpdate(key: $k, metadata: {name: "robot"}) { metadata } }',
      { k: key },
      bearer(alice.token),
    );
    expect(renamed.errors).toBeUndefined();
    expect(renamed.data).toEqual({ userTokenUpdate: { metadata: { name: 'robot' } } });

    // Another user sees, renames and deletes nothing of it.
    const theirs = await gql(
      t.app,
      'query($k: String!) { userToken(key: $k) { key } }',
      { k: key },
      bearer(admin.token),
    );
    expect(theirs.data).toEqual({ userToken: null });
    const del = 'mutation($k: String!) { userTokenDelete(key: $k) }';
    expect((await gql(t.app, del, { k: key }, bearer(admin.token))).data).toEqual({ userTokenDelete: false });
    expect((await gql(t.app, del, { k: key }, bearer(alice.token))).data).toEqual({ userTokenDelete: true });
    expect((await gql(t.app, USER, {}, bearer(secret))).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('admin proxy (X-User)', () => {
  it('acts as the user for an administrator and logs it', async () => {
    expect(admin.group & 1).toBe(1);
    const started = await gql(t.app, PROXY_START, { email: 'alice@example.test' }, bearer(admin.token));
    expect(started.data).toEqual({ adminProxyStart: 'alice@example.test' });
    const info = vi.spyOn(t.services.log, 'info');
    const res = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: 'query Me { user { email } }', operationName: 'Me' },
      headers: bearer(admin.token, { 'x-user': 'ALICE@example.test' }),
    });
    expect(res.json()).toEqual({ data: { user: { email: 'alice@example.test' } } });
    expect(info).toHaveBeenCalledWith(
      { adminId: admin.id, userId: alice.id, operation: 'Me', requestId: expect.any(String) },
      'admin proxy request',
    );
    info.mockRestore();
  });

  it('forbids it to anyone else, and for unknown or unconfirmed emails', async () => {
    const byCustomer = await gql(t.app, USER, {}, bearer(alice.token, { 'x-user': 'admin@example.test' }));
    expect(byCustomer.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', status: 'ForbiddenError' });
    await gql(t.app, SIGNUP, { credentials: { email: 'pending@example.test', password: STRONG_PASSWORD } });
    for (const email of ['nobody@example.test', 'pending@example.test']) {
      const res = await gql(t.app, USER, {}, bearer(admin.token, { 'x-user': email }));
      expect(res.errors?.[0]).toMatchObject({
        message: 'User not registered or not activated',
        extensions: { code: 'FORBIDDEN' },
      });
    }
  });
});

describe('rate limits', () => {
  it('limits sign-in per address and email, and the estimate per address', async () => {
    // From an address of its own, so the counters filled here limit no other case.
    const ip = '192.0.2.7';
    const { limiter } = t.services.identity;
    const ask = async (query: string, variables: Record<string, unknown> = {}) =>
      (
        await t.app.inject({ method: 'POST', url: '/graphql', payload: { query, variables }, remoteAddress: ip })
      ).json<GqlResult>();
    for (let i = 0; i < RULES.signin.limit; i++) await limiter.take(`signin:${ip}:alice@example.test`, RULES.signin);
    const signin = await ask(SIGNIN, {
      type: 'password',
      credentials: { email: 'alice@example.test', password: STRONG_PASSWORD },
    });
    expect(signin.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    for (let i = 0; i < RULES.estimate.limit; i++) await limiter.take(`estimate:${ip}`, RULES.estimate);
    const estimate = await ask('mutation { authPasswordEstimate(password: "abcd") }');
    expect(estimate.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });

  it('counts an IPv6 /64 as one address: each attempt from a fresh address in it is still limited', async () => {
    const ask = async (ip: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/graphql',
          payload: {
            query: SIGNIN,
            variables: { type: 'password', credentials: { email: 'nobody6@example.test', password: 'wrong-password' } },
          },
          remoteAddress: ip,
        })
      ).json<GqlResult>();
    for (let i = 1; i <= RULES.signin.limit; i++) {
      expect((await ask(`2001:db8:9:9::${i.toString(16)}`)).errors?.[0]?.extensions?.code).not.toBe('RATE_LIMITED');
    }
    expect((await ask('2001:db8:9:9:ffff::1')).errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect((await ask('2001:db8:9:a::1')).errors?.[0]?.extensions?.code).not.toBe('RATE_LIMITED');
  });
});
