// The last step of every sign-in: a second-factor session when the user has an active factor,
// else a full session and the 'Signin' action.
import { recordAction } from '../../db/repositories/action.repository.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import type { Services } from '../../services.ts';
import { ACTION } from '../actions/codes.ts';
import { issueSession } from './sessions.ts';

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
    const { token } = await issueSession(services, user.id, 'mfa', { address, metadata: { method: options.method } });
    return { token, issuer: 'identity', email: null };
  }
  const { token } = await issueSession(services, user.id, 'session', { address, metadata: { method: options.method } });
  await recordAction(services.db, {
    userId: user.id,
    code: ACTION.SIGNIN,
    address,
    metadata: { method: options.method },
  });
  return { token, issuer: 'user', email: options.recall ? user.email : null };
}
