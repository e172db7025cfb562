import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../lib/storage.ts';
import type { FakeRequest } from '../../test/fake-server.ts';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { click, fill, renderRoute, where } from '../../test/render-route.tsx';

const STRONG = 'Tr4il-Mix-Quasar!';
const estimate = ({ variables }: FakeRequest) => ({
  data: { authPasswordEstimate: String(variables.password) === STRONG ? 14 : 3 },
});

describe('password reset (SPEC §2, §5, §8)', () => {
  it("shows the passcode hint 'Leave blank, if not set' and checks the pair", async () => {
    const { calls } = await renderRoute('/auth/password?token=reset-1', {
      handlers: { AuthPasswordEstimate: estimate },
    });
    expect(screen.getByText('Leave blank, if not set')).toBeTruthy();
    fill('Password', STRONG);
    fill('Password confirmation', 'nope');
    click('Set new password');
    expect(await screen.findByText("Password confirmation doesn't match password.")).toBeTruthy();
    fill('Password', 'weakling');
    fill('Password confirmation', 'weakling');
    click('Set new password');
    expect(await screen.findByText('Password too weak.')).toBeTruthy();
    expect(calls('AuthPasswordReset')).toHaveLength(0);
  });

  it('sets the password (with the optional code) and goes to /signin', async () => {
    const { router, calls } = await renderRoute('/auth/password?token=reset-1', {
      handlers: {
        AuthPasswordEstimate: estimate,
        AuthPasswordReset: fixture(() => ({ data: { authPasswordReset: true } })),
      },
    });
    fill('Password', STRONG);
    fill('Password confirmation', STRONG);
    fill(/Two-factor code/, '123456');
    click('Set new password');
    await waitFor(() => expect(where(router)).toBe('/signin'));
    expect(calls('AuthPasswordReset')[0]?.variables).toEqual({
      token: 'reset-1',
      password: STRONG,
      password2: STRONG,
      passcode: '123456',
    });
    expect(await screen.findByText('Your password has been changed, please sign in.')).toBeTruthy();
  });

  it('switches to a recovery code as the sign-in does, sends it as the passcode, and back', async () => {
    const { router, calls } = await renderRoute('/auth/password?token=reset-2', {
      handlers: {
        AuthPasswordEstimate: estimate,
        AuthPasswordReset: fixture(() => ({ data: { authPasswordReset: true } })),
      },
    });
    fill('Password', STRONG);
    fill('Password confirmation', STRONG);
    fill(/Two-factor code/, '12');
    click('Lost your phone? Use a recovery code');
    const field = screen.getByLabelText(/Recovery code/) as HTMLInputElement;
    expect(field.value).toBe('');
    expect(screen.queryByLabelText(/Two-factor code/)).toBeNull();
    fill(/Recovery code/, 'abc');
    click('Set new password');
    expect(await screen.findByText('The recovery code is not valid')).toBeTruthy();
    expect(calls('AuthPasswordReset')).toHaveLength(0);

    click('Use your authenticator app');
    expect((screen.getByLabelText(/Two-factor code/) as HTMLInputElement).value).toBe('');
    click('Lost your phone? Use a recovery code');
    fill(/Recovery code/, 'ABCD-efgh-jkmn');
    click('Set new password');
    await waitFor(() => expect(where(router)).toBe('/signin'));
    expect(calls('AuthPasswordReset')[0]?.variables).toEqual({
      token: 'reset-2',
      password: STRONG,
      password2: STRONG,
      passcode: 'ABCD-efgh-jkmn',
    });
  });

  it('a browser signed in as that user, whose session the reset ended, is signed out and sees the notice', async () => {
    let reset = false;
    const { router } = await renderRoute('/auth/password?token=reset-3', {
      user: fakeUser(4),
      handlers: {
        AuthPasswordEstimate: estimate,
        AuthPasswordReset: fixture(() => {
          reset = true;
          return { data: { authPasswordReset: true } };
        }),
        User: fixture(() =>
          reset ? graphQLError('Please sign in', 'UNAUTHENTICATED') : { data: { user: fakeUser(4) } },
        ),
      },
    });
    fill('Password', STRONG);
    fill('Password confirmation', STRONG);
    click('Set new password');
    expect(await screen.findByText('Your password has been changed, please sign in.')).toBeTruthy();
    expect(where(router)).toBe('/signin');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it("says 'We can't process the request with these credentials' on failure", async () => {
    await renderRoute('/auth/password?token=old', {
      handlers: {
        AuthPasswordEstimate: estimate,
        AuthPasswordReset: fixture(() => ({ data: null, errors: [{ message: 'Error' }] })),
      },
    });
    fill('Password', STRONG);
    fill('Password confirmation', STRONG);
    click('Set new password');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe("We can't process the request with these credentials");
    // Set new password was disabled by the call: the failure takes the focus.
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  it('explains a server refusal after the SPEC text', async () => {
    await renderRoute('/auth/password?token=old', {
      handlers: {
        AuthPasswordEstimate: estimate,
        AuthPasswordReset: fixture(() => graphQLError('This password reset link is expired or was already used')),
      },
    });
    fill('Password', STRONG);
    fill('Password confirmation', STRONG);
    click('Set new password');
    expect((await screen.findByRole('alert')).textContent).toBe(
      "We can't process the request with these credentials: This password reset link is expired or was already used",
    );
  });
});
