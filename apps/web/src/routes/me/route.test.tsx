import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeUser, fixture, type GraphQLPayload } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';

const CUSTOMER = 4;

describe('dashboard route (SPEC §2 Dashboard)', () => {
  it('shows the tiles, the chart and the log; no tour for a user with a broker', async () => {
    const { calls } = await renderRoute('/me', {
      user: fakeUser(CUSTOMER),
      handlers: {
        ActivityActions: fixture(() => ({
          data: { actions: [{ id: 1, code: 'Signin', address: null, metadata: '{}', createdAt: Date.now() }] },
        })),
      },
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Dashboard');
    expect(await screen.findByText('You signed in to the dashboard')).toBeTruthy();
    expect(await screen.findByText('No stats')).toBeTruthy();
    expect((await screen.findByTestId('tile-balance-value')).textContent).toBe('5');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(calls('TourConnectorActivations')).toHaveLength(0);
  });

  it('names the provider of an activity entry by its title, as every other screen does', async () => {
    const metadata = JSON.stringify({ providerName: 'paper', accountIds: ['PA-1'] });
    await renderRoute('/me', {
      user: fakeUser(CUSTOMER),
      handlers: {
        ActivityActions: fixture(() => ({
          data: { actions: [{ id: 1, code: 'ConnectorActivate', address: null, metadata, createdAt: Date.now() }] },
        })),
      },
    });
    expect(await screen.findByText('Paper trading account(s) #PA-1 connected')).toBeTruthy();
  });

  it("tells assistive technology that the small screens' menu button opens the menu, and whether it is open", async () => {
    await renderRoute('/me', { user: fakeUser(CUSTOMER) });
    const button = await screen.findByRole('button', { name: 'Open menu' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const menu = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(menu?.contains(screen.getByRole('navigation', { name: 'Main' }))).toBe(true);
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute('aria-expanded')).toBe('true'));
  });

  it('takes the focus to the new screen when a menu item is chosen, so it is read from its start', async () => {
    await renderRoute('/me', { user: fakeUser(CUSTOMER) });
    const menu = screen.getByRole('navigation', { name: 'Main' });
    const settings = within(menu).getByRole('link', { name: 'Settings' });
    settings.focus();
    fireEvent.click(settings);
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Settings'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
  });

  it('welcomes a user without connectors with the tour', async () => {
    await renderRoute('/me', {
      user: fakeUser(CUSTOMER),
      handlers: { DashboardConnectors: fixture(() => ({ data: { connectors: [] } })) },
    });
    expect(
      await screen.findByRole('alertdialog', { name: 'Welcome to Signal Router' }, { timeout: 5000 }),
    ).toBeTruthy();
    expect((await screen.findByTestId('tile-brokers-value')).textContent).toBe('0');
  });

  it('shows a connection deactivated meanwhile when the server tells of new activity', async () => {
    let active = true;
    let tell: (payload: GraphQLPayload) => void = () => {};
    const { calls } = await renderRoute('/me', {
      user: fakeUser(CUSTOMER),
      handlers: {
        DashboardConnectors: fixture(() => ({ data: { connectors: [{ key: 'c1', isActive: active }] } })),
        Live: fixture(
          () =>
            new Promise<GraphQLPayload>((resolve) => {
              tell = resolve;
            }),
        ),
      },
    });
    expect((await screen.findByTestId('tile-brokers-value')).textContent).toBe('1');
    expect(screen.getByTestId('tile-brokers').textContent).not.toContain('to reconnect');
    await waitFor(() => expect(calls('Live')).toHaveLength(1));
    // The broker refused the authorization: the server deactivated the connection and logged it.
    active = false;
    await act(async () => tell({ data: { live: { kind: 'activity', at: 1 } } }));
    expect(await screen.findByText('1 to reconnect on Brokers & Webhooks')).toBeTruthy();
    expect((await screen.findByTestId('tile-brokers-value')).textContent).toBe('1');
  });
});
