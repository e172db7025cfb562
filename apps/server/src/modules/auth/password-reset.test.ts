// Password reset: same answer for unknown emails, emailed single-use link expiring in an hour,
// sessions ended, and the second factor's code when one is active.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import {
  bearer,
  confirmedUser,
  gql,
  SIGNIN,
  STRONG_PASSWORD,
  totpCode,
  userWithSecondFactor,
} from '../../../test/identity.ts';
import { linkIn, type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { RESET_LINK_INVALID } from './password-reset.ts';
import { RULES } from './rate-limit.ts';
import { issueSession } from './sessions.ts';
import { ACCOUNT_SIGNIN_LIMITED } from './signin.ts';

let t: TestApp;
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await startSmtpSink();
  t = await startTestApp({ env: { SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const REQUEST = 'mutation($email: String!) { authPasswordResetRequest(email: $email) }';
const RESET = `mutation($token: String!, $password: String!, $password2: String!, $passcode: String) {
  authPasswordReset(token: $token, password: $password, password2: $password2, passcode: $passcode)
}`;
const NEW_PASSWORD = 'Velvet-Harbor-Comet-58?';

/**
 * Requests a reset link for `email` and returns the token of the mail that request sent; from an
 * address of its own where the default's per-address limit must not be spent.
 */
async function requestLink(email: string, remoteAddress?: string): Promise<string> {
  const since = smtp.mails.length;
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    payload: { query: REQUEST, variables: { email } },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  expect(res.json()).toEqual({ data: { authPasswordResetRequest: true } });
  await t.services.identity.settled();
  return linkIn(await smtp.waitFor(email, since), '/auth/password').token;
}

/** A password sign-in to `email`: its token and issuer. */
async function signinAnswer(email: string, password: string): Promise<{ token: string; issuer: string }> {
  const answer = await gql<{ signin: { token: string; issuer: string } }>(t.app, SIGNIN, {
    type: 'password',
    credentials: { email, password },
  });
  if (!answer.data) throw new Error(JSON.stringify(answer.errors));
  return answer.data.signin;
}

/** A password sign-in to `email` from the address `ip`: its error message, or 'ok'. */
async function signinFrom(ip: string, email: string, password: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    payload: { query: SIGNIN, variables: { type: 'password', credentials: { email, password } } },
    remoteAddress: ip,
  });
  const body = res.json() as { errors?: { message: string }[] };
  return body.errors?.[0]?.message ?? 'ok';
}

describe('password guesses spread over many addresses', () => {
  it('are limited per account (registered or not alike); the owner is let in again by a reset', async () => {
    const email = 'guessed@example.test';
    await confirmedUser(t, email);
    for (const target of [email, 'nobody-here@example.test']) {
      // 50 addresses, each far under its own limits, one wrong password each.
      for (let i = 0; i < 50; i++) {
        expect(await signinFrom(`198.51.100.${i + 1}`, target, `Wrong-Guess-${i}-x!`)).toBe('Wrong email or password');
      }
      expect(await signinFrom('198.51.100.201', target, STRONG_PASSWORD)).toBe(ACCOUNT_SIGNIN_LIMITED);
    }
    const token = await requestLink(email, '198.51.100.202');
    expect(await gql(t.app, RESET, { token, password: NEW_PASSWORD, password2: NEW_PASSWORD })).toEqual({
      data: { authPasswordReset: true },
    });
    expect(await signinFrom('198.51.100.203', email, NEW_PASSWORD)).toBe('ok');
  });
});

describe('password guesses between sign-ins of the owner', () => {
  it('are bounded per account: the owner signing in brings the guessers no fresh budget', async () => {
    const email = 'guessed-between@example.test';
    await confirmedUser(t, email);
    let judged = 0;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < RULES.signinAccount.limit - 10; i++) {
        const answer = await signinFrom(`198.51.101.${round * 100 + i + 1}`, email, `Wrong-Guess-${round}-${i}-x!`);
        if (answer === 'Wrong email or password') judged++;
      }
      // The owner signs in meanwhile, from their own address.
      expect(await signinFrom(`203.0.113.${round + 50}`, email, STRONG_PASSWORD)).toBe(
        round === 0 ? 'ok' : ACCOUNT_SIGNIN_LIMITED,
      );
    }
    expect(judged).toBe(RULES.signinAccount.limit);
  });
});

