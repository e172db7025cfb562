// Password reset (SPEC §4): the request always answers the same and does its work after the
// response; the emailed token is single use, expires in an hour, and with an active second
// factor the reset also needs a valid code (the authenticator's, or a recovery code, which it
// spends). Every session of the user ends. The link in the notice of a factor turned on
// (email-links.ts) resets without a code and turns that factor off, ending API tokens too; the
// link in the notice of an email change does the same and brings the old address back, but asks
// the code of a factor on since before the change's last 3 days (the owner's, factorPredates).
import { PASSWORD_MAX, passwordResetRequestSchema, passwordResetSchema } from '@router/shared';
import { addressKey } from '../../address-key.ts';
import { recordAction } from '../../db/repositories/action.repository.ts';
import {
  consumeEmailToken,
  type EmailTokenPurpose,
  findUsableEmailToken,
  invalidateEmailTokens,
} from '../../db/repositories/email-token.repository.ts';
import { findUserByEmail, findUserById, updateUser } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import { ACTION } from '../actions/codes.ts';
import { onEmailConfirmed } from '../admin/confirmed.ts';
import { type Caller, parseInput } from './caller.ts';
import { revokeForeignAccess, revokeUnprovenAccess, UNPROVEN_FACTOR } from './claim.ts';
import { FACTOR_UNDO_TTL_MS, sendPasswordReset } from './email-links.ts';
import { clearCodeAttempts } from './passcode.ts';
import { assertStrongPassword, hashPassword } from './password.ts';
import { estimatePassword } from './password-strength.ts';
import { RULES } from './rate-limit.ts';
import { verifySecondFactor } from './second-factor.ts';
import { revokeAllOfUser } from './sessions.ts';
import { accountSigninKey } from './signin.ts';
import { EMAIL_TAKEN } from './signup.ts';
import { hashToken } from './tokens.ts';

export const RESET_LINK_INVALID = 'This password reset link is expired or was already used';

/** The links that open the reset form: the requested one, and the undo links of two notices. */
const RESET_LINKS: EmailTokenPurpose[] = ['password_reset', 'factor_undo', 'email_undo'];

export async function requestPasswordReset(caller: Caller, input: { email: string }): Promise<boolean> {
  const { services, ip } = caller;
  const { email } = parseInput(passwordResetRequestSchema, input);
  await services.identity.limiter.enforce(`reset-request:${addressKey(ip)}`, RULES.resetRequestIp);
  // Whether the email exists decides only what happens after the answer.
  services.identity.background(async () => {
    if (!(await services.identity.limiter.take(`reset-request:${email.toLowerCase()}`, RULES.resetRequestEmail)))
      return;
    const user = await findUserByEmail(services.db, email);
    if (!user) return;
    await sendPasswordReset(services, user);
    await recordAction(services.db, { userId: user.id, code: ACTION.PASSWORD_RESET_REQUEST, address: ip });
  });
  return true;
}

export interface PasswordResetInput {
  token: string;
  password: string;
  password2: string;
  passcode?: string | null;
}

/**
 * The second factor was on longer than its own undo link lasts before an email change's link was
 * made: the owner's, not a taker's (a taker's factor is newer, and its undo link, mailed to the
 * owner, the change ended). The email change's undo link then leaves it on and asks its code:
 * turning it off gave whoever held the old mailbox the account for 7 days, factor or not.
 */
function factorPredates(activeAt: Date | null, linkMadeAt: Date): boolean {
  return activeAt !== null && activeAt.getTime() <= linkMadeAt.getTime() - FACTOR_UNDO_TTL_MS;
}

