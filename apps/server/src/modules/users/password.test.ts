// Settings' password change: the current password is required, SPEC §5 rules for the new one,
// and every other session of the user ends while the caller's own stays.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PROXY_START } from '../../../test/admin-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql, SIGNIN, STRONG_PASSWORD } from '../../../test/identity.ts';
import { SIGNIN_EXPIRED } from '../auth/complete-signin.ts';
import { RULES } from '../auth/rate-limit.ts';
import { ACCOUNT_SIGNIN_LIMITED, accountSigninKey } from '../auth/signin.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

const CHANGE = `mutation($password: String!, $newPassword: String!, $newPassword2: String!) {
  userPasswordUpdate(password: $password, newPassword: $newPassword, newPassword2: $newPassword2)
}`;
const NEW_PASSWORD = 'Harbor-Velvet-Orchid-77?';
const ME = '{ user { email } }';

async function signIn(email: string, password: string) {
  return gql<{ signin: { token: string } }>(t.app, SIGNIN, { type: 'password', credentials: { email, password } });
}

describe('password change', () => {
  it('checks the current password and the new one with SPEC messages', async () => {
    const { token } = await confirmedUser(t, 'checks@example.test');
    const change = (vars: Record<string, string>) => gql(t.app, CHANGE, vars, bearer(token));
    expect(
      (await gql(t.app, CHANGE, { password: 'x', newPassword: 'y', newPassword2: 'y' })).errors?.[0]?.extensions?.code,
    ).toBe('UNAUTHENTICATED');
    expect(
      (await change({ password: 'Wrong-Password-1!', newPassword: NEW_PASSWORD, newPassword2: NEW_PASSWORD }))
        .errors?.[0],
    ).toMatchObject({ message: 'The current password is not correct', extensions: { field: 'password' } });
    expect(
      (await change({ password: STRONG_PASSWORD, newPassword: NEW_PASSWORD, newPassword2: 'other' })).errors?.[0],
    ).toMatchObject({
      message: "Password confirmation doesn't match password.",
      extensions: { field: 'newPassword2' },
    });
    expect(
      (await change({ password: STRONG_PASSWORD, newPassword: 'password1', newPassword2: 'password1' })).errors?.[0],
    ).toMatchObject({ message: 'Password too weak.', extensions: { field: 'newPassword' } });
    expect(
      (await change({ password: '', newPassword: NEW_PASSWORD, newPassword2: NEW_PASSWORD })).errors?.[0],
    ).toMatchObject({
      message: 'Required',
      extensions: { field: 'password' },
    });
    // Nothing changed: the old password still signs in.
    expect((await signIn('checks@example.test', STRONG_PASSWORD)).data?.signin.token).toBeTruthy();
  });

  it("ends the other sessions, keeps the caller's and API tokens, and the new password signs in", async () => {
    const email = 'changer@example.test';
    const { token: here } = await confirmedUser(t, email);
    const elsewhere = (await signIn(email, STRONG_PASSWORD)).data?.signin.token ?? '';
    const api = await gql<{ userTokenCreate: { secret: string } }>(
      t.app,
      'mutation { userTokenCreate(metadata: {name: "bot"}) { secret } }',
      {},
      bearer(here),
    );
    expect((await gql(t.app, ME, {}, bearer(elsewhere))).data).toEqual({ user: { email } });

    const changed = await gql(
      t.app,
      CHANGE,
      { password: STRONG_PASSWORD, newPassword: NEW_PASSWORD, newPassword2: NEW_PASSWORD },
      bearer(here),
    );
    expect(changed.data).toEqual({ userPasswordUpdate: true });
    expect((await gql(t.app, ME, {}, bearer(elsewhere))).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await gql(t.app, ME, {}, bearer(here))).data).toEqual({ user: { email } });
    expect((await gql(t.app, ME, {}, bearer(api.data?.userTokenCreate.secret ?? ''))).data).toEqual({
      user: { email },
    });
    expect((await signIn(email, STRONG_PASSWORD)).errors?.[0]?.message).toBe('Wrong email or password');
    expect((await signIn(email, NEW_PASSWORD)).data?.signin.token).toBeTruthy();
  });

  it('leaves no session to a sign-in that checked the old password just before the change', async () => {
    const email = 'race@example.test';
    const { token: here } = await confirmedUser(t, email);
    const { limiter } = t.services.identity;
    const refund = limiter.refund.bind(limiter);
    let changedMeanwhile = false;
    // The moment between the old password's check and the session it makes: the owner changes it.
    const between = vi.spyOn(limiter, 'refund').mockImplementation(async (key, rule) => {
      if (key === accountSigninKey(email)) {
        between.mockRestore();
        const changed = await gql(
          t.app,
          CHANGE,
          { password: STRONG_PASSWORD, newPassword: NEW_PASSWORD, newPassword2: NEW_PASSWORD },
          bearer(here),
        );
        changedMeanwhile = changed.data?.userPasswordUpdate === true;
      }
      return refund(key, rule);
    });
    const raced = await signIn(email, STRONG_PASSWORD);
    expect(changedMeanwhile).toBe(true);
    expect(raced.data?.signin ?? null).toBeNull();
    expect(raced.errors?.[0]?.message).toBe(SIGNIN_EXPIRED);
    const { rows } = await t.services.db.$client.query(
      `select count(*)::int as live from sessions s join users u on u.id = s.user_id
       where u.email = $1 and s.kind = 'session' and s.revoked_at is null`,
      [email],
    );
    // Only the owner's own session is left.
    expect(rows).toEqual([{ live: 1 }]);
    expect((await gql(t.app, ME, {}, bearer(here))).data).toEqual({ user: { email } });
    expect((await signIn(email, NEW_PASSWORD)).data?.signin.token).toBeTruthy();
  });

  it('counts guesses at the current password against the sign-in budget of the account', async () => {
    const email = 'change-guesser@example.test';
    const { token } = await confirmedUser(t, email);
    const signinFrom = async (ip: string, password: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        payload: { query: SIGNIN, variables: { type: 'password', credentials: { email, password } } },
        remoteAddress: ip,
      });
      return (res.json() as { errors?: { message: string }[] }).errors?.[0]?.message ?? 'ok';
    };
    const spent = RULES.signinAccount.limit - 5;
    for (let i = 0; i < spent; i++) {
      expect(await signinFrom(`203.0.113.${i + 1}`, `Wrong-Guess-${i}-x!`)).toBe('Wrong email or password');
    }
    // The session's own limit (10 a minute) is far from spent, the account's is not.
    const guess = (i: number) =>
      gql(
        t.app,
        CHANGE,
        { password: `Wrong-Current-${i}!`, newPassword: NEW_PASSWORD, newPassword2: NEW_PASSWORD },
        bearer(token),
      );
    for (let i = 0; i < RULES.signinAccount.limit - spent; i++) {
      expect((await guess(i)).errors?.[0]?.message).toBe('The current password is not correct');
    }
    expect((await guess(99)).errors?.[0]).toMatchObject({
      message: ACCOUNT_SIGNIN_LIMITED,
      extensions: { code: 'RATE_LIMITED' },
    });
    expect(await signinFrom('203.0.113.201', STRONG_PASSWORD)).toBe(ACCOUNT_SIGNIN_LIMITED);
  });

  it('is refused in admin proxy mode', async () => {
    const admin = await confirmedUser(t, 'root@example.test');
    await t.services.db.$client.query('update users set "group" = 5 where id = $1', [admin.id]);
    await confirmedUser(t, 'proxied@example.test');
    const started = await gql(t.app, PROXY_START, { email: 'proxied@example.test' }, bearer(admin.token));
    expect(started.data).toEqual({ adminProxyStart: 'proxied@example.test' });
    const answer = await gql(
      t.app,
      CHANGE,
      { password: STRONG_PASSWORD, newPassword: NEW_PASSWORD, newPassword2: NEW_PASSWORD },
      bearer(admin.token, { 'x-user': 'proxied@example.test' }),
    );
    expect(answer.errors?.[0]).toMatchObject({
      message: 'The password can only be changed by its owner',
      extensions: { code: 'FORBIDDEN' },
    });
  });
});
