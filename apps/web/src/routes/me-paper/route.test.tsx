import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CUSTOMER, connector, hook, providersHandler } from '../../test/connectors.ts';
import { type FakeHandler, fixture, type GraphQLPayload, graphQLError } from '../../test/fake-server.ts';
import { labelsMissingText } from '../../test/names.ts';
import { renderRoute, where } from '../../test/render-route.tsx';

const AT = Date.UTC(2026, 10, 25, 15);

function account(overrides: Record<string, unknown> = {}) {
  return {
    connectorKey: 'p',
    accountId: 'PA-1',
    name: 'Swing',
    currency: 'USD',
    startingCash: 100_000,
    cash: 98_100,
    equity: 100_120,
    buyingPower: 97_900,
    asOf: AT,
    resetAt: null,
    openOrderCount: 1,
    positions: [
      {
        symbol: 'AAPL',
        class: 'stock',
        quantity: 10,
        averagePrice: 190,
        price: 192,
        marketValue: 1920,
        unrealizedPnl: 20,
      },
    ],
    openOrders: [
      {
        id: 'PA-1-2',
        clientOrderId: 's2',
        symbol: 'MSFT',
        class: 'stock',
        action: 'buy',
        type: 'limit',
        quantity: 1,
        limitPrice: 200,
        stopPrice: null,
        duration: 'gtc',
        statusDescription: 'Accepted: limit buy 1 MSFT at 200 (gtc)',
        createdAt: AT,
        legs: [],
      },
    ],
    fills: [
      {
        id: 'PA-1-1',
        clientOrderId: 's1',
        symbol: 'AAPL',
        side: 'buy',
        quantity: 10,
        price: 190,
        filledAt: AT,
        description: 'Filled',
      },
    ],
    ...overrides,
  };
}

const EMPTY = {
  positions: [],
  openOrders: [],
  openOrderCount: 0,
  fills: [],
  cash: 100_000,
  equity: 100_000,
  buyingPower: 100_000,
};

function render(handlers: Record<string, FakeHandler> = {}) {
  return renderRoute('/me/paper/p/PA-1', {
    user: CUSTOMER,
    handlers: {
      Providers: providersHandler,
      PaperAccount: fixture(() => ({ data: { paperAccount: account() } })),
      ...handlers,
    },
  });
}

