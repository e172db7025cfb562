// Settings' password change: the current password is required, the new one must be strong, and
// every other sign-in session of the user ends (the caller's own stays; API tokens and granted
// applications are not sessions and stay), and so do a pending email change and reset link. Not
// in admin proxy mode: an administrator never sets a user's password.
import { passwordChangeSchema, SECURITY_MESSAGES } from '@router/shared';
import { invalidateEmailTokens } from '../../db/repositories/email-token.repository.ts';
import { updateUser } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import { type Caller, parseInput, requireOwner } from '../auth/caller.ts';
import { assertStrongPassword, hashPassword, verifyPassword } from '../auth/password.ts';
import { RULES } from '../auth/rate-limit.ts';
import { revokeAllOfUser } from '../auth/sessions.ts';
import { ACCOUNT_SIGNIN_LIMITED, accountSigninKey } from '../auth/signin.ts';
import { getUser } from './user.ts';

export interface PasswordChangeInput {
  password: string;
  newPassword: string;
  newPassword2: string;
}

export async function changePassword(caller: Caller, input: PasswordChangeInput): Promise<boolean> {
  const { services } = caller;
  const viewer = requireOwner(caller, 'The password can only be changed by its owner');
  const { password, newPassword } = parseInput(passwordChangeSchema, input);
  const user = await getUser(caller);
  if (!user.passwordHash) throw new AppError('VALIDATION', SECURITY_MESSAGES.noPassword, { field: 'password' });
  const { limiter } = services.identity;
  await limiter.enforce(`password-change:${user.id}`, RULES.signin);
  // A guess at the current password, as a sign-in's is: a taken session gets no budget of its own.
  await limiter.enforce(accountSigninKey(user.email), RULES.signinAccount, ACCOUNT_SIGNIN_LIMITED);
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new AppError('VALIDATION', SECURITY_MESSAGES.currentPasswordWrong, { field: 'password' });
  }
  await limiter.refund(accountSigninKey(user.email), RULES.signinAccount);
  if (newPassword === password) {
    throw new AppError('VALIDATION', SECURITY_MESSAGES.samePassword, { field: 'newPassword' });
  }
  await assertStrongPassword(newPassword, 'newPassword');
  await updateUser(services.db, user.id, { passwordHash: await hashPassword(newPassword) });
  await revokeAllOfUser(services, user.id, ['session', 'mfa', 'signin'], viewer.sessionId);
  // A pending email change may have been asked for by a session that just ended: its link ends too,
  // and so does a reset link asked for before (it would set the password back to another one).
  await invalidateEmailTokens(services.db, user.id, 'email_change');
  await invalidateEmailTokens(services.db, user.id, 'password_reset');
  return true;
}
