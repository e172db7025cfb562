import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ProvidersProvider, useProviders } from './lib/providers.tsx';
import { createAppSession, SessionProvider } from './lib/session.tsx';
import { PROXIED_USER_KEY, TOKEN_KEY } from './lib/storage.ts';
import { routes } from './router.tsx';
import { fakeGraphQL, fakeUser } from './test/fake-server.ts';

const ADMIN = 1;
const CUSTOMER = 4;
const PROFESSIONAL = 16;

async function renderAt(path: string, group: number | null) {
  if (group !== null) localStorage.setItem(TOKEN_KEY, 'token-1');
  const server = fakeGraphQL({ user: group === null ? null : fakeUser(group) });
  const session = createAppSession({ fetch: server.fetch });
  await session.start({ href: `http://localhost${path}` });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <SessionProvider store={session}>
      <ProvidersProvider>
        <ProvidersLoaded>
          <RouterProvider router={router} />
        </ProvidersLoaded>
      </ProvidersProvider>
    </SessionProvider>,
  );
  return { router, session };
}

/** As the app does (SPEC §2): routes render once the provider list has loaded. */
function ProvidersLoaded({ children }: { children: ReactNode }) {
  return useProviders().isLoaded ? children : null;
}

const heading = () => screen.findByRole('heading', { level: 1 });

// SPEC §2 route table: every path renders a named screen for a user allowed there.
const SCREENS: Array<[path: string, title: string]> = [
  ['/signin/multifactor/recall', 'Signed in with a recovery code'],
  ['/signup/checkout?stripe_price_id=price_1', 'Payment'],
  ['/auth/email', 'Email confirmation'],
  ['/auth/password', 'Reset password'],
  ['/auth/password/request', 'Forgot your password?'],
  ['/terms-of-service', 'Terms of service'],
  ['/faq', 'General FAQs'],
  ['/privacy', 'Privacy policy'],
  ['/me', 'Dashboard'],
  ['/me/report', 'Reporting?'],
  ['/me/connector', 'Brokers & Webhooks'],
  ['/me/connector/alpaca', 'Brokers & Webhooks'],
  ['/me/account', 'Account & Billing'],
  ['/me/account/upgrade', 'Professional status'],
  ['/me/account/upgrade/checkout', 'Professional status payment'],
  ['/me/account/upgrade/success', 'Professional status'],
  ['/me/settings', 'Settings'],
  ['/me/settings/two-factor', 'Two-factor authentication'],
  ['/me/admin', 'Admin'],
  ['/me/documentation', 'Documentation'],
  ['/me/documentation/paper', 'Documentation'],
];

/** Screens with their content (the rest are honest placeholders until their release). */
const BUILT = new Set([
  '/me',
  '/me/account',
  '/terms-of-service',
  '/faq',
  '/privacy',
  '/me/report',
  '/signin/multifactor/recall',
  '/auth/email',
  '/auth/password',
  '/auth/password/request',
  '/me/settings',
  '/me/settings/two-factor',
  '/me/documentation',
  '/me/documentation/paper',
  '/me/connector',
  '/me/connector/alpaca',
  '/signup/checkout?stripe_price_id=price_1',
  '/me/account/upgrade',
  '/me/account/upgrade/checkout',
  '/me/account/upgrade/success',
  '/me/admin',
]);

const GUEST_SCREENS: Array<[path: string, title: string]> = [
  ['/signin', 'Sign in'],
  ['/signup', 'Create an account'],
  ['/signup/friend42', 'Create an account'],
  ['/signup/success', 'Registration complete'],
];

