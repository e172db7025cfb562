// Bearer credentials (sessions table): sign-in and second-factor sessions, API tokens.
import { and, desc, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { sessions, users } from '../schema/index.ts';
import type { Executor } from './executor.ts';

export type SessionKind = 'session' | 'api' | 'mfa' | 'signin';
export type SessionRow = typeof sessions.$inferSelect;

export interface NewSession {
  key: string;
  userId: number;
  kind: SessionKind;
  tokenHash: string;
  suffix?: string | null;
  metadata?: Record<string, unknown>;
  address?: string | null;
  expiresAt: Date | null;
}

export async function insertSession(db: Executor, session: NewSession): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(session).returning();
  if (!row) throw new Error('insert into sessions returned no row');
  return row;
}

export interface ActiveSession {
  id: number;
  kind: SessionKind;
  userId: number;
  userKey: string;
  group: number;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  /** The name its owner gave it (a personal API token's metadata.name), if any. */
  name: string | null;
}

/** The unrevoked, unexpired credential with this token hash, with its user's key and group. */
export async function findActiveSession(db: Executor, tokenHash: string): Promise<ActiveSession | undefined> {
  const [row] = await db
    .select({
      id: sessions.id,
      kind: sessions.kind,
      userId: sessions.userId,
      userKey: users.key,
      group: users.group,
      expiresAt: sessions.expiresAt,
      lastUsedAt: sessions.lastUsedAt,
      name: sql<string | null>`${sessions.metadata}->>'name'`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        or(isNull(sessions.expiresAt), gt(sessions.expiresAt, sql`now()`)),
      ),
    )
    .limit(1);
  return row;
}

export async function touchSession(db: Executor, id: number): Promise<void> {
  await db.update(sessions).set({ lastUsedAt: sql`now()` }).where(eq(sessions.id, id));
}

/** Revokes one credential; returns its token hash (for cache eviction) when it was active. */
export async function revokeSession(db: Executor, id: number): Promise<string | undefined> {
  const [row] = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .returning({ tokenHash: sessions.tokenHash });
  return row?.tokenHash;
}

/** Revokes every active credential of these kinds (but `exceptId`); returns their token hashes. */
export async function revokeUserSessions(
  db: Executor,
  userId: number,
  kinds: SessionKind[],
  exceptId?: number,
): Promise<string[]> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.userId, userId),
        inArray(sessions.kind, kinds),
        isNull(sessions.revokedAt),
        exceptId === undefined ? undefined : ne(sessions.id, exceptId),
      ),
    )
    .returning({ tokenHash: sessions.tokenHash });
  return rows.map((r) => r.tokenHash);
}

/** Spends a one-time sign-in token: its user id when it was live, else undefined (one statement). */
export async function useSigninToken(db: Executor, tokenHash: string): Promise<number | undefined> {
  const [row] = await db
    .update(sessions)
    .set({ revokedAt: sql`now()`, lastUsedAt: sql`now()` })
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        eq(sessions.kind, 'signin'),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: sessions.userId });
  return row?.userId;
}

export async function listApiTokens(db: Executor, userId: number): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.kind, 'api'), isNull(sessions.revokedAt)))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
}

export async function countApiTokens(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.kind, 'api'), isNull(sessions.revokedAt)));
  return row?.n ?? 0;
}

export async function findApiToken(db: Executor, userId: number, key: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(
      and(eq(sessions.userId, userId), eq(sessions.key, key), eq(sessions.kind, 'api'), isNull(sessions.revokedAt)),
    )
    .limit(1);
  return row;
}

export async function updateApiTokenMetadata(
  db: Executor,
  userId: number,
  key: string,
  metadata: Record<string, unknown>,
): Promise<SessionRow | undefined> {
  const [row] = await db
    .update(sessions)
    .set({ metadata })
    .where(
      and(eq(sessions.userId, userId), eq(sessions.key, key), eq(sessions.kind, 'api'), isNull(sessions.revokedAt)),
    )
    .returning();
  return row;
}

/** Deletes an API token of the user; returns its token hash (for cache eviction) if it existed. */
export async function deleteApiToken(db: Executor, userId: number, key: string): Promise<string | undefined> {
  const [row] = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.key, key), eq(sessions.kind, 'api')))
    .returning({ tokenHash: sessions.tokenHash });
  return row?.tokenHash;
}
