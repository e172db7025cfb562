// The public `site` query, and an OAuth broker this server has no app credentials for: the user
// reads that the operator has not configured it, never a variable name.
import type { Provider } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../test/app.ts';
import { gql } from '../../test/connector-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    env: { PUBLIC_URL: 'https://router.example.com', SUPPORT_EMAIL: 'help@router.example.com' },
  });
});
afterAll(() => t.close());

describe('site', () => {
  it('tells anyone the public URL and the support address', async () => {
    const answer = await gql(t, {}, '{ site { publicUrl supportEmail } }');
    expect(answer.data).toEqual({
      site: { publicUrl: 'https://router.example.com', supportEmail: 'help@router.example.com' },
    });
  });
});

describe('connecting an OAuth broker the operator has not configured', () => {
  it('says so without naming server variables', async () => {
    const { headers } = await insertTestUser(t.services, 'schwab@example.com');
    const answer = await gql(t, headers, 'mutation { connectorCreate(providerName: "schwab") { requestUrl } }');
    expect(answer.error?.message).toBe(
      'Schwab is not available on this server yet: its operator has not configured it. Please contact support.',
    );
    expect(answer.body).not.toMatch(/SCHWAB_|CLIENT_ID|CLIENT_SECRET/);
  });

  it("lists it as 'unavailable' with that reason, after the brokers one can connect", async () => {
    const answer = await gql<{ providers: string }>(t, {}, '{ providers }');
    const providers = JSON.parse(answer.data?.providers ?? '[]') as Provider[];
    const schwab = providers.find((p) => p.name === 'schwab');
    expect(schwab).toMatchObject({
      status: 'unavailable',
      authentication: {
        type: 'open',
        help: 'Schwab is not available on this server yet: its operator has not configured it. Please contact support.',
      },
    });
    // Sorted as the registry sorts: every unavailable one after every one that can be connected.
    const statuses = providers.map((p) => p.status);
    expect(statuses.slice(statuses.indexOf('unavailable')).every((s) => s === 'unavailable')).toBe(true);
    expect(providers.find((p) => p.name === 'paper')?.status).toBe('active');
    const one = await gql<{ provider: string }>(t, {}, '{ provider(name: "schwab") }');
    expect(JSON.parse(one.data?.provider ?? 'null')).toMatchObject({ status: 'unavailable' });
    expect(answer.body).not.toMatch(/SCHWAB_|CLIENT_ID|CLIENT_SECRET/);
  });
});
