// Reading a user's signal-credit account (SPEC §3 Account). Credits move in the signals
// repository (hook path) and in billing; this only reads.
import { eq } from 'drizzle-orm';
import { accounts } from '../schema/index.ts';
import type { Executor } from './executor.ts';

export type AccountRow = typeof accounts.$inferSelect;

export async function findAccountOfUser(db: Executor, userId: number): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.userId, userId)).limit(1);
  return row;
}
