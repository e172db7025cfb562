// Second-factor recovery codes: replaced ten at a time, each used at most once.
import { and, count, eq, isNull, max, sql } from 'drizzle-orm';
import { recoveryCodes } from '../schema/index.ts';
import type { Executor } from './executor.ts';
import { lockUser } from './user.repository.ts';

/** Which set of codes the user holds: the newest code's id (0: none); a replacement changes it. */
export async function recoveryCodesStamp(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ id: max(recoveryCodes.id) })
    .from(recoveryCodes)
    .where(eq(recoveryCodes.userId, userId));
  return row?.id ?? 0;
}

/**
 * Drops the user's codes and stores the new ones, in one transaction holding the user's row, so
 * replacements take turns. `stamp`: the set the caller saw (recoveryCodesStamp); when another
 * replacement came first, nothing changes and the answer is false.
 */
export async function replaceRecoveryCodes(
  db: Executor,
  userId: number,
  codeHashes: string[],
  stamp?: number,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockUser(tx, userId);
    if (stamp !== undefined && (await recoveryCodesStamp(tx, userId)) !== stamp) return false;
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    if (codeHashes.length) await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
    return true;
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
