// Password change and second-factor recovery codes (settings), shared by forms and server.
import { z } from 'zod';
import { MESSAGES, PASSCODE_LENGTH, passwordSchema } from './auth.ts';

/** Ten one-time codes, shown once. */
export const RECOVERY_CODE_COUNT = 10;
/** 12 characters of a 32-letter alphabet (60 bits), shown as `xxxx-xxxx-xxxx`. */
export const RECOVERY_CODE_LENGTH = 12;
/** Lower-case letters and digits without the look-alikes l, o, 0 and 1. */
export const RECOVERY_CODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

export const SECURITY_MESSAGES = {
  recoveryCodeInvalid: 'The recovery code is not valid',
  currentPasswordWrong: 'The current password is not correct',
  noPassword: 'Your account has no password yet: use “Forgot your password?” on the sign-in page to set one',
  samePassword: 'The new password must differ from the current one',
} as const;

/** The canonical form of a typed recovery code: lower case, no spaces or dashes. */
export function normalizeRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '');
}

/** `abcd-efgh-jkmn` from `abcdefghjkmn`. */
export function formatRecoveryCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

const RECOVERY_PATTERN = new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{${RECOVERY_CODE_LENGTH}}$`);

export function isRecoveryCode(input: string): boolean {
  return RECOVERY_PATTERN.test(normalizeRecoveryCode(input));
}

/** A recovery code as typed (dashes and spaces allowed). */
export const recoveryCodeSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(40, SECURITY_MESSAGES.recoveryCodeInvalid)
  .refine(isRecoveryCode, SECURITY_MESSAGES.recoveryCodeInvalid);

/** `signin(type: "recovery")` credentials, sent with the identity (mfa) token as Bearer. */
export const recoveryCredentialsSchema = z.object({ code: recoveryCodeSchema });

/** An authenticator code or a recovery code: what turning the factor off or new codes ask for. */
export const secondFactorCodeSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(40, MESSAGES.passcodeLength)
  .refine(
    (value) => new RegExp(`^\\d{${PASSCODE_LENGTH}}$`).test(value) || isRecoveryCode(value),
    `Enter the ${PASSCODE_LENGTH}-digit code of your authenticator app or a recovery code`,
  );

/** Settings' password change (`userPasswordUpdate`). */
export const passwordChangeSchema = z
  .object({
    password: passwordSchema,
    newPassword: passwordSchema,
    newPassword2: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required),
  })
  .superRefine((value, ctx) => {
    if (value.newPassword !== value.newPassword2) {
      ctx.addIssue({ code: 'custom', path: ['newPassword2'], message: MESSAGES.passwordMismatch });
    }
  });

export type PasswordChangeForm = z.infer<typeof passwordChangeSchema>;
