import { describe, expect, it } from 'vitest';
import {
  emailSchema,
  passcodeSchema,
  passwordChangeSchema,
  passwordResetSchema,
  signinSchema,
  signupSchema,
} from './index.ts';

const firstMessage = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.error?.issues[0]?.message;

describe('identity schemas', () => {
  it('uses the SPEC §5 messages', () => {
    expect(firstMessage(emailSchema.safeParse(''))).toBe('Required');
    expect(firstMessage(emailSchema.safeParse('nope'))).toBe('Invalid email');
    expect(emailSchema.parse('  a@b.co ')).toBe('a@b.co');
    expect(firstMessage(signinSchema.safeParse({ email: 'a@b.co', password: '' }))).toBe('Required');
    const mismatch = signupSchema.safeParse({ email: 'a@b.co', password: 'x1', password2: 'x2', terms: true });
    expect(firstMessage(mismatch)).toBe("Password confirmation doesn't match password.");
    expect(firstMessage(signupSchema.safeParse({ email: 'a@b.co', password: 'x', password2: 'x' }))).toBe('Required');
  });

  it('says a confirmation differs on the same submit as the other fields’ errors, not one round later', () => {
    const messages = (result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
      result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    const mismatch = "password2: Password confirmation doesn't match password.";
    const signup = signupSchema.safeParse({ email: 'nope', password: 'abcd', password2: 'abce', terms: false });
    expect(messages(signup)).toEqual(['email: Invalid email', 'terms: Required', mismatch]);
    const reset = passwordResetSchema.safeParse({ token: '', password: 'abcd', password2: 'abce' });
    expect(messages(reset)).toEqual(['token: Required', mismatch]);
    const change = passwordChangeSchema.safeParse({ password: '', newPassword: 'abcd', newPassword2: 'abce' });
    expect(messages(change)).toEqual([
      'password: Required',
      "newPassword2: Password confirmation doesn't match password.",
    ]);
    // An empty confirmation is only 'Required'.
    const empty = signupSchema.safeParse({ email: 'nope', password: 'abcd', password2: '', terms: true });
    expect(messages(empty)).toEqual(['email: Invalid email', 'password2: Required']);
  });

  it('trims pasted codes and wants exactly six characters', () => {
    expect(passcodeSchema.parse(' 123456 ')).toBe('123456');
    expect(passcodeSchema.safeParse('12345').success).toBe(false);
  });

  it("takes a recovery code as the reset's passcode, as sign-in does", () => {
    const reset = (passcode: string) =>
      passwordResetSchema.safeParse({ token: 't', password: 'p', password2: 'p', passcode });
    expect(reset(' 123456 ').data?.passcode).toBe('123456');
    expect(reset('ABCD-efgh-jkmn').data?.passcode).toBe('ABCD-efgh-jkmn');
    expect(firstMessage(reset('123'))).toBe('The code has 6 characters');
    expect(firstMessage(reset('abcd-efgh'))).toBe('The recovery code is not valid');
    expect(firstMessage(reset('abcd-efgh-jkm0'))).toBe('The recovery code is not valid');
  });

  it('treats a blank reset passcode as absent and limits names to 32', () => {
    const reset = passwordResetSchema.parse({ token: 't', password: 'p', password2: 'p', passcode: '' });
    expect(reset.passcode).toBeUndefined();
    const long = signupSchema.safeParse({
      email: 'a@b.co',
      password: 'p',
      password2: 'p',
      terms: true,
      firstName: 'x'.repeat(33),
    });
    expect(long.success).toBe(false);
  });
});
