import { hasAnyGroup } from './groups.ts';

/**
 * Who may open a route (SPEC §2 Route guard, §6):
 * - public: anyone;
 * - guest: anyone, but signed-in users are sent on (to `from` or /me): sign-in, sign-up, success;
 * - member: signed in and, when `groups` is given, holding at least one of those bits;
 *   `deny` sends users holding any of its bits on (professional users on the upgrade page);
 *   `whileProxied` also admits a session acting as another user: only administrators can (the
 *   server honours X-User for them alone), so the admin screen stays theirs in proxy mode.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'guest' }
  | { kind: 'member'; groups?: readonly number[]; deny?: readonly number[]; whileProxied?: boolean };

export const HOME = '/me';
export const SIGN_IN = '/signin';

export interface GuardLocation {
  pathname: string;
  search: string;
  hash: string;
  state?: unknown;
}

/** Where a user came from; kept as router state `from` on the way to /signin. */
export interface FromState {
  from: { pathname: string; search: string; hash: string };
}

export interface GuardSession {
  isAuthenticated: boolean;
  user: { group: number } | null;
  proxiedUser?: string | null;
}

export type GuardDecision =
  | { type: 'allow' }
  /** Signed in, user not fetched yet (right after authenticate). */
  | { type: 'pending' }
  | { type: 'redirect'; to: string; state?: FromState }
  /** Lacks the groups of /me itself: redirecting to /me would loop. */
  | { type: 'forbidden' };

export function fromOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('from' in state)) return null;
  const from = (state as { from: unknown }).from;
  if (typeof from === 'string') return from;
  if (typeof from !== 'object' || from === null) return null;
  const { pathname, search = '', hash = '' } = from as Partial<FromState['from']>;
  return typeof pathname === 'string' ? `${pathname}${search}${hash}` : null;
}

export function decide(access: Access, session: GuardSession, location: GuardLocation): GuardDecision {
  if (access.kind === 'public') return { type: 'allow' };
  if (access.kind === 'guest') {
    return session.isAuthenticated ? { type: 'redirect', to: fromOf(location.state) ?? HOME } : { type: 'allow' };
  }
  if (!session.isAuthenticated) {
    const { pathname, search, hash } = location;
    return { type: 'redirect', to: SIGN_IN, state: { from: { pathname, search, hash } } };
  }
  if (!session.user) return { type: 'pending' };
  const { group } = session.user;
  if (access.whileProxied && session.proxiedUser) return { type: 'allow' };
  if (access.groups && access.groups.length > 0 && !hasAnyGroup(group, access.groups)) {
    return trimSlash(location.pathname) === HOME ? { type: 'forbidden' } : { type: 'redirect', to: HOME };
  }
  if (access.deny && hasAnyGroup(group, access.deny)) {
    const to = fromOf(location.state) ?? HOME;
    return to === location.pathname ? { type: 'redirect', to: HOME } : { type: 'redirect', to };
  }
  return { type: 'allow' };
}

const trimSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path);
