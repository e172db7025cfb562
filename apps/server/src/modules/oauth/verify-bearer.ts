// The one question every API route asks: "which user, which scopes" for an
// `Authorization: Bearer` credential. Two kinds answer it:
//   - an OAuth access token of a developer application (oidc-provider, opaque): its user, its
//     granted scopes; it stops working the moment its grant is revoked or its app deleted;
//   - a personal API token (settings): its user, every API scope.
// Sign-in sessions, second-factor and one-time tokens are no API credentials: null.
//
//   const principal = await authenticateApiRequest(services, req);
//   if (!principal) -> 401;  if (!principal.scopes.has('orders:write')) -> 403
import { API_SCOPE_NAMES, type ApiScope } from '@router/shared';
import type { FastifyRequest } from 'fastify';
import { findUserByKey } from '../../db/repositories/user.repository.ts';
import { findUserAppByKey } from '../../db/repositories/user-app.repository.ts';
import { bearerToken } from '../../http/bearer.ts';
import type { Services } from '../../services.ts';
import { resolveToken } from '../auth/sessions.ts';
import { hashToken } from '../auth/tokens.ts';

export interface ApiPrincipal {
  userId: number;
  userKey: string;
  /** SPEC §6 group bits of the user. */
  group: number;
  scopes: ReadonlySet<ApiScope>;
  /** 'oauth': a developer application's access token; 'token': a personal API token. */
  kind: 'oauth' | 'token';
  /** The application's client_id for 'oauth', else null. */
  clientId: string | null;
  /** Names the credential without revealing it (SHA-256 of the token): the key for per-token rate limits. */
  credentialId: string;
  /**
   * The client whose `Idempotency-Key`s these are (each client its own, as Stripe's are per
   * account): the application (`app:<client_id>`, whichever of its access tokens) or the personal
   * token (`token:<id>`).
   */
  client: string;
  /** Who placed an order, as its activity entry names it: the application's name, or the personal token's (`API token "bot"`). */
  caller: string;
}

/** How a personal API token's orders are named on their activity entries: `API token "bot"`. */
export function personalTokenCaller(name: string | null): string {
  const trimmed = name?.trim().slice(0, 100);
  return trimmed ? `API token "${trimmed}"` : 'API token';
}

const ALL_SCOPES: ReadonlySet<ApiScope> = new Set(API_SCOPE_NAMES);
const isApiScope = (scope: string): scope is ApiScope => ALL_SCOPES.has(scope as ApiScope);

async function personalToken(services: Services, token: string): Promise<ApiPrincipal | null> {
  const session = await resolveToken(services, token);
  if (session?.kind !== 'api') return null;
  return {
    userId: session.userId,
    userKey: session.userKey,
    group: session.group,
    scopes: ALL_SCOPES,
    kind: 'token',
    clientId: null,
    credentialId: hashToken(token),
    client: `token:${session.id}`,
    caller: personalTokenCaller(session.name),
  };
}

async function accessToken(services: Services, token: string): Promise<ApiPrincipal | null> {
  const { oauthProvider } = await import('./provider.ts');
  const provider = await oauthProvider(services);
  // find() refuses unknown, expired and malformed tokens; revoked ones are deleted rows.
  const found = await provider.AccessToken.find(token);
  if (!found?.grantId || found.jkt || found['x5t#S256']) return null;
  // As the provider's own userinfo and introspection: the token's grant must still be there (a
  // token saved by a token request in flight at a revocation outlives it), and the scopes are
  // those the grant still holds.
  const grant = await provider.Grant.find(found.grantId);
  if (!grant || grant.clientId !== found.clientId || grant.accountId !== found.accountId) return null;
  const user = await findUserByKey(services.db, found.accountId);
  if (!user) return null;
  // The application acts only while its owner is professional (as for the provider's client lookup).
  const app = found.clientId ? await findUserAppByKey(services.db, found.clientId) : undefined;
  if (!app) return null;
  return {
    userId: user.id,
    userKey: user.key,
    group: user.group,
    scopes: new Set(
      grant
        .getOIDCScopeFiltered(new Set((found.scope ?? '').split(' ')))
        .split(' ')
        .filter(isApiScope),
    ),
    kind: 'oauth',
    clientId: found.clientId ?? null,
    credentialId: hashToken(token),
    client: `app:${found.clientId}`,
    caller: app.name,
  };
}

/** The principal behind a bearer token, or null when it is no live API credential. */
export async function verifyBearer(services: Services, token: string): Promise<ApiPrincipal | null> {
  if (token.length < 20 || token.length > 200) return null;
  return (await personalToken(services, token)) ?? accessToken(services, token);
}

/** `Authorization: Bearer <token>` of a request, verified; null without one or for a bad one. */
export async function authenticateApiRequest(services: Services, req: FastifyRequest): Promise<ApiPrincipal | null> {
  const token = bearerToken(req);
  return token ? verifyBearer(services, token) : null;
}
