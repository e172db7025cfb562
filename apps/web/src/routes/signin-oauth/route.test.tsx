import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UNREACHABLE_TEXT, unavailableText } from '../../lib/unreachable.ts';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { renderRoute, where } from '../../test/render-route.tsx';

const QUERY = '?uid=int-1&client_id=client-1';
const details = (token: string | null, email: string | null = null) => ({
  uid: 'int-1',
  client: { key: 'client-1', name: 'Journal Pro', description: 'A trading journal' },
  scopes: [
    { name: 'accounts:read', description: 'Read the list of your connected brokerage accounts' },
    { name: 'orders:write', description: 'Submit orders on your request' },
  ],
  email,
  token,
});

/** The consent endpoints (REST, same origin): the GraphQL fake answers the rest. */
function stubRest(answers: Record<string, (init?: RequestInit) => Response>) {
  const rest = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const { pathname } = new URL(String(input), 'http://localhost');
    const answer = answers[pathname];
    if (!answer) throw new Error(`unexpected fetch ${pathname}`);
    return answer(init);
  });
  vi.stubGlobal('fetch', rest);
  return rest;
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('consent, app variant (/signin/oauth)', () => {
  it('goes to / with an empty query, and to /signin with a redirect when signed out', async () => {
    // SPEC: to / with an empty query, which is the landing page for a visitor (issue #21).
    const empty = await renderRoute('/signin/oauth');
    await waitFor(() => expect(where(empty.router)).toBe('/'));
    document.body.innerHTML = '';
    const signedOut = await renderRoute(`/signin/oauth${QUERY}`);
    await waitFor(() =>
      expect(where(signedOut.router)).toBe(`/signin?redirect=${encodeURIComponent(`/signin/oauth${QUERY}`)}`),
    );
  });

  it("shows the application's name and what it may do, and posts 'Grant access' as a form", async () => {
    const rest = stubRest({ '/api/oauth/interaction': () => json(details('consent-1')) });
    await renderRoute(`/signin/oauth${QUERY}`, { user: fakeUser(4) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Connect Journal Pro' })).toBeTruthy();
    expect(screen.getByText('Submit orders on your request')).toBeTruthy();
    expect(screen.getByText('Read the list of your connected brokerage accounts')).toBeTruthy();
    const [url, init] = rest.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/oauth/interaction?uid=int-1');
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer session-token');

    const form = screen.getByRole('button', { name: 'Grant access' }).closest('form') as HTMLFormElement;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe(`/api/oauth/authorize${QUERY}`);
    expect(screen.getByText('jo@example.com', { selector: 'strong' }).parentElement?.textContent).toBe(
      'Signed in as jo@example.com',
    );
    const fields = Object.fromEntries(new FormData(form));
    expect(fields).toEqual({ access_token: 'session-token', token: 'consent-1' });
    expect(screen.getByRole('button', { name: 'Cancel' }).getAttribute('value')).toBe('deny');
  });

  it('says so when the request expired', async () => {
    stubRest({
      '/api/oauth/interaction': () =>
        json(
          {
            status: 'ValidationError',
            message: 'This authorization request has expired. Please start again from the application.',
          },
          400,
        ),
    });
    await renderRoute(`/signin/oauth${QUERY}`, { user: fakeUser(4) });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This authorization request has expired. Please start again from the application.',
    );
  });
});

describe('consent, legacy variant (/signin/partner)', () => {
  const PARTNER = `${QUERY}&email=new%40example.com`;

  it('offers Login or Create an account as the email; the new account signs in through the hash and comes back', async () => {
    const registered = vi.fn((_init?: RequestInit) => json({ token: 'one-time-1' }));
    stubRest({
      '/api/oauth/interaction': (init) =>
        json(details(new Headers(init?.headers).has('authorization') ? 'consent-3' : null, 'new@example.com')),
      '/api/oauth/legacy-register': registered,
    });
    let signedIn = false;
    const { router, calls } = await renderRoute(`/signin/partner${PARTNER}`, {
      handlers: {
        Signin: fixture(() => {
          signedIn = true;
          return { data: { signin: { token: 's-1', issuer: 'user', email: null } } };
        }),
        User: fixture(() =>
          signedIn ? { data: { user: fakeUser(4) } } : graphQLError('Sign in first', 'UNAUTHENTICATED'),
        ),
      },
    });
    await screen.findByRole('heading', { level: 1, name: 'Connect Journal Pro' });
    const redirect = encodeURIComponent(`/signin/partner${PARTNER}`);
    expect(screen.getByRole('link', { name: 'Login' }).getAttribute('href')).toBe(`/signin?redirect=${redirect}`);
    fireEvent.click(screen.getByRole('button', { name: 'Create an account as new@example.com' }));
    await waitFor(() => expect(calls('Signin')).toHaveLength(1));
    expect(JSON.parse(String(registered.mock.calls[0]?.[0]?.body))).toEqual({
      uid: 'int-1',
      client_id: 'client-1',
      email: 'new@example.com',
    });
    expect(calls('Signin')[0]?.variables).toMatchObject({
      type: 'token',
      credentials: { issuer: 'id', token: 'one-time-1' },
    });
    expect(await screen.findByRole('button', { name: 'Grant access' })).toBeTruthy();
    expect(where(router)).toBe(`/signin/partner${PARTNER}`);
  });

  it("shows the server's message when the account cannot be made", async () => {
    stubRest({
      '/api/oauth/interaction': () => json(details(null, 'new@example.com')),
      '/api/oauth/legacy-register': () =>
        json({ status: 'ValidationError', message: 'This email is already registered' }, 400),
    });
    await renderRoute(`/signin/partner${PARTNER}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Create an account as new@example.com' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This email is already registered');
  });

  it('names the account access would be granted to, and warns when the application asked for another', async () => {
    stubRest({ '/api/oauth/interaction': () => json(details('consent-4', 'someone@example.com')) });
    await renderRoute(`/signin/partner${PARTNER}`, { user: fakeUser(4) });
    await screen.findByRole('button', { name: 'Grant access' });
    expect(screen.getByText('jo@example.com', { selector: 'strong' }).parentElement?.textContent).toBe(
      'Signed in as jo@example.com',
    );
    expect(screen.getByRole('alert').textContent).toBe(
      'Journal Pro asked for someone@example.com: access would be granted to your account, jo@example.com.',
    );
  });

  it("offers 'Grant access' when signed in", async () => {
    stubRest({ '/api/oauth/interaction': () => json(details('consent-2', 'Jo@Example.com')) });
    await renderRoute(`/signin/partner${PARTNER}`, { user: fakeUser(4) });
    expect(await screen.findByRole('button', { name: 'Grant access' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    // The account the application asked for (whatever its case): nothing to warn of.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says the server could not be reached, not 'Failed to fetch' or a proxy's page", async () => {
    stubRest({
      '/api/oauth/interaction': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await renderRoute(`/signin/oauth${QUERY}`, { user: fakeUser(4) });
    expect((await screen.findByRole('alert')).textContent).toBe(UNREACHABLE_TEXT);
    cleanup();
    stubRest({ '/api/oauth/interaction': () => new Response('<html>502 Bad Gateway</html>', { status: 502 }) });
    await renderRoute(`/signin/oauth${QUERY}`, { user: fakeUser(4) });
    expect((await screen.findByRole('alert')).textContent).toBe(unavailableText());
  });
});
