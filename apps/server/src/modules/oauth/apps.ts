// Developer applications (SPEC §3 UserApp, §7 userApp*): professionals register OAuth clients.
// The client secret is shown once, in the answer of `userAppCreate`, and kept as its SHA-256.
// Deleting an application deletes every grant, code and token issued to it. Creating one is the
// owner's alone (its secret is a credential of the user, never shown to an administrator acting as
// them); deleting needs no professional status, so an owner who lost it can still revoke an app.
import { GROUP, userAppSchema, userAppUpdateSchema } from '@router/shared';
import { newKey } from '../../crypto/random.ts';
import { lockUser } from '../../db/repositories/user.repository.ts';
import {
  countUserApps,
  deleteUserApp,
  findOwnUserApp,
  insertUserApp,
  listUserApps,
  type UserAppChanges,
  type UserAppRow,
  updateUserApp,
} from '../../db/repositories/user-app.repository.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../graphql/context.ts';
import {
  type Caller,
  parseInput,
  requireDashboard,
  requireGroup,
  requireOwner,
  requireViewer,
} from '../auth/caller.ts';
import { hashToken, newToken } from '../auth/tokens.ts';

const MAX_APPS = 20;

/**
 * A professional customer: whatever gave the status (an administrator, or a paid Stripe price),
 * group bit 16 on top of the customer bit every signed-in resolver demands (requireViewer).
 */
function requireProfessional(caller: Caller): Viewer {
  requireViewer(caller);
  return requireGroup(caller, GROUP.PROFESSIONAL);
}

export const CALLBACK_OWNER_ONLY = "An application's callback URL can only be changed by its owner";
export const SECRET_OWNER_ONLY = "An application's secret can only be replaced by its owner";

export interface UserAppInput {
  name: string;
  description?: string | null;
  redirectUrl: string;
}

export async function createApp(caller: Caller, input: UserAppInput): Promise<{ key: string; secret: string }> {
  requireOwner(caller, 'Applications can only be created by their owner');
  const viewer = requireProfessional(caller);
  const app = parseInput(userAppSchema, { ...input, description: input.description ?? undefined });
  const secret = newToken();
  // Counted and made under the user's row lock: a burst of requests cannot pass the limit together.
  const row = await caller.services.db.transaction(async (tx) => {
    await lockUser(tx, viewer.userId);
    if ((await countUserApps(tx, viewer.userId)) >= MAX_APPS) {
      throw new AppError('VALIDATION', `At most ${MAX_APPS} applications; delete one first`);
    }
    return insertUserApp(tx, {
      key: newKey(),
      userId: viewer.userId,
      name: app.name,
      description: app.description ?? null,
      redirectUrl: app.redirectUrl,
      secretHash: hashToken(secret),
    });
  });
  return { key: row.key, secret };
}

/** `metadata`: the fields to change, `{name?, description?, redirectUrl?}`. */
export async function updateApp(caller: Caller, key: string, metadata: unknown): Promise<UserAppRow> {
  requireDashboard(caller);
  const viewer = requireProfessional(caller);
  const input = typeof metadata === 'object' && metadata !== null ? { ...metadata } : metadata;
  const parsed = parseInput(userAppUpdateSchema, input, 'metadata');
  const changes: UserAppChanges = {};
  if (parsed.name !== undefined) changes.name = parsed.name;
  if (parsed.redirectUrl !== undefined) {
    // Where every user's consent is sent is the owner's word, not an administrator's acting as them.
    requireOwner(caller, CALLBACK_OWNER_ONLY);
    changes.redirectUrl = parsed.redirectUrl;
  }
  if (input && typeof input === 'object' && 'description' in input) changes.description = parsed.description ?? null;
  const row = Object.keys(changes).length
    ? await updateUserApp(caller.services.db, viewer.userId, key, changes)
    : await findOwnUserApp(caller.services.db, viewer.userId, key);
  if (!row) throw new AppError('NOT_FOUND', 'Application not found');
  return row;
}

/**
 * A new client secret for a leaked one, answered once and kept as its SHA-256 like the first: the
 * previous secret is refused from the next token request on (the provider reads the application
 * at every request), while the users' grants and the tokens issued under them stay, so the
 * application need not be deleted (which would end every user's access). The owner's own
 * dashboard session only, as at creation: a credential is never shown to an administrator acting
 * as them, nor to an API token.
 */
export async function rotateAppSecret(caller: Caller, key: string): Promise<{ key: string; secret: string }> {
  requireOwner(caller, SECRET_OWNER_ONLY);
  const viewer = requireProfessional(caller);
  const secret = newToken();
  const row = await updateUserApp(caller.services.db, viewer.userId, key, { secretHash: hashToken(secret) });
  if (!row) throw new AppError('NOT_FOUND', 'Application not found');
  return { key: row.key, secret };
}

/**
 * True when the application existed; its tokens stop working at once. Any owner, professional or
 * no longer: revoking must stay possible after the status is gone.
 */
export async function deleteApp(caller: Caller, key: string): Promise<boolean> {
  return deleteUserApp(caller.services.db, requireDashboard(caller).userId, key);
}

/** One of the caller's applications, or null (another user's application is not shown). */
export async function getApp(caller: Caller, key: string): Promise<UserAppRow | null> {
  return (await findOwnUserApp(caller.services.db, requireViewer(caller).userId, key)) ?? null;
}

export function listApps(caller: Caller): Promise<UserAppRow[]> {
  return listUserApps(caller.services.db, requireViewer(caller).userId);
}
