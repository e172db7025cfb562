// Access checks for resolvers (SPEC §6 group bits: 1 administrator, 4 customer, 16 professional).
import { AppError } from '../errors.ts';
import type { GraphQLContext, Viewer } from './context.ts';

export const GROUP = { ADMIN: 1, CUSTOMER: 4, PROFESSIONAL: 16 } as const;

export function requireViewer(ctx: Pick<GraphQLContext, 'viewer'>): Viewer {
  if (!ctx.viewer) throw new AppError('UNAUTHENTICATED', 'Please sign in');
  return ctx.viewer;
}

/** The caller must hold at least one of the bits in `groups`. */
export function requireGroup(ctx: Pick<GraphQLContext, 'viewer'>, groups: number): Viewer {
  const viewer = requireViewer(ctx);
  if ((viewer.group & groups) === 0) throw new AppError('FORBIDDEN', 'You are not allowed to do this');
  return viewer;
}