describe('password reset', () => {
  it('answers the same whether or not the email is registered', async () => {
    const email = 'reset@example.test';
    await confirmedUser(t, email);
    const since = smtp.mails.length;
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: REQUEST, variables: { email: 'ghost@example.test' } },
    });
    const known = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      payload: { query: REQUEST, variables: { email } },
    });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    await t.services.identity.settled();
    await smtp.waitFor(email, since);
    expect(smtp.mails.some((m) => m.to.includes('ghost@example.test'))).toBe(false);
  });

  it('resets with the emailed token once, ends sessions, and records the actions', async () => {
    const email = 'reset-once@example.test';
    await confirmedUser(t, email);
    const { token: session } = await confirmedUser(t, 'other@example.test');
    const first = await gql<{ signin: { token: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email, password: STRONG_PASSWORD },
    });
    const before = first.data?.signin.token ?? '';
    const token = await requestLink(email);
    const mismatch = await gql(t.app, RESET, { token, password: NEW_PASSWORD, password2: 'other' });
    expect(mismatch.errors?.[0]).toMatchObject({
      message: "Password confirmation doesn't match password.",
      extensions: { field: 'password2' },
    });
    const weak = await gql(t.app, RESET, { token, password: 'abc12345', password2: 'abc12345' });
    expect(weak.errors?.[0]?.message).toBe('Password too weak.');

    const ok = await gql(t.app, RESET, { token, password: NEW_PASSWORD, password2: NEW_PASSWORD, passcode: '' });
    expect(ok).toEqual({ data: { authPasswordReset: true } });
    const again = await gql(t.app, RESET, { token, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(again.errors?.[0]?.message).toBe('This password reset link is expired or was already used');

    expect((await gql(t.app, '{ user { email } }', {}, bearer(before))).errors?.[0]?.extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    expect((await gql(t.app, '{ user { email } }', {}, bearer(session))).data).toEqual({
      user: { email: 'other@example.test' },
    });
    const signin = await gql<{ signin: { issuer: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email, password: NEW_PASSWORD },
    });
    expect(signin.data?.signin.issuer).toBe('user');
    const { rows } = await t.services.db.$client.query(
      `select code from actions a join users u on u.id = a.user_id where u.email = $1 order by a.id`,
      [email],
    );
    expect(rows.map((r: { code: string }) => r.code)).toEqual(
      expect.arrayContaining(['AuthPasswordResetRequest', 'AuthPasswordReset', 'Signin']),
    );
  });

  it("ends a partner's one-time sign-in token too, but keeps the personal API tokens", async () => {
    const email = 'reset-signin-token@example.test';
    const user = await confirmedUser(t, email);
    const { token: once } = await issueSession(t.services, user.id, 'signin', { address: null });
    const created = await gql<{ userTokenCreate: { secret: string } }>(
      t.app,
      'mutation { userTokenCreate(metadata: {name: "script"}) { secret } }',
      {},
      bearer(user.token),
    );
    const apiToken = created.data?.userTokenCreate.secret ?? '';
    // The token's notice (after the answer) is out before the reset link is looked for.
    await t.services.identity.settled();
    const token = await requestLink(email, '192.0.2.61');
    const ok = await gql(t.app, RESET, { token, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(ok).toEqual({ data: { authPasswordReset: true } });
    const exchange = await gql(t.app, SIGNIN, { type: 'token', credentials: { issuer: 'id', token: once } });
    expect(exchange.errors?.[0]?.message).toBe('The sign-in token is not valid, please try again');
    expect((await gql(t.app, '{ user { email } }', {}, bearer(apiToken))).data).toEqual({ user: { email } });
  });

  it('ends a pending email change: the link an intruder asked for no longer works after the reset', async () => {
    const email = 'reset-held@example.test';
    const { token: intruder } = await confirmedUser(t, email);
    const since = smtp.mails.length;
    await gql(
      t.app,
      'mutation($e: String) { userUpdate(email: $e) { email } }',
      { e: 'thief@example.test' },
      bearer(intruder),
    );
    const { token: link } = linkIn(await smtp.waitFor('thief@example.test', since), '/auth/email');

    const token = await requestLink(email);
    const ok = await gql(t.app, RESET, { token, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(ok).toEqual({ data: { authPasswordReset: true } });
    const confirm = await gql(t.app, 'mutation($t: String!) { authEmailConfirm(token: $t) { token } }', { t: link });
    expect(confirm.errors?.[0]?.message).toBe('This confirmation link is expired or incorrect');
    const { rows } = await t.services.db.$client.query(`select 1 from users where email = $1`, [email]);
    expect(rows).toHaveLength(1);
  });

  it('refuses an expired link', async () => {
    const email = 'reset-expired@example.test';
    await confirmedUser(t, email);
    const token = await requestLink(email);
    await t.services.db.$client.query(
      `update email_tokens set expires_at = now() - interval '1 second'
        where used_at is null and user_id = (select id from users where email = $1)`,
      [email],
    );
    const expired = await gql(t.app, RESET, { token, password: NEW_PASSWORD, password2: NEW_PASSWORD });
    expect(expired.errors?.[0]).toMatchObject({
      message: 'This password reset link is expired or was already used',
      extensions: { code: 'BAD_USER_INPUT', field: 'token' },
    });
  });

  it('requires a valid passcode when a second factor is active', async () => {
    const email = 'reset-2fa@example.test';
    const { secret } = await userWithSecondFactor(t, email);

    const token = await requestLink(email);
    const PASSWORD = 'Orchid-Glacier-Tempo-33%';
    const missing = await gql(t.app, RESET, { token, password: PASSWORD, password2: PASSWORD });
    expect(missing.errors?.[0]?.extensions?.field).toBe('passcode');
    const wrong = await gql(t.app, RESET, { token, password: PASSWORD, password2: PASSWORD, passcode: '000000' });
    expect(wrong.errors?.[0]?.message).toBe('The verification code is not valid');
    const next = totpCode(secret, 1);
    const ok = await gql(t.app, RESET, { token, password: PASSWORD, password2: PASSWORD, passcode: next });
    expect(ok).toEqual({ data: { authPasswordReset: true } });
  });

  it("lets the owner in again by a reset after whoever holds the password spent the day's wrong codes", async () => {
    const email = 'reset-2fa-spent@example.test';
    const { secret, id } = await userWithSecondFactor(t, email);
    const mfa = bearer((await signinAnswer(email, STRONG_PASSWORD)).token);
    const code = (passcode: string, headers = mfa) =>
      gql<{ signin: { token: string; issuer: string } }>(
        t.app,
        SIGNIN,
        { type: 'passcode', credentials: { passcode } },
        headers,
      );
    for (let i = 0; i < RULES.passcodeFailuresDaily.limit; i++) {
      expect((await code(String(400000 + i))).errors?.[0]?.message).toBe('The verification code is not valid');
      // Five minutes pass now and then: the short window is empty again.
      if (i % RULES.passcodeFailures.limit === RULES.passcodeFailures.limit - 1) {
        await t.services.identity.limiter.reset(`passcode:${id}`, RULES.passcodeFailures);
      }
    }
    expect((await code(totpCode(secret, 1))).errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');

    // The emailed link, which the guesser lacks, still takes the owner's code; the new password then signs in.
    const token = await requestLink(email, '192.0.2.77');
    const ok = await gql(t.app, RESET, {
      token,
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
      passcode: totpCode(secret, 1),
    });
    expect(ok).toEqual({ data: { authPasswordReset: true } });
    const identity = await signinAnswer(email, NEW_PASSWORD);
    expect(identity.issuer).toBe('identity');
    await t.services.db.$client.query('update users set passcode_last_step = null where id = $1', [id]);
    const signedIn = await code(totpCode(secret), bearer(identity.token));
    expect(signedIn.data?.signin.issuer).toBe('user');
  });

  it('takes a recovery code instead of the passcode, once; a wrong or used one changes nothing', async () => {
    const email = 'reset-recovery@example.test';
    const { recoveryCodes, id } = await userWithSecondFactor(t, email);
    const [code = '', other = ''] = recoveryCodes;
    const PASSWORD = 'Saffron-Meteor-Kettle-47&';
    const hashOf = async () =>
      (await t.services.db.$client.query('select password_hash from users where id = $1', [id])).rows[0]?.password_hash;
    const before = await hashOf();

    const token = await requestLink(email);
    const wrong = await gql(t.app, RESET, {
      token,
      password: PASSWORD,
      password2: PASSWORD,
      passcode: 'zzzz-zzzz-zzzz',
    });
    expect(wrong.errors?.[0]).toMatchObject({
      message: 'The recovery code is not valid',
      extensions: { field: 'passcode' },
    });
    expect(await hashOf()).toBe(before);
    // A wrong code spends neither the link nor a recovery code.
    const ok = await gql(t.app, RESET, {
      token,
      password: PASSWORD,
      password2: PASSWORD,
      passcode: code.toUpperCase(),
    });
    expect(ok).toEqual({ data: { authPasswordReset: true } });
    expect(await hashOf()).not.toBe(before);
    const signin = await gql<{ signin: { issuer: string } }>(t.app, SIGNIN, {
      type: 'password',
      credentials: { email, password: PASSWORD },
    });
    expect(signin.data?.signin.issuer).toBe('identity');

    const afterFirst = await hashOf();
    const second = await requestLink(email);
    const reused = await gql(t.app, RESET, {
      token: second,
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
      passcode: code,
    });
    expect(reused.errors?.[0]?.message).toBe('The recovery code is not valid');
    expect(await hashOf()).toBe(afterFirst);
    const { rows } = await t.services.db.$client.query(
      'select count(*)::int as n from recovery_codes where user_id = $1 and used_at is null',
      [id],
    );
    expect(rows[0]?.n).toBe(recoveryCodes.length - 1);
    const withOther = await gql(t.app, RESET, {
      token: second,
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
      passcode: other,
    });
    expect(withOther).toEqual({ data: { authPasswordReset: true } });
  });

  it('two resets racing on one link with different recovery codes spend exactly one code', async () => {
    const email = 'reset-race@example.test';
    const { recoveryCodes, id } = await userWithSecondFactor(t, email);
    const [a = '', b = ''] = recoveryCodes;
    const PASSWORD = 'Cobalt-Lagoon-Ember-62#';
    const token = await requestLink(email);
    const results = await Promise.all(
      [a, b].map((passcode) => gql(t.app, RESET, { token, password: PASSWORD, password2: PASSWORD, passcode })),
    );
    expect(results.filter((r) => r.data?.authPasswordReset === true)).toHaveLength(1);
    expect(results.filter((r) => r.errors?.[0]?.message === RESET_LINK_INVALID)).toHaveLength(1);
    const { rows } = await t.services.db.$client.query(
      'select count(*)::int as n from recovery_codes where user_id = $1 and used_at is not null',
      [id],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('ends a reset link asked for before the password was changed in the settings', async () => {
    const email = 'reset-then-change@example.test';
    const { token: session } = await confirmedUser(t, email);
    const link = await requestLink(email);
    const changed = await gql(
      t.app,
      `mutation($p: String!, $n: String!) { userPasswordUpdate(password: $p, newPassword: $n, newPassword2: $n) }`,
      { p: STRONG_PASSWORD, n: NEW_PASSWORD },
      bearer(session),
    );
    expect(changed.errors).toBeUndefined();
    const reset = await gql(t.app, RESET, {
      token: link,
      password: 'Lantern-Quiver-Basalt-36!',
      password2: 'Lantern-Quiver-Basalt-36!',
    });
    expect(reset.errors?.[0]?.message).toBe('This password reset link is expired or was already used');
    const signin = await gql(t.app, SIGNIN, { type: 'password', credentials: { email, password: NEW_PASSWORD } });
    expect(signin.errors).toBeUndefined();
  });
});
