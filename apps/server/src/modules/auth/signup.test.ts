// Sign-up → confirmation mail through a real SMTP server → confirm → sign-in → user → sign-out.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql, SIGNIN, SIGNUP, STRONG_PASSWORD } from '../../../test/identity.ts';
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

/** Lets held mails go (a test that failed while they were held must not hold the app's close). */
let releaseMails = () => {};
afterEach(() => {
  releaseMails();
  vi.restoreAllMocks();
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

  it('makes only the first user an administrator; a taken email answers as a new one and tells its owner', async () => {
    const second = await gql<{ signup: { id: string; group: number } }>(t.app, SIGNUP, {
      credentials: { email: 'bob@example.test', password: STRONG_PASSWORD },
    });
    expect(second.data?.signup.group).toBe(4);
    await smtp.waitFor('bob@example.test');

    // Sign-up must not tell anyone who has an account (SPEC gives no text for a taken email).
    const other = 'Orchid-Lantern-Quarry-58!';
    let since = smtp.mails.length;
    const unconfirmed = await gql<{ signup: { id: string; email: string; group: number; firstName: string } }>(
      t.app,
      SIGNUP,
      { credentials: { email: 'BOB@example.test', password: other }, firstName: 'Eve' },
    );
    expect(unconfirmed.errors).toBeUndefined();
    expect(unconfirmed.data?.signup).toMatchObject({ email: 'bob@example.test', group: 4, firstName: 'Eve' });
    expect(unconfirmed.data?.signup.id).not.toBe(second.data?.signup.id);
    // The owner of an account not yet confirmed gets the confirmation link again.
    linkIn(await smtp.waitFor('bob@example.test', since), '/auth/email');

    since = smtp.mails.length;
    const confirmed = await gql<{ signup: { id: string; email: string } }>(t.app, SIGNUP, {
      credentials: { email: 'ada@example.test', password: other },
    });
    expect(confirmed.errors).toBeUndefined();
    expect(Object.keys(confirmed.data?.signup ?? {})).toEqual(Object.keys(unconfirmed.data?.signup ?? {}));
    expect(confirmed.data?.signup.email).toBe('ada@example.test');
    const notice = await smtp.waitFor('ada@example.test', since);
    expect(notice.subject).toBe('You already have a Signal Router account');
    expect(notice.text).toContain('https://router.example/signin');
    expect(notice.text).not.toContain(other);

    // Nothing of either account changed: one row each, the first password still the one.
    const { rows } = await t.services.db.$client.query(
      `select email, first_name from users where email in ('ada@example.test', 'bob@example.test') order by email`,
    );
    expect(rows).toEqual([
      { email: 'ada@example.test', first_name: 'Ada' },
      { email: 'bob@example.test', first_name: null },
    ]);
    const signin = await gql(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'ada@example.test', password: other },
    });
    expect(signin.errors?.[0]?.message).toBe('Wrong email or password');
    const still = await gql(t.app, SIGNIN, {
      type: 'password',
      credentials: { email: 'ada@example.test', password: STRONG_PASSWORD },
    });
    expect(still.errors).toBeUndefined();
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

  it('answers without waiting for the mail server: its pace does not tell a registered address from a new one', async () => {
    await confirmedUser(t, 'gated-owner@example.test');
    const held = new Promise<void>((resolve) => {
      releaseMails = resolve;
    });
    const sent: string[] = [];
    vi.spyOn(t.services.identity.mailer, 'send').mockImplementation(async (mail) => {
      sent.push(mail.to);
      await held;
    });
    // Each answer comes while its mail is still held by the mail server.
    for (const email of ['gated-new@example.test', 'gated-owner@example.test']) {
      const answer = await gql(t.app, SIGNUP, { credentials: { email, password: STRONG_PASSWORD } });
      expect(answer.errors).toBeUndefined();
    }
    expect(sent).toEqual(['gated-new@example.test', 'gated-owner@example.test']);
    releaseMails();
    await t.services.identity.settled();
  }, 15_000);
});
