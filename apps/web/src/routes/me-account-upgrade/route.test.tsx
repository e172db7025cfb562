import { LEGAL_QUESTIONS } from '@router/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UPGRADE_TEXT } from '../../features/billing/texts.ts';
import { PROFESSIONAL_STATUS, productsAnswer } from '../../test/billing.ts';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { click, fill, renderRoute, where } from '../../test/render-route.tsx';

const CUSTOMER = 4;
const PROFESSIONAL = 16;

function answerAll() {
  fill('Business name', 'Acme Signals LLC');
  fill('Business website', 'https://acme.example');
  fill('Business address', '1 Main St');
  fill('What your business does', 'Signals');
  fill('Contact person (name, email or phone)', 'Jane');
  for (const key of Object.keys(LEGAL_QUESTIONS))
    fireEvent.click(document.getElementById(`legal-${key}-no`) as HTMLElement);
}

describe('Professional application (SPEC §2, §5)', () => {
  it("answers 'Required' for every field left empty", async () => {
    await renderRoute('/me/account/upgrade', { user: fakeUser(CUSTOMER) });
    click('Apply and continue to payment');
    await waitFor(() => expect(screen.getAllByText('Required')).toHaveLength(5 + Object.keys(LEGAL_QUESTIONS).length));
    // A question's 'Required' is told with it: the group of its answers is described by it.
    for (const group of screen.getAllByRole('radiogroup')) {
      expect(group.getAttribute('aria-invalid')).toBe('true');
      const described = (group.getAttribute('aria-describedby') ?? '').split(' ');
      expect(described.map((id) => document.getElementById(id)?.textContent)).toContain('Required');
    }
  });

  it('sends the answers and goes on to the payment with a success message', async () => {
    const { router, calls } = await renderRoute('/me/account/upgrade', {
      user: fakeUser(CUSTOMER),
      handlers: {
        AccountUpgrade: fixture(() => ({ data: { accountUpgrade: true } })),
        CreditsBanner: fixture(() => ({
          data: { account: { balance: 5, lastGrant: 5, unlimited: false, cardPayments: false } },
        })),
      },
    });
    answerAll();
    click('Apply and continue to payment');
    await waitFor(() => expect(where(router)).toBe('/me/account/upgrade/checkout'));
    expect(await screen.findByText('Your application was received.')).toBeTruthy();
    expect(await screen.findByText(/not on sale on this server/)).toBeTruthy();
    const sent = calls('AccountUpgrade')[0]?.variables.metadata as {
      businessName: string;
      legal: Record<string, string>;
    };
    expect(sent.businessName).toBe('Acme Signals LLC');
    expect(sent.legal.l).toBe('no');
  });

  it("shows the server's message, or 'Error'", async () => {
    await renderRoute('/me/account/upgrade', {
      user: fakeUser(CUSTOMER),
      handlers: { AccountUpgrade: fixture(() => graphQLError('', 'BAD_USER_INPUT')) },
    });
    answerAll();
    click('Apply and continue to payment');
    expect(await screen.findByText('Error')).toBeTruthy();
  });

  it('takes the focus to the failure, above the form, so it is seen and read out', async () => {
    await renderRoute('/me/account/upgrade', {
      user: fakeUser(CUSTOMER),
      handlers: { AccountUpgrade: fixture(() => graphQLError('Too many attempts, please wait', 'RATE_LIMITED')) },
    });
    answerAll();
    const submit = screen.getByRole('button', { name: 'Apply and continue to payment' });
    submit.focus();
    fireEvent.click(submit);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Too many attempts, please wait');
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  it('sends a professional away (SPEC §6)', async () => {
    const { router } = await renderRoute('/me/account/upgrade', { user: fakeUser(CUSTOMER | PROFESSIONAL) });
    await waitFor(() => expect(where(router)).toBe('/me'));
  });
});

describe('Professional status payment and return', () => {
  it("says the account could not be loaded (not 'not on sale'), and shows the price once it loads again", async () => {
    let down = true;
    await renderRoute('/me/account/upgrade/checkout', {
      user: fakeUser(CUSTOMER),
      handlers: {
        CreditsBanner: fixture(() =>
          down
            ? graphQLError('Service temporarily unavailable, please retry', 'SERVICE_UNAVAILABLE')
            : { data: { account: { balance: 5, lastGrant: 5, unlimited: false, cardPayments: true } } },
        ),
        AccountProducts: fixture(() => productsAnswer([PROFESSIONAL_STATUS])),
      },
    });
    expect(await screen.findByText(/The server is unavailable right now/)).toBeTruthy();
    expect(screen.queryByText(UPGRADE_TEXT.notOnSale)).toBeNull();
    down = false;
    click('Try again');
    expect(await screen.findByText('$49.00')).toBeTruthy();
    expect(screen.queryByText(/The server is unavailable right now/)).toBeNull();
  });

  it('pays on Stripe Checkout for the professional price', async () => {
    const { calls } = await renderRoute('/me/account/upgrade/checkout', {
      user: fakeUser(CUSTOMER),
      handlers: {
        CreditsBanner: fixture(() => ({
          data: { account: { balance: 5, lastGrant: 5, unlimited: false, cardPayments: true } },
        })),
        AccountProducts: fixture(() => productsAnswer([PROFESSIONAL_STATUS])),
        AccountPaymentSession: fixture(() =>
          graphQLError('Card payments are unavailable right now. Please try again later.', 'SERVICE_UNAVAILABLE'),
        ),
      },
    });
    expect(await screen.findByText('$49.00')).toBeTruthy();
    click('Pay with card');
    expect(await screen.findByText('Card payments are unavailable right now. Please try again later.')).toBeTruthy();
    expect(calls('AccountPaymentSession')[0]?.variables).toEqual({ stripePriceId: 'price_pro' });
  });

  it('waits for the webhook to grant the status, asking for the user again', async () => {
    let asked = 0;
    await renderRoute('/me/account/upgrade/success', {
      user: fakeUser(CUSTOMER),
      handlers: {
        User: fixture(() => {
          asked += 1;
          return { data: { user: fakeUser(asked >= 2 ? CUSTOMER | PROFESSIONAL : CUSTOMER) } };
        }),
      },
    });
    expect((await screen.findByTestId('upgrade-status')).textContent).toMatch(/starts as soon as Stripe confirms/);
    await waitFor(
      () => expect(screen.getByTestId('upgrade-status').textContent).toBe('You now have professional status.'),
      {
        timeout: 6000,
      },
    );
  });
});
