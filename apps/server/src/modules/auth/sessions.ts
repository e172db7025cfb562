// Issues, resolves and revokes bearer credentials (SPEC §3 Session, DESIGN.md "Security baseline").

import { newKey } from '../../crypto/random.ts';
import type { Executor } from '../../db/repositories/executor.ts';
import {
  type ActiveSession,
  findActiveSession,
  insertSession,
  revokeSession,
  revokeUserSessions,
  type SessionKind,
  touchSession,
} from '../../db/repositories/session.repository.ts';
import type { Services } from '../../services.ts';
import { tokensChanged, userSessionsChanged } from './session-changes.ts';
import { hashToken, newToken } from './tokens.ts';

/** A second-factor session only completes the sign-in (SPEC §4). */
export const MFA_TTL_MS = 5 * 60_000;
/** A one-time sign-in token (an account made for a partner's consent) is exchanged at once. */
export const SIGNIN_TTL_MS = 10 * 60_000;
const TTL_MS: Partial<Record<SessionKind, number>> = { mfa: MFA_TTL_MS, signin: SIGNIN_TTL_MS };
const TOUCH_EVERY_MS = 60_000;

export interface IssuedToken {
  token: string;
  key: string;
  /** The sessions row (for revokeOne). */
  id: number;
}

export async function issueSession(
  services: Services,
  userId: number,
  kind: SessionKind,
  options: { address: string | null; metadata?: Record<string, unknown>; db?: Executor },
): Promise<IssuedToken> {
  const token = newToken();
  const key = newKey();
  const ttlMs = TTL_MS[kind] ?? (kind === 'session' ? services.config.SESSION_TTL_DAYS * 86_400_000 : null);
  const row = await insertSession(options.db ?? services.db, {
    key,
    userId,
    kind,
    tokenHash: hashToken(token),
    suffix: kind === 'api' ? token.slice(-4) : null,
    metadata: options.metadata ?? {},
    address: options.address,
    expiresAt: ttlMs === null ? null : new Date(Date.now() + ttlMs),
  });
  // A new credential passes its address's failed-token limit from its first use.
  services.identity.failedAuth.succeeded(hashToken(token));
  return { token, key, id: row.id };
}

/** The active credential behind a bearer token, or null (unknown, expired, revoked). */
export async function resolveToken(services: Services, token: string): Promise<ActiveSession | null> {
  if (token.length < 20 || token.length > 200) return null;
  const tokenHash = hashToken(token);
  const cached = services.identity.sessions.get(tokenHash);
  if (cached) return cached;
  const since = services.identity.sessions.generation;
  const session = await findActiveSession(services.db, tokenHash);
  if (!session) return null;
  // A personal API token is read at every use, as an application's access token is: deleting
  // one (leaked with a script) stops its orders at once on every instance, not seconds later on
  // the instances that cached it. Sign-in sessions keep the cache, which session_changed
  // notifications keep coherent across instances (session-changes.ts, docs/SCALING.md).
  if (session.kind !== 'api') services.identity.sessions.set(tokenHash, session, since);
  if (!session.lastUsedAt || Date.now() - session.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await touchSession(services.db, session.id);
  }
  return session;
}

/** Revokes one credential; false when it was already revoked (another request spent it first). */
export async function revokeOne(services: Services, sessionId: number): Promise<boolean> {
  const tokenHash = await revokeSession(services.db, sessionId);
  await tokensChanged(services, [tokenHash]);
  return tokenHash !== undefined;
}

/** Revokes the user's credentials of these kinds, all but `exceptId` (the caller's own session). */
export async function revokeAllOfUser(
  services: Services,
  userId: number,
  kinds: SessionKind[],
  exceptId?: number,
): Promise<void> {
  const revoked = await revokeUserSessions(services.db, userId, kinds, exceptId);
  services.identity.sessions.evict(revoked);
  // Every instance drops the user's cached sessions (the caller's own, kept, is read again).
  await userSessionsChanged(services, userId);
}
