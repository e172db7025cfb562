import { CombinedError, gql } from '@urql/core';
import { describe, expect, it, vi } from 'vitest';
import { UserDocument } from '../features/user/documents.ts';
import { createAppClient, createErrorHandler, isUnauthenticated, pageLeaving, requestHeaders } from './client.ts';
import { PROXIED_USER_KEY, TOKEN_KEY } from './storage.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const user = {
  key: 'u1',
  group: 4,
  email: 'a@b.co',
  firstName: null,
  lastName: null,
  pendingEmail: null,
  reamazeAuthKey: null,
};

function fakeServer(answer: () => Response = () => json({ data: { user } })) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    return answer();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const header = (init: RequestInit, name: string) => new Headers(init.headers).get(name);

describe('requestHeaders (SPEC §7)', () => {
  it('sends an empty bearer without a token and no X-User', () => {
    expect(requestHeaders()).toEqual({ Authorization: 'Bearer ' });
  });

  it('reads the token and proxied user at each call', () => {
    localStorage.setItem(TOKEN_KEY, 't0k');
    sessionStorage.setItem(PROXIED_USER_KEY, 'jane@x.io');
    expect(requestHeaders()).toEqual({ Authorization: 'Bearer t0k', 'X-User': 'jane@x.io' });
    sessionStorage.removeItem(PROXIED_USER_KEY);
    expect(requestHeaders()).toEqual({ Authorization: 'Bearer t0k' });
  });
});

describe('error handling (SPEC §8)', () => {
  const unauthenticated = new CombinedError({
    graphQLErrors: [{ message: 'Not signed in', extensions: { code: 'UNAUTHENTICATED' } }],
  });

  it('recognises UNAUTHENTICATED among the GraphQL errors', () => {
    expect(isUnauthenticated(unauthenticated)).toBe(true);
    expect(isUnauthenticated(new CombinedError({ graphQLErrors: [{ message: 'x' }] }))).toBe(false);
    expect(isUnauthenticated(new CombinedError({ networkError: new Error('down') }))).toBe(false);
  });

  it('prefixes network and GraphQL errors', () => {
    expect(new CombinedError({ networkError: new Error('Failed to fetch') }).message).toBe('[Network] Failed to fetch');
    expect(unauthenticated.message).toBe('[GraphQL] Not signed in');
  });

  it('logs network errors and reports UNAUTHENTICATED', async () => {
    const onUnauthenticated = vi.fn();
    const log = vi.fn();
    const handle = createErrorHandler({ onUnauthenticated, log });
    const client = createAppClient({ onUnauthenticated, fetch: fakeServer().fetch });
    const operation = client.createRequestOperation('query', {
      key: 1,
      query: gql`query Q { user { key } }`,
      variables: {},
    });
    handle(new CombinedError({ networkError: new Error('down') }), operation);
    expect(log).toHaveBeenCalledOnce();
    expect(log.mock.calls[0]?.[0]).toMatch(/^\[Network\] down \(query Q\)/);
    expect(onUnauthenticated).not.toHaveBeenCalled();
    handle(unauthenticated, operation);
    expect(onUnauthenticated).toHaveBeenCalledOnce();
    expect(log).toHaveBeenCalledOnce();
  });

  it('does not log the requests a leaving page cuts off, and logs again once it is shown', () => {
    const log = vi.fn();
    const handle = createErrorHandler({ onUnauthenticated: vi.fn(), log });
    const client = createAppClient({ onUnauthenticated: vi.fn(), fetch: fakeServer().fetch });
    const operation = client.createRequestOperation('query', {
      key: 2,
      query: gql`query Site { site { publicUrl } }`,
      variables: {},
    });
    const cut = new CombinedError({ networkError: new TypeError('Failed to fetch') });
    window.dispatchEvent(new Event('pagehide'));
    handle(cut, operation);
    expect(log).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('pageshow'));
    handle(cut, operation);
    expect(log).toHaveBeenCalledOnce();
    // A page closing itself (the broker callback popup) says so before pagehide can fire.
    pageLeaving();
    handle(cut, operation);
    expect(log).toHaveBeenCalledOnce();
    window.dispatchEvent(new Event('pageshow'));
  });
});

describe('createAppClient (SPEC §7)', () => {
  it('queries /graphql by GET with the auth headers of the moment', async () => {
    const server = fakeServer();
    const client = createAppClient({ onUnauthenticated: vi.fn(), fetch: server.fetch });
    localStorage.setItem(TOKEN_KEY, 'abc');
    sessionStorage.setItem(PROXIED_USER_KEY, 'jane@x.io');
    const result = await client.query(UserDocument, {}).toPromise();
    expect(result.data?.user.email).toBe('a@b.co');
    const [call] = server.calls;
    expect(call?.init.method).toBe('GET');
    expect(call?.url).toMatch(/^\/graphql\?/);
    expect(header(call?.init ?? {}, 'authorization')).toBe('Bearer abc');
    expect(header(call?.init ?? {}, 'x-user')).toBe('jane@x.io');
  });

  it('posts a query whose URL would exceed 2047 characters, and every mutation', async () => {
    const server = fakeServer(() => json({ data: { user } }));
    const client = createAppClient({ onUnauthenticated: vi.fn(), fetch: server.fetch });
    const long = gql(`query Long { user { key ${'email '.repeat(400)} } }`);
    await client.query(long, {}).toPromise();
    expect(server.calls[0]?.init.method).toBe('POST');
    await client.mutation(gql`mutation M { signout }`, {}).toPromise();
    expect(server.calls[1]?.init.method).toBe('POST');
  });

  it('serves repeated queries from the cache (cache-first) unless network-only', async () => {
    const server = fakeServer();
    const client = createAppClient({ onUnauthenticated: vi.fn(), fetch: server.fetch });
    await client.query(UserDocument, {}).toPromise();
    await client.query(UserDocument, {}).toPromise();
    expect(server.calls).toHaveLength(1);
    await client.query(UserDocument, {}, { requestPolicy: 'network-only' }).toPromise();
    expect(server.calls).toHaveLength(2);
  });

  it("reports an empty response as '[Network] No Content'", async () => {
    const server = fakeServer(() => json({}));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const client = createAppClient({ onUnauthenticated: vi.fn(), fetch: server.fetch });
    const result = await client.query(UserDocument, {}).toPromise();
    expect(result.error?.message).toBe('[Network] No Content');
    expect(console.error).toHaveBeenCalled();
  });

  it('calls onUnauthenticated for an UNAUTHENTICATED answer', async () => {
    const onUnauthenticated = vi.fn();
    const server = fakeServer(() =>
      json({ data: null, errors: [{ message: 'Sign in', extensions: { code: 'UNAUTHENTICATED' } }] }),
    );
    const client = createAppClient({ onUnauthenticated, fetch: server.fetch });
    const result = await client.query(UserDocument, {}).toPromise();
    expect(result.error?.message).toBe('[GraphQL] Sign in');
    expect(onUnauthenticated).toHaveBeenCalledOnce();
  });
});
