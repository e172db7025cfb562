// What a confirmed email brings (issue 15): the referral campaign's credits and, for the first
// confirmed account or an ADMIN_EMAILS address, the administrator role; and the end of the other
// confirmation links, each of which would sign in.

import { GROUP } from '@router/shared';
import { invalidateEmailTokens } from '../../db/repositories/email-token.repository.ts';
import type { Transaction } from '../../db/repositories/executor.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import type { Services } from '../../services.ts';
import { promoteOnConfirmation } from './administrators.ts';
import { grantReferralCredits } from './referral.ts';

/** Run in the transaction that set `user.emailConfirmedAt`; the user with its group now. */
export async function onEmailConfirmed(tx: Transaction, services: Services, user: UserRow): Promise<UserRow> {
  await invalidateEmailTokens(tx, user.id, 'email_confirm');
  await grantReferralCredits(tx, user.id);
  const promoted = await promoteOnConfirmation(tx, services, user);
  return promoted ? { ...user, group: user.group | GROUP.ADMIN } : user;
}
