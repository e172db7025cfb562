// What identity services need from a request: services, address, bearer and viewer.
import { GROUP } from '@router/shared';
import type { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { GraphQLContext, Viewer } from '../../graphql/context.ts';

export type Caller = Pick<GraphQLContext, 'services' | 'ip' | 'bearer' | 'viewer'>;

/** Signed in, whatever the groups (UNAUTHENTICATED otherwise). */
export function requireSignedIn(caller: Pick<Caller, 'viewer'>): Viewer {
  if (!caller.viewer) throw new AppError('UNAUTHENTICATED', 'Please sign in');
  return caller.viewer;
}

/** The caller must hold at least one of the bits in `groups` (SPEC §6), else FORBIDDEN. */
export function requireGroup(caller: Pick<Caller, 'viewer'>, groups: number): Viewer {
  const viewer = requireSignedIn(caller);
  if ((viewer.group & groups) === 0) throw new AppError('FORBIDDEN', 'You are not allowed to do this');
  return viewer;
}

/** A signed-in customer (group 4): every signed-in screen is the customer's (SPEC §6). */
export function requireViewer(caller: Pick<Caller, 'viewer'>): Viewer {
  return requireGroup(caller, GROUP.CUSTOMER);
}

export const API_TOKEN_REFUSED = 'An API token cannot do this: sign in to the dashboard instead';

/**
 * A signed-in customer at the dashboard, or an administrator acting as them: never a personal API
 * token. Deleting or renaming the user's API tokens, deleting authorized or developer applications,
 * changing an application, billing, and connecting, renaming or deleting broker connections,
 * changing, resuming, reactivating or deleting webhooks, creating, changing or deleting
 * notification settings, sending a test notification or a delivery again, resetting a paper
 * account and applying for professional status are account management: a leaked token must not
 * lock its owner's scripts out, end an application for all its users or send its users' consent
 * elsewhere, open the billing portal, weaken a webhook's risk controls, mail any address or mail
 * on demand, wipe the paper history, make a legal statement in the owner's name, nor silently undo
 * the account's setup. Trading, reads, webhook creation and the kill switch's pause stay the token's.
 */
export function requireDashboard(caller: Pick<Caller, 'viewer'>): Viewer {
  const viewer = requireViewer(caller);
  if (viewer.apiToken) throw new AppError('FORBIDDEN', API_TOKEN_REFUSED);
  return viewer;
}

/**
 * A signed-in customer acting as themselves: what makes or reads a credential of the user (API
 * token, second factor, email) is the owner's alone, never an administrator's through X-User,
 * whose proxy ends with the session while such a credential would outlive it, unaudited; and
 * never through a personal API token, which drives trading and may sit in scripts and CI secrets:
 * whoever holds a leaked one must not be able to take the account over.
 */
export function requireOwner(caller: Pick<Caller, 'viewer'>, message: string): Viewer {
  const viewer = requireViewer(caller);
  if (viewer.proxiedBy !== undefined) throw new AppError('FORBIDDEN', message);
  return requireDashboard(caller);
}

/** An administrator acting as the user (X-User): what is the owner's alone is hidden from them. */
export const actsAsUser = (caller: Pick<Caller, 'viewer'>): boolean => caller.viewer?.proxiedBy !== undefined;

/** Parses an input; the first problem becomes a VALIDATION error naming its field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.');
  const field = [prefix, path].filter(Boolean).join('.') || undefined;
  throw new AppError('VALIDATION', issue?.message ?? 'Invalid input', { field });
}
