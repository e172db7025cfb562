// Second-factor recovery codes: replaced ten at a time, each used at most once.
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { recoveryCodes } from '../schema/index.ts';
import type { Executor } from './executor.ts';

/** Drops the user's codes and stores the new ones, in one transaction. */
export async function replaceRecoveryCodes(db: Executor, userId: number, codeHashes: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    if (codeHashes.length) await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
  });
}

export async function deleteRecoveryCodes(db: Executor, userId: number): Promise<void> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** Marks an unused code as used; false when it is unknown or was used before (one statement). */
export async function useRecoveryCode(db: Executor, userId: number, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(recoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return rows.length === 1;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}
