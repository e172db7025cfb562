import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeUser, fixture, type GraphQLPayload } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';

const CUSTOMER = 4;
const banner = (account: {
  balance: number;
  lastGrant: number | null;
  unlimited?: boolean;
  cardPayments?: boolean;
}) => ({
  CreditsBanner: fixture(() => ({
    data: { account: { unlimited: false, cardPayments: false, ...account } },
  })),
});

describe('low-credit banner (every signed-in screen)', () => {
  it('says no signals are left, that live webhooks refuse them, and how to get credits with card payments', async () => {
    await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER),
      handlers: banner({ balance: 0, lastGrant: 5, cardPayments: true }),
    });
    const shown = await screen.findByTestId('credits-banner');
    expect(shown.textContent).toContain('No signals left.');
    expect(shown.textContent).toContain('Live webhooks refuse signals');
    expect(shown.className).toContain('alert-danger');
    expect(screen.getByRole('link', { name: 'Add credits on Account & Billing' }).getAttribute('href')).toBe(
      '/me/account',
    );
  });

  it('warns at ≤ 20 % of the last grant and, without card payments, says an administrator grants credits', async () => {
    await renderRoute('/me/settings', { user: fakeUser(CUSTOMER), handlers: banner({ balance: 20, lastGrant: 100 }) });
    const shown = await screen.findByTestId('credits-banner');
    expect(shown.textContent).toContain('Only 20 signals left.');
    expect(shown.textContent).toContain('When they run out, live webhooks refuse signals.');
    expect(shown.textContent).toContain('credits are granted by an administrator');
    expect(shown.className).toContain('alert-warning');
    expect(screen.getByRole('link', { name: 'See your credits' }).getAttribute('href')).toBe('/me/account');
  });

  it.each([
    ['above 20 % of the last grant', { balance: 21, lastGrant: 100 }],
    ['with unlimited credits', { balance: 0, lastGrant: 5, unlimited: true }],
  ])('is not shown %s', async (_name, account) => {
    const { calls } = await renderRoute('/me/settings', { user: fakeUser(CUSTOMER), handlers: banner(account) });
    await waitFor(() => expect(calls('CreditsBanner')).toHaveLength(1));
    await act(async () => {});
    expect(screen.queryByTestId('credits-banner')).toBeNull();
  });

  it('asks again on each navigation, so spending shows without a reload', async () => {
    let balance = 50;
    const { router, calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER),
      handlers: {
        CreditsBanner: fixture(() => ({
          data: { account: { balance, lastGrant: 100, unlimited: false, cardPayments: false } },
        })),
      },
    });
    await waitFor(() => expect(calls('CreditsBanner')).toHaveLength(1));
    expect(screen.queryByTestId('credits-banner')).toBeNull();
    balance = 1;
    await act(() => router.navigate('/me/report'));
    expect((await screen.findByTestId('credits-banner')).textContent).toContain('Only 1 signal left.');
    expect(calls('CreditsBanner')).toHaveLength(2);
  });

  it('asks again when the server tells of new activity, so running out shows on the screen being watched', async () => {
    let balance = 50;
    let tell: (payload: GraphQLPayload) => void = () => {};
    const { calls } = await renderRoute('/me/settings', {
      user: fakeUser(CUSTOMER),
      handlers: {
        CreditsBanner: fixture(() => ({
          data: { account: { balance, lastGrant: 100, unlimited: false, cardPayments: false } },
        })),
        Live: fixture(
          () =>
            new Promise<GraphQLPayload>((resolve) => {
              tell = resolve;
            }),
        ),
      },
    });
    await waitFor(() => expect(calls('CreditsBanner')).toHaveLength(1));
    await waitFor(() => expect(calls('Live')).toHaveLength(1));
    expect(screen.queryByTestId('credits-banner')).toBeNull();
    // A signal spent the last credit: the server tells of the new activity entry.
    balance = 0;
    await act(async () => tell({ data: { live: { kind: 'activity', at: 1 } } }));
    expect((await screen.findByTestId('credits-banner')).textContent).toContain('No signals left.');
  });
});
