// The consent endpoints take the browser's session token (GET /api/oauth/interaction's bearer,
// the form's access_token): one live authorization must not let an address try random tokens
// without end, each a database lookup. Limited per address with /graphql's and /api/v1's allowance.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stoppedClock } from '../../../test/app.ts';
import { bearer, confirmedUser } from '../../../test/identity.ts';
import {
  browse,
  discover,
  type OAuthServer,
  professionalWithApp,
  startAuthorization,
  startOAuthServer,
} from '../../../test/oauth.ts';
import { FAILED_AUTH_PER_ADDRESS, TOO_MANY_FAILURES } from '../auth/failed-auth.ts';

let server: OAuthServer;
beforeAll(async () => {
  // The allowance refills one a second: a stopped clock keeps a slow run from earning one back.
  server = await startOAuthServer({ TRUST_PROXY: '1' }, { now: stoppedClock() });
});
afterAll(() => server?.close());

describe('consent endpoints and random session tokens', () => {
  it('refuses an address spraying tokens at a live authorization; the signed-in user still sees the consent', async () => {
    const { app } = await professionalWithApp(server, 'dev-spray@example.test');
    const user = await confirmedUser(server, 'consenting@example.test');
    const start = await startAuthorization(await discover(server, app), server);
    const uid = start.consentUrl.searchParams.get('uid') ?? '';
    const details = (token: string, from: string) =>
      browse(start.jar, `${server.baseUrl}/api/oauth/interaction?uid=${uid}`, {
        headers: bearer(token, { 'x-forwarded-for': from }),
      });
    const sprayer = '203.0.113.41';
    for (let i = 0; i < FAILED_AUTH_PER_ADDRESS.burst; i++) {
      const answer = await details(`guess-${i}-${'y'.repeat(40)}`, sprayer);
      expect(answer.status).toBe(200);
      expect((await answer.json()).token).toBeNull();
    }
    const limited = await details(`guess-last-${'y'.repeat(40)}`, sprayer);
    expect(limited.status).toBe(429);
    expect((await limited.json()).message).toBe(TOO_MANY_FAILURES);
    // The form post is the same lookup.
    const posted = await browse(start.jar, `${server.baseUrl}/api/oauth/authorize${start.consentUrl.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': sprayer },
      body: new URLSearchParams({ access_token: `guess-post-${'y'.repeat(40)}`, token: 'x' }),
    });
    expect(posted.status).toBe(429);
    // A session token that authenticated lately (at sign-in) still passes from there.
    const own = await details(user.token, sprayer);
    expect(own.status).toBe(200);
    expect((await own.json()).token).toEqual(expect.any(String));
  });
});
