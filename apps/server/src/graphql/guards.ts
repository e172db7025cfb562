// Access checks for resolvers (SPEC §6 group bits: @router/shared's GROUP).
import { AppError } from '../errors.ts';
import { requireViewer } from '../modules/auth/caller.ts';
import type { GraphQLContext, Viewer } from './context.ts';

export { requireViewer };

/** The caller must hold at least one of the bits in `groups`. */
export function requireGroup(ctx: Pick<GraphQLContext, 'viewer'>, groups: number): Viewer {
  const viewer = requireViewer(ctx);
  if ((viewer.group & groups) === 0) throw new AppError('FORBIDDEN', 'You are not allowed to do this');
  return viewer;
}
