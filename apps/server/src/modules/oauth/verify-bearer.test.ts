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
});
