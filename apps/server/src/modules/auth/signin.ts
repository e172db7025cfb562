// `signin`: type 'password' ({email, password}), 'token' ({issuer, token}: Google or Apple ID
// token) or 'passcode' ({passcode}, completing a second factor with the identity token as Bearer).
import { passcodeCredentialsSchema, signinMetadataSchema, signinSchema, socialCredentialsSchema } from '@router/shared';
import { findUserByEmail, findUserById } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import { type Caller, parseInput, rateLimited } from './caller.ts';
import { completeSignin, type SigninResult } from './complete-signin.ts';
import { sendConfirmation } from './email-links.ts';
import { verifyPasscode } from './passcode.ts';
import { verifyPassword } from './password.ts';
import { RULES } from './rate-limit.ts';
import { resolveToken, revokeOne } from './sessions.ts';
import { findOrCreateSocialUser } from './signup.ts';
import { verifySocialToken } from './social.ts';

export const WRONG_CREDENTIALS = 'Wrong email or password';
export const CONFIRM_FIRST = 'Please confirm your email first: we sent you a link';

export interface SigninInput {
  type: string;
  credentials?: unknown;
  metadata?: unknown;
}

export function signin(caller: Caller, input: SigninInput): Promise<SigninResult> {
  if (input.type === 'password') return passwordSignin(caller, input.credentials);
  if (input.type === 'token') return socialSignin(caller, input.credentials, input.metadata);
  if (input.type === 'passcode') return passcodeSignin(caller, input.credentials);
  throw new AppError('VALIDATION', 'Unknown sign-in type', { field: 'type' });
}

async function passwordSignin(caller: Caller, credentials: unknown): Promise<SigninResult> {
  const { services, ip } = caller;
  const { email, password } = parseInput(signinSchema, credentials, 'credentials');
  const { limiter } = services.identity;
  if (
    !limiter.take(`signin:${ip}:${email.toLowerCase()}`, RULES.signin) ||
    !limiter.take(`signin:${ip}`, RULES.signinIp)
  ) {
    throw rateLimited('Too many sign-in attempts, please wait a minute and try again');
  }
  const user = await findUserByEmail(services.db, email);
  // verifyPassword spends an argon2 verification even without a user: no timing difference.
  if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
    throw new AppError('VALIDATION', WRONG_CREDENTIALS);
  }
  if (!user.emailConfirmedAt) {
    // Only someone who knows the password learns this; a new link goes out at most every 5 minutes.
    if (limiter.take(`confirmation:${user.id}`, RULES.confirmationResend)) await sendConfirmation(services, user);
    throw new AppError('FORBIDDEN', CONFIRM_FIRST);
  }
  return completeSignin(services, user, ip, { method: 'password' });
}

async function socialSignin(caller: Caller, credentials: unknown, metadata: unknown): Promise<SigninResult> {
  const { services, ip } = caller;
  if (!services.identity.limiter.take(`signin:${ip}`, RULES.signinIp)) throw rateLimited();
  const { issuer, token } = parseInput(socialCredentialsSchema, credentials, 'credentials');
  const identity = await verifySocialToken(services, issuer, token);
  // Apple sends the name only to the client, once: it arrives as metadata.
  const names = signinMetadataSchema.parse(metadata) ?? {};
  const user = await findOrCreateSocialUser(services, {
    email: identity.email,
    firstName: names.firstName ?? identity.firstName,
    lastName: names.lastName ?? identity.lastName,
  });
  return completeSignin(services, user, ip, { method: issuer });
}

async function passcodeSignin(caller: Caller, credentials: unknown): Promise<SigninResult> {
  const { services, ip, bearer } = caller;
  const session = bearer ? await resolveToken(services, bearer) : null;
  if (session?.kind !== 'mfa') {
    throw new AppError('UNAUTHENTICATED', 'Your sign-in has expired, please sign in again');
  }
  const { passcode } = parseInput(passcodeCredentialsSchema, credentials, 'credentials');
  const user = await findUserById(services.db, session.userId);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Your sign-in has expired, please sign in again');
  await verifyPasscode(services, user, passcode);
  await revokeOne(services, session.id);
  return completeSignin(services, user, ip, { method: 'passcode', skipSecondFactor: true });
}
