// The last step of every sign-in: a second-factor session when the user has an active factor,
// else a full session and the 'Signin' action.
import { recordAction } from '../../db/repositories/action.repository.ts';
import { findUserById, type UserRow } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { ACTION } from '../actions/codes.ts';
import { type IssuedToken, issueSession, revokeOne } from './sessions.ts';

/**
 * SPEC §3 Signin result. `issuer` 'identity': only the second factor may follow (SPEC §4);
 * 'user': a full session. `email` is set only to send the web app to the recall screen
 * (SPEC §4): after a sign-in with a recovery code, to show what is left of them.
 */
export interface SigninResult {
  token: string;
  issuer: 'identity' | 'user';
  email: string | null;
}

export async function completeSignin(
  services: Services,
  user: UserRow,
  address: string | null,
  options: { skipSecondFactor?: boolean; method: string; recall?: boolean },
): Promise<SigninResult> {
  if (user.passcodeActiveAt && !options.skipSecondFactor) {
    const issued = await issueSession(services, user.id, 'mfa', { address, metadata: { method: options.method } });
    await assertStillCurrent(services, user, issued);
    return { token: issued.token, issuer: 'identity', email: null };
  }
  const issued = await issueSession(services, user.id, 'session', { address, metadata: { method: options.method } });
  await assertStillCurrent(services, user, issued);
  const { token } = issued;
  await recordAction(services.db, {
    userId: user.id,
    code: ACTION.SIGNIN,
    address,
    metadata: { method: options.method },
  });
  return { token, issuer: 'user', email: options.recall ? user.email : null };
}

export const SIGNIN_EXPIRED = 'Your sign-in has expired, please sign in again';

const same = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/**
 * A password change or reset, or a second factor turned on, ends every session made before it;
 * a sign-in that checked the credentials just before (the old password, no factor yet) and made
 * its session just after would keep one. So the session is kept only if the password and the
 * factor are still those the sign-in checked: otherwise it is revoked and the sign-in starts over.
 */
async function assertStillCurrent(services: Services, checked: UserRow, issued: IssuedToken): Promise<void> {
  const current = await findUserById(services.db, checked.id);
  if (
    current &&
    current.passwordHash === checked.passwordHash &&
    same(current.passcodeActiveAt, checked.passcodeActiveAt)
  ) {
    return;
  }
  await revokeOne(services, issued.id);
  throw new AppError('UNAUTHENTICATED', SIGNIN_EXPIRED);
}