export async function resetPassword(caller: Caller, input: PasswordResetInput): Promise<boolean> {
  const { services, ip } = caller;
  await services.identity.limiter.enforce(`email-link:${addressKey(ip)}`, RULES.emailLink);
  const { token, password, passcode } = parseInput(passwordResetSchema, { ...input, passcode: input.passcode ?? '' });
  const row = await findUsableEmailToken(services.db, hashToken(token), RESET_LINKS);
  const user = row && (await findUserById(services.db, row.userId));
  // The undo links (email-links.ts) of a factor turned on, or of an email changed, sent to the
  // owner's address for a change they may not have made. A factor's works only while that factor
  // is the one on; an email's brings its address back.
  const undo = row?.purpose === 'factor_undo' || row?.purpose === 'email_undo';
  const restore = row?.purpose === 'email_undo' ? row.metadata.email : undefined;
  if (
    !row ||
    !user ||
    (row.purpose === 'factor_undo' && user.passcodeActiveAt?.toISOString() !== row.metadata.factorActiveAt)
  ) {
    throw new AppError('VALIDATION', RESET_LINK_INVALID, { field: 'token' });
  }
  await assertStrongPassword(password);
  const ownersFactor = row.purpose === 'email_undo' && factorPredates(user.passcodeActiveAt, row.createdAt);
  // A factor set up before the email was proven is not the owner's: the reset drops it; so does
  // an undo link, but for the owner's factor an email change's leaves on (its code is asked).
  const keepsFactor = !undo || ownersFactor;
  const needsFactor = keepsFactor && Boolean(user.passcodeActiveAt && user.emailConfirmedAt);
  if (needsFactor && !passcode) {
    throw new AppError('VALIDATION', 'Please enter the code of your authenticator app or a recovery code', {
      field: 'passcode',
    });
  }
  const passwordHash = await hashPassword(password);
  const done = await services.db.transaction(async (tx) => {
    // The link is claimed first: a reset racing on the same link waits here and then finds it
    // used, so only the reset that uses the link spends a code. A wrong code throws and rolls the
    // claim back, leaving the link usable.
    if (!(await consumeEmailToken(tx, row.id))) return false;
    // As at sign-in: the authenticator's code, or a recovery code (spent here, once).
    // Counted apart from the sign-in's codes: only the link's holder reaches this.
    if (needsFactor) await verifySecondFactor(services, user, passcode ?? '', 'passcode', tx, 'passcode-reset');
    // Opening the emailed link also proves the address (and brings what a confirmation brings).
    const updated = await updateUser(tx, user.id, {
      passwordHash,
      ...(user.emailConfirmedAt ? {} : { emailConfirmedAt: new Date(), ...UNPROVEN_FACTOR }),
      ...(keepsFactor ? {} : UNPROVEN_FACTOR),
      ...(restore ? { email: restore, emailConfirmedAt: user.emailConfirmedAt ?? new Date() } : {}),
    });
    // Another account took the address meanwhile: nothing changes, the link stays usable.
    if (!updated && restore) throw new AppError('VALIDATION', EMAIL_TAKEN, { field: 'token' });
    if (updated && !user.emailConfirmedAt) await onEmailConfirmed(tx, services, updated);
    // An email change asked for before (perhaps by whoever made the reset necessary) ends too,
    // and after an undo every other link (some went to the taker's address).
    for (const purpose of undo ? ['email_change' as const, ...RESET_LINKS] : ['email_change' as const]) {
      await invalidateEmailTokens(tx, user.id, purpose);
    }
    await recordAction(tx, { userId: user.id, code: ACTION.PASSWORD_RESET, address: ip });
    return true;
  });
  if (!done) throw new AppError('VALIDATION', RESET_LINK_INVALID, { field: 'token' });
  // Every way in but the personal API tokens and granted applications (docs/ARCHITECTURE.md):
  // a partner's one-time sign-in token (kind 'signin') too, as a password change ends it.
  await revokeAllOfUser(services, user.id, ['session', 'mfa', 'signin']);
  // The new password is the owner's: failed guesses by others no longer hold its sign-in back.
  await services.identity.limiter.reset(accountSigninKey(restore ?? user.email), RULES.signinAccount);
  await clearCodeAttempts(services, user.id);
  await revokeUnprovenAccess(services, user);
  if (undo) await revokeForeignAccess(services, user);
  return true;
}

/** `authPasswordEstimate`: zxcvbn guesses_log10, rate limited per address. */
export async function passwordEstimate(caller: Caller, password: string): Promise<number> {
  await caller.services.identity.limiter.enforce(`estimate:${addressKey(caller.ip)}`, RULES.estimate);
  if (password.length > PASSWORD_MAX)
    throw new AppError('VALIDATION', `At most ${PASSWORD_MAX} characters`, { field: 'password' });
  return estimatePassword(password);
}
