// Second-factor changes are told to the account's address: a taken session must not turn the
// factor on (locking the owner out), off, or renew the recovery codes unseen.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
import { type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { SIGNIN_EXPIRED } from '../auth/complete-signin.ts';
import { recoveryCodesLeft, spendRecoveryCode } from '../auth/recovery-codes.ts';
import { accountSigninKey } from '../auth/signin.ts';

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

/** The first mail to `to` with `subject` received after `since` mails. */
const mailTo = (to: string, subject: string, since: number) =>
  vi.waitFor(
    () => {
      const found = smtp.mails.slice(since).find((m) => m.to.includes(to) && m.subject === subject);
      if (!found) throw new Error(`no mail '${subject}' to ${to}`);
      return found;
    },
    { timeout: 5000, interval: 50 },
  );

const RESET = `mutation($token: String!, $password: String!, $passcode: String) {
  authPasswordReset(token: $token, password: $password, password2: $password, passcode: $passcode)
}`;
const ON_SUBJECT = 'Two-step verification was turned on for your Signal Router account';
const NEW_PASSWORD = 'Velvet-Orbit-Cascade-37?';

/** The token of the reset link in the last "turned on" notice to `to` since `since` mails. */
async function undoToken(to: string, since: number): Promise<string> {
  const notice = await mailTo(to, ON_SUBJECT, since);
  const token = /\/auth\/password\?token=([^\s]+)/.exec(notice.text)?.[1];
  if (!token) throw new Error(`no reset link in ${notice.text}`);
  return decodeURIComponent(token);
}

const signIn = (email: string, password: string) =>
  gql<{ signin: { token: string; issuer: string } }>(t.app, SIGNIN, {
    type: 'password',
    credentials: { email, password },
  });

const RENEW = 'mutation($passcode: String!) { userRecoveryCodesCreate(passcode: $passcode) }';
const OFF = 'mutation($passcode: String!) { userPasscodeUpdate(secret: "", passcode: $passcode) { isActive } }';

describe('second-factor notices', () => {
  it('mails the account address when the factor is turned on, its codes renewed, and turned off', async () => {
    const email = 'factor-notice@example.test';
    const since = smtp.mails.length;
    const { token: session, secret, recoveryCodes } = await userWithSecondFactor(t, email);
    const on = await mailTo(email, 'Two-step verification was turned on for your Signal Router account', since);
    expect(on.text).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(on.text).toContain('If it was not you');
    expect(on.text).toContain('/auth/password?token=');

    const beforeRenew = smtp.mails.length;
    const renewed = await gql<{ userRecoveryCodesCreate: string[] }>(
      t.app,
      RENEW,
      { passcode: recoveryCodes[0] ?? '' },
      bearer(session),
    );
    expect(renewed.data?.userRecoveryCodesCreate).toHaveLength(10);
    await mailTo(email, 'New recovery codes were made for your Signal Router account', beforeRenew);

    const beforeOff = smtp.mails.length;
    const off = await gql(t.app, OFF, { passcode: totpCode(secret, 1) }, bearer(session));
    expect(off.data).toEqual({ userPasscodeUpdate: { isActive: false } });
    await mailTo(email, 'Two-step verification was turned off for your Signal Router account', beforeOff);
  });

  it('sends nothing when the change is refused', async () => {
    const email = 'factor-notice-refused@example.test';
    const { token: session } = await userWithSecondFactor(t, email);
    await t.services.identity.settled();
    const before = smtp.mails.filter((m) => m.to.includes(email)).length;
    const wrong = await gql(t.app, OFF, { passcode: '000000' }, bearer(session));
    expect(wrong.errors?.[0]?.message).toBe('The verification code is not valid');
    // A wrong recovery code is named on the argument it came in (userPasscodeUpdate's passcode).
    const wrongRecovery = await gql(t.app, OFF, { passcode: 'abcd-efgh-jkmn' }, bearer(session));
    expect(wrongRecovery.errors?.[0]?.message).toBe('The recovery code is not valid');
    expect(wrongRecovery.errors?.[0]?.extensions?.field).toBe('passcode');
    const renew = await gql(t.app, RENEW, { passcode: '000000' }, bearer(session));
    expect(renew.errors?.[0]?.message).toBe('The verification code is not valid');
    // So is userRecoveryCodesCreate's, whose argument is named passcode too.
    const renewRecovery = await gql(t.app, RENEW, { passcode: 'abcd-efgh-jkmn' }, bearer(session));
    expect(renewRecovery.errors?.[0]?.message).toBe('The recovery code is not valid');
    expect(renewRecovery.errors?.[0]?.extensions?.field).toBe('passcode');
    expect(smtp.mails.filter((m) => m.to.includes(email)).length).toBe(before);
  });
});

describe('the reset link of a second factor turned on (a taken session must not lock the owner out)', () => {
  it('resets the password without a code, turns the factor off and ends the sessions and API tokens made meanwhile', async () => {
    const email = 'factor-undo@example.test';
    const since = smtp.mails.length;
    const { token: taken } = await userWithSecondFactor(t, email);
    const link = await undoToken(email, since);
    const apiToken = await gql<{ userTokenCreate: { secret: string } }>(
      t.app,
      'mutation($m: JSON!) { userTokenCreate(metadata: $m) { secret } }',
      { m: { name: 'taker' } },
      bearer(taken),
    );
    const secretOfTaker = apiToken.data?.userTokenCreate.secret ?? '';
    expect(secretOfTaker).not.toBe('');
    // Locked out before: the password alone asks for the code the taker holds.
    expect((await signIn(email, STRONG_PASSWORD)).data?.signin.issuer).toBe('identity');

    const reset = await gql(t.app, RESET, { token: link, password: NEW_PASSWORD, passcode: '' });
    expect(reset.errors).toBeUndefined();
    expect(reset.data).toEqual({ authPasswordReset: true });

    const back = await signIn(email, NEW_PASSWORD);
    expect(back.data?.signin.issuer).not.toBe('identity');
    const state = await gql<{ userPasscode: { isActive: boolean } }>(
      t.app,
      '{ userPasscode { isActive } }',
      {},
      bearer(back.data?.signin.token ?? ''),
    );
    expect(state.data?.userPasscode.isActive).toBe(false);
    for (const gone of [taken, secretOfTaker]) {
      const me = await gql(t.app, '{ user { email } }', {}, bearer(gone));
      expect(me.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    // Single use.
    const again = await gql(t.app, RESET, { token: link, password: STRONG_PASSWORD, passcode: '' });
    expect(again.errors?.[0]?.message).toBe('This password reset link is expired or was already used');
  });

  it('works only for the factor it was sent for, and a reset request meanwhile does not end it', async () => {
    const email = 'factor-undo-again@example.test';
    const since = smtp.mails.length;
    const { token: session, secret } = await userWithSecondFactor(t, email);
    const first = await undoToken(email, since);
    // Turned off and on again: the first link no longer speaks for the factor that is on.
    const off = await gql(t.app, OFF, { passcode: totpCode(secret, 1) }, bearer(session));
    expect(off.errors).toBeUndefined();
    const pending = await gql<{ userPasscode: { secret: string } }>(
      t.app,
      '{ userPasscode { secret } }',
      {},
      bearer(session),
    );
    const again = pending.data?.userPasscode.secret ?? '';
    const beforeOn = smtp.mails.length;
    const on = await gql(
      t.app,
      'mutation($s: String!, $p: String!) { userPasscodeUpdate(secret: $s, passcode: $p) { isActive } }',
      { s: again, p: totpCode(again) },
      bearer(session),
    );
    expect(on.errors).toBeUndefined();
    const second = await undoToken(email, beforeOn);
    const stale = await gql(t.app, RESET, { token: first, password: NEW_PASSWORD, passcode: '' });
    expect(stale.errors?.[0]?.message).toBe('This password reset link is expired or was already used');

    await gql(t.app, 'mutation($e: String!) { authPasswordResetRequest(email: $e) }', { e: email });
    await t.services.identity.settled();
    const ok = await gql(t.app, RESET, { token: second, password: NEW_PASSWORD, passcode: '' });
    expect(ok.errors).toBeUndefined();
    expect((await signIn(email, NEW_PASSWORD)).data?.signin.issuer).not.toBe('identity');
  });

  it('an ordinary reset link still needs the code while the factor is on', async () => {
    const email = 'factor-undo-ordinary@example.test';
    await userWithSecondFactor(t, email);
    const since = smtp.mails.length;
    await gql(t.app, 'mutation($e: String!) { authPasswordResetRequest(email: $e) }', { e: email });
    const mail = await mailTo(email, 'Reset your Signal Router password', since);
    const token = decodeURIComponent(/token=([^\s]+)/.exec(mail.text)?.[1] ?? '');
    const refused = await gql(t.app, RESET, { token, password: NEW_PASSWORD, passcode: '' });
    expect(refused.errors?.[0]?.message).toBe('Please enter the code of your authenticator app or a recovery code');
  });
});

describe('second-factor activation', () => {
  it('two activations at once: one wins with the codes that work, the other is refused', async () => {
    // A few accounts: whether the second code is checked before the first is activated is up to
    // the scheduler; each account must end with exactly one activation either way.
    for (const email of ['factor-race-1@example.test', 'factor-race-2@example.test', 'factor-race-3@example.test']) {
      await raceActivations(email);
    }
  });

  it("turning the factor on ends the user's other sign-in sessions, opened without it; this one and API tokens stay", async () => {
    const email = 'factor-ends-others@example.test';
    const user = await confirmedUser(t, email);
    const other = (await signIn(email, STRONG_PASSWORD)).data?.signin.token ?? '';
    const api = await gql<{ userTokenCreate: { secret: string } }>(
      t.app,
      'mutation { userTokenCreate(metadata: {name: "bot"}) { secret } }',
      {},
      bearer(user.token),
    );
    const pending = await gql<{ userPasscode: { secret: string } }>(
      t.app,
      '{ userPasscode { secret } }',
      {},
      bearer(user.token),
    );
    const secret = pending.data?.userPasscode.secret ?? '';
    const on = await gql(
      t.app,
      'mutation($s: String!, $p: String!) { userPasscodeUpdate(secret: $s, passcode: $p) { isActive } }',
      { s: secret, p: totpCode(secret) },
      bearer(user.token),
    );
    expect(on.data).toEqual({ userPasscodeUpdate: { isActive: true } });
    const me = (token: string) => gql(t.app, '{ user { email } }', {}, bearer(token));
    expect((await me(other)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await me(user.token)).data).toEqual({ user: { email } });
    expect((await me(api.data?.userTokenCreate.secret ?? '')).data).toEqual({ user: { email } });
  });

  it('a sign-in that checked the password before the factor was turned on gets no session without it', async () => {
    const email = 'factor-on-meanwhile@example.test';
    const user = await confirmedUser(t, email);
    const { limiter } = t.services.identity;
    const refund = limiter.refund.bind(limiter);
    let onMeanwhile = false;
    // Between the password's check and the session it makes, the owner turns the factor on.
    const between = vi.spyOn(limiter, 'refund').mockImplementation(async (key, rule) => {
      if (key === accountSigninKey(email)) {
        between.mockRestore();
        const pending = await gql<{ userPasscode: { secret: string } }>(
          t.app,
          '{ userPasscode { secret } }',
          {},
          bearer(user.token),
        );
        const secret = pending.data?.userPasscode.secret ?? '';
        const on = await gql<{ userPasscodeUpdate: { isActive: boolean } }>(
          t.app,
          'mutation($s: String!, $p: String!) { userPasscodeUpdate(secret: $s, passcode: $p) { isActive } }',
          { s: secret, p: totpCode(secret) },
          bearer(user.token),
        );
        onMeanwhile = on.data?.userPasscodeUpdate.isActive === true;
      }
      return refund(key, rule);
    });
    const raced = await signIn(email, STRONG_PASSWORD);
    expect(onMeanwhile).toBe(true);
    expect(raced.data?.signin ?? null).toBeNull();
    expect(raced.errors?.[0]?.message).toBe(SIGNIN_EXPIRED);
    // Signing in again asks for the factor.
    expect((await signIn(email, STRONG_PASSWORD)).data?.signin.issuer).toBe('identity');
  });
});

async function raceActivations(email: string): Promise<void> {
  const user = await confirmedUser(t, email);
  const pending = await gql<{ userPasscode: { secret: string } }>(
    t.app,
    '{ userPasscode { secret } }',
    {},
    bearer(user.token),
  );
  const secret = pending.data?.userPasscode.secret ?? '';
  const ON = `mutation($s: String!, $p: String!) {
      userPasscodeUpdate(secret: $s, passcode: $p) { isActive recoveryCodes }
    }`;
  const answers = await Promise.all(
    [0, 1].map((steps) =>
      gql<{ userPasscodeUpdate: { isActive: boolean; recoveryCodes: string[] } }>(
        t.app,
        ON,
        { s: secret, p: totpCode(secret, steps) },
        bearer(user.token),
      ),
    ),
  );
  const won = answers.filter((a) => a.data?.userPasscodeUpdate.isActive);
  expect(won).toHaveLength(1);
  const lost = answers.find((a) => !a.data?.userPasscodeUpdate.isActive);
  expect(lost?.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  // The codes shown are the codes kept, all ten of them.
  const codes = won[0]?.data?.userPasscodeUpdate.recoveryCodes ?? [];
  expect(codes).toHaveLength(10);
  expect(await recoveryCodesLeft(t.services, user.id)).toBe(10);
  expect(await spendRecoveryCode(t.services, user.id, codes[0] ?? '')).toBe(true);
}
