import { gql } from '@urql/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeUser, graphQLError } from '../test/fake-server.ts';
import { createAppSession } from './session.tsx';
import { TOKEN_KEY } from './storage.ts';

const customer = fakeUser(4);
const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });

/** A server whose `user` query answers `first` once, then the user. */
function serverAnswering(first: () => Response) {
  let calls = 0;
  const fetch = vi.fn(async () => {
    calls += 1;
    return calls === 1 ? first() : json({ data: { user: customer } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls: () => calls };
}

afterEach(() => vi.useRealTimers());

describe('the session at start-up when the server cannot answer yet (SPEC §4)', () => {
  it.each([
    ['its database restarting', 'SERVICE_UNAVAILABLE'],
    ['a rate limit', 'RATE_LIMITED'],
  ])('keeps the token through %s and loads the user when asked again', async (_case, code) => {
    vi.useFakeTimers();
    localStorage.setItem(TOKEN_KEY, 'good');
    const server = serverAnswering(() => json(graphQLError('Service temporarily unavailable, please retry', code)));
    const session = createAppSession({ fetch: server.fetch });
    await session.start({ href: 'http://app.test/me' });
    expect(localStorage.getItem(TOKEN_KEY)).toBe('good');
    expect(session.getState()).toMatchObject({ isAuthenticated: true, isLoaded: false });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(server.calls()).toBe(2);
    expect(session.getState()).toMatchObject({ isLoaded: true, isAuthenticated: true, user: customer });
  });

  it('still signs out when the server refuses the token', async () => {
    localStorage.setItem(TOKEN_KEY, 'revoked');
    const server = serverAnswering(() => json(graphQLError('Sign in first', 'UNAUTHENTICATED')));
    const session = createAppSession({ fetch: server.fetch });
    await session.start({ href: 'http://app.test/me' });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(session.getState()).toMatchObject({ isLoaded: true, isAuthenticated: false });
  });
});

describe("a late answer to the previous identity's request", () => {
  it('does not sign out the user who signed in since (an UNAUTHENTICATED for the old token)', async () => {
    localStorage.setItem(TOKEN_KEY, 'alice-token');
    let answerLate: (response: Response) => void = () => {};
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      if (String(input).includes('operationName=Late')) {
        return new Promise<Response>((resolve) => {
          answerLate = resolve;
        });
      }
      return json({ data: { user: customer } });
    }) as unknown as typeof globalThis.fetch;
    const session = createAppSession({ fetch });
    await session.start({ href: 'http://app.test/me' });
    // Alice's screen asked something; before it answers she signs out and Bob signs in.
    const late = session.getClient().query(gql`query Late { user { key } }`, {}).toPromise();
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
    session.signOut();
    await session.authenticate('bob-token');
    answerLate(json(graphQLError('Sign in first', 'UNAUTHENTICATED')));
    await late;
    expect(localStorage.getItem(TOKEN_KEY)).toBe('bob-token');
    expect(session.getState()).toMatchObject({ isAuthenticated: true, token: 'bob-token' });
  });
});
