// Developer applications (SPEC §3 UserApp): the OAuth clients professionals register.

import { GROUP } from '@router/shared';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { userApps, users } from '../schema/index.ts';
import type { Executor } from './executor.ts';
import { deleteClientOidc } from './oidc.repository.ts';

export type UserAppRow = typeof userApps.$inferSelect;
export type NewUserApp = Pick<UserAppRow, 'key' | 'userId' | 'name' | 'description' | 'redirectUrl' | 'secretHash'>;
export type UserAppChanges = Partial<Pick<UserAppRow, 'name' | 'description' | 'redirectUrl' | 'secretHash'>>;

export async function insertUserApp(db: Executor, app: NewUserApp): Promise<UserAppRow> {
  const [row] = await db.insert(userApps).values(app).returning();
  if (!row) throw new Error('insert into user_apps returned no row');
  return row;
}

export async function countUserApps(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(userApps).where(eq(userApps.userId, userId));
  return row?.n ?? 0;
}

export async function listUserApps(db: Executor, userId: number): Promise<UserAppRow[]> {
  return db
    .select()
    .from(userApps)
    .where(eq(userApps.userId, userId))
    .orderBy(desc(userApps.createdAt), desc(userApps.id));
}

/**
 * An application by its client id, while its owner holds professional status (the OAuth
 * provider's client lookup): developer applications are a professional's (SPEC §1, §6), so one
 * whose owner lost the status acts for nobody (no consent, code, token or API call), its rows and
 * grants kept for when the status comes back.
 */
export async function findUserAppByKey(db: Executor, key: string): Promise<UserAppRow | undefined> {
  const [row] = await db
    .select({ app: userApps })
    .from(userApps)
    .innerJoin(users, eq(users.id, userApps.userId))
    .where(and(eq(userApps.key, key), sql`(${users.group} & ${GROUP.PROFESSIONAL}) <> 0`))
    .limit(1);
  return row?.app;
}

export async function findOwnUserApp(db: Executor, userId: number, key: string): Promise<UserAppRow | undefined> {
  const [row] = await db
    .select()
    .from(userApps)
    .where(and(eq(userApps.userId, userId), eq(userApps.key, key)))
    .limit(1);
  return row;
}

export async function updateUserApp(
  db: Executor,
  userId: number,
  key: string,
  changes: UserAppChanges,
): Promise<UserAppRow | undefined> {
  const [row] = await db
    .update(userApps)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(and(eq(userApps.userId, userId), eq(userApps.key, key)))
    .returning();
  return row;
}

/** Deletes the application and every grant, code and token issued to it. */
export async function deleteUserApp(db: Executor, userId: number, key: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await tx
      .delete(userApps)
      .where(and(eq(userApps.userId, userId), eq(userApps.key, key)))
      .returning({ key: userApps.key });
    if (deleted.length === 0) return false;
    await deleteClientOidc(tx, key);
    return true;
  });
}
