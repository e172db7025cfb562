// REST API v1 tests: a trader with a paper connection, signal credits, a personal API token, and
// OAuth access tokens of chosen scopes (the real code flow with PKCE through oidc-provider).
import * as client from 'openid-client';
import { activateConnector } from '../src/modules/connectors/index.ts';
import { bearer, confirmedUser, gql } from './identity.ts';
import { discover, grantAccess, type OAuthServer, startAuthorization } from './oauth.ts';

export async function apiTrader(t: OAuthServer, email: string, credits = 20) {
  const user = await confirmedUser(t, email);
  await t.services.db.$client.query('update accounts set balance = $2 where user_id = $1', [user.id, credits]);
  const connector = await activateConnector(t.services, { userId: user.id, address: null }, 'paper', []);
  const created = await gql<{ userTokenCreate: { secret: string } }>(
    t.app,
    'mutation { userTokenCreate(metadata: {name: "bot"}) { secret } }',
    {},
    bearer(user.token),
  );
  const apiToken = created.data?.userTokenCreate.secret;
  if (!apiToken) throw new Error(JSON.stringify(created.errors));
  return { ...user, connector, brokerAccountId: connector.accounts[0]?.id as string, apiToken };
}

/** An application's access token for `user`, granted `scope` on the consent screen. */
export async function oauthAccessToken(
  t: OAuthServer,
  app: { key: string; secret: string },
  sessionToken: string,
  scope: string,
): Promise<string> {
  const config = await discover(t, app);
  const start = await startAuthorization(config, t, { scope });
  const tokens = await client.authorizationCodeGrant(config, await grantAccess(t, start, sessionToken), {
    pkceCodeVerifier: start.verifier,
    expectedState: start.state,
  });
  return tokens.access_token;
}

/** A request to the API as a client makes it (real HTTP), JSON in and out. */
export async function api(
  t: OAuthServer,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const response = await fetch(`${t.baseUrl}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}
