import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeUser, fixture } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';

const CUSTOMER = 4;
const BASE = Date.UTC(2024, 0, 31, 14, 5, 7);
const account = (overrides: Record<string, unknown> = {}) => ({
  type: 1,
  metadata: '{}',
  product: null,
  payments: [],
  balance: 7,
  credits: 3,
  recurringCredits: 4,
  recurringPeriodCredits: 10,
  recurringPeriodEnd: Date.UTC(2030, 0, 31) / 1000,
  signalsSpent: 1234,
  unlimited: false,
  cardPayments: false,
  ...overrides,
});
const entry = (id: number, credits: number, cause: string, balanceAfter: number) => ({
  id,
  createdAt: BASE - id * 60_000,
  credits,
  cause,
  balanceAfter,
});
/** 20 spends (a full page), then the sign-up grant. */
const PAGE_ONE = Array.from({ length: 20 }, (_, i) => entry(i + 1, -1, 'signal', 7 + i));
const PAGE_TWO = [entry(21, 27, 'signup', 27)];

function server(overrides: Record<string, unknown> = {}) {
  return {
    AccountCredits: fixture(() => ({ data: { account: account(overrides) } })),
    AccountLedger: fixture(({ variables }) => ({
      data: { accountLedger: variables.createdAtFrom === undefined ? PAGE_ONE : PAGE_TWO },
    })),
  };
}

const tile = (testId: string) => screen.getByTestId(`${testId}-value`).textContent;

describe('Account & Billing (SPEC §2): credits and their history', () => {
  it('shows signals left with where they come from, signals spent in total, and how credits come without payments', async () => {
    await renderRoute('/me/account', { user: fakeUser(CUSTOMER), handlers: server() });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Account & Billing');
    await waitFor(() => expect(tile('account-balance')).toBe('7'));
    expect(tile('account-spent')).toBe('1,234');
    expect(screen.getByText('4 plan credits until 1/31/2030, 3 one-time')).toBeTruthy();
    expect(screen.getByText(/credits are granted by an administrator/)).toBeTruthy();
  });

  it('lists the ledger newest first with signed changes, and More asks from the last entry shown', async () => {
    const { calls } = await renderRoute('/me/account', { user: fakeUser(CUSTOMER), handlers: server() });
    const table = (await screen.findByRole('heading', { name: 'Credit history' })).closest('section') as HTMLElement;
    await waitFor(() => expect(within(table).getAllByText('Signal sent')).toHaveLength(20));
    const first = within(table).getAllByRole('row')[1] as HTMLElement;
    expect(within(first).getByText('−1')).toBeTruthy();
    expect(
      within(first)
        .getByText(/1\/31\/2024, \d\d:\d\d/)
        .getAttribute('title'),
    ).toBe('2024-01-31T14:04:07Z');
    expect(calls('AccountLedger')[0]?.variables).toEqual({});
    fireEvent.click(within(table).getByRole('button', { name: 'More' }));
    expect(await within(table).findByText('Sign-up credits')).toBeTruthy();
    expect(within(table).getByText('+27')).toBeTruthy();
    expect(calls('AccountLedger')[1]?.variables).toEqual({ createdAtFrom: PAGE_ONE[19]?.createdAt });
    expect(within(table).queryByRole('button', { name: 'More' })).toBeNull();
  });

  it('says Unlimited when signals are not metered, without the administrator notice', async () => {
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server({ unlimited: true, recurringPeriodCredits: 0 }),
    });
    await waitFor(() => expect(tile('account-balance')).toBe('Unlimited'));
    expect(screen.getByText('Signals are not metered on this server')).toBeTruthy();
    expect(screen.queryByText(/granted by an administrator/)).toBeNull();
  });

  it('tells a dispute’s credits taken back and given back apart from a refund’s', async () => {
    const entries = [
      { ...entry(1, 100, 'restore', 100), dispute: true },
      { ...entry(2, -100, 'reversal', 0), dispute: true },
      { ...entry(3, -50, 'reversal', 100), dispute: false },
    ];
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: { ...server(), AccountLedger: fixture(() => ({ data: { accountLedger: entries } })) },
    });
    const table = (await screen.findByRole('heading', { name: 'Credit history' })).closest('section') as HTMLElement;
    // The three entries' rows, not the first rows drawn (the history may draw before its entries arrive).
    const [, won, held, refunded] = await waitFor(() => {
      const rows = within(table).getAllByRole('row');
      expect(rows).toHaveLength(4);
      return rows;
    });
    expect(won?.textContent).toContain('Dispute won: credits back');
    expect(held?.textContent).toContain('Payment disputed: credits taken back');
    expect(refunded?.textContent).toContain('Purchase refunded');
  });

  it('shows an empty history', async () => {
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: { ...server({ cardPayments: true }), AccountLedger: fixture(() => ({ data: { accountLedger: [] } })) },
    });
    expect(await screen.findByText('No credit changes yet')).toBeTruthy();
    expect(screen.queryByText(/granted by an administrator/)).toBeNull();
  });
});