describe('paper account screen', () => {
  it('shows balances, positions, open orders and fills', async () => {
    const { calls } = await render();
    expect(await screen.findByRole('heading', { level: 1, name: 'Swing' })).toBeTruthy();
    expect(calls('PaperAccount')[0]?.variables).toEqual({ connectorKey: 'p', accountId: 'PA-1' });
    expect(screen.getByText('$100,120.00')).toBeTruthy();
    expect(screen.getByText('+$120.00')).toBeTruthy();
    const positions = screen.getByRole('region', { name: 'Positions' });
    expect(within(positions).getByRole('rowheader', { name: /AAPL/ })).toBeTruthy();
    expect(within(positions).getByText('+$20.00')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Open orders' })).getByText(/limit 200/)).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Recent fills' })).getByText('PA-1-1')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Recent fills' })).getByText(/at 190/)).toBeTruthy();
  });

  it('shows an order a signal filled meanwhile when the server tells of the new activity', async () => {
    let filled = false;
    let tell: (payload: GraphQLPayload) => void = () => {};
    const { calls } = await render({
      PaperAccount: fixture(() => ({ data: { paperAccount: filled ? account() : account(EMPTY) } })),
      Live: fixture(
        () =>
          new Promise<GraphQLPayload>((resolve) => {
            tell = resolve;
          }),
      ),
    });
    expect(await screen.findByText('No fills yet.')).toBeTruthy();
    await waitFor(() => expect(calls('Live')).toHaveLength(1));
    // A TradingView alert to the account's webhook bought 10 AAPL.
    filled = true;
    await act(async () => tell({ data: { live: { kind: 'activity', at: 1 } } }));
    const fills = await screen.findByRole('region', { name: 'Recent fills' });
    expect(await within(fills).findByText('PA-1-1')).toBeTruthy();
  });

  it('shows the prices of a coin quoted in billionths with every digit they have', async () => {
    const pepe = {
      symbol: 'PEPE/USD',
      class: 'crypto',
      quantity: 200_000_000,
      averagePrice: 0.0000123725,
      price: 0.000012399,
      marketValue: 2479.8,
      unrealizedPnl: 5.3,
    };
    const fill = { id: 'PA-1-3', clientOrderId: 's3', symbol: 'PEPE/USD', side: 'buy', quantity: 100_000_000 };
    await render({
      PaperAccount: fixture(() => ({
        data: {
          paperAccount: account({
            positions: [pepe],
            fills: [{ ...fill, price: 0.000012399, filledAt: AT, description: 'Filled' }],
          }),
        },
      })),
    });
    const positions = await screen.findByRole('region', { name: 'Positions' });
    // 8 decimals showed 0.00001237 and 0.0000124: neither the average nor the price filled.
    expect(within(positions).getByText('0.0000123725')).toBeTruthy();
    expect(within(positions).getByText('0.000012399')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Recent fills' })).getByText(/at 0\.000012399$/)).toBeTruthy();
  });

  it('groups the count of open orders beyond those listed en-US (SPEC §9)', async () => {
    await render({ PaperAccount: fixture(() => ({ data: { paperAccount: account({ openOrderCount: 1500 }) } })) });
    const orders = await screen.findByRole('region', { name: 'Open orders' });
    expect(within(orders).getByText('The newest 1 of 1,500 open orders.')).toBeTruthy();
  });

  it('says what is empty', async () => {
    await render({ PaperAccount: fixture(() => ({ data: { paperAccount: account(EMPTY) } })) });
    expect(await screen.findByText(/No positions/)).toBeTruthy();
    expect(screen.getByText('No open orders.')).toBeTruthy();
    expect(screen.getByText('No fills yet.')).toBeTruthy();
  });

  it('resets after a confirmation, and shows the answer', async () => {
    const { calls } = await render({
      PaperAccountReset: fixture(() => ({ data: { paperAccountReset: account({ ...EMPTY, resetAt: AT }) } })),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Reset account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset the paper account?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls('PaperAccountReset')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Reset account' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reset' }));
    expect(await screen.findByText('The account was reset to $100,000.00.')).toBeTruthy();
    expect(calls('PaperAccountReset')[0]?.variables).toEqual({ connectorKey: 'p', accountId: 'PA-1' });
    expect(screen.getByText(/No positions/)).toBeTruthy();
  });

  it('says when the account is not the caller’s', async () => {
    await render({ PaperAccount: fixture(() => graphQLError('Connector not found', 'NOT_FOUND')) });
    expect(await screen.findByText(/not one of your connections/)).toBeTruthy();
    expect(screen.getByRole('link', { name: '← Brokers & Webhooks' })).toBeTruthy();
  });

  it('offers a retry when loading fails', async () => {
    let failures = 1;
    await render({
      PaperAccount: fixture(() =>
        failures-- > 0
          ? graphQLError('Something went wrong', 'INTERNAL_SERVER_ERROR')
          : { data: { paperAccount: account() } },
      ),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Swing' })).toBeTruthy();
  });

  it('is reached from the paper account on Brokers & Webhooks', async () => {
    const { router } = await renderRoute('/me/connector', {
      user: CUSTOMER,
      handlers: {
        Providers: providersHandler,
        Connectors: fixture(() => ({ data: { connectors: [connector({ key: 'p' })] } })),
        Hooks: fixture(() => ({ data: { hooks: [hook({ key: 'h1', accountId: 'PA-1' })] } })),
        PaperAccount: fixture(() => ({ data: { paperAccount: account() } })),
      },
    });
    const link = await screen.findByRole('link', { name: 'Positions & orders of Paper account' });
    // Its name says what it shows (WCAG 2.5.3), as every named control of the screen does.
    expect(labelsMissingText(document.body)).toEqual([]);
    fireEvent.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Swing' })).toBeTruthy();
    expect(where(router)).toBe('/me/paper/p/PA-1');
  });
});
