// `signin`: type 'password' ({email, password}), 'token' ({issuer, token}: Google or Apple ID
// token, or issuer 'id': a one-time sign-in token of ours), 'passcode' ({passcode}, completing a
// second factor with the identity token as Bearer) or 'recovery' ({code}: a recovery code instead
// of the passcode; the result then carries the email, sending the web app to the recall screen).
import {
  passcodeCredentialsSchema,
  recoveryCredentialsSchema,
  signinMetadataSchema,
  signinSchema,
  socialCredentialsSchema,
} from '@router/shared';
import { addressKey } from '../../address-key.ts';
import { useSigninToken } from '../../db/repositories/session.repository.ts';
import { findUserByEmail, findUserById } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import { type Caller, parseInput } from './caller.ts';
import { completeSignin, SIGNIN_EXPIRED, type SigninResult } from './complete-signin.ts';
import { sendConfirmation } from './email-links.ts';
import { verifyPasscode } from './passcode.ts';
import { verifyPassword } from './password.ts';
import { RULES } from './rate-limit.ts';
import { verifyRecoveryCode } from './second-factor.ts';
import { resolveToken, revokeOne } from './sessions.ts';
import { findOrCreateSocialUser } from './signup.ts';
import { spendSocialNonce, verifySocialToken } from './social.ts';
import { hashToken } from './tokens.ts';

export const WRONG_CREDENTIALS = 'Wrong email or password';
export const CONFIRM_FIRST = 'Please confirm your email first: we sent you a link';
export const ACCOUNT_SIGNIN_LIMITED =
  'Too many sign-in attempts to this account, please try again in an hour or reset your password';

/** The count of password sign-ins to one email from every address (RULES.signinAccount). */
export const accountSigninKey = (email: string) => `signin-account:${email.toLowerCase()}`;

export interface SigninInput {
  type: string;
  credentials?: unknown;
  metadata?: unknown;
}

export function signin(caller: Caller, input: SigninInput): Promise<SigninResult> {
  if (input.type === 'password') return passwordSignin(caller, input.credentials);
  if (input.type === 'token') return socialSignin(caller, input.credentials, input.metadata);
  if (input.type === 'passcode') return passcodeSignin(caller, input.credentials);
  if (input.type === 'recovery') return recoverySignin(caller, input.credentials);
  throw new AppError('VALIDATION', 'Unknown sign-in type', { field: 'type' });
}

async function passwordSignin(caller: Caller, credentials: unknown): Promise<SigninResult> {
  const { services, ip } = caller;
  const { email, password } = parseInput(signinSchema, credentials, 'credentials');
  const { limiter } = services.identity;
  const tooMany = 'Too many sign-in attempts, please wait a minute and try again';
  await limiter.enforce(`signin:${addressKey(ip)}:${email.toLowerCase()}`, RULES.signin, tooMany);
  await limiter.enforce(`signin:${addressKey(ip)}`, RULES.signinIp, tooMany);
  // Counted whether the email is registered or not (no tell); cleared by a reset.
  await limiter.enforce(accountSigninKey(email), RULES.signinAccount, ACCOUNT_SIGNIN_LIMITED);
  const user = await findUserByEmail(services.db, email);
  // verifyPassword spends an argon2 verification even without a user: no timing difference.
  if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
    throw new AppError('VALIDATION', WRONG_CREDENTIALS);
  }
  // Takes its own attempt back, but leaves the others' guesses counted: the owner signing in
  // must not hand a botnet a fresh budget.
  await limiter.refund(accountSigninKey(email), RULES.signinAccount);
  if (!user.emailConfirmedAt) {
    // Only someone who knows the password learns this; a new link goes out at most every 5 minutes.
    if (await limiter.take(`confirmation:${user.id}`, RULES.confirmationResend)) await sendConfirmation(services, user);
    throw new AppError('FORBIDDEN', CONFIRM_FIRST);
  }
  return completeSignin(services, user, ip, { method: 'password' });
}

async function socialSignin(caller: Caller, credentials: unknown, metadata: unknown): Promise<SigninResult> {
  const { services, ip } = caller;
  await services.identity.limiter.enforce(`signin:${addressKey(ip)}`, RULES.signinIp);
  const { issuer, token, nonce } = parseInput(socialCredentialsSchema, credentials, 'credentials');
  if (issuer === 'id') return oneTimeSignin(caller, token);
  const identity = await verifySocialToken(services, issuer, token, nonce);
  await spendSocialNonce(services, identity);
  // Apple sends the name only to the client, once: it arrives as metadata.
  const names = signinMetadataSchema.parse(metadata) ?? {};
  const user = await findOrCreateSocialUser(services, {
    email: identity.email,
    vouched: identity.vouched,
    issuer: identity.issuer,
    firstName: names.firstName ?? identity.firstName,
    lastName: names.lastName ?? identity.lastName,
  });
  return completeSignin(services, user, ip, { method: issuer });
}

/** The user behind the identity (mfa) token of the request, and that token's session id. */
async function secondFactorUser(caller: Caller) {
  const session = caller.bearer ? await resolveToken(caller.services, caller.bearer) : null;
  if (session?.kind !== 'mfa') throw new AppError('UNAUTHENTICATED', SIGNIN_EXPIRED);
  const user = await findUserById(caller.services.db, session.userId);
  if (!user) throw new AppError('UNAUTHENTICATED', SIGNIN_EXPIRED);
  return { user, sessionId: session.id };
}

/**
 * Spends the identity token once the second factor is proven: revoked atomically, so of two
 * completions racing with two valid codes (two time steps, two recovery codes) only one signs in.
 */
async function spendIdentityToken(caller: Caller, sessionId: number): Promise<void> {
  if (!(await revokeOne(caller.services, sessionId))) throw new AppError('UNAUTHENTICATED', SIGNIN_EXPIRED);
}

async function passcodeSignin(caller: Caller, credentials: unknown): Promise<SigninResult> {
  const { passcode } = parseInput(passcodeCredentialsSchema, credentials, 'credentials');
  const { user, sessionId } = await secondFactorUser(caller);
  await verifyPasscode(caller.services, user, passcode);
  await spendIdentityToken(caller, sessionId);
  return completeSignin(caller.services, user, caller.ip, { method: 'passcode', skipSecondFactor: true });
}

async function recoverySignin(caller: Caller, credentials: unknown): Promise<SigninResult> {
  const { code } = parseInput(recoveryCredentialsSchema, credentials, 'credentials');
  const { user, sessionId } = await secondFactorUser(caller);
  await verifyRecoveryCode(caller.services, user, code);
  await spendIdentityToken(caller, sessionId);
  return completeSignin(caller.services, user, caller.ip, { method: 'recovery', skipSecondFactor: true, recall: true });
}

/**
 * Issuer 'id': a one-time sign-in token of ours (POST /api/oauth/legacy-register answers one,
 * handed to /signin in the address hash as `access_token`). Spent by the exchange, which asks
 * for the emailed confirmation (its link signs in): legacy-register answers a registered address
 * with such a token too, so a token that signed in would open its owner's account, and one that
 * failed would tell the address is registered.
 */
async function oneTimeSignin(caller: Caller, token: string): Promise<SigninResult> {
  const userId = await useSigninToken(caller.services.db, hashToken(token));
  if (userId === undefined) {
    throw new AppError('VALIDATION', 'The sign-in token is not valid, please try again', { field: 'token' });
  }
  throw new AppError('FORBIDDEN', CONFIRM_FIRST);
}
