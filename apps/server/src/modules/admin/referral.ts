// The referral flow (issue 15): a sign-up keeps the campaign it came through, and the campaign's
// credits are granted once, when the email is confirmed (an unconfirmed sign-up farms nothing).
import { ADMIN_TEXT, referrerCodeOf } from '@router/shared';
import type { Executor, Transaction } from '../../db/repositories/executor.ts';
import {
  findReferrerByCode,
  findReferrerOfUser,
  type ReferrerRow,
  recordReferralSignup,
} from '../../db/repositories/referrer.repository.ts';
import { AppError } from '../../errors.ts';
import { grantCredits, type LedgerEntry } from '../accounts/credits.ts';

const CODE = /^[a-z0-9]{1,64}$/;

/** The campaign of a code (deleted ones too: they grant nothing); undefined when not ours. */
export async function findReferrer(db: Executor, code: string): Promise<ReferrerRow | undefined> {
  const normalized = referrerCodeOf(code);
  return CODE.test(normalized) ? findReferrerByCode(db, normalized) : undefined;
}

/** The campaign of `signup`'s referrerCode; no code: null; a code that is not ours: VALIDATION. */
export async function signupReferrer(db: Executor, code: string | null | undefined): Promise<ReferrerRow | null> {
  if (!code?.trim()) return null;
  const referrer = await findReferrer(db, code);
  if (!referrer) throw new AppError('VALIDATION', ADMIN_TEXT.unknownReferrer, { field: 'referrerCode' });
  return referrer;
}

export async function rememberReferral(tx: Transaction, userId: number, referrer: ReferrerRow | null): Promise<void> {
  if (referrer) await recordReferralSignup(tx, userId, referrer.id);
}

/**
 * In the transaction that confirms the email: the campaign's credits, once per user (the
 * ledger reference is the user), and nothing when the campaign was deleted meanwhile.
 */
export async function grantReferralCredits(tx: Transaction, userId: number): Promise<LedgerEntry | null> {
  const referrer = await findReferrerOfUser(tx, userId);
  if (!referrer || referrer.deletedAt) return null;
  return grantCredits(tx, userId, referrer.credits, 'referral', `referral:${userId}`);
}
