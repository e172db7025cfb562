import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { click, fill, renderRoute } from '../../test/render-route.tsx';

const URI = 'otpauth://totp/Signal%20Router:jo%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Signal%20Router';
const pending = () => ({ data: { userPasscode: { secret: 'JBSWY3DPEHPK3PXP', uri: URI, isActive: false } } });
const active = { secret: '', uri: '', isActive: true };

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
        UserPasscodeUpdate: fixture(() => ({ data: { userPasscodeUpdate: active } })),
      },
    });
    await screen.findByTestId('passcode-secret');
    fill('Verification code', '123456');
    click('Activate');
    expect(await screen.findByText(/Two-factor authentication is on/)).toBeTruthy();
    expect(calls('UserPasscodeUpdate')[0]?.variables).toEqual({ secret: 'JBSWY3DPEHPK3PXP', passcode: '123456' });
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/me');
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
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    fill('Verification code', '654321');
    click('Turn off');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Set up two-factor authentication' })).toBeTruthy());
    expect(calls('UserPasscodeUpdate')[0]?.variables).toEqual({ secret: '', passcode: '654321' });
  });
});
