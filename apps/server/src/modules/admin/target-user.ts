// The user an admin form names by email: registered and confirmed, else SPEC §8's message.
import { ADMIN_TEXT } from '@router/shared';
import type { Executor } from '../../db/repositories/executor.ts';
import { findUserByEmail, type UserRow } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';

export async function confirmedUserByEmail(db: Executor, email: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email);
  if (!user?.emailConfirmedAt) throw new AppError('VALIDATION', ADMIN_TEXT.notActivated, { field: 'email' });
  return user;
}
