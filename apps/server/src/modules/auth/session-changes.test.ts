// Two instances on one database: what ends or changes a sign-in session on one instance holds on
// the other at once (session_changed), not after the other's cache lifetime. Date is frozen so
// that no cached entry can lapse on its own: only the notification can end it.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PROFESSIONAL } from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql, SIGNIN, STRONG_PASSWORD } from '../../../test/identity.ts';

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await startTestApp();
  b = await startTestApp({ database: a.database });
  await b.app.ready();
});
afterAll(async () => {
  await b.close();
  await a.close();
});
afterEach(() => vi.useRealTimers());

const ME = '{ user { email } }';
const code = (res: { errors?: { extensions?: Record<string, unknown> }[] }) => res.errors?.[0]?.extensions?.code;

/**
 * Polls until `check` passes: only a notification can make it pass while Date stands still (not
 * vi.waitFor, which moves the fake clock on at every try).
 */
async function eventually(check: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await check();
    } catch (error) {
      if (attempt >= 200) throw error;
      await sleep(50);
    }
  }
}

describe('sessions across instances', () => {
  it('a session signed out on one instance opens nothing on the other', async () => {
    const { token } = await confirmedUser(a, 'two-places@example.test');
    expect((await gql(b.app, ME, {}, bearer(token))).data).toEqual({ user: { email: 'two-places@example.test' } });
    vi.useFakeTimers({ toFake: ['Date'] });
    expect(await gql(a.app, 'mutation { signout }', {}, bearer(token))).toEqual({ data: { signout: true } });
    await eventually(async () => expect(code(await gql(b.app, ME, {}, bearer(token)))).toBe('UNAUTHENTICATED'));
  });

  it("a password change on one instance ends the user's other sessions on the other", async () => {
    const email = 'changer@example.test';
    const { token: kept } = await confirmedUser(a, email);
    const other = await gql<{ signin: { token: string } }>(b.app, SIGNIN, {
      type: 'password',
      credentials: { email, password: STRONG_PASSWORD },
    });
    const ended = other.data?.signin.token ?? '';
    expect(code(await gql(b.app, ME, {}, bearer(ended)))).toBeUndefined();
    vi.useFakeTimers({ toFake: ['Date'] });
    const changed = await gql(
      a.app,
      'mutation($p: String!, $n: String!) { userPasswordUpdate(password: $p, newPassword: $n, newPassword2: $n) }',
      { p: STRONG_PASSWORD, n: 'Harbor-Velvet-Orchid-77?' },
      bearer(kept),
    );
    expect(changed.data).toEqual({ userPasswordUpdate: true });
    await eventually(async () => expect(code(await gql(b.app, ME, {}, bearer(ended)))).toBe('UNAUTHENTICATED'));
    expect(code(await gql(b.app, ME, {}, bearer(kept)))).toBeUndefined();
  });

  it('a status removed by an administrator on one instance is refused on the other', async () => {
    const { token: admin } = await confirmedUser(a, 'first-admin@example.test');
    await a.services.db.$client.query(
      `update users set "group" = "group" | 1 where email = 'first-admin@example.test'`,
    );
    const user = await confirmedUser(a, 'former-pro@example.test');
    const grant = (on: boolean) => gql(a.app, PROFESSIONAL, { email: 'former-pro@example.test', on }, bearer(admin));
    expect((await grant(true)).errors).toBeUndefined();
    const create = (name: string) =>
      gql(
        b.app,
        'mutation($name: String!, $r: String!) { userAppCreate(name: $name, redirectUrl: $r) { key } }',
        { name, r: 'https://apps.example.com/cb' },
        bearer(user.token),
      );
    expect(code(await create('While professional'))).toBeUndefined();
    vi.useFakeTimers({ toFake: ['Date'] });
    expect((await grant(false)).errors).toBeUndefined();
    await eventually(async () => expect(code(await create('After'))).toBe('FORBIDDEN'));
  });
});
