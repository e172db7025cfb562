// /graphql with random bearer tokens: each would be a database lookup, so failures are limited per
// client address as the REST API limits them (one allowance for both), without hurting sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, stoppedClock, type TestApp } from '../../../test/app.ts';
import { bearer, confirmedUser, gql, SIGNIN, STRONG_PASSWORD } from '../../../test/identity.ts';
import { FAILED_AUTH_PER_ADDRESS, TOO_MANY_FAILURES } from './failed-auth.ts';

let t: TestApp;
beforeAll(async () => {
  // The allowance refills one a second: a stopped clock keeps a slow run from earning one back.
  t = await startTestApp({ env: { TRUST_PROXY: '1' }, now: stoppedClock() });
});
afterAll(() => t?.close());

const ME = '{ user { email } }';
const from = (address: string, token: string) => bearer(token, { 'x-forwarded-for': address });
const random = (i: number) => `spray-${i}-${'x'.repeat(40)}`;

describe('failed bearer tokens at /graphql', () => {
  it('refuses an address spraying random tokens, while sessions keep working', async () => {
    const user = await confirmedUser(t, 'sprayed@example.test');
    const sprayer = '198.51.100.21';
    for (let i = 0; i < FAILED_AUTH_PER_ADDRESS.burst; i++) {
      const res = await gql(t.app, ME, {}, from(sprayer, random(i)));
      expect(res.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      // A valid session from the same address spends none of the allowance.
      if (i % 10 === 0) expect((await gql(t.app, ME, {}, from(sprayer, user.token))).data).toBeTruthy();
    }
    const limited = await gql(t.app, ME, {}, from(sprayer, random(-1)));
    // When to try again: the address's allowance refills one a second.
    expect(limited.errors?.[0]).toMatchObject({
      message: TOO_MANY_FAILURES,
      extensions: { code: 'RATE_LIMITED', retryAfter: 1 },
    });
    // The REST API shares the allowance: the same address gets no fresh one there.
    const rest = await t.app.inject({ method: 'GET', url: '/api/v1/accounts', headers: from(sprayer, random(-2)) });
    expect(rest.statusCode).toBe(429);
    // A session that authenticated lately still passes; one signed in now passes at once.
    expect((await gql(t.app, ME, {}, from(sprayer, user.token))).data).toEqual({
      user: { email: 'sprayed@example.test' },
    });
    const again = await gql<{ signin: { token: string } }>(
      t.app,
      SIGNIN,
      { type: 'password', credentials: { email: 'sprayed@example.test', password: STRONG_PASSWORD } },
      { 'x-forwarded-for': sprayer },
    );
    const fresh = again.data?.signin.token ?? '';
    expect((await gql(t.app, ME, {}, from(sprayer, fresh))).data).toEqual({ user: { email: 'sprayed@example.test' } });
    // Anonymous calls carry no token and are not refused; another address is not limited.
    expect((await gql(t.app, '{ authProviders { google } }', {}, { 'x-forwarded-for': sprayer })).data).toBeTruthy();
    const other = await gql(t.app, ME, {}, from('198.51.100.22', random(-3)));
    expect(other.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
