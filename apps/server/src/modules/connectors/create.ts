// connectorCreate (SPEC §3 "Connector creation result", §4 Connect flow). Credential providers
// only describe their form; OAuth ('open') providers get a pending connector whose random state
// binds the broker's authorization URL to this user until the callback activates it.
import type { AuthorizationRequest } from '@router/brokers';
import { CONNECTOR_TIMEOUT_MS } from '@router/shared';
import { newKey, randomBase62 } from '../../crypto/random.ts';
import { sealSecrets } from '../../crypto/secrets.ts';
import {
  deleteConnectorRow,
  deleteStalePendingConnectors,
  insertPendingConnector,
  updateConnector,
} from '../../db/repositories/connectors.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { brokerContextFor, connectFailure, providerBroker, requireAppCredentials } from './provider.ts';
import type { Actor } from './types.ts';

export interface ConnectorCreation {
  type: 'open' | 'credentials';
  /** Credential field names (for 'open': the callback's query parameter, 'code' by default). */
  credentials: string[];
  referrerBase: string | null;
  requestUrl: string | null;
  redirectUrl: string | null;
  help: string | null;
  /** JSON object: the provider's title, and for 'open' the pending connector's key. */
  metadata: string;
}

/** A pending OAuth connection is kept twice the authorization window, then forgotten. */
export const OAUTH_STATE_TTL_MS = 2 * CONNECTOR_TIMEOUT_MS;
/**
 * Authorizations a user may have under way (started within OAUTH_STATE_TTL_MS). Each stores a
 * row and asks the broker with this server's app (E*TRADE hands out a request token each time):
 * unbounded, one user's script could fill the table and get the app throttled for every user.
 */
export const MAX_PENDING_AUTHORIZATIONS = 10;
export const TOO_MANY_AUTHORIZATIONS =
  'Too many connection attempts in a short time. Please wait a few minutes and try again.';

export async function createConnector(
  services: Services,
  actor: Actor,
  providerName: string,
): Promise<ConnectorCreation> {
  const broker = await providerBroker(services, providerName);
  const { authentication, title } = broker.descriptor;
  const common = { referrerBase: authentication.referrerBase ?? null, help: authentication.help ?? null };
  if (authentication.type !== 'open') {
    return {
      type: 'credentials',
      credentials: [...authentication.credentials],
      ...common,
      requestUrl: null,
      redirectUrl: null,
      metadata: JSON.stringify({ title }),
    };
  }
  const ctx = brokerContextFor(services, broker);
  requireAppCredentials(services, broker, ctx);
  const state = randomBase62(32);
  const since = new Date(Date.now() - OAUTH_STATE_TTL_MS);
  await deleteStalePendingConnectors(services.db, actor.userId, since);
  const key = newKey();
  // Counted and stored before the broker is asked: attempts beyond the bound never reach it.
  const pending = await insertPendingConnector(
    services.db,
    { key, userId: actor.userId, providerName, oauthState: state },
    since,
    MAX_PENDING_AUTHORIZATIONS,
  );
  if ('oldestAt' in pending) {
    // Room again once the oldest attempt is forgotten.
    const retryAfterS = Math.max(1, Math.ceil((pending.oldestAt.getTime() + OAUTH_STATE_TTL_MS - Date.now()) / 1000));
    throw new AppError('RATE_LIMITED', TOO_MANY_AUTHORIZATIONS, { retryAfterS });
  }
  let authorization: AuthorizationRequest;
  try {
    if (broker.startAuthorization) authorization = await broker.startAuthorization(ctx, state);
    else if (broker.authorizationUrl) authorization = broker.authorizationUrl(ctx, state);
    else throw new AppError('EXECUTION', `${title}: authorization is not available`);
  } catch (error) {
    await deleteConnectorRow(services.db, pending.id);
    throw connectFailure(services, broker, error);
  }
  // What the broker handed out for this authorization (OAuth 1.0a's request token) stays sealed.
  if (authorization.pending) {
    const sealed = sealSecrets(services.secretsKey, key, authorization.pending);
    await updateConnector(services.db, pending.id, { secrets: sealed.data, secretsKeyId: sealed.keyId });
  }
  return {
    type: 'open',
    credentials: [...(authentication.credentials?.length ? authentication.credentials : ['code'])],
    ...common,
    requestUrl: authorization.requestUrl,
    redirectUrl: ctx.redirectUrl ?? null,
    metadata: JSON.stringify({ title, key }),
  };
}
