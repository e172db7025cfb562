// The API's bearer check for personal tokens: every scope; sessions and unknown tokens are no
// API credentials. (OAuth access tokens: code-flow.test.ts.)
import { API_SCOPE_NAMES } from '@router/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import { verifyBearer } from './verify-bearer.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('verifyBearer', () => {
  it('answers a personal API token with its user and every scope, until it is deleted', async () => {
    const user = await confirmedUser(t, 'bot-owner@example.test');
    const created = await gql<{ userTokenCreate: { key: string; secret: string } }>(
      t.app,
      'mutation { userTokenCreate(metadata: {name: "bot"}) { key secret } }',
      {},
      bearer(user.token),
    );
    const { key, secret } = created.data?.userTokenCreate ?? { key: '', secret: '' };
    const principal = await verifyBearer(t.services, secret);
    expect(principal).toMatchObject({ userId: user.id, group: user.group, kind: 'token', clientId: null });
    expect([...(principal?.scopes ?? [])]).toEqual(API_SCOPE_NAMES);
    expect(principal?.credentialId).not.toContain(secret);

    expect(await verifyBearer(t.services, user.token)).toBeNull();
    expect(await verifyBearer(t.services, 'x'.repeat(43))).toBeNull();
    expect(await verifyBearer(t.services, 'short')).toBeNull();
    await gql(t.app, 'mutation($k: String!) { userTokenDelete(key: $k) }', { k: key }, bearer(user.token));
    expect(await verifyBearer(t.services, secret)).toBeNull();
  });

  it('stops a deleted token at once on every server instance, not after a cache lifetime', async () => {
    const user = await confirmedUser(t, 'leaked-token@example.test');
    const created = await gql<{ userTokenCreate: { key: string; secret: string } }>(
      t.app,
      'mutation { userTokenCreate(metadata: {name: "leaked"}) { key secret } }',
      {},
      bearer(user.token),
    );
    const { key, secret } = created.data?.userTokenCreate ?? { key: '', secret: '' };
    const other = await startTestApp({ database: t.database });
    try {
      const accounts = () => other.app.inject({ method: 'GET', url: '/api/v1/accounts', headers: bearer(secret) });
      // In use on the other instance (a script trading with it)...
      expect((await accounts()).statusCode).toBe(200);
      // ...when its owner deletes it on this one: its next request is refused.
      const deleted = await gql(
        t.app,
        'mutation($k: String!) { userTokenDelete(key: $k) }',
        { k: key },
        bearer(user.token),
      );
      expect(deleted.data).toEqual({ userTokenDelete: true });
      expect((await accounts()).statusCode).toBe(401);
      expect(await verifyBearer(other.services, secret)).toBeNull();
    } finally {
      await other.close();
    }
  });
});
