import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SIGNIN_NONCE_KEY } from '../../features/auth/social-sdk.ts';
import { IDENTITY_TOKEN_KEY, TOKEN_KEY } from '../../lib/storage.ts';
import { UNREACHABLE_TEXT } from '../../lib/unreachable.ts';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { click, fill, renderRoute, where } from '../../test/render-route.tsx';

const customer = fakeUser(4);
const signedIn =
  (issuer = 'user', email: string | null = null) =>
  () => ({
    data: { signin: { token: issuer === 'user' ? 'session-1' : 'identity-1', issuer, email } },
  });
/** Signed out until the sign-in answered, then the user (the session fetches it). */
const userAfterSignin = () => {
  let signedInYet = false;
  return {
    Signin: fixture(() => {
      signedInYet = true;
      return signedIn()();
    }),
    User: fixture(() =>
      signedInYet ? { data: { user: customer } } : graphQLError('Sign in first', 'UNAUTHENTICATED'),
    ),
  };
};

function submit(email = 'jo@example.com', password = 'secret') {
  fill('Email', email);
  fill('Password', password);
  click('Sign in');
}

describe('sign-in screen (SPEC §2, §5, §8)', () => {
  it("asks for both fields ('Required') before calling the server", async () => {
    const { calls } = await renderRoute('/signin');
    click('Sign in');
    expect(await screen.findAllByText('Required')).toHaveLength(2);
    expect(calls('Signin')).toHaveLength(0);
  });

  it("shows the server's message with a 'Forgot your password?' link", async () => {
    await renderRoute('/signin', { handlers: { Signin: fixture(() => graphQLError('Wrong email or password')) } });
    submit();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Wrong email or password');
    expect(alert.querySelector('a')?.getAttribute('href')).toBe('/auth/password/request');
    // Sign in was disabled by the call, which dropped the focus to the page: the failure takes it,
    // again at the next attempt with the same answer.
    await waitFor(() => expect(document.activeElement).toBe(alert));
    screen.getByRole('button', { name: 'Sign in' }).focus();
    click('Sign in');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('alert')));
  });

  it("falls back to 'We can't sign you in with these credentials' without a server message", async () => {
    await renderRoute('/signin', { handlers: { Signin: fixture(() => ({ data: null, errors: [{ message: '' }] })) } });
    submit();
    expect((await screen.findByRole('alert')).textContent).toContain("We can't sign you in with these credentials");
  });

  it('says the server could not be reached, not that the credentials are wrong, and keeps them', async () => {
    await renderRoute('/signin', {
      handlers: {
        Signin: fixture(() => {
          throw new TypeError('Failed to fetch');
        }),
      },
    });
    submit('jo@example.com', 'secret');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(UNREACHABLE_TEXT);
    expect(alert.textContent).not.toContain("We can't sign you in");
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('jo@example.com');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('secret');
  });

  it('signs in with the password and goes to /me', async () => {
    const { router, calls, session } = await renderRoute('/signin', { handlers: userAfterSignin() });
    submit('jo@example.com', 'pw');
    await waitFor(() => expect(where(router)).toBe('/me'));
    expect(calls('Signin')[0]?.variables).toEqual({
      type: 'password',
      credentials: { email: 'jo@example.com', password: 'pw' },
    });
    expect(localStorage.getItem(TOKEN_KEY)).toBe('session-1');
    expect(session.getState().isAuthenticated).toBe(true);
  });

  it('honours the redirect query parameter, then the originating page', async () => {
    const first = await renderRoute('/signin?redirect=%2Fme%2Faccount', { handlers: userAfterSignin() });
    submit();
    await waitFor(() => expect(where(first.router)).toBe('/me/account'));
    first.router.dispose();
    document.body.innerHTML = '';
    localStorage.clear();

    const from = { pathname: '/me/settings', search: '', hash: '' };
    const second = await renderRoute('/signin', { handlers: userAfterSignin(), state: { from } });
    submit();
    await waitFor(() => expect(where(second.router)).toBe('/me/settings'));
  });

  it('an identity-issuer result goes to the second factor, keeping the query string', async () => {
    const { router, session } = await renderRoute('/signin?redirect=%2Fme%2Faccount', {
      handlers: { Signin: signedIn('identity') },
    });
    submit();
    await screen.findByRole('heading', { level: 1, name: 'Two-factor verification' });
    expect(where(router)).toBe('/signin/multifactor?redirect=%2Fme%2Faccount');
    expect(sessionStorage.getItem(IDENTITY_TOKEN_KEY)).toBe('identity-1');
    expect(session.getState().isAuthenticated).toBe(false);
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('links to the password reset request and to sign-up', async () => {
    await renderRoute('/signin');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/auth/password/request',
    );
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
  });

  it('shows social buttons only for the providers the server configured', async () => {
    await renderRoute('/signin');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: /Apple/ })).toBeNull();
    document.body.innerHTML = '';

    await renderRoute('/signin', {
      handlers: {
        AuthProviders: fixture(() => ({
          data: { authProviders: { google: false, googleClientId: null, apple: true, appleClientId: 'com.example' } },
        })),
      },
    });
    expect(await screen.findByRole('button', { name: /Continue with Apple/ })).toBeTruthy();
    // The button's effect adds the script after the button is on screen (a passive effect, which a
    // busy machine can run a moment later): waited for, not read at once.
    await waitFor(() => expect(document.querySelector('script[src*="appleid"]')).toBeTruthy());
    expect(document.querySelector('script[src*="accounts.google.com"]')).toBeNull();
  });

  it('signs in automatically with an access_token in the URL hash (issuer "id"), and clears the hash', async () => {
    const { router, calls } = await renderRoute('/signin#access_token=one-time-token', {
      handlers: userAfterSignin(),
    });
    await waitFor(() => expect(where(router)).toBe('/me'));
    expect(calls('Signin')[0]?.variables).toMatchObject({
      type: 'token',
      credentials: { issuer: 'id', token: 'one-time-token' },
    });
    expect(router.state.location.hash).toBe('');
  });

  it("takes an id_token in the URL hash as Google's, unless an issuer is named", async () => {
    const google = await renderRoute('/signin#id_token=google-id-token', { handlers: userAfterSignin() });
    await waitFor(() => expect(google.calls('Signin')).toHaveLength(1));
    expect(google.calls('Signin')[0]?.variables).toMatchObject({
      credentials: { issuer: 'google', token: 'google-id-token' },
    });
    document.body.innerHTML = '';
    const apple = await renderRoute('/signin#id_token=apple-id-token&issuer=apple', { handlers: userAfterSignin() });
    await waitFor(() => expect(apple.calls('Signin')).toHaveLength(1));
    expect(apple.calls('Signin')[0]?.variables).toMatchObject({
      credentials: { issuer: 'apple', token: 'apple-id-token' },
    });
  });

  it("binds Google's ID token to this browser: the token's nonce is the hash of a value sent with it", async () => {
    let options: { nonce: string; callback: (response: { credential: string }) => void } | undefined;
    window.google = {
      accounts: {
        id: {
          initialize: (given) => {
            options = given;
          },
          renderButton: () => {},
        },
      },
    };
    try {
      const { calls } = await renderRoute('/signin', {
        handlers: {
          ...userAfterSignin(),
          AuthProviders: fixture(() => ({
            data: { authProviders: { google: true, googleClientId: 'g.example', apple: false, appleClientId: null } },
          })),
        },
      });
      const script = await waitFor(() => {
        const found = document.querySelector('script[src*="accounts.google.com"]');
        expect(found).toBeTruthy();
        return found as HTMLScriptElement;
      });
      script.dispatchEvent(new Event('load'));
      await waitFor(() => expect(options).toBeTruthy());
      options?.callback({ credential: 'google-id-token' });
      await waitFor(() => expect(calls('Signin')).toHaveLength(1));
      const credentials = calls('Signin')[0]?.variables.credentials as { nonce: string };
      expect(credentials).toMatchObject({ issuer: 'google', token: 'google-id-token' });
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(credentials.nonce));
      const hash = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
      expect(options?.nonce).toBe(hash);
      expect(credentials.nonce).toMatch(/^[0-9a-f]{48}$/);
    } finally {
      delete window.google;
    }
  });

  it('sends an id_token of the URL hash with the nonce value its start kept, spent once', async () => {
    sessionStorage.setItem(SIGNIN_NONCE_KEY, 'kept-nonce-value-0123456789');
    const { calls } = await renderRoute('/signin#id_token=google-id-token', { handlers: userAfterSignin() });
    await waitFor(() => expect(calls('Signin')).toHaveLength(1));
    expect(calls('Signin')[0]?.variables).toMatchObject({
      credentials: { issuer: 'google', token: 'google-id-token', nonce: 'kept-nonce-value-0123456789' },
    });
    expect(sessionStorage.getItem(SIGNIN_NONCE_KEY)).toBeNull();
  });

  it('the email field is keyboard reachable and submits with Enter', async () => {
    const { calls } = await renderRoute('/signin', { handlers: userAfterSignin() });
    fill('Email', 'jo@example.com');
    fill('Password', 'pw');
    fireEvent.submit(screen.getByLabelText('Password').closest('form') as HTMLFormElement);
    await waitFor(() => expect(calls('Signin')).toHaveLength(1));
  });
});
