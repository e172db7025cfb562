// oidc-provider's storage (modules/oauth/adapter.ts speaks the library's adapter contract over
// these), plus the per-user and per-application views of its grants.
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { oidcPayloads, userApps } from '../schema/index.ts';
import type { Executor } from './executor.ts';

export interface OidcRow {
  payload: Record<string, unknown>;
  consumedAt: Date | null;
}

const live = () => or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, sql`now()`));

const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

export async function upsertOidc(
  db: Executor,
  kind: string,
  id: string,
  payload: Record<string, unknown>,
  expiresAt: Date | null,
): Promise<void> {
  const row = {
    kind,
    id,
    payload,
    uid: str(payload.uid),
    userCode: str(payload.userCode),
    grantId: str(payload.grantId),
    accountId: str(payload.accountId),
    clientId: str(payload.clientId),
    expiresAt,
  };
  await db
    .insert(oidcPayloads)
    .values(row)
    .onConflictDoUpdate({ target: [oidcPayloads.kind, oidcPayloads.id], set: { ...row, consumedAt: null } });
}

/** Stores a row unless one exists (instances racing to create the signing key keep the first). */
export async function insertOidcIfAbsent(
  db: Executor,
  kind: string,
  id: string,
  payload: Record<string, unknown>,
): Promise<void> {
  await db.insert(oidcPayloads).values({ kind, id, payload }).onConflictDoNothing();
}

async function findWhere(db: Executor, kind: string, column: 'id' | 'uid' | 'userCode', value: string) {
  const [row] = await db
    .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.kind, kind), eq(oidcPayloads[column], value), live()))
    .limit(1);
  return row as OidcRow | undefined;
}

export const findOidc = (db: Executor, kind: string, id: string) => findWhere(db, kind, 'id', id);
export const findOidcByUid = (db: Executor, kind: string, uid: string) => findWhere(db, kind, 'uid', uid);
export const findOidcByUserCode = (db: Executor, kind: string, code: string) => findWhere(db, kind, 'userCode', code);

/**
 * Marks a code or refresh token used; false when it already was (or is gone). One conditional
 * UPDATE: of two requests that both read it unused, only one consumes it.
 */
export async function consumeOidc(db: Executor, kind: string, id: string): Promise<boolean> {
  const rows = await db
    .update(oidcPayloads)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(oidcPayloads.kind, kind), eq(oidcPayloads.id, id), isNull(oidcPayloads.consumedAt)))
    .returning({ id: oidcPayloads.id });
  return rows.length > 0;
}

/**
 * Revokes the grant of a code or refresh token, with everything issued under it: what the library
 * does when a spent one is presented again (reuse detection), for the loser of two requests that
 * both found it unused.
 */
export async function revokeGrantOf(db: Executor, kind: string, id: string): Promise<void> {
  await db.execute(sql`
    with spent as (select grant_id from oidc_payloads where kind = ${kind} and id = ${id} and grant_id is not null)
    delete from oidc_payloads
    where grant_id in (select grant_id from spent) or (kind = 'Grant' and id in (select grant_id from spent))`);
}

export async function destroyOidc(db: Executor, kind: string, id: string): Promise<void> {
  await db.delete(oidcPayloads).where(and(eq(oidcPayloads.kind, kind), eq(oidcPayloads.id, id)));
}

export async function revokeOidcByGrantId(db: Executor, kind: string, grantId: string): Promise<void> {
  await db.delete(oidcPayloads).where(and(eq(oidcPayloads.kind, kind), eq(oidcPayloads.grantId, grantId)));
}

/** The models issued under a grant, which end with it. */
const GRANT_TOKENS = sql`('AuthorizationCode', 'AccessToken', 'RefreshToken')`;

/**
 * Deletes up to `limit` rows the provider never reads again: expired rows (codes, tokens,
 * interactions, grants) and the tokens of a grant that has ended (expired or gone), spent refresh
 * tokens among them. A spent refresh token of a live grant is kept until it expires: presented
 * again, it ends the grant (reuse detection, provider.ts). Returns how many went.
 */
export async function sweepExpiredOidc(db: Executor, limit: number): Promise<number> {
  const { rowCount } = await db.execute(sql`
    with doomed as (
      (select kind, id from oidc_payloads where expires_at <= now() limit ${limit})
      union
      (select t.kind, t.id from oidc_payloads t
       where t.kind in ${GRANT_TOKENS} and t.grant_id is not null
         and not exists (
           select 1 from oidc_payloads g
           where g.kind = 'Grant' and g.id = t.grant_id and (g.expires_at is null or g.expires_at > now()))
       limit ${limit})
    )
    delete from oidc_payloads p using doomed d where p.kind = d.kind and p.id = d.id`);
  return rowCount ?? 0;
}

export interface GrantRow {
  grantId: string;
  payload: Record<string, unknown>;
  createdAt: Date;
  appKey: string;
  appName: string;
}

/** The live grants of a user (SPEC "authorized applications"), oldest first, with their app. */
export async function listUserGrants(db: Executor, accountId: string): Promise<GrantRow[]> {
  return db
    .select({
      grantId: oidcPayloads.id,
      payload: oidcPayloads.payload,
      createdAt: oidcPayloads.createdAt,
      appKey: userApps.key,
      appName: userApps.name,
    })
    .from(oidcPayloads)
    .innerJoin(userApps, eq(userApps.key, oidcPayloads.clientId))
    .where(and(eq(oidcPayloads.accountId, accountId), eq(oidcPayloads.kind, 'Grant'), live()))
    .orderBy(asc(oidcPayloads.createdAt), asc(oidcPayloads.id));
}

/** The user's live grant for an application, if any (one grant per user and application). */
export async function findUserGrantId(db: Executor, accountId: string, clientId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: oidcPayloads.id })
    .from(oidcPayloads)
    .where(
      and(
        eq(oidcPayloads.accountId, accountId),
        eq(oidcPayloads.kind, 'Grant'),
        eq(oidcPayloads.clientId, clientId),
        live(),
      ),
    )
    .orderBy(asc(oidcPayloads.createdAt))
    .limit(1);
  return row?.id;
}

/**
 * Revokes a grant of this user with everything issued under it (codes, access and refresh
 * tokens), in one transaction. False when the user has no such grant.
 */
export async function deleteUserGrant(db: Executor, accountId: string, grantId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(oidcPayloads)
      .where(and(eq(oidcPayloads.kind, 'Grant'), eq(oidcPayloads.id, grantId), eq(oidcPayloads.accountId, accountId)))
      .returning({ id: oidcPayloads.id });
    if (deleted.length === 0) return false;
    await tx.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
    return true;
  });
}

/** Revokes every grant and token of a user (an account whose email was just proven). */
export async function deleteAccountGrants(db: Executor, accountId: string): Promise<void> {
  await db.execute(sql`
    delete from oidc_payloads
    where grant_id in (select id from oidc_payloads where kind = 'Grant' and account_id = ${accountId})
       or (kind = 'Grant' and account_id = ${accountId})`);
}

/** Everything the provider holds for an application (its app row is being deleted). */
export async function deleteClientOidc(db: Executor, clientId: string): Promise<void> {
  await db.delete(oidcPayloads).where(eq(oidcPayloads.clientId, clientId));
}
