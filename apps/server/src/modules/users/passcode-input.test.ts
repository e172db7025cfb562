// Second-factor codes given to the settings calls through the API (turning the factor on or off,
// new recovery codes): a code that is missing, or not 6 characters where only an authenticator
// code fits, gets SPEC §5's rule in words, as at sign-in, and is not counted as a wrong guess
// against the owner's attempts.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql, totpCode, userWithSecondFactor } from '../../../test/identity.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ACTIVATE = 'mutation($s: String!, $p: String!) { userPasscodeUpdate(secret: $s, passcode: $p) { isActive } }';

it("answers 'Required' and 'The code has 6 characters', then still takes the valid code", async () => {
  const user = await confirmedUser(t, 'enroll@example.test');
  const pending = await gql<{ userPasscode: { secret: string } }>(
    t.app,
    '{ userPasscode { secret } }',
    {},
    bearer(user.token),
  );
  const secret = pending.data?.userPasscode.secret ?? '';
  const activate = (passcode: string) =>
    gql<{ userPasscodeUpdate: { isActive: boolean } }>(t.app, ACTIVATE, { s: secret, p: passcode }, bearer(user.token));

  expect((await activate('  ')).errors?.[0]).toMatchObject({ message: 'Required', extensions: { field: 'passcode' } });
  // More than the 5 wrong codes that would lock the enrollment for 5 minutes.
  for (const code of ['123', '12345', '1234567', '123 4567', '123-4567', '1']) {
    expect((await activate(code)).errors?.[0], code).toMatchObject({
      message: 'The code has 6 characters',
      extensions: { field: 'passcode' },
    });
  }
  const valid = await activate(` ${totpCode(secret)} `);
  expect(valid.errors).toBeUndefined();
  expect(valid.data?.userPasscodeUpdate.isActive).toBe(true);
});

it("answers a blank code 'Required' when turning the factor off or renewing the recovery codes, then still takes the valid one", async () => {
  const user = await userWithSecondFactor(t, 'factor-off@example.test');
  const renew = 'mutation($p: String!) { userRecoveryCodesCreate(passcode: $p) }';
  const off = 'mutation($p: String!) { userPasscodeUpdate(secret: "", passcode: $p) { isActive } }';
  for (const [query, passcode] of [
    [renew, ''],
    [off, '   '],
    [renew, ' '],
    [off, ''],
    [renew, ''],
    [off, ''],
  ] as const) {
    const answer = await gql(t.app, query, { p: passcode }, bearer(user.token));
    expect(answer.errors?.[0]).toMatchObject({ message: 'Required', extensions: { field: 'passcode' } });
  }
  const done = await gql<{ userPasscodeUpdate: { isActive: boolean } }>(
    t.app,
    off,
    { p: user.recoveryCodes[0] },
    bearer(user.token),
  );
  expect(done.errors).toBeUndefined();
  expect(done.data?.userPasscodeUpdate.isActive).toBe(false);
});
