// Access checks for resolvers (SPEC §6 group bits: 1 administrator, 4 customer, 16 professional).
// Every signed-in screen is the customer's (SPEC §6), so `requireViewer`, which every resolver of
// the signed-in app calls, demands the customer bit; only the `user` query (the web app shows
// 'No access' to a user without it) and sign-out take any signed-in caller.
import { GROUP as GROUP_BITS } from '@router/shared';
import { AppError } from '../errors.ts';
import type { GraphQLContext, Viewer } from './context.ts';

export const GROUP = GROUP_BITS;

/** Signed in, whatever the groups. */
export function requireSignedIn(ctx: Pick<GraphQLContext, 'viewer'>): Viewer {
  if (!ctx.viewer) throw new AppError('UNAUTHENTICATED', 'Please sign in');
  return ctx.viewer;
}

/** The caller must hold at least one of the bits in `groups`. */
export function requireGroup(ctx: Pick<GraphQLContext, 'viewer'>, groups: number): Viewer {
  const viewer = requireSignedIn(ctx);
  if ((viewer.group & groups) === 0) throw new AppError('FORBIDDEN', 'You are not allowed to do this');
  return viewer;
}

/** A signed-in customer (group 4): FORBIDDEN for anyone else. */
export function requireViewer(ctx: Pick<GraphQLContext, 'viewer'>): Viewer {
  return requireGroup(ctx, GROUP.CUSTOMER);
}
