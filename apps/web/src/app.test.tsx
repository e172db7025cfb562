import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from './app.tsx';
import { createAppSession } from './lib/session.tsx';
import { TOKEN_KEY } from './lib/storage.ts';
import { fakeGraphQL, fakeUser } from './test/fake-server.ts';

describe('App (SPEC §2, §4)', () => {
  it('renders nothing until the session and providers loaded, then the requested screen', async () => {
    window.history.replaceState(null, '', '/me/report');
    localStorage.setItem(TOKEN_KEY, 'token-1');
    const server = fakeGraphQL({ user: fakeUser(4) });
    const session = createAppSession({ fetch: server.fetch });
    const { container } = render(<App session={session} />);
    expect(container.textContent).toBe('');
    await act(() => session.start());
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Reporting?');
    expect(server.operations).toEqual(expect.arrayContaining(['User', 'Providers']));
  });

  it('a token in the URL signs in and leaves the address', async () => {
    window.history.replaceState(null, '', '/me?token=from-link');
    const server = fakeGraphQL({ user: fakeUser(4) });
    const session = createAppSession({ fetch: server.fetch });
    render(<App session={session} />);
    await act(() => session.start());
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Dashboard');
    expect(localStorage.getItem(TOKEN_KEY)).toBe('from-link');
    expect(window.location.search).toBe('');
  });

  it('an unknown token signs out to the sign-in screen', async () => {
    window.history.replaceState(null, '', '/me/settings');
    localStorage.setItem(TOKEN_KEY, 'revoked');
    const server = fakeGraphQL({ user: null });
    const session = createAppSession({ fetch: server.fetch });
    render(<App session={session} />);
    await act(() => session.start().catch(() => {}));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Sign in');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });
});
