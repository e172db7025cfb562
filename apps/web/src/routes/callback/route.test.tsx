import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CUSTOMER, connector, providersHandler } from '../../test/connectors.ts';
import { type FakeHandler, fixture, graphQLError } from '../../test/fake-server.ts';
import { renderRoute, where } from '../../test/render-route.tsx';

function render(path: string, handlers: Record<string, FakeHandler> = {}) {
  return renderRoute(path, {
    user: CUSTOMER,
    handlers: {
      Providers: providersHandler,
      ConnectorActivate: fixture(({ variables }) => ({
        data: { connectorActivate: connector({ key: 'c', providerName: String(variables.providerName) }) },
      })),
      ...handlers,
    },
  });
}

const setReferrer = (value: string) => Object.defineProperty(document, 'referrer', { value, configurable: true });

describe('broker callback (SPEC §2)', () => {
  afterEach(() => {
    setReferrer('');
    Object.defineProperty(window, 'opener', { value: null, configurable: true, writable: true });
  });

  it('activates the route provider with [code, state] once, then goes to /me/connector', async () => {
    const { router, calls } = await render('/callback/schwab?code=C0.abc%40&session=s&state=st1');
    await waitFor(() => expect(where(router)).toBe('/me/connector'));
    expect(calls('ConnectorActivate')).toHaveLength(1);
    expect(calls('ConnectorActivate')[0]?.variables).toEqual({
      providerName: 'schwab',
      credentials: ['C0.abc@', 'st1'],
    });
  });

  it('finds the provider by the referrer and reads its first credential', async () => {
    setReferrer('https://us.etrade.com/e/t/etws/authorize?key=x');
    const { router, calls } = await render('/callback?oauth_verifier=V42');
    await waitFor(() => expect(where(router)).toBe('/me/connector'));
    expect(calls('ConnectorActivate')[0]?.variables).toEqual({ providerName: 'etrade', credentials: ['V42'] });
  });

  it('closes the popup it was opened in', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => {});
    Object.defineProperty(window, 'opener', { value: {}, configurable: true, writable: true });
    const { router } = await render('/callback/schwab?code=abc&state=s');
    await waitFor(() => expect(close).toHaveBeenCalled());
    expect(where(router)).toBe('/callback/schwab?code=abc&state=s');
    expect(screen.getByRole('status').textContent).toBe('Connected. You can close this window.');
  });

  it('shows a failure with a Continue link to /signin', async () => {
    await render('/callback/schwab?code=abc&state=s', {
      ConnectorActivate: fixture(() =>
        graphQLError('The authorization has expired or does not match. Please connect again.'),
      ),
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The authorization has expired or does not match. Please connect again.',
    );
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/signin');
  });

  it('shows the etrade verifier failure without calling the server', async () => {
    const { calls } = await render('/callback/etrade?oauth_verifier=Token%20has%20already%20been%20Authorized');
    expect((await screen.findByRole('alert')).textContent).toBe('Token generation failure. Please try again');
    expect(calls('ConnectorActivate')).toHaveLength(0);
  });

  it('explains, calling nothing, when opened by hand for a provider connected with its form', async () => {
    const { calls } = await render('/callback/paper?code=abc');
    expect(await screen.findByText(/Paper Trading is connected with its form/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Connect Paper Trading' }).getAttribute('href')).toBe(
      '/me/connector/paper',
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls('ConnectorActivate')).toHaveLength(0);
  });

  it('leaves without a provider or without the credential', async () => {
    const unknown = await render('/callback/nowhere?code=abc');
    await waitFor(() => expect(where(unknown.router)).toBe('/me/connector'));
    expect(unknown.calls('ConnectorActivate')).toHaveLength(0);
  });

  it('says so when the broker comes back with a refusal instead of a code, calling nothing', async () => {
    const { router, calls } = await render(
      '/callback/schwab?error=access_denied&error_description=The+user+denied+the+request&state=s',
    );
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Schwab: the authorization was not completed (access was not granted: The user denied the request). Please connect again.',
    );
    expect(where(router)).toBe(
      '/callback/schwab?error=access_denied&error_description=The+user+denied+the+request&state=s',
    );
    expect(calls('ConnectorActivate')).toHaveLength(0);
  });

  it('leaves when the credential is missing', async () => {
    const missing = await render('/callback/schwab?state=s');
    await waitFor(() => expect(where(missing.router)).toBe('/me/connector'));
    expect(missing.calls('ConnectorActivate')).toHaveLength(0);
  });
});
