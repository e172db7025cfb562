// Who may call the admin API: administrators (SPEC §6 group bit 1), also while they act as
// another user (X-User is honoured for administrators only, see modules/auth/authenticate.ts).

import { GROUP } from '@router/shared';
import type { GraphQLContext } from '../../graphql/context.ts';
import { requireGroup, requireSignedIn } from '../auth/caller.ts';

export type AdminCaller = Pick<GraphQLContext, 'services' | 'viewer'>;

/**
 * The administrator's user id; UNAUTHENTICATED when anonymous, FORBIDDEN for anyone else. An
 * administrator without the customer bit is one all the same (SPEC §6: the mask, literally).
 */
export function requireAdmin(caller: AdminCaller): number {
  const viewer = requireSignedIn(caller);
  if (viewer.proxiedBy !== undefined) return viewer.proxiedBy;
  return requireGroup(caller, GROUP.ADMIN).userId;
}
