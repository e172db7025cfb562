// TOTP second factor (RFC 6238: SHA-1, 6 digits, 30 s). A code is accepted once: the used time
// step is stored and only later steps pass. Wrong codes: 5 per 5 minutes and 20 a day per user
// (a valid one clears only the 5 minutes').
import { Secret, TOTP } from 'otpauth';
import { openText, sealText } from '../../crypto/secrets.ts';
import type { Executor } from '../../db/repositories/executor.ts';
import { consumePasscodeStep, type UserRow } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { RULES } from './rate-limit.ts';

export const PASSCODE_ISSUER = 'Signal Router';
export const INVALID_PASSCODE = 'The verification code is not valid';
const PERIOD_S = 30;

export function newPasscodeSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export function totp(secret: string, email: string): TOTP {
  return new TOTP({
    issuer: PASSCODE_ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });
}

const aad = (userId: number) => `users.passcode_secret:${userId}`;
/**
 * A secret being enrolled is sealed for the sign-in session enrolling it: another session of the
 * user (perhaps the one that made the owner turn the factor on) cannot read the seed the owner is
 * about to activate, and so cannot make its codes afterwards.
 */
const pendingAad = (userId: number, sessionId: number) => `users.passcode_secret:${userId}:pending:${sessionId}`;

/** Sealed for the active factor, or with `sessionId` as that session's pending secret. */
export function sealPasscodeSecret(services: Services, userId: number, secret: string, sessionId?: number): string {
  return sealText(services.secretsKey, secret, sessionId === undefined ? aad(userId) : pendingAad(userId, sessionId));
}

/** The active factor's secret, else null (a pending one opens only for its session: openPendingSecret). */
export function openPasscodeSecret(services: Services, user: UserRow): string | null {
  return user.passcodeSecret && user.passcodeActiveAt
    ? openText(services.secretsKey, user.passcodeSecret, aad(user.id))
    : null;
}

/** The secret this session is enrolling, else null (none, active, or another session's). */
export function openPendingSecret(services: Services, user: UserRow, sessionId: number): string | null {
  if (!user.passcodeSecret || user.passcodeActiveAt) return null;
  try {
    return openText(services.secretsKey, user.passcodeSecret, pendingAad(user.id, sessionId));
  } catch {
    return null;
  }
}

/**
 * Checks a code against the user's secret (or `secret`, during enrollment) and burns its time
 * step. Throws VALIDATION for a wrong or replayed code, RATE_LIMITED after too many.
 */
export async function verifyPasscode(
  services: Services,
  user: UserRow,
  code: string,
  secret?: string,
  db: Executor = services.db,
  budget: CodeBudget = 'passcode',
): Promise<void> {
  await takeCodeAttempt(services, user.id, budget);
  const fail = () => new AppError('VALIDATION', INVALID_PASSCODE, { field: 'passcode' });
  const used = secret ?? openPasscodeSecret(services, user);
  if (!used || !/^\d{6}$/.test(code)) throw fail();
  const now = Date.now();
  const delta = totp(used, user.email).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) throw fail();
  const step = Math.floor(now / 1000 / PERIOD_S) + delta;
  if (!(await consumePasscodeStep(db, user.id, step))) throw fail();
  await settleCodeAttempt(services, user.id, budget);
}

/**
 * Whose count a code attempt is taken from: sign-in and the settings ('passcode'), or a password
 * reset ('passcode-reset'), reached only through the emailed link: whoever holds just the password
 * and spends the sign-in's count does not lock the owner out of the reset that ends their access.
 */
export type CodeBudget = 'passcode' | 'passcode-reset';
const codeKey = (userId: number, budget: CodeBudget) => `${budget}:${userId}`;

/**
 * Counts a second-factor attempt (authenticator or recovery code) before it is judged, atomically
 * (codes sent all at once cannot each slip under the limit); RATE_LIMITED past either limit.
 */
export async function takeCodeAttempt(services: Services, userId: number, budget: CodeBudget = 'passcode') {
  for (const rule of [RULES.passcodeFailures, RULES.passcodeFailuresDaily]) {
    await services.identity.limiter.enforce(
      codeKey(userId, budget),
      rule,
      'Too many wrong verification codes, please wait a few minutes',
    );
  }
}

/**
 * A valid code clears the short window and takes its own attempt back from the daily one, which
 * it does not clear: the owner signing in must not hand whoever holds the password fresh guesses.
 */
export async function settleCodeAttempt(services: Services, userId: number, budget: CodeBudget = 'passcode') {
  const { limiter } = services.identity;
  await limiter.reset(codeKey(userId, budget), RULES.passcodeFailures);
  await limiter.refund(codeKey(userId, budget), RULES.passcodeFailuresDaily);
}

/** A new password ends the guesser's access: the sign-in's wrong codes are forgotten. */
export async function clearCodeAttempts(services: Services, userId: number): Promise<void> {
  for (const rule of [RULES.passcodeFailures, RULES.passcodeFailuresDaily]) {
    await services.identity.limiter.reset(codeKey(userId, 'passcode'), rule);
  }
}
