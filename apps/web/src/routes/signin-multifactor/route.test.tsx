import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { IDENTITY_TOKEN_KEY, TOKEN_KEY } from '../../lib/storage.ts';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { click, fill, renderRoute, where } from '../../test/render-route.tsx';

const customer = fakeUser(4);

function afterCode() {
  let done = false;
  return {
    Signin: fixture(() => {
      done = true;
      return { data: { signin: { token: 'session-2', issuer: 'user', email: null } } };
    }),
    User: fixture(() => (done ? { data: { user: customer } } : graphQLError('Sign in first', 'UNAUTHENTICATED'))),
  };
}

describe('second-factor screen (SPEC §2, §5, §8)', () => {
  it('returns to /signin keeping the query string without a session token', async () => {
    const { router } = await renderRoute('/signin/multifactor?redirect=%2Fme%2Faccount');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sign in');
    expect(where(router)).toBe('/signin?redirect=%2Fme%2Faccount');
  });

  it("asks for the code ('Required') and exactly 6 characters", async () => {
    sessionStorage.setItem(IDENTITY_TOKEN_KEY, 'identity-1');
    const { calls } = await renderRoute('/signin/multifactor');
    click('Verify');
    expect(await screen.findByText('Required')).toBeTruthy();
    fill('Verification code', '123');
    click('Verify');
    expect(await screen.findByText('The code has 6 characters')).toBeTruthy();
    expect(calls('Signin')).toHaveLength(0);
  });

  it('trims pasted text', async () => {
    sessionStorage.setItem(IDENTITY_TOKEN_KEY, 'identity-1');
    await renderRoute('/signin/multifactor');
    const input = screen.getByLabelText('Verification code') as HTMLInputElement;
    fireEvent.paste(input, { clipboardData: { getData: () => ' 123 456\n' } });
    expect(input.value).toBe('123456');
  });

  it("shows 'The verification code is not valid' for a wrong code, sent with the identity token", async () => {
    sessionStorage.setItem(IDENTITY_TOKEN_KEY, 'identity-1');
    const { calls } = await renderRoute('/signin/multifactor', {
      handlers: { Signin: fixture(() => graphQLError('The verification code is not valid')) },
    });
    fill('Verification code', '000000');
    click('Verify');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The verification code is not valid');
    // Verify was disabled by the call: the failure takes the focus.
    await waitFor(() => expect(document.activeElement).toBe(alert));
    const [request] = calls('Signin');
    expect(request?.variables).toEqual({ type: 'passcode', credentials: { passcode: '000000' } });
    expect(request?.headers.authorization).toBe('Bearer identity-1');
  });

  it('an expired sign-in offers to sign in again', async () => {
    sessionStorage.setItem(IDENTITY_TOKEN_KEY, 'identity-1');
    await renderRoute('/signin/multifactor', {
      handlers: {
        Signin: fixture(() => graphQLError('Your sign-in has expired, please sign in again', 'UNAUTHENTICATED')),
      },
    });
    fill('Verification code', '123456');
    click('Verify');
    expect((await screen.findByRole('alert')).textContent).toContain('Your sign-in has expired');
    expect(screen.getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe('/signin');
    expect(sessionStorage.getItem(IDENTITY_TOKEN_KEY)).toBeNull();
  });

  it('a valid code authenticates and routes like a sign-in (redirect parameter)', async () => {
    sessionStorage.setItem(IDENTITY_TOKEN_KEY, 'identity-1');
    const { router } = await renderRoute('/signin/multifactor?redirect=%2Fme%2Faccount', { handlers: afterCode() });
    fill('Verification code', '123456');
    click('Verify');
    await waitFor(() => expect(where(router)).toBe('/me/account'));
    expect(localStorage.getItem(TOKEN_KEY)).toBe('session-2');
    expect(sessionStorage.getItem(IDENTITY_TOKEN_KEY)).toBeNull();
  });

  it('takes a recovery code instead, and a recovery sign-in (its result has the email) leads to the recall screen', async () => {
    sessionStorage.setItem(IDENTITY_TOKEN_KEY, 'identity-1');
    let done = false;
    const { router, calls } = await renderRoute('/signin/multifactor', {
      state: { from: { pathname: '/me/connector', search: '', hash: '' } },
      handlers: {
        Signin: fixture(({ variables }) => {
          if ((variables.credentials as { code?: string }).code !== 'abcd-efgh-jkmn') {
            return graphQLError('The recovery code is not valid');
          }
          done = true;
          return { data: { signin: { token: 'session-3', issuer: 'user', email: customer.email } } };
        }),
        User: fixture(() => (done ? { data: { user: customer } } : graphQLError('Sign in first', 'UNAUTHENTICATED'))),
        UserPasscode: fixture(() => ({
          data: { userPasscode: { secret: '', uri: '', isActive: true, recoveryCodesLeft: 2 } },
        })),
      },
    });
    click('Lost your phone? Use a recovery code');
    fill('Recovery code', 'abc');
    click('Verify');
    expect(await screen.findByText('The recovery code is not valid')).toBeTruthy();
    expect(calls('Signin')).toHaveLength(0);
    fill('Recovery code', 'zzzz-zzzz-zzzz');
    click('Verify');
    expect((await screen.findByRole('alert')).textContent).toContain('The recovery code is not valid');
    expect(calls('Signin')[0]?.variables).toEqual({ type: 'recovery', credentials: { code: 'zzzz-zzzz-zzzz' } });
    expect(calls('Signin')[0]?.headers.authorization).toBe('Bearer identity-1');

    fill('Recovery code', 'abcd-efgh-jkmn');
    click('Verify');
    await waitFor(() => expect(where(router)).toBe('/signin/multifactor/recall?from=%2Fme%2Fconnector'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Signed in with a recovery code' })).toBeTruthy();
    expect(await screen.findByText('2 recovery codes are left.')).toBeTruthy();
    expect(screen.getByText(customer.email)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Two-factor settings' }).getAttribute('href')).toBe(
      '/me/settings#two-factor',
    );
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/me/connector');
    expect(localStorage.getItem(TOKEN_KEY)).toBe('session-3');
  });
});
