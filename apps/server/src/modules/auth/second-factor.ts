// A second factor where either proof is accepted: the authenticator's 6-digit code or a one-time
// recovery code. Wrong recovery codes count against the same limit as wrong passcodes.
import { isRecoveryCode, MESSAGES, SECURITY_MESSAGES } from '@router/shared';
import type { Executor } from '../../db/repositories/executor.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type CodeBudget, settleCodeAttempt, takeCodeAttempt, verifyPasscode } from './passcode.ts';
import { spendRecoveryCode } from './recovery-codes.ts';

/** Spends a recovery code of the user; VALIDATION when it is wrong or used, RATE_LIMITED after many. */
export async function verifyRecoveryCode(
  services: Services,
  user: UserRow,
  code: string,
  field = 'code',
  db: Executor = services.db,
  budget: CodeBudget = 'passcode',
): Promise<void> {
  // Counted before it is judged, as passcodes are (verifyPasscode), and settled the same way.
  await takeCodeAttempt(services, user.id, budget);
  if (!user.passcodeActiveAt || !isRecoveryCode(code) || !(await spendRecoveryCode(services, user.id, code, db))) {
    throw new AppError('VALIDATION', SECURITY_MESSAGES.recoveryCodeInvalid, { field });
  }
  await settleCodeAttempt(services, user.id, budget);
}

/**
 * A recovery code (12 letters and digits) is spent as one; anything else is an authenticator code.
 * `field`: the input a wrong recovery code is reported on; `db`: an open transaction the code is
 * spent in (rolled back with it), if any; `budget`: the count the attempt is taken from.
 */
export function verifySecondFactor(
  services: Services,
  user: UserRow,
  code: string,
  field?: string,
  db: Executor = services.db,
  budget?: CodeBudget,
): Promise<void> {
  const trimmed = code.trim();
  // SPEC §5: the code is required; a blank one is said so, not counted as a wrong guess.
  if (!trimmed) return Promise.reject(new AppError('VALIDATION', MESSAGES.required, { field: field ?? 'passcode' }));
  return isRecoveryCode(trimmed)
    ? verifyRecoveryCode(services, user, trimmed, field, db, budget)
    : verifyPasscode(services, user, trimmed, undefined, db, budget);
}
