import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CUSTOMER, connector, TEST_PROVIDERS } from '../../test/connectors.ts';
import { type FakeHandler, fixture } from '../../test/fake-server.ts';
import { fill, renderRoute, where } from '../../test/render-route.tsx';

// A provider whose connect form names the broker server (SPEC §3 Connector.branch).
const METATRADER = {
  name: 'metatrader',
  title: 'MetaTrader',
  status: 'beta',
  scale: 0.8,
  authentication: {
    type: 'credentials',
    credentials: ['login', 'password', 'server'],
    branchSearch: 'server',
    help: 'Your MT login, master password and server.',
  },
  reference: {},
};

const SERVERS = [
  { name: 'ICMarketsSC-Demo', broker: 'Raw Trading Ltd', platform: 'mt5' },
  { name: 'ICMarketsSC-Demo02', broker: 'Raw Trading Ltd', platform: 'mt4' },
];

function render(handlers: Record<string, FakeHandler> = {}) {
  return renderRoute('/me/connector/metatrader', {
    user: CUSTOMER,
    handlers: {
      Providers: () => ({ data: { providers: JSON.stringify([...TEST_PROVIDERS, METATRADER]) } }),
      ...handlers,
    },
  });
}

const options = (dialog: HTMLElement) =>
  [...dialog.querySelectorAll('datalist option')].map((option) => [
    option.getAttribute('value'),
    option.getAttribute('label'),
  ]);

describe('connect dialog: the server field of a provider with a branch search', () => {
  it('suggests server names for what is typed (2 letters or more, after a pause), and connects with the chosen one', async () => {
    const activated = vi.fn();
    const { calls, router } = await render({
      ProviderBranches: fixture(({ variables }) => ({
        data: { providerMetatraderBranches: String(variables.search).toLowerCase().startsWith('icm') ? SERVERS : [] },
      })),
      ConnectorCreate: fixture(() => ({
        data: {
          connectorCreate: {
            type: 'credentials',
            credentials: ['login', 'password', 'server'],
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
        return { data: { connectorActivate: connector({ key: 'mt-1', providerName: 'metatrader' }) } };
      }),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Connect MetaTrader' });
    const server = within(dialog).getByLabelText('Server') as HTMLInputElement;
    expect(server.type).toBe('text');
    expect(server.getAttribute('list')).toBe(dialog.querySelector('datalist')?.id);
    expect((within(dialog).getByLabelText('Password') as HTMLInputElement).type).toBe('password');
    expect((within(dialog).getByLabelText('Login') as HTMLInputElement).getAttribute('list')).toBeNull();

    fill('Server', 'i');
    fill('Server', 'icm');
    await waitFor(() =>
      expect(options(dialog)).toEqual([
        ['ICMarketsSC-Demo', 'Raw Trading Ltd · MT5'],
        ['ICMarketsSC-Demo02', 'Raw Trading Ltd · MT4'],
      ]),
    );
    expect(calls('ProviderBranches').map((call) => call.variables)).toEqual([{ search: 'icm' }]);

    fill('Server', 'x');
    await waitFor(() => expect(options(dialog)).toEqual([]));
    expect(calls('ProviderBranches')).toHaveLength(1);

    fill('Login', '1234567');
    fill('Password', 'master-pass');
    fill('Server', 'ICMarketsSC-Demo');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await waitFor(() => expect(where(router)).toBe('/me/connector'));
    expect(activated).toHaveBeenCalledWith({
      providerName: 'metatrader',
      credentials: ['1234567', 'master-pass', 'ICMarketsSC-Demo'],
    });
  });

  it('offers nothing, and still takes a typed name, when the search fails', async () => {
    const { calls } = await render({
      ProviderBranches: fixture(() => ({
        data: null,
        errors: [{ message: 'MetaTrader: this site has no MetaApi token (METATRADER_CLIENT_SECRET).' }],
      })),
    });
    const dialog = await screen.findByRole('dialog', { name: 'Connect MetaTrader' });
    fill('Server', 'FTMO-Demo');
    await waitFor(() => expect(calls('ProviderBranches')).toHaveLength(1));
    expect(options(dialog)).toEqual([]);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect((within(dialog).getByLabelText('Server') as HTMLInputElement).value).toBe('FTMO-Demo');
  });

  it('other providers’ fields have no suggestions', async () => {
    await renderRoute('/me/connector/alpaca', {
      user: CUSTOMER,
      handlers: { Providers: () => ({ data: { providers: JSON.stringify([...TEST_PROVIDERS, METATRADER]) } }) },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Connect Alpaca' });
    expect(dialog.querySelector('datalist')).toBeNull();
  });
});
