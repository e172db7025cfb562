// Who administers an installation (issue 15): the first account to confirm its email, or, when
// ADMIN_EMAILS is set, only the confirmed accounts of those addresses. A sign-up alone never
// makes an administrator (an unconfirmed account cannot even sign in).

import { GROUP } from '@router/shared';
import {
  changeGroup,
  hasConfirmedAdministrator,
  lockAdministrators,
  promoteConfirmedEmails,
  promoteEarliestConfirmed,
} from '../../db/repositories/administrators.repository.ts';
import type { Transaction } from '../../db/repositories/executor.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import type { Services } from '../../services.ts';
import { userSessionsChanged } from '../auth/session-changes.ts';

/**
 * Run in the transaction that confirmed `user`'s email; true when it became an administrator.
 * The advisory lock makes concurrent confirmations agree on one first administrator.
 */
export async function promoteOnConfirmation(tx: Transaction, services: Services, user: UserRow): Promise<boolean> {
  if ((user.group & GROUP.ADMIN) !== 0) return false;
  const listed = services.config.ADMIN_EMAILS;
  if (listed.length > 0) {
    if (!listed.includes(user.email.toLowerCase())) return false;
  } else {
    await lockAdministrators(tx);
    if (await hasConfirmedAdministrator(tx)) return false;
  }
  await changeGroup(tx, user.id, { add: GROUP.ADMIN });
  // Sent on commit: every instance resolves the user's sessions afresh.
  await userSessionsChanged(services, user.id, tx);
  services.log.info({ userId: user.id }, 'user became administrator');
  return true;
}

/**
 * Whether a new account of `email`, once confirmed, would be an administrator (as
 * promoteOnConfirmation decides it, read without its lock): an ADMIN_EMAILS address, or without
 * the list the first confirmed account.
 */
export async function wouldAdminister(services: Services, email: string): Promise<boolean> {
  const listed = services.config.ADMIN_EMAILS;
  if (listed.length > 0) return listed.includes(email.toLowerCase());
  return !(await hasConfirmedAdministrator(services.db));
}

/**
 * At start: confirmed ADMIN_EMAILS accounts become administrators (the list may have changed);
 * without the list, an installation left with no confirmed administrator (migration 0014 took
 * the role from unconfirmed first sign-ups) gets its earliest confirmed account as one.
 */
export async function settleAdministrators(services: Services): Promise<void> {
  const promoted = await services.db.transaction(async (tx) => {
    await lockAdministrators(tx);
    const listed = services.config.ADMIN_EMAILS;
    if (listed.length > 0) return promoteConfirmedEmails(tx, listed);
    if (await hasConfirmedAdministrator(tx)) return [];
    const id = await promoteEarliestConfirmed(tx);
    return id === null ? [] : [id];
  });
  if (promoted.length > 0) services.log.info({ userIds: promoted }, 'users became administrators');
}
