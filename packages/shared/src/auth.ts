// Identity inputs shared by the web forms and the server (SPEC §5 messages, §9 constants).
import { z } from 'zod';
import { isRecoveryCode, RECOVERY_CODE_INVALID } from './recovery-code.ts';

export { GROUP } from './groups.ts';

export const NAME_MAX = 32;
export const PASSCODE_LENGTH = 6;
/** zxcvbn guesses_log10 a password must exceed (SPEC §5, §9). */
export const PASSWORD_MIN_SCORE = 10;
/** The web asks for an estimate only above this length (SPEC §5). */
export const PASSWORD_ESTIMATE_MIN_LENGTH = 4;
/** Longer inputs are refused before hashing or estimating (cost bound). */
export const PASSWORD_MAX = 256;

export const MESSAGES = {
  required: 'Required',
  invalidEmail: 'Invalid email',
  weakPassword: 'Password too weak.',
  passwordMismatch: "Password confirmation doesn't match password.",
  passcodeLength: `The code has ${PASSCODE_LENGTH} characters`,
} as const;

export const emailSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(254, MESSAGES.invalidEmail)
  .pipe(z.email({ error: MESSAGES.invalidEmail }));

export const passwordSchema = z
  .string({ error: MESSAGES.required })
  .min(1, MESSAGES.required)
  .max(PASSWORD_MAX, `At most ${PASSWORD_MAX} characters`);

/** Optional first or last name: at most 32 characters, blank becomes undefined. */
export const nameSchema = z
  .string()
  .trim()
  .max(NAME_MAX, `At most ${NAME_MAX} characters`)
  .optional()
  .transform((v) => (v ? v : undefined));

/** Second-factor code: pasted text is trimmed (SPEC §2), exactly 6 characters. */
export const passcodeSchema = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .length(PASSCODE_LENGTH, MESSAGES.passcodeLength);

/** Sign-in form and `signin(type: "password")` credentials. */
export const signinSchema = z.object({ email: emailSchema, password: passwordSchema });

/** `signin(type: "token")` credentials: an ID token of a social provider. */
export const socialCredentialsSchema = z.object({
  issuer: z.enum(['google', 'apple', 'id']),
  token: z.string().min(1, MESSAGES.required).max(8192),
  /**
   * Google and Apple: the random value the browser kept, whose SHA-256 (hex) it gave the provider
   * as the ID token's nonce; binds the token to this browser's sign-in (issuer 'id' has none).
   */
  nonce: z.string().min(16).max(256).optional(),
});

/** `signin(type: "passcode")` credentials, sent with the identity (mfa) token as Bearer. */
export const passcodeCredentialsSchema = z.object({ passcode: passcodeSchema });

/**
 * A name a sign-in provider gives (Google's ID token claims, Apple's metadata): trimmed and cut to
 * 32 characters; blank or not text is no name. One name too long must not cost the other.
 */
export const providedName = (value: unknown): string | undefined => {
  const name = typeof value === 'string' ? value.trim().slice(0, NAME_MAX).trim() : '';
  return name || undefined;
};

/** Apple passes the name only once, as sign-in metadata. */
export const signinMetadataSchema = z
  .object({ firstName: z.unknown().transform(providedName), lastName: z.unknown().transform(providedName) })
  .partial()
  .optional()
  .catch(undefined);

/**
 * `confirmation` equals `password`. Checked once a confirmation is typed even while another field
 * is wrong (zod skips an object's refinements then): every error shows on the first submit.
 */
export const confirmsPassword = <P extends string, C extends string>(
  password: P,
  confirmation: C,
): [(value: Record<P | C, string>) => boolean, z.core.$ZodCustomParams] => [
  (value) => value[password] === value[confirmation],
  {
    path: [confirmation],
    message: MESSAGES.passwordMismatch,
    when: ({ value }) => {
      const fields = value as Record<string, unknown>;
      const typed = fields[confirmation];
      return typeof fields[password] === 'string' && typeof typed === 'string' && typed !== '';
    },
  },
];

/** The sign-up form (the terms checkbox is required; the server gets `credentials` and names). */
export const signupSchema = z
  .object({
    firstName: nameSchema,
    lastName: nameSchema,
    email: emailSchema,
    password: passwordSchema,
    password2: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required),
    terms: z.literal(true, { error: MESSAGES.required }),
  })
  .refine(...confirmsPassword('password', 'password2'));

/** `signup(type: "password")` credentials. */
export const signupCredentialsSchema = signinSchema;

/**
 * The reset's optional second factor: the authenticator's code (6 characters, as sign-in's
 * `passcodeSchema`) or, as sign-in's `recoveryCredentialsSchema` takes, a recovery code.
 */
const resetPasscodeSchema = z
  .string()
  .max(40, RECOVERY_CODE_INVALID)
  .superRefine((value, ctx) => {
    if (value.length === PASSCODE_LENGTH || isRecoveryCode(value)) return;
    // Digits are an authenticator code cut short; anything else was meant as a recovery code.
    const message = /^\d*$/.test(value) ? MESSAGES.passcodeLength : RECOVERY_CODE_INVALID;
    ctx.addIssue({ code: 'custom', message });
  });

/** Password reset form and `authPasswordReset` (passcode only when a second factor is active). */
export const passwordResetSchema = z
  .object({
    token: z.string().min(1, MESSAGES.required).max(512),
    password: passwordSchema,
    password2: z.string({ error: MESSAGES.required }).min(1, MESSAGES.required),
    passcode: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : undefined))
      .pipe(resetPasscodeSchema.optional()),
  })
  .refine(...confirmsPassword('password', 'password2'));

export const passwordResetRequestSchema = z.object({ email: emailSchema });

export const userUpdateSchema = z.object({
  email: emailSchema.optional(),
  firstName: nameSchema,
  lastName: nameSchema,
});

export type SigninInput = z.infer<typeof signinSchema>;
export type SignupForm = z.infer<typeof signupSchema>;
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;
