// The authorization code flow with PKCE, driven by a real OAuth client library (openid-client)
// against the running server: discovery, consent, code exchange, userinfo, introspection,
// refresh, revocation in settings, and the bad requests that must not yield a token.
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_END, PROXY_START } from '../../../test/admin-fixtures.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
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
import { CONSENT_WHILE_PROXIED } from './interaction.ts';
import { oauthProvider } from './provider.ts';
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

  it("keeps no application's code, access token or refresh token as such: a copy of the database opens nothing", async () => {
    const config = await discover(server, app);
    const start = await startAuthorization(config, server);
    const callback = await grantAccess(server, start, user.token);
    const code = callback.searchParams.get('code') ?? '';
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    const credentials = [
      code,
      tokens.access_token,
      tokens.refresh_token,
      refreshed.access_token,
      refreshed.refresh_token,
    ];
    const { rows } = await server.services.db.$client.query<{ row: string }>(
      'select row_to_json(p)::text as row from oidc_payloads p',
    );
    const stored = rows.map((r) => r.row).join('\n');
    for (const credential of credentials) {
      expect(credential && credential.length >= 20).toBe(true);
      expect(stored).not.toContain(credential);
    }
    // Each still works for what it is, looked up by its hash, and is revoked so (RFC 7009: with
    // its grant, the refresh token too).
    expect(await verifyBearer(server.services, refreshed.access_token)).toMatchObject({ userId: user.id });
    const again = await client.refreshTokenGrant(config, refreshed.refresh_token ?? '');
    await client.tokenRevocation(config, again.access_token);
    expect(await verifyBearer(server.services, again.access_token)).toBeNull();
    await expect(client.refreshTokenGrant(config, again.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('answers only the exact redirect URI: another one gets an error page, not a redirect', async () => {
    const config = await discover(server, app);
    for (const redirect of [
      'http://localhost:4567/callback/',
      'http://localhost:4567/other',
      'https://evil.example/callback',
    ]) {
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirect,
        scope: 'accounts:read',
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: 'S256',
        state: 's',
      });
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('redirect_uri');
    }
  });

  it('requires PKCE with S256', async () => {
    const config = await discover(server, app);
    const plain = client.buildAuthorizationUrl(config, { redirect_uri: CALLBACK, scope: 'accounts:read', state: 'x' });
    const missing = new URL(location(await fetch(plain, { redirect: 'manual' }), server.baseUrl));
    expect(missing.searchParams.get('error')).toBe('invalid_request');
    expect(missing.searchParams.get('state')).toBe('x');
    const weak = new URL(plain);
    weak.searchParams.set('code_challenge', 'a'.repeat(43));
    weak.searchParams.set('code_challenge_method', 'plain');
    const refused = new URL(location(await fetch(weak, { redirect: 'manual' }), server.baseUrl));
    expect(refused.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses a wrong PKCE verifier, a replayed code, a wrong state and a wrong client secret', async () => {
    const config = await discover(server, app);
    const first = await startAuthorization(config, server);
    const callback = await grantAccess(server, first, user.token);
    await expect(
      client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
        expectedState: first.state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: first.verifier,
      expectedState: first.state,
    });
    // A replayed code is refused, and what it gave the first time is revoked.
    await expect(
      client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: first.verifier, expectedState: first.state }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await verifyBearer(server.services, tokens.access_token)).toBeNull();

    const second = await startAuthorization(config, server);
    const back = await grantAccess(server, second, user.token);
    await expect(
      client.authorizationCodeGrant(config, back, { pkceCodeVerifier: second.verifier, expectedState: 'forged' }),
    ).rejects.toMatchObject({ cause: { message: 'unexpected "state" response parameter value' } });

    const wrongSecret = await client.discovery(
      new URL(`${server.baseUrl}/oidc`),
      app.key,
      'not-the-secret',
      undefined,
      {
        execute: [client.allowInsecureRequests],
      },
    );
    await expect(
      client.authorizationCodeGrant(wrongSecret, back, {
        pkceCodeVerifier: second.verifier,
        expectedState: second.state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_client' });
  });

  it('redeems a code and rotates a refresh token once, even when two requests race for it', async () => {
    const config = await discover(server, app);
    const start = await startAuthorization(config, server);
    const callback = await grantAccess(server, start, user.token);
    const exchanges = await Promise.allSettled(
      [1, 2, 3].map(() =>
        client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: start.verifier,
          expectedState: start.state,
        }),
      ),
    );
    expect(exchanges.filter((e) => e.status === 'fulfilled')).toHaveLength(1);
    for (const refused of exchanges.filter((e) => e.status === 'rejected')) {
      expect(refused.reason).toMatchObject({ error: 'invalid_grant' });
    }

    // Two requests that both found the code (or refresh token) unused: only the first may consume it.
    const provider = await oauthProvider(server.services);
    const again = await startAuthorization(config, server);
    const code = (await grantAccess(server, again, user.token)).searchParams.get('code') ?? '';
    const [one, two] = [await provider.AuthorizationCode.find(code), await provider.AuthorizationCode.find(code)];
    if (!one || !two) throw new Error('the code was not stored');
    await one.consume();
    await expect(two.consume()).rejects.toMatchObject({ error: 'invalid_grant' });

    const third = await startAuthorization(config, server);
    const tokens = await client.authorizationCodeGrant(config, await grantAccess(server, third, user.token), {
      pkceCodeVerifier: third.verifier,
      expectedState: third.state,
    });
    const refreshToken = tokens.refresh_token ?? '';
    const [a, b] = [await provider.RefreshToken.find(refreshToken), await provider.RefreshToken.find(refreshToken)];
    if (!a || !b) throw new Error('the refresh token was not stored');
    await a.consume();
    await expect(b.consume()).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('rotates the refresh token at every use, and ends the grant when a used one comes back (reuse detection)', async () => {
    const config = await discover(server, app);
    const rotated = await confirmedUser(server, 'rotated@example.test');
    const signIn = async () => {
      const start = await startAuthorization(config, server, { scope: 'accounts:read' });
      return client.authorizationCodeGrant(config, await grantAccess(server, start, rotated.token), {
        pkceCodeVerifier: start.verifier,
        expectedState: start.state,
      });
    };
    const tokens = await signIn();
    const first = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    expect(first.refresh_token).toBeTruthy();
    expect(first.refresh_token).not.toBe(tokens.refresh_token);
    const second = await client.refreshTokenGrant(config, first.refresh_token ?? '');
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await verifyBearer(server.services, second.access_token)).toMatchObject({ userId: rotated.id });

    // A spent refresh token used again (a copy taken from the application): refused, and every
    // token of the grant ends, the thief's and the application's alike.
    await expect(client.refreshTokenGrant(config, first.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await verifyBearer(server.services, second.access_token)).toBeNull();
    await expect(client.refreshTokenGrant(config, second.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    // Two requests that both found one refresh token unused: the loser is such a reuse too.
    const again = await signIn();
    const provider = await oauthProvider(server.services);
    const [a, b] = [
      await provider.RefreshToken.find(again.refresh_token ?? ''),
      await provider.RefreshToken.find(again.refresh_token ?? ''),
    ];
    if (!a || !b) throw new Error('the refresh token was not stored');
    await a.consume();
    await expect(b.consume()).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await verifyBearer(server.services, again.access_token)).toBeNull();
    expect(await provider.Grant.find(a.grantId ?? '')).toBeUndefined();
  });

  it('sends access_denied back when the user declines', async () => {
    const config = await discover(server, app);
    const start = await startAuthorization(config, server);
    const uid = start.consentUrl.searchParams.get('uid') ?? '';
    const details = await browse(start.jar, `${server.baseUrl}/api/oauth/interaction?uid=${uid}`, {
      headers: bearer(user.token),
    });
    const { token } = (await details.json()) as { token: string };
    const posted = await browse(start.jar, `${server.baseUrl}/api/oauth/authorize${start.consentUrl.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: user.token, token, decision: 'deny' }),
    });
    const callback = new URL(location(await browse(start.jar, location(posted, server.baseUrl)), server.baseUrl));
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
  });

  it('lets only the signed-in user who was shown the consent grant it', async () => {
    const config = await discover(server, app);
    const other = await confirmedUser(server, 'other@example.test');
    const start = await startAuthorization(config, server);
    const uid = start.consentUrl.searchParams.get('uid') ?? '';
    const url = `${server.baseUrl}/api/oauth/interaction?uid=${uid}`;

    const anonymous = await (await browse(start.jar, url)).json();
    expect(anonymous).toMatchObject({ client: { key: app.key, name: 'Journal Pro' }, token: null });
    expect(anonymous.scopes.map((s: { description: string }) => s.description)).toEqual([
      'Know your account identifier',
      'Read the list of your connected brokerage accounts',
      'Submit orders on your request',
    ]);
    const noCookie = await fetch(url, { headers: bearer(user.token) });
    expect(noCookie.status).toBe(400);
    expect((await noCookie.json()).message).toBe(
      'This authorization request has expired. Please start again from the application.',
    );

    const { token } = (await (await browse(start.jar, url, { headers: bearer(user.token) })).json()) as {
      token: string;
    };
    const post = (fields: Record<string, string>) =>
      browse(start.jar, `${server.baseUrl}/api/oauth/authorize${start.consentUrl.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
    expect((await post({ token })).status).toBe(401);
    expect((await post({ access_token: other.token, token })).status).toBe(403);
    const apiToken = await gql<{ userTokenCreate: { secret: string } }>(
      server.app,
      'mutation { userTokenCreate(metadata: {name: "bot"}) { secret } }',
      {},
      bearer(user.token),
    );
    expect((await post({ access_token: apiToken.data?.userTokenCreate.secret ?? '', token })).status).toBe(401);
    // Without the browser's interaction cookie nothing is granted either.
    const cookieless = await fetch(`${server.baseUrl}/api/oauth/authorize${start.consentUrl.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: user.token, token }),
      redirect: 'manual',
    });
    expect(cookieless.status).toBe(400);
  });

  it('lets another account authorize in a browser just used by someone else, once they start again', async () => {
    const config = await discover(server, app);
    const [first, second] = [
      await confirmedUser(server, 'first@example.test'),
      await confirmedUser(server, 'second@example.test'),
    ];
    const byFirst = await startAuthorization(config, server);
    await grantAccess(server, byFirst, first.token);
    // The same browser, a moment later, signed in to the web app as someone else.
    const refused = await startAuthorization(config, server, {}, byFirst.jar);
    await expect(grantAccess(server, refused, second.token)).rejects.toThrow('status 400');
    const again = await startAuthorization(config, server, {}, byFirst.jar);
    const tokens = await client.authorizationCodeGrant(config, await grantAccess(server, again, second.token), {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
    });
    expect(await verifyBearer(server.services, tokens.access_token)).toMatchObject({ userId: second.id });
  });

  it('grants nothing while an administrator acts as another user, and the administrator once proxy mode ends', async () => {
    const config = await discover(server, app);
    const admin = await confirmedUser(server, 'proxy-admin@example.test');
    await server.services.db.$client.query('update users set "group" = "group" | 1 where id = $1', [admin.id]);
    const target = await confirmedUser(server, 'proxied-trader@example.test');
    const started = await gql(server.app, PROXY_START, { email: 'proxied-trader@example.test' }, bearer(admin.token));
    expect(started.data).toEqual({ adminProxyStart: 'proxied-trader@example.test' });
    const grants = async () =>
      (
        await server.services.db.$client.query<{ account: string }>(
          `select u.email as account from oidc_payloads p join users u on u.key = p.account_id
           where p.kind = 'Grant' and p.client_id = $1 and u.id = any($2) order by 1`,
          [app.key, [admin.id, target.id]],
        )
      ).rows;

    // The consent screen of the proxied web app carries the administrator's own session token.
    const start = await startAuthorization(config, server);
    const uid = start.consentUrl.searchParams.get('uid') ?? '';
    const details = await browse(start.jar, `${server.baseUrl}/api/oauth/interaction?uid=${uid}`, {
      headers: bearer(admin.token, { 'x-user': 'proxied-trader@example.test' }),
    });
    expect(details.status).toBe(403);
    expect((await details.json()).message).toBe(CONSENT_WHILE_PROXIED);
    // Nor does a form post with a consent token made before proxy mode grant anything.
    const before = await startAuthorization(config, server);
    const beforeUid = before.consentUrl.searchParams.get('uid') ?? '';
    await gql(server.app, PROXY_END, { email: 'proxied-trader@example.test' }, bearer(admin.token));
    const { token } = (await (
      await browse(before.jar, `${server.baseUrl}/api/oauth/interaction?uid=${beforeUid}`, {
        headers: bearer(admin.token),
      })
    ).json()) as { token: string };
    expect(token).toBeTruthy();
    await gql(server.app, PROXY_START, { email: 'proxied-trader@example.test' }, bearer(admin.token));
    const posted = await browse(before.jar, `${server.baseUrl}/api/oauth/authorize${before.consentUrl.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: admin.token, token }),
    });
    expect(posted.status).toBe(403);
    expect((await posted.json()).message).toBe(CONSENT_WHILE_PROXIED);
    expect(await grants()).toEqual([]);

    // Proxy mode ended: the administrator grants access for their own account.
    await gql(server.app, PROXY_END, { email: 'proxied-trader@example.test' }, bearer(admin.token));
    const tokens = await client.authorizationCodeGrant(config, await grantAccess(server, before, admin.token), {
      pkceCodeVerifier: before.verifier,
      expectedState: before.state,
    });
    expect(await verifyBearer(server.services, tokens.access_token)).toMatchObject({ userId: admin.id });
    expect(await grants()).toEqual([{ account: 'proxy-admin@example.test' }]);
  });

  it("ends an application's tokens at once when the user revokes it in settings", async () => {
    const config = await discover(server, app);
    const revoker = await confirmedUser(server, 'revoker@example.test');
    // Two consents of one user to one application: first the default scopes, then others.
    const earlier = await startAuthorization(config, server);
    await client.authorizationCodeGrant(config, await grantAccess(server, earlier, revoker.token), {
      pkceCodeVerifier: earlier.verifier,
      expectedState: earlier.state,
    });
    const start = await startAuthorization(config, server, { scope: 'accounts:read holdings:read' });
    const tokens = await client.authorizationCodeGrant(config, await grantAccess(server, start, revoker.token), {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    const LIST = '{ userTokens(isUserApp: true) { key suffix metadata userApp { key name } } }';
    const listed = await gql<{ userTokens: Array<{ key: string; metadata: { scopes: string[] } }> }>(
      server.app,
      LIST,
      {},
      bearer(revoker.token),
    );
    // One grant per user and application, holding every scope granted so far.
    expect(listed.data?.userTokens).toHaveLength(1);
    expect(listed.data?.userTokens[0]).toMatchObject({ suffix: '', userApp: { key: app.key, name: 'Journal Pro' } });
    expect(listed.data?.userTokens[0]?.metadata.scopes).toEqual(
      expect.arrayContaining(['accounts:read', 'holdings:read', 'orders:write']),
    );
    const key = listed.data?.userTokens[0]?.key ?? '';

    const stranger = await confirmedUser(server, 'stranger@example.test');
    const notTheirs = await gql(
      server.app,
      'mutation($k: String!) { userTokenDelete(key: $k) }',
      { k: key },
      bearer(stranger.token),
    );
    expect(notTheirs.data).toEqual({ userTokenDelete: false });
    expect(await verifyBearer(server.services, tokens.access_token)).not.toBeNull();

    const revoked = await gql(
      server.app,
      'mutation($k: String!) { userTokenDelete(key: $k) }',
      { k: key },
      bearer(revoker.token),
    );
    expect(revoked.data).toEqual({ userTokenDelete: true });
    expect(await verifyBearer(server.services, tokens.access_token)).toBeNull();
    await expect(client.fetchUserInfo(config, tokens.access_token, client.skipSubjectCheck)).rejects.toThrow();
    await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await client.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: false });
    expect((await gql(server.app, LIST, {}, bearer(revoker.token))).data).toEqual({ userTokens: [] });
  });

  it('refuses an access token saved under a grant revoked meanwhile (a token request in flight at the revocation)', async () => {
    const config = await discover(server, app);
    const late = await confirmedUser(server, 'late@example.test');
    const start = await startAuthorization(config, server, { scope: 'accounts:read' });
    const tokens = await client.authorizationCodeGrant(config, await grantAccess(server, start, late.token), {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    const provider = await oauthProvider(server.services);
    const issued = await provider.AccessToken.find(tokens.access_token);
    if (!issued?.grantId) throw new Error('the access token was not stored');
    const grants = await gql<{ userTokens: Array<{ key: string }> }>(
      server.app,
      '{ userTokens(isUserApp: true) { key } }',
      {},
      bearer(late.token),
    );
    const revoked = await gql(
      server.app,
      'mutation($k: String!) { userTokenDelete(key: $k) }',
      { k: grants.data?.userTokens[0]?.key ?? '' },
      bearer(late.token),
    );
    expect(revoked.data).toEqual({ userTokenDelete: true });
    // The token endpoint found the grant before the revocation and saves its access token after it.
    const oauthClient = await provider.Client.find(app.key);
    if (!oauthClient) throw new Error('the application is gone');
    const saved = await new provider.AccessToken({
      accountId: issued.accountId,
      client: oauthClient,
      grantId: issued.grantId,
      scope: issued.scope,
      gty: 'refresh_token',
    }).save();
    expect(await client.tokenIntrospection(config, saved)).toMatchObject({ active: false });
    expect(await verifyBearer(server.services, saved)).toBeNull();
  });

  it('grants nothing to an application deleted while its consent screen was shown', async () => {
    const { owner, app: doomed } = await professionalWithApp(server, 'dev3@example.test');
    const config = await discover(server, doomed);
    const start = await startAuthorization(config, server);
    const uid = start.consentUrl.searchParams.get('uid') ?? '';
    const details = await browse(start.jar, `${server.baseUrl}/api/oauth/interaction?uid=${uid}`, {
      headers: bearer(user.token),
    });
    const { token } = (await details.json()) as { token: string };
    await gql(server.app, 'mutation($k: String!) { userAppDelete(key: $k) }', { k: doomed.key }, bearer(owner.token));
    const posted = await browse(start.jar, `${server.baseUrl}/api/oauth/authorize${start.consentUrl.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ access_token: user.token, token }),
    });
    // Not a grant left behind for it (deleting the application deleted everything issued to it).
    const { rows } = await server.services.db.$client.query('select kind from oidc_payloads where client_id = $1', [
      doomed.key,
    ]);
    expect(rows).toEqual([]);
    expect(posted.status).toBe(400);
    expect(((await posted.json()) as { message: string }).message).toBe(
      'This authorization request has expired. Please start again from the application.',
    );
  });

  it('answers a browser’s refused consent with a page saying why, not the JSON error', async () => {
    const config = await discover(server, app);
    const start = await startAuthorization(config, server);
    // The interaction cookie is gone (another browser, or expired): the form post is refused.
    const refused = await fetch(`${server.baseUrl}/api/oauth/authorize${start.consentUrl.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml' },
      body: new URLSearchParams({ access_token: user.token, token: 'x' }),
      redirect: 'manual',
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await refused.text();
    expect(html).toContain('This authorization request has expired. Please start again from the application.');
    expect(html).not.toContain('"status"');
  });

  it('stops an application whose owner lost professional status, keeping it for when it comes back', async () => {
    const { owner, app: lapsed } = await professionalWithApp(server, 'lapsed-dev@example.test');
    const config = await discover(server, lapsed);
    const start = await startAuthorization(config, server);
    const tokens = await client.authorizationCodeGrant(config, await grantAccess(server, start, user.token), {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    expect(await verifyBearer(server.services, tokens.access_token)).not.toBeNull();
    const setProfessional = (on: boolean) =>
      server.services.db.$client.query(
        `update users set "group" = case when $2 then "group" | 16 else "group" & ~16 end where id = $1`,
        [owner.id, on],
      );
    await setProfessional(false);
    expect(await verifyBearer(server.services, tokens.access_token)).toBeNull();
    await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_client',
    });
    // No consent screen for it either: the provider answers an error page, no redirect.
    await expect(startAuthorization(config, server)).rejects.toThrow(/no redirect/);
    // Nothing was deleted: the status back, the same tokens work again.
    const { rows } = await server.services.db.$client.query(
      'select count(*)::int as n from oidc_payloads where client_id = $1',
      [lapsed.key],
    );
    expect(rows[0]?.n).toBeGreaterThan(0);
    await setProfessional(true);
    expect(await verifyBearer(server.services, tokens.access_token)).not.toBeNull();
    expect((await client.refreshTokenGrant(config, tokens.refresh_token ?? '')).access_token).toBeTruthy();
  });

  it('ends everything granted to an application its owner deletes', async () => {
    const { owner, app: doomed } = await professionalWithApp(server, 'dev2@example.test');
    const config = await discover(server, doomed);
    const start = await startAuthorization(config, server);
    const tokens = await client.authorizationCodeGrant(config, await grantAccess(server, start, user.token), {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });
    const deleted = await gql(
      server.app,
      'mutation($k: String!) { userAppDelete(key: $k) }',
      { k: doomed.key },
      bearer(owner.token),
    );
    expect(deleted.data).toEqual({ userAppDelete: true });
    expect(await verifyBearer(server.services, tokens.access_token)).toBeNull();
    await expect(client.refreshTokenGrant(config, tokens.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_client',
    });
    const { rows } = await server.services.db.$client.query('select kind from oidc_payloads where client_id = $1', [
      doomed.key,
    ]);
    expect(rows).toEqual([]);
  });
});
