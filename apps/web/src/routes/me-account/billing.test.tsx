import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaveFor } from '../../features/billing/leave-for.ts';
import { productsAnswer } from '../../test/billing.ts';
import { fakeUser, fixture, type GraphQLPayload, graphQLError } from '../../test/fake-server.ts';
import { renderRoute } from '../../test/render-route.tsx';

const CUSTOMER = 4;
const PROFESSIONAL = 16;
const PERIOD_END = Date.UTC(2030, 0, 31) / 1000;

const plan = { name: 'Pro plan', credits: 300, price: 2000, interval: 'month' };
const account = (overrides: Record<string, unknown> = {}) => ({
  type: 1,
  balance: 105,
  credits: 105,
  recurringCredits: 0,
  recurringPeriodCredits: 0,
  recurringPeriodEnd: null,
  signalsSpent: 0,
  unlimited: false,
  cardPayments: true,
  professionalAppliedAt: null,
  metadata: '{"recurring":{}}',
  product: null,
  payments: [],
  ...overrides,
});

function server(overrides: Record<string, unknown> = {}, extra: Record<string, ReturnType<typeof fixture>> = {}) {
  return {
    AccountCredits: fixture(() => ({ data: { account: account(overrides) } })),
    AccountProducts: fixture(() => productsAnswer()),
    AccountPaymentSession: fixture(({ variables }) => ({
      data: { accountPaymentSession: { url: `https://stripe.test/${String(variables.stripePriceId ?? 'portal')}` } },
    })),
    ...extra,
  };
}

const leaving = () => vi.spyOn(leaveFor, 'assign').mockImplementation(() => {});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

/** A pack of 100 credits paid at `createdAt`, as AccountCredits lists it. */
const paidPack = (createdAt: number) => ({
  credits: 100,
  price: 1099,
  currency: 'usd',
  createdAt,
  stripeInvoiceId: null,
  description: 'Pack',
  interval: null,
});

