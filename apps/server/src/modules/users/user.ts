// The signed-in user (SPEC §3 User): read and `userUpdate`. A new email takes effect only after
// its owner opens the link sent to it; until then the old one stays. An address another account
// holds is answered as a free one (its owner is mailed instead: sendEmailChange).
import { userUpdateSchema } from '@router/shared';
import { findPendingEmailChange } from '../../db/repositories/email-token.repository.ts';
import { findUserById, type UserRow, updateUser } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import { type Caller, parseInput, requireOwner, requireSignedIn, requireViewer } from '../auth/caller.ts';
import { sendEmailChange } from '../auth/email-links.ts';
import { RULES } from '../auth/rate-limit.ts';

/** Any signed-in user, customer or not (the web app tells a user without the customer bit so). */
export async function getUser(caller: Caller): Promise<UserRow> {
  const user = await findUserById(caller.services.db, requireSignedIn(caller).userId);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in');
  return user;
}

/** The new email waiting for its link, told only about the caller's own (or proxied) user. */
export async function pendingEmail(caller: Caller, key: string): Promise<string | null> {
  const user = await getUser(caller);
  return user.key === key ? findPendingEmailChange(caller.services.db, user.id) : null;
}

export interface UserUpdateInput {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

/** Omitted (null) fields stay; an empty name clears it. */
export async function updateProfile(caller: Caller, input: UserUpdateInput): Promise<UserRow> {
  const { services } = caller;
  requireViewer(caller);
  const user = await getUser(caller);
  const parsed = parseInput(userUpdateSchema, {
    email: input.email ?? undefined,
    firstName: input.firstName ?? undefined,
    lastName: input.lastName ?? undefined,
  });
  const email = parsed.email?.toLowerCase();
  const newEmail = email && email !== user.email.toLowerCase() ? email : undefined;
  // The link would go to an address the administrator names: the account would be theirs.
  if (newEmail) {
    requireOwner(caller, 'The email can only be changed by its owner');
    // Refused before anything changes: an error must leave the names as they were too.
    await services.identity.limiter.enforce(`email-change:${user.id}`, RULES.resetRequestEmail);
  }
  const changes: { firstName?: string | null; lastName?: string | null } = {};
  if (input.firstName !== null && input.firstName !== undefined) changes.firstName = parsed.firstName ?? null;
  if (input.lastName !== null && input.lastName !== undefined) changes.lastName = parsed.lastName ?? null;
  const updated = Object.keys(changes).length ? await updateUser(services.db, user.id, changes) : user;
  if (newEmail) await sendEmailChange(services, user, newEmail);
  return updated ?? user;
}
