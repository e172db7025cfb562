// Sign-up → confirmation mail through a real SMTP server → confirm → sign-in → user → sign-out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, gql, SIGNIN, SIGNUP, STRONG_PASSWORD } from '../../../test/identity.ts';
import { linkIn, type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';

let t: TestApp;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Router <router@example.test>', PUBLIC_URL: 'https://router.example' },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const USER = `{ user { key email firstName group } }`;
const CONFIRM = `mutation($token: String!) { authEmailConfirm(token: $token) { token issuer } }`;

describe('sign-up and sign-in', () => {
  it('walks sign-up, the emailed link, sign-in, user and sign-out', async () => {
    const signup = await gql<{ signup: { id: string; email: string; firstName: string; group: number } }>(
      t.app,
      SIGNUP,
      { credentials: { email: 'Ada@Example.test', password: STRONG_PASSWORD }, firstName: 'Ada' },
    );
    expect(signup.errors).toBeUndefined();
    expect(signup.data?.signup).toMatchObject({ email: 'ada@example.test', firstName: 'Ada' });
    // A sign-up alone makes no administrator: the first account to confirm its email does (below).
    expect(signup.data?.signup.group).toBe(4);

    const { rows } = await t.services.db.$client.query(
      'select a.balance, a.type from accounts a join users u on u.id = a.user_id where u.key = $1',
      [signup.data?.signup.id],
    );
    expect(rows).toEqual([{ balance: 5, type: 1 }]);

    const before = await gql(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'ada@example.test', password: STRONG_PASSWORD },
    });
    expect(before.errors?.[0]?.message).toBe('Please confirm your email first: we sent you a link');

    const mail = await smtp.waitFor('ada@example.test');
    expect(mail.from).toBe('router@example.test');
    const { link, token: confirmToken } = linkIn(mail, '/auth/email');
    expect(link.startsWith('https://router.example/auth/email?token=')).toBe(true);
    expect(mail.text).not.toContain(STRONG_PASSWORD);

    const confirmed = await gql<{ authEmailConfirm: { token: string; issuer: string } }>(t.app, CONFIRM, {
      token: confirmToken,
    });
    expect(confirmed.data?.authEmailConfirm.issuer).toBe('user');
    const me = await gql(t.app, USER, {}, bearer(confirmed.data?.authEmailConfirm.token ?? ''));
    expect(me.data).toEqual({
      user: { key: signup.data?.signup.id, email: 'ada@example.test', firstName: 'Ada', group: 5 },
    });
    // The link is single use.
    const again = await gql(t.app, CONFIRM, { token: confirmToken });
    expect(again.errors?.[0]?.message).toBe('This confirmation link is expired or incorrect');

    const signin = await gql<{ signin: { token: string; issuer: string; email: null } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'ADA@example.test', password: STRONG_PASSWORD },
    });
    expect(signin.data?.signin).toMatchObject({ issuer: 'user', email: null });
    const token = signin.data?.signin.token ?? '';
    expect(token).toMatch(/^[\w-]{43}$/);
    const { rows: stored } = await t.services.db.$client.query('select token_hash from sessions');
    expect(stored.map((r: { token_hash: string }) => r.token_hash)).not.toContain(token);

    expect((await gql(t.app, USER, {}, bearer(token))).data?.user).toMatchObject({ email: 'ada@example.test' });
    const out = await gql(t.app, 'mutation { signout }', {}, bearer(token));
    expect(out.data).toEqual({ signout: true });
    const after = await gql(t.app, USER, {}, bearer(token));
    expect(after.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    const { rows: actions } = await t.services.db.$client.query(`select code, address from actions order by id`);
    expect(actions).toContainEqual({ code: 'Signin', address: '127.0.0.1' });
  });

  it('makes only the first user an administrator, and refuses a taken email', async () => {
    const second = await gql<{ signup: { group: number } }>(t.app, SIGNUP, {
      credentials: { email: 'bob@example.test', password: STRONG_PASSWORD },
    });
    expect(second.data?.signup.group).toBe(4);
    const taken = await gql(t.app, SIGNUP, { credentials: { email: 'BOB@example.test', password: STRONG_PASSWORD } });
    expect(taken.errors?.[0]).toMatchObject({
      message: 'This email is already registered',
      extensions: { code: 'BAD_USER_INPUT', field: 'email' },
    });
  });

  it('refuses weak passwords and bad input with SPEC §5 messages', async () => {
    const weak = await gql(t.app, SIGNUP, { credentials: { email: 'weak@example.test', password: 'password123' } });
    expect(weak.errors?.[0]).toMatchObject({ message: 'Password too weak.', extensions: { field: 'password' } });
    const email = await gql(t.app, SIGNUP, { credentials: { email: 'nope', password: STRONG_PASSWORD } });
    expect(email.errors?.[0]?.message).toBe('Invalid email');
    const estimate = await gql<{ authPasswordEstimate: number }>(
      t.app,
      'mutation($p: String!) { authPasswordEstimate(password: $p) }',
      { p: STRONG_PASSWORD },
    );
    expect(estimate.data?.authPasswordEstimate).toBeGreaterThan(10);
  });

  it('does not tell a wrong password from an unknown email', async () => {
    const wrong = await gql(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'ada@example.test', password: 'Not-The-Password-1' },
    });
    const unknown = await gql(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'nobody@example.test', password: 'Not-The-Password-1' },
    });
    expect(wrong.errors?.[0]?.message).toBe('Wrong email or password');
    expect(unknown.errors).toEqual(wrong.errors);
  });
});