describe('Account & Billing with card payments', () => {
  it('offers to load what is on sale again when it could not be loaded, then sells it', async () => {
    let down = true;
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server(
        {},
        {
          AccountProducts: fixture(() =>
            down
              ? graphQLError('Service temporarily unavailable, please retry', 'SERVICE_UNAVAILABLE')
              : productsAnswer(),
          ),
        },
      ),
    });
    expect(await screen.findByText(/The server is unavailable right now/)).toBeTruthy();
    down = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const pack = await screen.findByTestId('product-price_pack');
    expect(within(pack).getByRole('button', { name: 'Buy' })).toBeTruthy();
    expect(screen.queryByText(/The server is unavailable right now/)).toBeNull();
  });

  it('offers packs and plans from Stripe and sends the browser to Checkout, with the ?coupon= of the page', async () => {
    const assign = leaving();
    const { calls } = await renderRoute('/me/account?coupon=WELCOME10', {
      user: fakeUser(CUSTOMER),
      handlers: server(),
    });
    const pack = await screen.findByTestId('product-price_pack');
    expect(within(pack).getByText('$10.99')).toBeTruthy();
    const monthly = screen.getByTestId('product-price_plan');
    expect(within(monthly).getByText('300 signals per month')).toBeTruthy();
    expect(screen.queryByTestId('product-price_pro')).toBeNull();
    fireEvent.click(within(pack).getByRole('button', { name: 'Buy' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://stripe.test/price_pack'));
    expect(calls('AccountPaymentSession')[0]?.variables).toEqual({ stripePriceId: 'price_pack', coupon: 'WELCOME10' });
  });

  it('enables the buy buttons again when Back from Checkout restores the page from the back/forward cache', async () => {
    const assign = leaving();
    await renderRoute('/me/account', { user: fakeUser(CUSTOMER), handlers: server() });
    const pack = await screen.findByTestId('product-price_pack');
    fireEvent.click(within(pack).getByRole('button', { name: 'Buy' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://stripe.test/price_pack'));
    const opening = within(pack).getByRole('button', { name: 'Opening Stripe…' }) as HTMLButtonElement;
    expect(opening.disabled).toBe(true);
    // A page shown afresh (not from the cache) changes nothing.
    act(() => {
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false }));
    });
    expect(within(pack).getByRole('button', { name: 'Opening Stripe…' })).toBeTruthy();
    act(() => {
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    });
    const buy = within(pack).getByRole('button', { name: 'Buy' }) as HTMLButtonElement;
    expect(buy.disabled).toBe(false);
    expect((screen.getAllByRole('button', { name: 'Manage billing' })[0] as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows the server’s message when Checkout cannot be opened', async () => {
    leaving();
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server(
        {},
        { AccountPaymentSession: fixture(() => graphQLError('The coupon "X" is unknown or has expired')) },
      ),
    });
    fireEvent.click(within(await screen.findByTestId('product-price_pack')).getByRole('button', { name: 'Buy' }));
    expect(await screen.findByText('The coupon "X" is unknown or has expired')).toBeTruthy();
  });

  it('shows the subscription card: renewal date, cancel date, the activation text; hidden without a plan', async () => {
    const running = { type: 3, product: plan, recurringPeriodEnd: PERIOD_END };
    const cases: Array<[Record<string, unknown>, string]> = [
      [running, 'Renewal date: 1/31/2030'],
      [
        { ...running, metadata: JSON.stringify({ recurring: { cancelAt: PERIOD_END - 86_400 } }) },
        'Cancel date: 1/30/2030',
      ],
      [{ ...running, recurringPeriodEnd: null }, 'Please click the link below to activate the subscription.'],
    ];
    for (const [overrides, text] of cases) {
      const view = await renderRoute('/me/account', { user: fakeUser(CUSTOMER), handlers: server(overrides) });
      const card = await screen.findByTestId('subscription-card');
      expect(within(card).getByText(text)).toBeTruthy();
      expect(within(card).getByText('Subscription: Pro plan')).toBeTruthy();
      // A running plan hides the other plans on sale.
      expect(screen.queryByTestId('product-price_plan')).toBeNull();
      view.router.dispose();
      document.body.innerHTML = '';
    }
    await renderRoute('/me/account', { user: fakeUser(CUSTOMER), handlers: server() });
    await screen.findByTestId('product-price_pack');
    expect(screen.queryByTestId('subscription-card')).toBeNull();
  });

  it('says a plan selling professional status no longer gives it to a user who lost it, not to one who holds it', async () => {
    const sells = { type: 3, product: { ...plan, professional: true }, recurringPeriodEnd: PERIOD_END };
    const cancelling = JSON.stringify({ recurring: { cancelAt: PERIOD_END } });
    const view = await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server({ ...sells, metadata: cancelling }),
    });
    const card = await screen.findByTestId('subscription-card');
    expect(within(card).getByTestId('subscription-without-status').textContent).toContain(
      'This plan no longer gives you professional status',
    );
    view.router.dispose();
    document.body.innerHTML = '';
    await renderRoute('/me/account', { user: fakeUser(CUSTOMER | PROFESSIONAL), handlers: server(sells) });
    expect(await screen.findByTestId('subscription-card')).toBeTruthy();
    expect(screen.queryByTestId('subscription-without-status')).toBeNull();
  });

  it('tells a free trial: its end is the renewal date, not the activation text nor an earlier plan’s date', async () => {
    const trialing = JSON.stringify({ recurring: { status: 'trialing', trialEnd: PERIOD_END } });
    const earlierPlanEnd = PERIOD_END - 90 * 86_400;
    for (const recurringPeriodEnd of [null, earlierPlanEnd]) {
      const view = await renderRoute('/me/account', {
        user: fakeUser(CUSTOMER),
        handlers: server({ type: 3, product: plan, recurringPeriodEnd, metadata: trialing }),
      });
      const card = await screen.findByTestId('subscription-card');
      expect(within(card).getByTestId('subscription-trial').textContent).toBe(
        'Free trial: nothing is charged until 1/31/2030.',
      );
      expect(within(card).getByTestId('subscription-date').textContent).toBe('Renewal date: 1/31/2030');
      expect(card.textContent).not.toContain('Please click the link below');
      view.router.dispose();
      document.body.innerHTML = '';
    }
  });

  it('shows the running plan’s own renewal date for a plan that gives no credits, not an earlier plan’s', async () => {
    const proOnly = { name: 'Professional monthly', credits: 0, price: 1900, interval: 'month' };
    const own = JSON.stringify({ recurring: { status: 'active', periodEnd: PERIOD_END } });
    const earlierPlanEnd = PERIOD_END - 90 * 86_400;
    for (const recurringPeriodEnd of [null, earlierPlanEnd]) {
      const view = await renderRoute('/me/account', {
        user: fakeUser(CUSTOMER),
        handlers: server({ type: 3, product: proOnly, recurringPeriodEnd, metadata: own }),
      });
      const card = await screen.findByTestId('subscription-card');
      expect(within(card).getByTestId('subscription-date').textContent).toBe('Renewal date: 1/31/2030');
      expect(card.textContent).not.toContain('Please click the link below');
      view.router.dispose();
      document.body.innerHTML = '';
    }
  });

  it('shows a plan for professional status alone beside the credits plan: its cancel date and failed payment', async () => {
    const credits = { name: 'Monthly', credits: 300, price: 2900, interval: 'month' };
    const metadata = JSON.stringify({
      recurring: { status: 'active', periodEnd: PERIOD_END },
      membership: {
        name: 'Professional membership',
        credits: 0,
        price: 1900,
        currency: 'usd',
        interval: 'month',
        status: 'past_due',
        cancelAt: PERIOD_END,
        paymentFailed: { invoiceId: 'in_1', url: 'https://pay.example/in_1' },
      },
    });
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server({ type: 3, product: credits, recurringPeriodEnd: PERIOD_END, metadata }),
    });
    const plan = await screen.findByTestId('subscription-card');
    expect(within(plan).getByTestId('subscription-date').textContent).toBe('Renewal date: 1/31/2030');
    expect(plan.textContent).not.toContain('failed');
    const membership = screen.getByTestId('membership-card');
    expect(membership.textContent).toContain('Subscription: Professional membership');
    expect(within(membership).getByTestId('subscription-date').textContent).toBe('Cancel date: 1/31/2030');
    expect(within(membership).getByRole('link', { name: 'Pay the invoice now' }).getAttribute('href')).toBe(
      'https://pay.example/in_1',
    );
  });

  it('says when Stripe tries a failed plan payment again, and that it will not once its retries are over', async () => {
    const plan = { name: 'Monthly', credits: 300, price: 2900, interval: 'month' };
    for (const [nextAttempt, text] of [
      [PERIOD_END, 'Stripe will try again on 1/31/2030.'],
      [null, 'Stripe will not try again.'],
    ] as const) {
      const metadata = JSON.stringify({
        recurring: { status: 'past_due', paymentFailed: { invoiceId: 'in_2', url: null, nextAttempt } },
      });
      const view = await renderRoute('/me/account', {
        user: fakeUser(CUSTOMER),
        handlers: server({ type: 3, product: plan, recurringPeriodEnd: PERIOD_END, metadata }),
      });
      const alert = within(await screen.findByTestId('subscription-card')).getByRole('alert');
      expect(alert.textContent).toContain(text);
      view.router.dispose();
      document.body.innerHTML = '';
    }
  });

  it('does not sell "0 signals" on the card of a plan that gives no credits', async () => {
    const proOnly = { name: 'Professional monthly', credits: 0, price: 1900, interval: 'month' };
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server({ type: 3, product: proOnly, recurringPeriodEnd: PERIOD_END }),
    });
    const card = await screen.findByTestId('subscription-card');
    expect(card.textContent).not.toContain('0 signals');
    expect(within(card).getByTestId('subscription-terms').textContent?.trim()).toBe('$19.00 per month');
  });

  it('offers plans with credits beside a running plan that gives none (professional status alone), not beside one that gives credits', async () => {
    const proOnly = { name: 'Professional monthly', credits: 0, price: 1900, interval: 'month' };
    const view = await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER | PROFESSIONAL),
      handlers: server({ type: 3, product: proOnly, recurringPeriodEnd: PERIOD_END }),
    });
    expect(await screen.findByTestId('product-price_plan')).toBeTruthy();
    view.router.dispose();
    document.body.innerHTML = '';
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server({ type: 3, product: plan, recurringPeriodEnd: PERIOD_END }),
    });
    await screen.findByTestId('product-price_pack');
    expect(screen.queryByTestId('product-price_plan')).toBeNull();
  });

  it('tells in the credit history why a refund gave back 0: its note (the credit lapsed)', async () => {
    const refund = {
      id: 2,
      createdAt: Date.UTC(2024, 10, 20),
      credits: 0,
      cause: 'refund',
      balanceAfter: 5,
      note: '1 of 1 credits lapsed with their plan period',
    };
    const signup = {
      id: 1,
      createdAt: Date.UTC(2024, 0, 31),
      credits: 5,
      cause: 'signup',
      balanceAfter: 5,
      note: null,
    };
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server({}, { AccountLedger: fixture(() => ({ data: { accountLedger: [refund, signup] } })) }),
    });
    const history = () => screen.getByRole('region', { name: 'Credit history' });
    await waitFor(() => expect(within(history()).getByText('+5')).toBeTruthy());
    expect(within(history()).getByText('1 of 1 credits lapsed with their plan period')).toBeTruthy();
  });

  it('opens the billing portal from Manage billing', async () => {
    const assign = leaving();
    const { calls } = await renderRoute('/me/account', { user: fakeUser(CUSTOMER), handlers: server() });
    fireEvent.click(await screen.findByRole('button', { name: 'Manage billing' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://stripe.test/portal'));
    expect(calls('AccountPaymentSession')[0]?.variables).toEqual({});
  });

  it("lists recent payments in dollars, 'per month' for a plan's, and downloads an invoice", async () => {
    const assign = leaving();
    const payments = [
      {
        credits: 300,
        price: 2000,
        currency: 'usd',
        createdAt: Date.UTC(2024, 10, 24, 12),
        stripeInvoiceId: 'in_plan',
        description: 'Pro plan',
        interval: 'month',
      },
      {
        credits: 100,
        price: 1099,
        currency: 'usd',
        createdAt: Date.UTC(2024, 10, 20, 12),
        stripeInvoiceId: null,
        description: '100 signal credits',
        interval: null,
      },
    ];
    const { calls } = await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server(
        { payments },
        {
          AccountInvoice: fixture(({ variables }) => ({
            data: {
              accountInvoice: { id: variables.id, invoicePdf: `https://pay.stripe.test/${String(variables.id)}.pdf` },
            },
          })),
        },
      ),
    });
    const table = (await screen.findByRole('heading', { name: 'Recent payments' })).closest('section') as HTMLElement;
    const [, first, second] = within(table).getAllByRole('row') as HTMLElement[];
    expect(first?.textContent).toContain('$20.00 per month');
    expect(second?.textContent).toContain('$10.99');
    expect(second?.textContent).not.toContain('per month');
    fireEvent.click(within(first as HTMLElement).getByRole('button', { name: 'Download PDF' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.stripe.test/in_plan.pdf'));
    expect(calls('AccountInvoice')[0]?.variables).toEqual({ id: 'in_plan' });
  });

  it('says so when an invoice cannot be opened, and takes the focus to it', async () => {
    const payment = {
      credits: 300,
      price: 2000,
      currency: 'usd',
      createdAt: Date.UTC(2024, 10, 24, 12),
      stripeInvoiceId: 'in_gone',
      description: 'Pro plan',
      interval: 'month',
    };
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server(
        { payments: [payment] },
        { AccountInvoice: fixture(() => graphQLError('No invoice in_gone', 'NOT_FOUND')) },
      ),
    });
    const table = (await screen.findByRole('heading', { name: 'Recent payments' })).closest('section') as HTMLElement;
    const download = within(table).getByRole('button', { name: 'Download PDF' });
    download.focus();
    fireEvent.click(download);
    const alert = await within(table).findByRole('alert');
    expect(alert.textContent).toBe('No invoice in_gone');
    // Download PDF was disabled while asking: the focus goes to the failure.
    await waitFor(() => expect(document.activeElement).toBe(alert));
  });

  it('shows each payment and the plan in its own currency (yen have no minor units), and a refunded payment as refunded', async () => {
    const payment = { createdAt: Date.UTC(2024, 10, 24, 12), stripeInvoiceId: null, interval: null, refunded: 0 };
    const payments = [
      { ...payment, credits: 100, price: 1500, currency: 'jpy', description: 'Yen pack' },
      { ...payment, credits: 100, price: 1099, currency: 'eur', description: 'Euro pack', refunded: 1099 },
      { ...payment, credits: 300, price: 3297, currency: 'gbp', description: 'Pound pack', refunded: 1099 },
    ];
    const euroPlan = { type: 3, product: { ...plan, currency: 'eur' }, recurringPeriodEnd: PERIOD_END };
    await renderRoute('/me/account', { user: fakeUser(CUSTOMER), handlers: server({ payments, ...euroPlan }) });
    expect((await screen.findByTestId('subscription-card')).textContent).toContain('€20.00');
    const table = (await screen.findByRole('heading', { name: 'Recent payments' })).closest('section') as HTMLElement;
    const [, yen, euro, pound] = within(table).getAllByRole('row') as HTMLElement[];
    expect(yen?.textContent).toContain('¥1,500');
    expect(yen?.textContent).not.toContain('Refunded');
    expect(euro?.textContent).toContain('€10.99');
    expect(euro?.textContent).toContain('Refunded');
    expect(pound?.textContent).toContain('£32.97');
    expect(pound?.textContent).toContain('£10.99 refunded');
  });

  it('shows a disputed payment as under review, then won or lost, not as refunded', async () => {
    const payment = { ...paidPack(Date.UTC(2024, 10, 24, 12)), price: 3900 };
    const dispute = (status: string, amount = 3900) => ({ status, amount });
    const payments = [
      { ...payment, description: 'Open', refunded: 3900, dispute: dispute('open') },
      { ...payment, description: 'Won', refunded: 0, dispute: dispute('won') },
      { ...payment, description: 'Lost', refunded: 3900, dispute: dispute('lost') },
      // 9.00 refunded, then the rest disputed.
      { ...payment, description: 'Part', refunded: 3900, dispute: dispute('open', 3000) },
    ];
    await renderRoute('/me/account', { user: fakeUser(CUSTOMER), handlers: server({ payments }) });
    const table = (await screen.findByRole('heading', { name: 'Recent payments' })).closest('section') as HTMLElement;
    const [, open, won, lost, part] = within(table).getAllByRole('row') as HTMLElement[];
    expect(open?.textContent).toContain('Disputed: under review');
    expect(open?.textContent).not.toContain('Refunded');
    expect(won?.textContent).toContain('Dispute won');
    expect(won?.textContent).not.toContain('Refunded');
    expect(lost?.textContent).toContain('Dispute lost');
    expect(lost?.textContent).not.toContain('Refunded');
    expect(part?.textContent).toContain('$9.00 refunded');
    expect(part?.textContent).toContain('Disputed: under review ($30.00)');
  });

  it('after Checkout asks the account again until the payment shows, then confirms', async () => {
    sessionStorage.setItem('checkoutSince', String(Date.UTC(2024, 0, 1)));
    let asked = 0;
    const paid = paidPack(Date.UTC(2024, 10, 20));
    await renderRoute('/me/account?checkout=success', {
      user: fakeUser(CUSTOMER),
      handlers: server(
        {},
        {
          AccountCredits: fixture(() => {
            asked += 1;
            return { data: { account: account(asked >= 2 ? { payments: [paid] } : {}) } };
          }),
        },
      ),
    });
    expect((await screen.findByTestId('checkout-return')).textContent).toMatch(/appear as soon as Stripe confirms/);
    await waitFor(
      () => expect(screen.getByTestId('checkout-return').textContent).toBe('Payment confirmed: your credits are in.'),
      {
        timeout: 6000,
      },
    );
    // Cleared by the confirmation's effect, which may run just after the text is painted.
    await waitFor(() => expect(sessionStorage.getItem('checkoutSince')).toBeNull());
  });

  it('after Checkout of a plan with a free trial says the trial started, not that credits are in', async () => {
    sessionStorage.setItem('checkoutSince', String(Date.UTC(2024, 0, 1)));
    const trialInvoice = {
      ...paidPack(Date.UTC(2024, 10, 20)),
      credits: 0,
      price: 0,
      description: 'Pro plan (free trial)',
      stripeInvoiceId: 'in_trial',
    };
    await renderRoute('/me/account?checkout=success', {
      user: fakeUser(CUSTOMER),
      handlers: server({ payments: [trialInvoice] }),
    });
    await waitFor(() =>
      expect(screen.getByTestId('checkout-return').textContent).toBe(
        'Free trial started: nothing is charged until it ends. Your plan’s credits come with its first payment.',
      ),
    );
  });

  it('after Checkout keeps the billing page when asking the account again fails for a moment', async () => {
    sessionStorage.setItem('checkoutSince', String(Date.UTC(2024, 0, 1)));
    let asked = 0;
    const { calls } = await renderRoute('/me/account?checkout=success', {
      user: fakeUser(CUSTOMER),
      handlers: server(
        {},
        {
          AccountCredits: fixture(() => {
            asked += 1;
            return asked >= 2
              ? graphQLError('Service unavailable', 'INTERNAL_SERVER_ERROR')
              : { data: { account: account({ payments: [paidPack(Date.UTC(2023, 5, 1))] }) } };
          }),
        },
      ),
    });
    expect(await screen.findByRole('heading', { name: 'Recent payments' })).toBeTruthy();
    await waitFor(() => expect(calls('AccountCredits').length).toBeGreaterThanOrEqual(2), { timeout: 6000 });
    await act(async () => {});
    await act(async () => {});
    expect(screen.getByRole('heading', { name: 'Recent payments' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Buy signals' })).toBeTruthy();
    expect(screen.getByTestId('account-balance').textContent).toContain('105');
    expect(screen.getByTestId('checkout-return').textContent).toMatch(/appear as soon as Stripe confirms/);
  });

  it('after Checkout shows the purchase in the credit history too, once the payment shows', async () => {
    sessionStorage.setItem('checkoutSince', String(Date.UTC(2024, 0, 1)));
    let paidYet = false;
    const paid = paidPack(Date.UTC(2024, 10, 20));
    const signup = { id: 1, createdAt: Date.UTC(2024, 0, 31), credits: 5, cause: 'signup', balanceAfter: 5 };
    const purchase = { id: 2, createdAt: Date.UTC(2024, 10, 20), credits: 100, cause: 'purchase', balanceAfter: 105 };
    let accountAsked = 0;
    await renderRoute('/me/account?checkout=success', {
      user: fakeUser(CUSTOMER),
      handlers: server(
        {},
        {
          AccountCredits: fixture(() => {
            accountAsked += 1;
            // Stripe's webhook lands between the first and the second look.
            if (accountAsked >= 2) paidYet = true;
            return { data: { account: account(paidYet ? { payments: [paid] } : {}) } };
          }),
          AccountLedger: fixture(() => ({ data: { accountLedger: paidYet ? [purchase, signup] : [signup] } })),
        },
      ),
    });
    const history = () => screen.getByRole('region', { name: 'Credit history' });
    await waitFor(() => expect(within(history()).getByText('+5')).toBeTruthy());
    await waitFor(
      () => expect(screen.getByTestId('checkout-return').textContent).toBe('Payment confirmed: your credits are in.'),
      { timeout: 6000 },
    );
    await waitFor(() => expect(within(history()).getByText('+100')).toBeTruthy());
  });

  it('after Checkout drops the "No signals left" banner once the payment shows', async () => {
    sessionStorage.setItem('checkoutSince', String(Date.UTC(2024, 0, 1)));
    let paidYet = false;
    const paid = paidPack(Date.UTC(2024, 10, 20));
    let accountAsked = 0;
    await renderRoute('/me/account?checkout=success', {
      user: fakeUser(CUSTOMER),
      handlers: server(
        {},
        {
          AccountCredits: fixture(() => {
            accountAsked += 1;
            if (accountAsked >= 2) paidYet = true;
            return { data: { account: account(paidYet ? { payments: [paid] } : {}) } };
          }),
          CreditsBanner: fixture(() => ({
            data: { account: { balance: paidYet ? 100 : 0, lastGrant: 100, unlimited: false, cardPayments: true } },
          })),
        },
      ),
    });
    expect((await screen.findByTestId('credits-banner')).textContent).toContain('No signals left.');
    await waitFor(
      () => expect(screen.getByTestId('checkout-return').textContent).toBe('Payment confirmed: your credits are in.'),
      { timeout: 6000 },
    );
    await waitFor(() => expect(screen.queryByTestId('credits-banner')).toBeNull());
  });

  it('stays confirmed when the page is still open a quarter of an hour after the payment', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const paidAt = Date.UTC(2026, 10, 20, 9, 0);
    vi.setSystemTime(paidAt + 60_000);
    sessionStorage.setItem('checkoutSince', String(paidAt - 60_000));
    const paid = paidPack(paidAt);
    leaving();
    await renderRoute('/me/account?checkout=success', {
      user: fakeUser(CUSTOMER),
      handlers: server({ payments: [paid] }),
    });
    await waitFor(() =>
      expect(screen.getByTestId('checkout-return').textContent).toBe('Payment confirmed: your credits are in.'),
    );
    vi.setSystemTime(paidAt + 20 * 60_000);
    // Anything that draws the page again (here: opening the billing portal).
    fireEvent.click(screen.getAllByRole('button', { name: 'Manage billing' })[0] as HTMLElement);
    await waitFor(() => expect(screen.getAllByRole('button', { name: /Opening Stripe/ }).length).toBeGreaterThan(0));
    expect(screen.getByTestId('checkout-return').textContent).toBe('Payment confirmed: your credits are in.');
  });

  it('invites a user who is not professional to apply, and not a professional', async () => {
    await renderRoute('/me/account', { user: fakeUser(CUSTOMER), handlers: server() });
    expect((await screen.findByRole('link', { name: 'Apply for professional status' })).getAttribute('href')).toBe(
      '/me/account/upgrade',
    );
    document.body.innerHTML = '';
    await renderRoute('/me/account', { user: fakeUser(CUSTOMER | PROFESSIONAL), handlers: server() });
    await screen.findByTestId('product-price_pack');
    expect(screen.queryByText('Request professional status')).toBeNull();
  });

  it('tells an administrator acting as the user that only the user can apply, without the links', async () => {
    sessionStorage.setItem('proxiedUserEmail', 'trader@example.com');
    await renderRoute('/me/account', { user: fakeUser(CUSTOMER), handlers: server() });
    const card = await screen.findByTestId('professional-card');
    expect(card.textContent).toContain(
      'The professional application is a statement of the user: only they can send it, not an administrator acting as them.',
    );
    expect(within(card).queryByRole('link')).toBeNull();
    sessionStorage.removeItem('proxiedUserEmail');
  });

  it('leads a user whose application is on file on to its payment, not to the whole form again', async () => {
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server({ professionalAppliedAt: Date.UTC(2026, 10, 20) }),
    });
    const card = await screen.findByTestId('professional-card');
    expect(card.textContent).toContain('Your application was received.');
    expect(within(card).getByRole('link', { name: 'Continue to payment' }).getAttribute('href')).toBe(
      '/me/account/upgrade/checkout',
    );
    expect(within(card).getByRole('link', { name: 'Change your answers' }).getAttribute('href')).toBe(
      '/me/account/upgrade',
    );
    expect(within(card).queryByRole('link', { name: 'Apply for professional status' })).toBeNull();
    // Without card payments an administrator grants it: no payment to continue to.
    document.body.innerHTML = '';
    await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server({ professionalAppliedAt: Date.UTC(2026, 10, 20), cardPayments: false }),
    });
    const offline = await screen.findByTestId('professional-card');
    expect(offline.textContent).toContain('an administrator reviews your application and grants it');
    expect(within(offline).queryByRole('link', { name: 'Continue to payment' })).toBeNull();
  });
});

