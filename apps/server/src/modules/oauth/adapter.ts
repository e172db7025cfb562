// oidc-provider's storage contract (its adapter: one instance per model name) over PostgreSQL.
// Clients are not stored by the provider: 'Client' reads our developer applications, so an
// application's changes and its deletion apply to the very next request. An opaque code or token
// is its own id (jti): those are kept as SHA-256, as sessions and API tokens are (bearerModel).
import { type Adapter, type AdapterFactory, type AdapterPayload, errors } from 'oidc-provider';
import {
  consumeOidc,
  destroyOidc,
  findOidc,
  findOidcByUid,
  findOidcByUserCode,
  type OidcRow,
  revokeGrantOf,
  revokeOidcByGrantId,
  upsertOidc,
} from '../../db/repositories/oidc.repository.ts';
import { findUserAppByKey, type UserAppRow } from '../../db/repositories/user-app.repository.ts';
import type { Services } from '../../services.ts';
import { hashToken } from '../auth/tokens.ts';

/**
 * An application as the provider's client: confidential (its secret's SHA-256 stands in for the
 * secret, see provider.ts), authorization code with refresh tokens, one exact redirect URI.
 */
export function clientMetadata(app: UserAppRow): AdapterPayload {
  return {
    client_id: app.key,
    client_secret: app.secretHash,
    client_name: app.name,
    redirect_uris: [app.redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
  };
}

function payloadOf(row: OidcRow | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = row.payload as AdapterPayload;
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

const noop = async () => {};

function clientAdapter(services: Services): Adapter {
  return {
    async find(id) {
      const app = await findUserAppByKey(services.db, id);
      return app ? clientMetadata(app) : undefined;
    },
    upsert: noop,
    findByUid: noop,
    findByUserCode: noop,
    consume: noop,
    destroy: noop,
    revokeByGrantId: noop,
  };
}

function modelAdapter(services: Services, kind: string): Adapter {
  const { db } = services;
  return {
    async upsert(id, payload, expiresIn) {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await upsertOidc(db, kind, id, payload as Record<string, unknown>, expiresAt);
    },
    find: async (id) => payloadOf(await findOidc(db, kind, id)),
    findByUid: async (uid) => payloadOf(await findOidcByUid(db, kind, uid)),
    findByUserCode: async (code) => payloadOf(await findOidcByUserCode(db, kind, code)),
    // The provider reads a code or refresh token, sees it unused, then consumes it: two requests
    // racing with one code would both get tokens. The loser is a replay, and answered as one:
    // refused, and the grant ends with everything issued under it (else a thief racing the
    // application with a copied refresh token would go unnoticed, whichever of them won).
    async consume(id) {
      if (await consumeOidc(db, kind, id)) return;
      if (kind === 'PushedAuthorizationRequest') {
        throw new errors.InvalidRequestUri('request_uri is invalid, expired, or was already used');
      }
      await revokeGrantOf(db, kind, id);
      throw new errors.InvalidGrant(`${kind} already consumed`);
    },
    destroy: (id) => destroyOidc(db, kind, id),
    revokeByGrantId: (grantId) => revokeOidcByGrantId(db, kind, grantId),
  };
}

/**
 * The models whose id is a bearer credential: the value an application presents (an authorization
 * code, an access or refresh token) is the id. Kept under its SHA-256 and without its `jti`, so a
 * copy of the database (a backup, a replica) opens no user's account; what the provider reads
 * back has the id it asked by as its jti again.
 */
const BEARER_MODELS: ReadonlySet<string> = new Set(['AuthorizationCode', 'AccessToken', 'RefreshToken']);

function bearerModel(model: Adapter): Adapter {
  return {
    ...model,
    upsert(id, payload, expiresIn) {
      const { jti: _jti, ...kept } = payload;
      return model.upsert(hashToken(id), kept, expiresIn);
    },
    async find(id) {
      const payload = await model.find(hashToken(id));
      return payload && { ...payload, jti: id };
    },
    consume: (id) => model.consume(hashToken(id)),
    destroy: (id) => model.destroy(hashToken(id)),
  };
}

export function createAdapter(services: Services): AdapterFactory {
  return (name) => {
    if (name === 'Client') return clientAdapter(services);
    const model = modelAdapter(services, name);
    return BEARER_MODELS.has(name) ? bearerModel(model) : model;
  };
}
