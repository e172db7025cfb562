import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UNREACHABLE_TEXT } from '../../lib/unreachable.ts';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { click, fill, renderRoute } from '../../test/render-route.tsx';

const URI = 'otpauth://totp/Signal%20Router:jo%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Signal%20Router';
const pending = () => ({
  data: { userPasscode: { secret: 'JBSWY3DPEHPK3PXP', uri: URI, isActive: false, recoveryCodesLeft: 0 } },
});
const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jk${String(i + 2).padStart(2, '2')}`);
const active = { secret: '', uri: '', isActive: true, recoveryCodes: [] as string[], recoveryCodesLeft: 10 };

describe('second-factor enrollment (SPEC §2, §4, §9)', () => {
  it('shows a QR code (level L, size 100) and the secret, with the way out links', async () => {
    await renderRoute('/me/settings/two-factor', {
      user: fakeUser(4),
      handlers: { UserPasscode: pending },
      state: { from: '/me/connector' },
    });
    const secret = await screen.findByTestId('passcode-secret');
    expect(secret.textContent).toBe('JBSWY3DPEHPK3PXP');
    const svg = document.querySelector('svg') as SVGElement;
    expect(svg.getAttribute('width')).toBe('100');
    expect(screen.getByRole('link', { name: 'No thank you' }).getAttribute('href')).toBe('/me/connector');
    expect(screen.getByRole('link', { name: 'Skip it' }).getAttribute('href')).toBe('/me/connector');
  });

  it('activates after a valid code', async () => {
    const { calls } = await renderRoute('/me/settings/two-factor', {
      user: fakeUser(4),
      handlers: {
        UserPasscode: pending,
        UserPasscodeUpdate: fixture(() => ({ data: { userPasscodeUpdate: { ...active, recoveryCodes: CODES } } })),
      },
    });
    await screen.findByTestId('passcode-secret');
    fill('Verification code', '123456');
    click('Activate');
    expect(await screen.findByText(/Two-factor authentication is on/)).toBeTruthy();
    // The ten recovery codes, shown this once.
    const list = screen.getByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeTruthy();
    expect(calls('UserPasscodeUpdate')[0]?.variables).toEqual({ secret: 'JBSWY3DPEHPK3PXP', passcode: '123456' });
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/me');
  });

  it('keeps the recovery codes (shown only once) when the setup asked again after activation fails to load', async () => {
    let down = false;
    const { calls } = await renderRoute('/me/settings/two-factor', {
      user: fakeUser(4),
      handlers: {
        // With their __typename, as the server answers them: the mutation's invalidates the query's.
        UserPasscode: fixture(() =>
          down
            ? graphQLError('Service unavailable', 'INTERNAL_SERVER_ERROR')
            : { data: { userPasscode: { ...pending().data.userPasscode, __typename: 'Passcode' } } },
        ),
        UserPasscodeUpdate: fixture(() => {
          down = true;
          return { data: { userPasscodeUpdate: { ...active, recoveryCodes: CODES, __typename: 'Passcode' } } };
        }),
      },
    });
    await screen.findByTestId('passcode-secret');
    fill('Verification code', '123456');
    click('Activate');
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    // The setup is asked again (the mutation answered a UserPasscode), and that fails for a moment.
    await waitFor(() => expect(calls('UserPasscode').length).toBeGreaterThan(1));
    await act(async () => {});
    await act(async () => {});
    expect(screen.getByRole('list', { name: 'Recovery codes' })).toBeTruthy();
    expect(screen.queryByText(/Cannot load your two-factor setup/)).toBeNull();
  });

  it("says 'The verification code is not valid' for a wrong code", async () => {
    await renderRoute('/me/settings/two-factor', {
      user: fakeUser(4),
      handlers: {
        UserPasscode: pending,
        UserPasscodeUpdate: fixture(() => graphQLError('The verification code is not valid')),
      },
    });
    await screen.findByTestId('passcode-secret');
    fill('Verification code', '000000');
    click('Activate');
    expect(await screen.findByText('The verification code is not valid')).toBeTruthy();
  });
});

describe('second-factor enrollment without the server', () => {
  it('says the server could not be reached, not that a good code is wrong', async () => {
    await renderRoute('/me/settings/two-factor', {
      user: fakeUser(4),
      handlers: {
        UserPasscode: pending,
        UserPasscodeUpdate: fixture(() => {
          throw new TypeError('Failed to fetch');
        }),
      },
    });
    await screen.findByTestId('passcode-secret');
    fill('Verification code', '123456');
    click('Activate');
    expect(await screen.findByText(UNREACHABLE_TEXT)).toBeTruthy();
    expect(screen.queryByText('The verification code is not valid')).toBeNull();
  });
});

describe('settings: two-factor panel', () => {
  it('links to the enrollment when off', async () => {
    await renderRoute('/me/settings', { user: fakeUser(4), handlers: { UserPasscode: pending } });
    const link = await screen.findByRole('link', { name: 'Set up two-factor authentication' });
    expect(link.getAttribute('href')).toBe('/me/settings/two-factor');
  });

  it('turns it off with a valid code', async () => {
    let isActive = true;
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(4),
      handlers: {
        UserPasscode: fixture(() => ({ data: { userPasscode: { ...active, isActive } } })),
        UserPasscodeUpdate: fixture(() => {
          isActive = false;
          return { data: { userPasscodeUpdate: { ...active, isActive: false } } };
        }),
      },
    });
    expect(await screen.findByText('10 recovery codes left.')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    fill('Authenticator or recovery code', '12');
    click('Turn off');
    expect(await screen.findByText('Enter the 6-digit code of your authenticator app or a recovery code')).toBeTruthy();
    fill('Authenticator or recovery code', '654321');
    click('Turn off');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Set up two-factor authentication' })).toBeTruthy());
    expect(calls('UserPasscodeUpdate')[0]?.variables).toEqual({ secret: '', passcode: '654321' });
  });

  it('cancels turning it off on Escape, from the focused code field', async () => {
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(4),
      handlers: { UserPasscode: fixture(() => ({ data: { userPasscode: active } })) },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    const field = screen.getByLabelText('Authenticator or recovery code');
    expect(document.activeElement).toBe(field);
    fireEvent.change(field, { target: { value: '654321' } });
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.queryByLabelText('Authenticator or recovery code')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Turn off' }));
    expect(calls('UserPasscodeUpdate')).toHaveLength(0);
  });

  it('gets ten new recovery codes with an authenticator or a recovery code, shown once', async () => {
    let left = 2;
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(4),
      handlers: {
        UserPasscode: fixture(() => ({ data: { userPasscode: { ...active, recoveryCodesLeft: left } } })),
        UserRecoveryCodesCreate: fixture(({ variables }) => {
          if (variables.passcode !== 'wxyz-wxyz-wxyz') return graphQLError('The recovery code is not valid');
          left = 10;
          return { data: { userRecoveryCodesCreate: CODES } };
        }),
      },
    });
    expect((await screen.findByText('2 recovery codes left.')).className).toContain('text-danger');
    click('Get new recovery codes');
    fill('Authenticator or recovery code', 'aaaa-aaaa-aaaa');
    click('Get new codes');
    expect(await screen.findByText('The recovery code is not valid')).toBeTruthy();
    fill('Authenticator or recovery code', 'wxyz-wxyz-wxyz');
    click('Get new codes');
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(await screen.findByText('10 recovery codes left.')).toBeTruthy();
    expect(calls('UserRecoveryCodesCreate').at(-1)?.variables).toEqual({ passcode: 'wxyz-wxyz-wxyz' });
  });

  it('keeps the new recovery codes (shown only once) when the status cannot be reloaded after', async () => {
    let down = false;
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(4),
      handlers: {
        UserPasscode: fixture(() =>
          down
            ? graphQLError('Service unavailable', 'INTERNAL_SERVER_ERROR')
            : { data: { userPasscode: { ...active, recoveryCodesLeft: 2 } } },
        ),
        UserRecoveryCodesCreate: fixture(() => {
          down = true;
          return { data: { userRecoveryCodesCreate: CODES } };
        }),
      },
    });
    await screen.findByText('2 recovery codes left.');
    click('Get new recovery codes');
    fill('Authenticator or recovery code', '123456');
    click('Get new codes');
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    // The reload that follows fails: the codes stay on screen, and the status as last read.
    await waitFor(() => expect(calls('UserPasscode').length).toBeGreaterThan(1));
    await act(async () => {});
    await act(async () => {});
    expect(screen.getByRole('list', { name: 'Recovery codes' })).toBeTruthy();
    expect(screen.getByText('2 recovery codes left.')).toBeTruthy();
  });
});
