// Pre-hijacking defence: an account whose email was never proven may have been prepared by
// someone else (a partner's legacy registration signs in before the mailbox is proven). When
// the owner proves the email for the first time (confirmation link, password reset, Google or
// Apple), every session, API token, application grant and pending email change made before ends.
import { invalidateEmailTokens } from '../../db/repositories/email-token.repository.ts';
import { deleteAccountGrants } from '../../db/repositories/oidc.repository.ts';
import type { UserRow } from '../../db/repositories/user.repository.ts';
import type { Services } from '../../services.ts';
import { revokeAllOfUser } from './sessions.ts';

export async function revokeUnprovenAccess(services: Services, user: UserRow): Promise<void> {
  if (user.emailConfirmedAt) return;
  await revokeAllOfUser(services, user.id, ['session', 'api', 'mfa', 'signin']);
  await deleteAccountGrants(services.db, user.key);
  // A change link asked for from such a session would otherwise move the claimed account away.
  await invalidateEmailTokens(services.db, user.id, 'email_change');
}
