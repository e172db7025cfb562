// Password change and second-factor recovery codes (settings), shared by forms and server.
import { z } from 'zod';
import { confirmsPassword, MESSAGES, PASSCODE_LENGTH, passwordSchema } from './auth.ts';
import { isRecoveryCode, RECOVERY_CODE_INVALID } from './recovery-code.ts';

export * from './recovery-code.ts';

export const SECURITY_MESSAGES = {
  recoveryCodeInvalid: RECOVERY_CODE_INVALID,
  currentPasswordWrong: 'The current password is not correct',
  noPassword: 'Your account has no password yet: use “Forgot your password?” on the sign-in page to set one',
  samePassword: 'The new password must differ from the current one',
} as const;

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
  .refine(...confirmsPassword('newPassword', 'newPassword2'));

export type PasswordChangeForm = z.infer<typeof passwordChangeSchema>;
