// API secret tokens (SPEC §3 UserToken): the secret is shown once at creation and stored as a
// hash (sessions kind 'api', no expiry); `suffix` (its last 4 characters) identifies it in lists.
// `metadata` is the caller's JSON, e.g. {name}; renaming replaces it. With `isUserApp` the list
// is the applications the user authorized (modules/oauth/grants.ts); deleting one revokes it.
// Each new token is mailed to the account's address (it outlives a password reset).
import {
  countApiTokens,
  deleteApiToken,
  findApiToken,
  listApiTokens,
  type SessionRow,
  updateApiTokenMetadata,
} from '../../db/repositories/session.repository.ts';
import { findUserById, lockUser } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import type { Caller } from '../auth/caller.ts';
import { requireDashboard, requireOwner, requireViewer } from '../auth/caller.ts';
import { sendApiTokenNotice } from '../auth/email-links.ts';
import { type IssuedToken, issueSession } from '../auth/sessions.ts';
import { findGrant, listGrants, revokeGrant, type UserTokenView } from '../oauth/grants.ts';

const MAX_TOKENS = 50;
const MAX_METADATA_BYTES = 2048;

function metadataOf(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new AppError('VALIDATION', 'Metadata must be a JSON object', { field: 'metadata' });
  }
  const json = JSON.stringify(value);
  if (json.length > MAX_METADATA_BYTES)
    throw new AppError('VALIDATION', 'Metadata is too large', { field: 'metadata' });
  // A plain copy: literals in the query arrive as null-prototype objects.
  return JSON.parse(json) as Record<string, unknown>;
}

export async function createToken(caller: Caller, metadata: unknown): Promise<IssuedToken & { secret: string }> {
  const viewer = requireOwner(caller, 'API tokens can only be created by their owner');
  const data = metadataOf(metadata);
  // Counted and made under the user's row lock: a burst of requests cannot pass the limit together.
  const issued = await caller.services.db.transaction(async (tx) => {
    await lockUser(tx, viewer.userId);
    if ((await countApiTokens(tx, viewer.userId)) >= MAX_TOKENS) {
      throw new AppError('VALIDATION', `At most ${MAX_TOKENS} tokens; delete one first`);
    }
    return issueSession(caller.services, viewer.userId, 'api', { address: caller.ip, metadata: data, db: tx });
  });
  // It outlives a password reset: the owner hears of every one (a taken session could make it).
  const user = await findUserById(caller.services.db, viewer.userId);
  if (user) sendApiTokenNotice(caller.services, user, issued.token.slice(-4));
  return { ...issued, secret: issued.token };
}

function tokenView(row: SessionRow): UserTokenView {
  return { key: row.key, suffix: row.suffix ?? '', createdAt: row.createdAt, metadata: row.metadata, userApp: null };
}

/** Personal API tokens, or with `isUserApp` the applications the user authorized. */
export async function listTokens(caller: Caller, isUserApp: boolean | null | undefined): Promise<UserTokenView[]> {
  const viewer = requireViewer(caller);
  if (isUserApp) return listGrants(caller.services, viewer.userKey);
  return (await listApiTokens(caller.services.db, viewer.userId)).map(tokenView);
}

export async function getToken(caller: Caller, key: string): Promise<UserTokenView | null> {
  const viewer = requireViewer(caller);
  const row = await findApiToken(caller.services.db, viewer.userId, key);
  return row ? tokenView(row) : findGrant(caller.services, viewer.userKey, key);
}

/** Renaming is managing: the dashboard's, never a token's (a leaked one would pass for another). */
export async function updateToken(caller: Caller, key: string, metadata: unknown): Promise<UserTokenView> {
  const viewer = requireDashboard(caller);
  const row = await updateApiTokenMetadata(caller.services.db, viewer.userId, key, metadataOf(metadata));
  if (!row) throw new AppError('NOT_FOUND', 'Token not found');
  return tokenView(row);
}

/**
 * True when a personal token or an application's grant of the caller was deleted. A token stops
 * authenticating at once on this instance (within 5 s on others); a grant's tokens at once.
 */
export async function deleteToken(caller: Caller, key: string): Promise<boolean> {
  const viewer = requireDashboard(caller);
  const tokenHash = await deleteApiToken(caller.services.db, viewer.userId, key);
  if (tokenHash !== undefined) {
    caller.services.identity.sessions.evict([tokenHash]);
    return true;
  }
  return revokeGrant(caller.services, viewer.userKey, key);
}
