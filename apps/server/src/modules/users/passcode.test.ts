// Second-factor changes are told to the account's address: a taken session must not turn the
// factor on (locking the owner out), off, or renew the recovery codes unseen.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, gql, totpCode, userWithSecondFactor } from '../../../test/identity.ts';
import { type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';

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
    expect(on.text).toContain('/auth/password/request');

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
    const renew = await gql(t.app, RENEW, { passcode: '000000' }, bearer(session));
    expect(renew.errors?.[0]?.message).toBe('The verification code is not valid');
    expect(smtp.mails.filter((m) => m.to.includes(email)).length).toBe(before);
  });
});
