// Single-use emailed links (confirmation, email change, password reset, and the resets that undo
// a second factor turned on or an email changed); only hashes are stored.
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { emailTokens } from '../schema/index.ts';
import type { Executor } from './executor.ts';

export type EmailTokenPurpose = 'email_confirm' | 'email_change' | 'password_reset' | 'factor_undo' | 'email_undo';
export type EmailTokenRow = typeof emailTokens.$inferSelect;

export async function insertEmailToken(
  db: Executor,
  token: {
    userId: number;
    purpose: EmailTokenPurpose;
    tokenHash: string;
    expiresAt: Date;
    metadata?: EmailTokenRow['metadata'];
  },
): Promise<void> {
  await db.insert(emailTokens).values(token);
}

/** The unused, unexpired token with this hash and one of these purposes. */
export async function findUsableEmailToken(
  db: Executor,
  tokenHash: string,
  purposes: EmailTokenPurpose[],
): Promise<EmailTokenRow | undefined> {
  const [row] = await db
    .select()
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, tokenHash), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, sql`now()`)))
    .limit(1);
  return row && purposes.includes(row.purpose) ? row : undefined;
}

/** Marks the token used; false when another request used it first (or it just expired). */
export async function consumeEmailToken(db: Executor, id: number): Promise<boolean> {
  const rows = await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailTokens.id, id), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, sql`now()`)))
    .returning({ id: emailTokens.id });
  return rows.length === 1;
}

/** Earlier links of the same purpose stop working when a new one is sent. */
export async function invalidateEmailTokens(db: Executor, userId: number, purpose: EmailTokenPurpose): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}

/** The address of the user's latest email change still waiting for its link, or null. */
export async function findPendingEmailChange(db: Executor, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ metadata: emailTokens.metadata })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.userId, userId),
        eq(emailTokens.purpose, 'email_change'),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(emailTokens.id))
    .limit(1);
  return row?.metadata.email ?? null;
}
