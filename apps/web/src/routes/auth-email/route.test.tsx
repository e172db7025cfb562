import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../lib/storage.ts';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';

describe('email confirmation (SPEC §2, §4, §8)', () => {
  it('confirms the link once and signs in', async () => {
    const { calls, session } = await renderRoute('/auth/email?token=link-1', {
      handlers: {
        AuthEmailConfirm: fixture(() => ({
          data: { authEmailConfirm: { token: 'session-3', issuer: 'user', email: null } },
        })),
        User: fixture(() => ({ data: { user: fakeUser(4) } })),
      },
    });
    // The outcome replaces the spinner: it takes the focus, so it is read out and Tab reaches its link next.
    const confirmed = await screen.findByRole('status');
    expect(confirmed.textContent).toBe('You have successfully confirmed your email, you can log in now.');
    await waitFor(() => expect(document.activeElement).toBe(confirmed));
    expect(calls('AuthEmailConfirm').map((call) => call.variables)).toEqual([{ token: 'link-1' }]);
    expect(localStorage.getItem(TOKEN_KEY)).toBe('session-3');
    expect(session.getState().isAuthenticated).toBe(true);
    expect(screen.getByRole('link', { name: 'Go to the dashboard' }).getAttribute('href')).toBe('/me');
  });

  it("says 'Error, confirmation link expired or incorrect' when refused", async () => {
    await renderRoute('/auth/email?token=used', {
      handlers: { AuthEmailConfirm: fixture(() => graphQLError('This confirmation link is expired or incorrect')) },
    });
    const refused = await screen.findByRole('alert');
    expect(refused.textContent).toBe('Error, confirmation link expired or incorrect');
    await waitFor(() => expect(document.activeElement).toBe(refused));
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('says the same without a token', async () => {
    const { calls } = await renderRoute('/auth/email');
    expect(await screen.findByText('Error, confirmation link expired or incorrect')).toBeTruthy();
    expect(calls('AuthEmailConfirm')).toHaveLength(0);
  });
});