describe('Account & Billing while signals come in', () => {
  it('shows the signals left and spent anew when the server tells of new activity', async () => {
    let spent = 0;
    let tell: (payload: GraphQLPayload) => void = () => {};
    const { calls } = await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server(
        {},
        {
          AccountCredits: fixture(() => ({
            data: { account: account({ balance: 105 - spent, credits: 105 - spent, signalsSpent: spent }) },
          })),
          Live: fixture(
            () =>
              new Promise<GraphQLPayload>((resolve) => {
                tell = resolve;
              }),
          ),
        },
      ),
    });
    await waitFor(() => expect(screen.getByTestId('account-balance-value').textContent).toBe('105'));
    await waitFor(() => expect(calls('Live')).toHaveLength(1));
    // A live signal spent a credit.
    spent = 1;
    await act(async () => tell({ data: { live: { kind: 'activity', at: 1 } } }));
    await waitFor(() => expect(screen.getByTestId('account-balance-value').textContent).toBe('104'));
    expect(screen.getByTestId('account-spent-value').textContent).toBe('1');
  });
});

describe('Account & Billing without card payments', () => {
  it('says how credits are granted and offers nothing to buy', async () => {
    const { calls } = await renderRoute('/me/account', {
      user: fakeUser(CUSTOMER),
      handlers: server({ cardPayments: false }),
    });
    expect(await screen.findByText(/Card payments are not configured on this server/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Manage billing' })).toBeNull();
    expect(screen.queryByText('Buy signals')).toBeNull();
    expect(calls('AccountProducts')).toEqual([]);
  });
});
