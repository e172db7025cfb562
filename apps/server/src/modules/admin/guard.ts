// Who may call the admin API: administrators (SPEC §6 group bit 1), also while they act as
// another user (X-User is honoured for administrators only, see modules/auth/authenticate.ts).

import { GROUP } from '@router/shared';
import { AppError } from '../../errors.ts';
import type { GraphQLContext } from '../../graphql/context.ts';
import { API_TOKEN_REFUSED, requireGroup, requireSignedIn } from '../auth/caller.ts';

export type AdminCaller = Pick<GraphQLContext, 'services' | 'viewer'>;

/**
 * The administrator's user id; UNAUTHENTICATED when anonymous, FORBIDDEN for anyone else. An
 * administrator without the customer bit is one all the same (SPEC §6: the mask, literally).
 */
export function requireAdmin(caller: AdminCaller): number {
  const viewer = requireSignedIn(caller);
  if (viewer.proxiedBy !== undefined) return viewer.proxiedBy;
  const admin = requireGroup(caller, GROUP.ADMIN);
  // The administrator's dashboard, never their personal API token: a leaked one would grant
  // credits, professional status and read every user's audit trail.
  if (admin.apiToken) throw new AppError('FORBIDDEN', API_TOKEN_REFUSED);
  return admin.userId;
}
