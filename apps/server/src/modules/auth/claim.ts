// Pre-hijacking defence: an account whose email was never proven may have been prepared by
// someone else (a partner's legacy registration once signed in before the mailbox was proven;
// nothing does now, and this stays as a defence). When
// the owner proves the email for the first time (confirmation link, password reset, Google or
// Apple), every session, API token, application grant and pending email change made before ends,
// and a second factor set up before is dropped (it would lock the owner out, its codes someone
// else's): the proving update clears it (UNPROVEN_FACTOR), revokeUnprovenAccess its recovery codes.
import { invalidateEmailTokens } from '../../db/repositories/email-token.repository.ts';
import { deleteAccountGrants } from '../../db/repositories/oidc.repository.ts';
import { deleteRecoveryCodes } from '../../db/repositories/recovery-code.repository.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import type { Services } from '../../services.ts';
import { revokeAllOfUser } from './sessions.ts';

/** Spread into the update that proves an email for the first time. */
export const UNPROVEN_FACTOR = { passcodeSecret: null, passcodeActiveAt: null } as const;

export async function revokeUnprovenAccess(services: Services, user: UserRow): Promise<void> {
  if (user.emailConfirmedAt) return;
  await revokeForeignAccess(services, user);
}

/**
 * Ends what someone else signed in to the account may have made: sessions, API tokens, sign-in
 * links, applications' grants, a pending email change, recovery codes.
 */
export async function revokeForeignAccess(services: Services, user: UserRow): Promise<void> {
  await revokeAllOfUser(services, user.id, ['session', 'api', 'mfa', 'signin']);
  await deleteAccountGrants(services.db, user.key);
  // A change link asked for from such a session would otherwise move the claimed account away.
  await invalidateEmailTokens(services.db, user.id, 'email_change');
  await deleteRecoveryCodes(services.db, user.id);
}
