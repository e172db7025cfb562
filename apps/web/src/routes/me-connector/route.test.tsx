import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CUSTOMER, connector, DAY, hook, providersHandler } from '../../test/connectors.ts';
import { type FakeHandler, fixture, type GraphQLPayload } from '../../test/fake-server.ts';
import { click, fill, renderRoute, where } from '../../test/render-route.tsx';

const LIVE_ACCOUNTS = JSON.stringify([
  { id: 'ACC-1', name: 'Main', dataTitle: 'Margin', dataType: 'margin', dataCurrency: 'USD', demo: false },
]);

function render(path: string, handlers: Record<string, FakeHandler> = {}) {
  return renderRoute(path, { user: CUSTOMER, handlers: { Providers: providersHandler, ...handlers } });
}

describe('Brokers & Webhooks: provider grid (SPEC §2)', () => {
  it('lists providers with beta and unavailable badges and notice, searching titles after 555 ms', async () => {
    await render('/me/connector');
    const grid = await screen.findByRole('list', { name: 'Brokers' });
    const tiles = () =>
      within(grid)
        .getAllByRole('link')
        .map((link) => link.getAttribute('aria-label'));
    expect(tiles()).toEqual([
      'Connect Alpaca',
      'Connect BitMEX',
      'Connect E*TRADE',
      'Connect Paper Trading',
      'Connect Schwab (beta)',
      'Lightspeed (unavailable)',
    ]);
    expect(within(grid).getByText('Unavailable')).toBeTruthy();
    expect(within(grid).getByText('BitMEX closed its exchange; live orders are refused there.')).toBeTruthy();
    expect(await screen.findByText('No brokers connected yet')).toBeTruthy();

    fill('Search brokers', 'PAPER');
    expect(tiles()).toHaveLength(6);
    await waitFor(() => expect(tiles()).toEqual(['Connect Paper Trading']));
    fill('Search brokers', 'zzz');
    expect(await screen.findByText('No broker matches “zzz”.')).toBeTruthy();
  });

  it('Connect broker focuses the search', async () => {
    Element.prototype.scrollIntoView = vi.fn();
    await render('/me/connector');
    click('Connect broker');
    expect(document.activeElement).toBe(screen.getByLabelText('Search brokers'));
  });
});

describe('Brokers & Webhooks: connectors (SPEC §2)', () => {
  it('shows a connection the server deactivated meanwhile when it tells of new activity', async () => {
    let active = true;
    let tell: (payload: GraphQLPayload) => void = () => {};
    const { calls } = await render('/me/connector', {
      Connectors: fixture(() => ({
        data: {
          connectors: [
            connector({ key: 'd', providerName: 'alpaca', accounts: LIVE_ACCOUNTS, isDemo: false, isActive: active }),
          ],
        },
      })),
      Live: fixture(
        () =>
          new Promise<GraphQLPayload>((resolve) => {
            tell = resolve;
          }),
      ),
    });
    const card = await screen.findByRole('article', { name: 'Alpaca' });
    expect(within(card).getByText('active')).toBeTruthy();
    await waitFor(() => expect(calls('Live')).toHaveLength(1));
    active = false;
    await act(async () => tell({ data: { live: { kind: 'activity', at: 1 } } }));
    expect(
      await within(card).findByText(
        'The connection is deactivated due to connection or authorization issues. Try manually to Reconnect',
      ),
    ).toBeTruthy();
  });

  it('shows expired, about to expire (6 days; 3 for schwab) and deactivated states with Reconnect', async () => {
    const now = Date.now();
    const { router } = await render('/me/connector', {
      Connectors: fixture(() => ({
        data: {
          connectors: [
            connector({
              key: 'a',
              providerName: 'alpaca',
              accounts: LIVE_ACCOUNTS,
              isDemo: false,
              expiresAt: now + 5 * DAY,
            }),
            connector({
              key: 'b',
              providerName: 'schwab',
              accounts: LIVE_ACCOUNTS,
              isDemo: false,
              expiresAt: now + 5 * DAY,
            }),
            connector({
              key: 'c',
              providerName: 'bitmex',
              accounts: LIVE_ACCOUNTS,
              isDemo: false,
              expiresAt: now - DAY,
            }),
            connector({ key: 'd', providerName: 'etrade', accounts: LIVE_ACCOUNTS, isDemo: false, isActive: false }),
          ],
        },
      })),
    });
    const card = async (name: string) => screen.findByRole('article', { name });
    expect(within(await card('Alpaca')).getByText('about to expire soon')).toBeTruthy();
    expect(within(await card('Schwab')).getByText('active')).toBeTruthy();
    expect(within(await card('Schwab')).queryByText('about to expire soon')).toBeNull();
    const bitmex = await card('BitMEX');
    expect(within(bitmex).getByText('expired')).toBeTruthy();
    expect(within(bitmex).getByText('BitMEX closed its exchange; live orders are refused there.')).toBeTruthy();
    const etrade = await card('E*TRADE');
    expect(
      within(etrade).getByText(
        'The connection is deactivated due to connection or authorization issues. Try manually to Reconnect',
      ),
    ).toBeTruthy();
    fireEvent.click(within(etrade).getByRole('button', { name: 'Reconnect' }));
    await waitFor(() => expect(where(router)).toBe('/me/connector/etrade'));
    expect(await screen.findByRole('dialog', { name: 'Connect E*TRADE' })).toBeTruthy();
  });

  it('lists accounts with details and demo badge, and their webhooks', async () => {
    await render('/me/connector', {
      Connectors: fixture(() => ({ data: { connectors: [connector({ key: 'p' })] } })),
      Hooks: fixture(() => ({
        data: {
          hooks: [
            hook({
              key: 'h1',
              accountId: 'PA-1',
              name: 'Live one',
              calledAt: Date.UTC(2025, 0, 31, 14, 5),
              health: { calls: 8, errorRate: 0.25 },
            }),
            hook({ key: 'h2', accountId: 'PA-1', name: 'Test one', isTest: true, isActive: false }),
          ],
        },
      })),
    });
    const card = await screen.findByRole('article', { name: 'Paper Trading' });
    expect(within(card).getByRole('heading', { name: 'Paper account' })).toBeTruthy();
    expect(within(card).getByText(/cash · USD/)).toBeTruthy();
    expect(within(card).getAllByText('demo').length).toBeGreaterThan(0);
    const hooks = await within(card).findAllByRole('listitem');
    expect(hooks).toHaveLength(2);
    expect((within(hooks[0]!).getByLabelText('Webhook URL of Live one') as HTMLInputElement).value).toBe(
      'http://localhost/hook/h1',
    );
    expect(
      within(hooks[0]!).getByText(
        new Date(Date.UTC(2025, 0, 31, 14, 5)).toLocaleString('en-US', {
          day: 'numeric',
          month: 'numeric',
          year: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          hourCycle: 'h23',
        }),
      ),
    ).toBeTruthy();
    expect(within(hooks[0]!).getByTestId('hook-health').textContent).toContain('Calls today: 8Error rate: 25.00%');
    expect(within(hooks[1]!).getByTestId('hook-health').textContent).toContain('Calls today: 0Error rate: –');
    expect(within(hooks[1]!).getByText('test')).toBeTruthy();
    expect(within(hooks[1]!).getByText('deactivated')).toBeTruthy();
    expect(within(hooks[1]!).getByText(/never/)).toBeTruthy();
  });
});
