// The public `site` query, and an OAuth broker this server has no app credentials for: the user
// reads that the operator has not configured it, never a variable name.
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
});
