import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CUSTOMER, connector, providersHandler } from '../../test/connectors.ts';
import { type FakeHandler, fixture, graphQLError } from '../../test/fake-server.ts';
import { fill, renderRoute, where } from '../../test/render-route.tsx';

const _LIVE_ACCOUNTS = JSON.stringify([
  { id: 'ACC-1', name: 'Main', dataTitle: 'Margin', dataType: 'margin', dataCurrency: 'USD', demo: false },
]);

function render(path: string, handlers: Record<string, FakeHandler> = {}) {
  return renderRoute(path, { user: CUSTOMER, handlers: { Providers: providersHandler, ...handlers } });
}

describe('Brokers & Webhooks: connect dialog (SPEC §2, §4, §5, §8)', () => {
  it('opens for the route provider with labelled, required, masked credential fields', async () => {
    const { calls } = await render('/me/connector/alpaca');
    const dialog = await screen.findByRole('dialog', { name: 'Connect Alpaca' });
    expect(within(dialog).getByText('Keys from the Alpaca dashboard.')).toBeTruthy();
    const field = (label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;
    expect(field('Api Key Id').type).toBe('text');
    expect(field('Api Secret').type).toBe('password');
    expect(field('Password').type).toBe('password');
    expect(field('Account Number').type).toBe('text');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(within(dialog).getAllByText('Required')).toHaveLength(4));
    expect(calls('ConnectorCreate')).toHaveLength(0);
  });

  it('says why an unavailable provider cannot be connected, with no form and no connect call', async () => {
    const { router, calls } = await render('/me/connector/lightspeed');
    const dialog = await screen.findByRole('dialog', { name: 'Lightspeed is unavailable' });
    expect(
      within(dialog).getByText('Lightspeed publishes no order API. Connect a broker with an order API instead.'),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: /connect|continue/i })).toBeNull();
    fireEvent.click(within(dialog).getByText('Close', { selector: 'button' }));
    await waitFor(() => expect(where(router)).toBe('/me/connector'));
    expect(calls('ConnectorCreate')).toHaveLength(0);
  });

  it("hands the focus to the broker's tile when a dialog opened from a link (a notice's mail) closes", async () => {
    const { router } = await render('/me/connector/alpaca');
    const dialog = await screen.findByRole('dialog', { name: 'Connect Alpaca' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(where(router)).toBe('/me/connector'));
    // Nothing on the page opened it: without this the focus fell to the page's start.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Connect Alpaca' })));
  });

  it('creates, then activates with the credentials in order, and goes back to the list', async () => {
    const activated = vi.fn();
    const { router, calls } = await render('/me/connector/alpaca', {
      ConnectorCreate: fixture(() => ({
        data: {
          connectorCreate: {
            type: 'credentials',
            credentials: ['apiKeyId', 'apiSecret', 'password', 'accountNumber'],
            referrerBase: null,
            requestUrl: null,
            redirectUrl: null,
            help: null,
            metadata: '{}',
          },
        },
      })),
      ConnectorActivate: fixture(({ variables }) => {
        activated(variables);
        return { data: { connectorActivate: { ...connector({ key: 'c-1', providerName: 'alpaca' }) } } };
      }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Connect Alpaca' });
    fill('Api Key Id', 'AK1');
    fill('Api Secret', 'S3');
    fill('Password', 'pw');
    fill('Account Number', '42');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(where(router)).toBe('/me/connector'));
    expect(activated).toHaveBeenCalledWith({ providerName: 'alpaca', credentials: ['AK1', 'S3', 'pw', '42'] });
    expect(calls('ConnectorCreate')).toHaveLength(1);
    await waitFor(() => expect(calls('Connectors').length).toBeGreaterThanOrEqual(2));
  });

  it("shows the first server error in a danger alert, else 'Error...'", async () => {
    let message = 'Alpaca: invalid API key';
    await render('/me/connector/paper', {
      ConnectorCreate: fixture(() => graphQLError(message)),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Connect Paper Trading' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe('Alpaca: invalid API key');
    expect(alert.className).toContain('alert-danger');
    // The Connect button and the fields were disabled by the call: the focus goes to the failure.
    await waitFor(() => expect(document.activeElement).toBe(alert));
    message = '';
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('Error...'));
  });

  it('opens the authorization popup for open providers, polls it, then reloads and leaves', async () => {
    const popup = { closed: false, location: { href: '' }, focus: vi.fn(), close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const { router, calls } = await render('/me/connector/schwab', {
      ConnectorCreate: fixture(() => ({
        data: {
          connectorCreate: {
            type: 'open',
            credentials: ['code'],
            referrerBase: null,
            requestUrl: 'https://schwab.example/v1/oauth/authorize?state=s1',
            redirectUrl: 'http://localhost/callback/schwab',
            help: null,
            metadata: '{}',
          },
        },
      })),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Connect Schwab' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue to Schwab' }));
    expect(open).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(popup.location.href).toBe('https://schwab.example/v1/oauth/authorize?state=s1'));
    expect(await within(dialog).findByText(/Finish signing in to Schwab/)).toBeTruthy();
    const before = calls('Connectors').length;
    popup.closed = true;
    await waitFor(() => expect(where(router)).toBe('/me/connector'));
    await waitFor(() => expect(calls('Connectors').length).toBeGreaterThan(before));
  });
});
