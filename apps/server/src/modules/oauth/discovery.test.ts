// The discovery document promises only what an application can really do: a developer's client
// library picks its client authentication from `token_endpoint_auth_methods_supported`, and each
// method listed there must get it tokens.
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmedUser } from '../../../test/identity.ts';
import {
  discover,
  grantAccess,
  type OAuthServer,
  professionalWithApp,
  startAuthorization,
  startOAuthServer,
} from '../../../test/oauth.ts';

let server: OAuthServer;
let app: { key: string; secret: string };
let user: Awaited<ReturnType<typeof confirmedUser>>;
beforeAll(async () => {
  server = await startOAuthServer();
  ({ app } = await professionalWithApp(server, 'discovery-dev@example.test'));
  user = await confirmedUser(server, 'discovery-trader@example.test');
});
afterAll(() => server.close());

/** A refresh token of `app` for the user, through consent. */
async function refreshToken(): Promise<string> {
  const config = await discover(server, app);
  const start = await startAuthorization(config, server);
  const tokens = await client.authorizationCodeGrant(config, await grantAccess(server, start, user.token), {
    pkceCodeVerifier: start.verifier,
    expectedState: start.state,
  });
  return tokens.refresh_token ?? '';
}

const AUTHENTICATIONS: Record<string, (secret: string) => client.ClientAuth> = {
  client_secret_basic: client.ClientSecretBasic,
  client_secret_post: client.ClientSecretPost,
};

describe('the discovery document', () => {
  it('lists exactly the client authentication methods every application can use', async () => {
    const metadata = (await discover(server, app)).serverMetadata();
    // The token endpoint's list stands for introspection and revocation too (no lists of their own).
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(Object.keys(AUTHENTICATIONS));
    expect(metadata.introspection_endpoint_auth_methods_supported).toBeUndefined();
    // No signed assertions are taken (an application has no registered key, and its secret is kept hashed).
    expect(metadata.token_endpoint_auth_signing_alg_values_supported).toBeUndefined();
  });

  it.each(Object.keys(AUTHENTICATIONS))('gets tokens authenticating with %s, as advertised', async (method) => {
    const authenticate = AUTHENTICATIONS[method] as (secret: string) => client.ClientAuth;
    const config = await client.discovery(
      new URL(`${server.baseUrl}/oidc`),
      app.key,
      undefined,
      authenticate(app.secret),
      { execute: [client.allowInsecureRequests] },
    );
    const refreshed = await client.refreshTokenGrant(config, await refreshToken());
    expect(refreshed.access_token).toBeTruthy();
  });
});
