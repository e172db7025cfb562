// A user's authorized applications (SPEC §2 Settings): each oidc-provider grant (one per user and
// application) shown as a UserToken with its `userApp`; revoking deletes the grant and every
// code and token issued under it, so the application's access ends at its next call.
import { deleteUserGrant, type GrantRow, listUserGrants } from '../../db/repositories/oidc.repository.ts';
import type { Services } from '../../services.ts';

/** SPEC §3 UserToken as the API shows it, for personal tokens and application grants alike. */
export interface UserTokenView {
  key: string;
  suffix: string;
  createdAt: Date;
  metadata: Record<string, unknown>;
  userApp: { key: string; name: string } | null;
}

/** The scopes a grant holds (oidc-provider keeps them as `openid.scope`, space-separated). */
export function grantScopes(payload: Record<string, unknown>): string[] {
  const openid = payload.openid as { scope?: unknown } | undefined;
  return typeof openid?.scope === 'string' ? openid.scope.split(' ').filter(Boolean) : [];
}

function grantView(row: GrantRow): UserTokenView {
  return {
    key: row.grantId,
    suffix: '',
    createdAt: row.createdAt,
    metadata: { scopes: grantScopes(row.payload) },
    userApp: { key: row.appKey, name: row.appName },
  };
}

export async function listGrants(services: Services, userKey: string): Promise<UserTokenView[]> {
  return (await listUserGrants(services.db, userKey)).map(grantView);
}

export async function findGrant(services: Services, userKey: string, key: string): Promise<UserTokenView | null> {
  const row = (await listUserGrants(services.db, userKey)).find((grant) => grant.grantId === key);
  return row ? grantView(row) : null;
}

export function revokeGrant(services: Services, userKey: string, key: string): Promise<boolean> {
  return deleteUserGrant(services.db, userKey, key);
}
