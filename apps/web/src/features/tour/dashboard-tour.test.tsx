import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../test/fake-server.ts';
import { renderWithClient } from '../../test/render-with-client.tsx';
import { DashboardTour } from './dashboard-tour.tsx';
import { CONNECTOR_STEP, tourStartStep } from './tour-start.ts';
import { isTourDismissed } from './tour-storage.ts';

const activations = (count: number) => ({
  TourConnectorActivations: fixture(() => ({ data: { actions: Array.from({ length: count }, (_, id) => ({ id })) } })),
});

const dialog = (name: string) => screen.findByRole('alertdialog', { name });

describe('welcome tour (SPEC §2 Dashboard)', () => {
  it('starts only without connectors: at the welcome, or at the connector step after an activation', () => {
    expect(tourStartStep({ dismissed: false, connectorCount: 0, hasActivation: false })).toBe(0);
    expect(tourStartStep({ dismissed: false, connectorCount: 0, hasActivation: true })).toBe(CONNECTOR_STEP);
    expect(tourStartStep({ dismissed: false, connectorCount: 1, hasActivation: false })).toBeNull();
    expect(tourStartStep({ dismissed: false, connectorCount: null, hasActivation: false })).toBeNull();
    expect(tourStartStep({ dismissed: false, connectorCount: 0, hasActivation: null })).toBeNull();
    expect(tourStartStep({ dismissed: true, connectorCount: 0, hasActivation: false })).toBeNull();
  });

  it('welcomes a user without connectors, steps through the menu with Continue, and can be skipped', async () => {
    const { calls } = renderWithClient(<DashboardTour userKey="u1" connectorCount={0} />, activations(0));
    expect(await dialog('Welcome to Signal Router')).toBeTruthy();
    expect(calls('TourConnectorActivations')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await dialog('Dashboard')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Skip tour' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(isTourDismissed('u1')).toBe(true);
  });

  it('ends (and remembers) on Escape', async () => {
    renderWithClient(<DashboardTour userKey="u5" connectorCount={0} />, activations(0));
    await dialog('Welcome to Signal Router');
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(isTourDismissed('u5')).toBe(true);
  });

  it("gives the focus to the page's content when it ends, not to the page's start", async () => {
    renderWithClient(
      <main tabIndex={-1}>
        <DashboardTour userKey="u6" connectorCount={0} />
      </main>,
      activations(0),
    );
    await dialog('Welcome to Signal Router');
    screen.getByRole('button', { name: 'Continue' }).focus();
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('main')));
  });

  it('starts at the connector modal, linking to /me/connector, after a prior activation', async () => {
    renderWithClient(<DashboardTour userKey="u2" connectorCount={0} />, activations(1));
    expect(await dialog('Connect your first broker')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Connect a broker' }).getAttribute('href')).toBe('/me/connector');
  });

  it('does not start, nor ask, for a user with connectors or who dismissed it', async () => {
    const withBroker = renderWithClient(<DashboardTour userKey="u3" connectorCount={2} />, activations(0));
    localStorage.setItem('tourDismissed:u4', '2024-01-31T00:00:00.000Z');
    const dismissed = renderWithClient(<DashboardTour userKey="u4" connectorCount={0} />, activations(0));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(withBroker.calls('TourConnectorActivations')).toHaveLength(0);
    expect(dismissed.calls('TourConnectorActivations')).toHaveLength(0);
  });
});
