// `authEmailConfirm`: a confirmation (or email-change) link; success signs the user in (SPEC §4).
// A newly confirmed email brings the referral credits and maybe the administrator role
// (modules/admin/confirmed.ts), in the same transaction.
import { addressKey } from '../../address-key.ts';
import {
  consumeEmailToken,
  findUsableEmailToken,
  invalidateEmailTokens,
} from '../../db/repositories/email-token.repository.ts';
import { findUserById, type UserRow, updateUser } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import { onEmailConfirmed } from '../admin/confirmed.ts';
import type { Caller } from './caller.ts';
import { revokeUnprovenAccess, UNPROVEN_FACTOR } from './claim.ts';
import { completeSignin, type SigninResult } from './complete-signin.ts';
import { RULES } from './rate-limit.ts';
import { EMAIL_TAKEN } from './signup.ts';
import { hashToken } from './tokens.ts';

export const CONFIRM_LINK_INVALID = 'This confirmation link is expired or incorrect';

export async function confirmEmail(caller: Caller, token: string): Promise<SigninResult> {
  const { services, ip } = caller;
  await services.identity.limiter.enforce(`email-link:${addressKey(ip)}`, RULES.emailLink);
  const invalid = () => new AppError('VALIDATION', CONFIRM_LINK_INVALID, { field: 'token' });
  if (!token || token.length > 200) throw invalid();
  const row = await findUsableEmailToken(services.db, hashToken(token), ['email_confirm', 'email_change']);
  if (!row) throw invalid();
  const before = await findUserById(services.db, row.userId);
  const user = await services.db.transaction(async (tx): Promise<UserRow | null | 'taken'> => {
    if (!(await consumeEmailToken(tx, row.id))) return null;
    const current = await findUserById(tx, row.userId);
    if (!current) return null;
    const factor = current.emailConfirmedAt ? {} : UNPROVEN_FACTOR;
    if (row.purpose === 'email_change' && row.metadata.email) {
      const changed = await updateUser(tx, current.id, {
        email: row.metadata.email,
        emailConfirmedAt: new Date(),
        ...factor,
      });
      // Reset links went to the old address, which no longer speaks for the account.
      if (changed) {
        await invalidateEmailTokens(tx, current.id, 'password_reset');
        await invalidateEmailTokens(tx, current.id, 'factor_undo');
      }
      return changed ? onEmailConfirmed(tx, services, changed) : 'taken';
    }
    if (current.emailConfirmedAt) return current;
    const confirmed = await updateUser(tx, current.id, { emailConfirmedAt: new Date(), ...factor });
    return confirmed && onEmailConfirmed(tx, services, confirmed);
  });
  if (user === 'taken') throw new AppError('VALIDATION', EMAIL_TAKEN, { field: 'email' });
  if (!user) throw invalid();
  if (before) await revokeUnprovenAccess(services, before);
  return completeSignin(services, user, ip, { method: 'email' });
}
