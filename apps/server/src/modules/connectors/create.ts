// connectorCreate (SPEC §3 "Connector creation result", §4 Connect flow). Credential providers
// only describe their form; OAuth ('open') providers get a pending connector whose random state
// binds the broker's authorization URL to this user until the callback activates it.
import type { AuthorizationRequest } from '@router/brokers';
import { CONNECTOR_TIMEOUT_MS } from '@router/shared';
import { newKey, randomBase62 } from '../../crypto/random.ts';
import { sealSecrets } from '../../crypto/secrets.ts';
import { deleteStalePendingConnectors, insertConnector } from '../../db/repositories/connectors.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { brokerContextFor, connectFailure, providerBroker } from './provider.ts';
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

export async function createConnector(
  services: Services,
  actor: Actor,
  providerName: string,
): Promise<ConnectorCreation> {
  const broker = providerBroker(services, providerName);
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
  const state = randomBase62(32);
  let authorization: AuthorizationRequest;
  try {
    if (broker.startAuthorization) authorization = await broker.startAuthorization(ctx, state);
    else if (broker.authorizationUrl) authorization = broker.authorizationUrl(ctx, state);
    else throw new AppError('EXECUTION', `${title}: authorization is not available`);
  } catch (error) {
    throw connectFailure(services, broker, error);
  }
  await deleteStalePendingConnectors(services.db, actor.userId, new Date(Date.now() - OAUTH_STATE_TTL_MS));
  const key = newKey();
  // What the broker handed out for this authorization (OAuth 1.0a's request token) stays sealed.
  const sealed = authorization.pending ? sealSecrets(services.secretsKey, key, authorization.pending) : undefined;
  await insertConnector(services.db, {
    key,
    userId: actor.userId,
    providerName,
    oauthState: state,
    ...(sealed ? { secrets: sealed.data, secretsKeyId: sealed.keyId } : {}),
  });
  return {
    type: 'open',
    credentials: [...(authentication.credentials?.length ? authentication.credentials : ['code'])],
    ...common,
    requestUrl: authorization.requestUrl,
    redirectUrl: ctx.redirectUrl ?? null,
    metadata: JSON.stringify({ title, key }),
  };
}