describe('routes (SPEC §2)', () => {
  it.each(SCREENS)('%s renders %s for an admin customer', async (path, title) => {
    const { router } = await renderAt(path, ADMIN | CUSTOMER);
    expect(await heading()).toHaveProperty('textContent', title);
    expect(router.state.location.pathname).toBe(path.split('?')[0]);
    if (!BUILT.has(path)) expect(screen.getByText(/coming in a later release/)).toBeTruthy();
  });

  it.each(GUEST_SCREENS)('%s renders %s when signed out', async (path, title) => {
    await renderAt(path, null);
    expect(await heading()).toHaveProperty('textContent', title);
  });

  it("the report screen reads 'Reporting?' and 'In progress...'", async () => {
    await renderAt('/me/report', CUSTOMER);
    expect((await heading()).textContent).toBe('Reporting?');
    expect(screen.getByText('In progress...')).toBeTruthy();
  });

  it('shows the landing page at / when signed out (issue #21), linking to sign-up, sign-in and the FAQ', async () => {
    const { router } = await renderAt('/', null);
    expect((await heading()).textContent).toBe('Your TradingView alerts, placed as orders at your broker');
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/signin');
    expect(screen.getByRole('link', { name: 'Read the FAQ' }).getAttribute('href')).toBe('/faq');
  });

  it.each(['/signin/oauth', '/signin/partner'])('%s with an empty query goes to / (SPEC §2 consent)', async (path) => {
    const { router } = await renderAt(path, CUSTOMER);
    expect((await heading()).textContent).toBe('Dashboard');
    expect(router.state.location.pathname).toBe('/me');
  });

  it('index redirects a signed-in user to the dashboard', async () => {
    const { router } = await renderAt('/', CUSTOMER);
    expect((await heading()).textContent).toBe('Dashboard');
    expect(router.state.location.pathname).toBe('/me');
  });

  it('sends a signed-out user to /signin keeping from', async () => {
    const { router } = await renderAt('/me/settings?tab=2', null);
    expect((await heading()).textContent).toBe('Sign in');
    expect(router.state.location.pathname).toBe('/signin');
    expect(router.state.location.state).toEqual({ from: { pathname: '/me/settings', search: '?tab=2', hash: '' } });
  });

  it('sends a signed-in user away from sign-in, sign-up and success', async () => {
    for (const path of ['/signin', '/signup', '/signup/success']) {
      const { router } = await renderAt(path, CUSTOMER);
      expect((await heading()).textContent).toBe('Dashboard');
      expect(router.state.location.pathname).toBe('/me');
      router.dispose();
      document.body.innerHTML = '';
    }
  });

  it('redirects unknown paths to /me (and so to sign-in when signed out)', async () => {
    const signedIn = await renderAt('/me/nowhere/deep', CUSTOMER);
    expect((await heading()).textContent).toBe('Dashboard');
    expect(signedIn.router.state.location.pathname).toBe('/me');
  });

  it('redirects unknown top-level paths to /me, then /signin when signed out', async () => {
    const { router } = await renderAt('/nowhere', null);
    expect((await heading()).textContent).toBe('Sign in');
    expect(router.state.location.pathname).toBe('/signin');
  });

  it('keeps customers out of admin and professionals out of the upgrade page', async () => {
    const customer = await renderAt('/me/admin', CUSTOMER);
    expect((await heading()).textContent).toBe('Dashboard');
    expect(customer.router.state.location.pathname).toBe('/me');
  });

  it('sends a professional away from the upgrade page', async () => {
    const { router } = await renderAt('/me/account/upgrade', CUSTOMER | PROFESSIONAL);
    expect((await heading()).textContent).toBe('Dashboard');
    expect(router.state.location.pathname).toBe('/me');
  });

  it('follows the mask literally: an admin without the customer bit reaches admin only', async () => {
    const { router } = await renderAt('/me/admin', ADMIN);
    expect((await heading()).textContent).toBe('Admin');
    await router.navigate('/me/settings');
    expect((await screen.findByRole('heading', { level: 1, name: 'No access' })).textContent).toBe('No access');
    expect(router.state.location.pathname).toBe('/me');
  });

  it('leaves the callback screen for /me/connector without a known provider (SPEC §2)', async () => {
    const { router } = await renderAt('/callback', ADMIN | CUSTOMER);
    expect((await heading()).textContent).toBe('Brokers & Webhooks');
    expect(router.state.location.pathname).toBe('/me/connector');
  });

  it('shows the callback screen to customers only', async () => {
    const { router } = await renderAt('/callback/alpaca?code=1', ADMIN);
    await screen.findByRole('heading', { level: 1 });
    expect(router.state.location.pathname).not.toBe('/callback/alpaca');
  });
});

describe('shell (SPEC §2 Navigation)', () => {
  it('shows the menu, with Admin for administrators only', async () => {
    await renderAt('/me', CUSTOMER);
    await heading();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const labels = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(labels).toEqual(['Dashboard', 'Brokers & Webhooks', 'Account & Billing', 'Documentation', 'Settings']);
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeTruthy();
  });

  it('shows Admin to an administrator', async () => {
    await renderAt('/me', ADMIN | CUSTOMER);
    await heading();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/me/admin');
  });

  it('shows the footer links and copyright', async () => {
    await renderAt('/me', CUSTOMER);
    await heading();
    const footer = screen.getByRole('navigation', { name: 'Footer' });
    expect(
      within(footer)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['General FAQs', 'Contact Support', 'Terms of service', 'Privacy policy']);
    const href = (name: string) => within(footer).getByRole('link', { name }).getAttribute('href');
    expect(href('Terms of service')).toBe('/terms-of-service');
    expect(href('General FAQs')).toBe('/faq');
    expect(href('Privacy policy')).toBe('/privacy');
    // No SUPPORT_EMAIL on this server: the FAQ's support answer.
    expect(href('Contact Support')).toBe('/faq#support');
    expect(screen.getByText(/© 2023-25/)).toBeTruthy();
  });

  it("shows 'Switched to {localpart}@' while proxied", async () => {
    sessionStorage.setItem(PROXIED_USER_KEY, 'jane.doe@example.com');
    await renderAt('/me', ADMIN | CUSTOMER);
    await heading();
    expect(screen.getByText('Switched to jane.doe@')).toBeTruthy();
  });

  it('Logout clears local authentication and goes to /', async () => {
    const { router, session } = await renderAt('/me/settings', CUSTOMER);
    await heading();
    screen.getByRole('button', { name: 'Logout' }).click();
    await screen.findByRole('heading', { level: 1, name: 'Your TradingView alerts, placed as orders at your broker' });
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(session.getState().isAuthenticated).toBe(false);
    expect(router.state.location.pathname).toBe('/');
  });
});
