// The discovery document promises only what an application can really do: a developer's client
// library picks its client authentication from `token_endpoint_auth_methods_supported`, and each
// method listed there must get it tokens.
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmedUser } from '../../../test/identity.ts';
import {
  browse,
  CALLBACK,
  discover,
  grantAccess,
  location,
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

describe('the end_session_endpoint discovery names', () => {
  /** A page of ours: no inline style or script (the strict policy blocks them), nothing from another origin. */
  function expectOwnPage(html: string) {
    expect(html).not.toMatch(/<style|<script|style=/i);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    expect(html).not.toContain('@import');
  }

  it('asks to sign out and confirms it on pages of ours, not the library’s samples', async () => {
    const config = await discover(server, app);
    // The browser the user just consented in holds the provider's session.
    const start = await startAuthorization(config, server);
    const tokens = await client.authorizationCodeGrant(config, await grantAccess(server, start, user.token), {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    const { jar } = start;
    const asked = await browse(jar, `${config.serverMetadata().end_session_endpoint}?client_id=${app.key}`);
    expect(asked.status).toBe(200);
    const html = await asked.text();
    expectOwnPage(html);
    expect(html).toContain('<h1>Sign out</h1>');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(xsrf).not.toBe('');
    expect(html).toContain('form="op.logoutForm" value="yes" name="logout"');

    const confirmed = await browse(jar, `${server.baseUrl}/oidc/session/end/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }),
    });
    const done = await browse(jar, location(confirmed, server.baseUrl));
    expect(done.status).toBe(200);
    const success = await done.text();
    expectOwnPage(success);
    expect(success).toContain('<h1>Signed out</h1>');
    // As the page says: the application's grant outlives the browser's sign-out.
    expect((await client.refreshTokenGrant(config, tokens.refresh_token ?? '')).access_token).toBeTruthy();
  });

  it("returns to the application's own origin when it names one, and nowhere else", async () => {
    const config = await discover(server, app);
    const start = await startAuthorization(config, server);
    await grantAccess(server, start, user.token);
    const endSession = config.serverMetadata().end_session_endpoint ?? '';
    const elsewhere = await browse(
      start.jar,
      `${endSession}?${new URLSearchParams({ client_id: app.key, post_logout_redirect_uri: 'https://evil.example/' })}`,
    );
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('post_logout_redirect_uri not registered');

    const home = `${new URL(CALLBACK).origin}/signed-out`;
    const query = new URLSearchParams({ client_id: app.key, post_logout_redirect_uri: home, state: 'bye' });
    const asked = await browse(start.jar, `${endSession}?${query}`);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(await asked.text())?.[1] ?? '';
    const confirmed = await browse(start.jar, `${server.baseUrl}/oidc/session/end/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }),
    });
    expect(location(confirmed, server.baseUrl)).toBe(`${home}?state=bye`);
  });
});
