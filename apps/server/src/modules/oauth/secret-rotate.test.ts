// A developer whose client secret leaked replaces it (userAppSecretRotate) without deleting the
// application, which would end every user's grant: the new secret is answered once and kept
// hashed, the old one is refused at the next token request, and the users' grants stay.
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_START } from '../../../test/admin-fixtures.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import {
  discover,
  grantAccess,
  type OAuthServer,
  professionalWithApp,
  startAuthorization,
  startOAuthServer,
} from '../../../test/oauth.ts';
import { SECRET_OWNER_ONLY } from './apps.ts';

const ROTATE = 'mutation($key: String!) { userAppSecretRotate(key: $key) { key secret } }';

let server: OAuthServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());

const rotate = (key: string, headers: Record<string, string>) =>
  gql<{ userAppSecretRotate: { key: string; secret: string } }>(server.app, ROTATE, { key }, headers);

describe('userAppSecretRotate', () => {
  it('answers a new secret once; the old one is refused, the grants and their tokens stay', async () => {
    const { owner, app } = await professionalWithApp(server, 'rotate-dev@example.test');
    const user = await confirmedUser(server, 'rotate-trader@example.test');
    const before = await discover(server, app);
    const start = await startAuthorization(before, server);
    const tokens = await client.authorizationCodeGrant(before, await grantAccess(server, start, user.token), {
      pkceCodeVerifier: start.verifier,
      expectedState: start.state,
    });

    const rotated = await rotate(app.key, bearer(owner.token));
    const secret = rotated.data?.userAppSecretRotate.secret ?? '';
    expect(rotated.data?.userAppSecretRotate.key).toBe(app.key);
    expect(secret.length).toBeGreaterThanOrEqual(43);
    expect(secret).not.toBe(app.secret);
    const { rows } = await server.services.db.$client.query<{ secret_hash: string }>(
      'select secret_hash from user_apps where key = $1',
      [app.key],
    );
    expect(rows[0]?.secret_hash).toBe(createHash('sha256').update(secret).digest('base64url'));

    await expect(client.refreshTokenGrant(before, tokens.refresh_token ?? '')).rejects.toMatchObject({
      error: 'invalid_client',
    });
    const after = await discover(server, { key: app.key, secret });
    const refreshed = await client.refreshTokenGrant(after, tokens.refresh_token ?? '');
    expect(refreshed.scope?.split(' ').sort()).toEqual(['accounts:read', 'openid', 'orders:write']);
  });

  it("is the owner's own dashboard session's: not an administrator acting as them, an API token, or another user", async () => {
    const { owner, app } = await professionalWithApp(server, 'rotate-owner@example.test');
    const admin = await confirmedUser(server, 'rotate-admin@example.test');
    await server.services.db.$client.query('update users set "group" = 5 where id = $1', [admin.id]);
    await gql(server.app, PROXY_START, { email: 'rotate-owner@example.test' }, bearer(admin.token));
    const proxied = await rotate(app.key, bearer(admin.token, { 'x-user': 'rotate-owner@example.test' }));
    expect(proxied.errors?.[0]).toMatchObject({ message: SECRET_OWNER_ONLY, extensions: { code: 'FORBIDDEN' } });

    // The owner's personal API token (a script's): a leaked one must not take the application over.
    const created = await gql<{ userTokenCreate: { secret: string } }>(
      server.app,
      'mutation { userTokenCreate(metadata: {name: "bot"}) { secret } }',
      {},
      bearer(owner.token),
    );
    const script = bearer(created.data?.userTokenCreate.secret ?? '');
    expect((await rotate(app.key, script)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const other = await professionalWithApp(server, 'rotate-other@example.test');
    expect((await rotate(app.key, bearer(other.owner.token))).errors?.[0]).toMatchObject({
      message: 'Application not found',
      extensions: { code: 'NOT_FOUND' },
    });
    expect((await rotate(app.key, {})).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // Nothing changed: the secret made at creation still authenticates.
    const { rows } = await server.services.db.$client.query<{ secret_hash: string }>(
      'select secret_hash from user_apps where key = $1',
      [app.key],
    );
    expect(rows[0]?.secret_hash).toBe(createHash('sha256').update(app.secret).digest('base64url'));
  });
});
