// Pre-hijacking defence: an account whose email was never proven may have been prepared by
// someone else (a partner's legacy registration signs in before the mailbox is proven). When
// the owner proves the email for the first time (confirmation link, password reset, Google or
// Apple), every session, API token and application grant made before ends.
import { deleteAccountGrants } from '../../db/repositories/oidc.repository.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import type { Services } from '../../services.ts';
import { revokeAllOfUser } from './sessions.ts';

export async function revokeUnprovenAccess(services: Services, user: UserRow): Promise<void> {
  if (user.emailConfirmedAt) return;
  await revokeAllOfUser(services, user.id, ['session', 'api', 'mfa', 'signin']);
  await deleteAccountGrants(services.db, user.key);
}
