// Users: lookups by id and email, creation with the account, updates.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { accounts, users } from '../schema/index.ts';
import { type Executor, isUniqueViolation } from './executor.ts';

export type UserRow = typeof users.$inferSelect;

/**
 * Holds the user's row until the open transaction `tx` ends: what counts or replaces the user's
 * credentials (API tokens, applications, recovery codes) takes turns, so a burst of requests
 * cannot all pass one check.
 */
export async function lockUser(tx: Executor, userId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByKey(db: Executor, key: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.key, key)).limit(1);
  return row;
}

/** Case-insensitive, through the unique index on lower(email). */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
  return row;
}

export interface NewUser {
  key: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  passwordHash: string | null;
  emailConfirmedAt: Date | null;
  group: number;
  accountMetadata: Record<string, unknown>;
}

/** Inserts the user and its account in one transaction. Null: email taken. */
export async function createUserWithAccount(db: Executor, user: NewUser): Promise<UserRow | null> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          key: user.key,
          email: user.email,
          group: user.group,
          firstName: user.firstName,
          lastName: user.lastName,
          passwordHash: user.passwordHash,
          emailConfirmedAt: user.emailConfirmedAt,
        })
        .returning();
      if (!row) throw new Error('insert into users returned no row');
      await tx.insert(accounts).values({ userId: row.id, metadata: user.accountMetadata });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

export type UserChanges = Partial<
  Pick<
    UserRow,
    'email' | 'firstName' | 'lastName' | 'passwordHash' | 'emailConfirmedAt' | 'passcodeSecret' | 'passcodeActiveAt'
  >
>;

/** Null when the new email belongs to someone else. */
export async function updateUser(db: Executor, id: number, changes: UserChanges): Promise<UserRow | null> {
  try {
    const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
    return row ?? null;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Sets the secret and activation together, resetting the replay guard. */
export async function setPasscode(
  db: Executor,
  id: number,
  passcode: { secret: string | null; activeAt: Date | null; lastStep: number | null },
): Promise<void> {
  await db
    .update(users)
    .set({ passcodeSecret: passcode.secret, passcodeActiveAt: passcode.activeAt, passcodeLastStep: passcode.lastStep })
    .where(eq(users.id, id));
}

/**
 * Activates the pending secret `pending` (sealed, as stored), stored from now on as `active`
 * (sealed for the active factor): false when the factor is already active or the secret was
 * replaced meanwhile. One statement: of two activations at once, one wins.
 */
export async function activatePasscode(
  db: Executor,
  id: number,
  secrets: { pending: string; active: string },
  activeAt: Date,
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ passcodeActiveAt: activeAt, passcodeSecret: secrets.active })
    .where(and(eq(users.id, id), isNull(users.passcodeActiveAt), eq(users.passcodeSecret, secrets.pending)))
    .returning({ id: users.id });
  return rows.length === 1;
}

/** Records a TOTP time step as used; false when it (or a later one) was used before: a replay. */
export async function consumePasscodeStep(db: Executor, id: number, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ passcodeLastStep: step })
    .where(and(eq(users.id, id), or(isNull(users.passcodeLastStep), lt(users.passcodeLastStep, step))))
    .returning({ id: users.id });
  return rows.length === 1;
}
