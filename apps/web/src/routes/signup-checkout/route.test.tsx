import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stripeJs } from '../../features/billing/stripe-js.ts';
import { fixture, graphQLError } from '../../test/fake-server.ts';
import { click, renderRoute, where } from '../../test/render-route.tsx';

const QUERY = '?stripe_price_id=price_pack&stripe_email=new%40example.com';
const session = {
  clientSecret: 'cs_test_1_secret_2',
  total: 989,
  currency: 'usd',
  description: '100 signal credits',
  publishableKey: 'pk_test_1',
};

afterEach(() => vi.restoreAllMocks());

describe('Signup checkout (SPEC §2, §4, §8)', () => {
  it('goes to success keeping the query when the price id is not a price_', async () => {
    const { router } = await renderRoute('/signup/checkout?stripe_price_id=plan_1&stripe_email=a%40b.c');
    await waitFor(() => expect(where(router)).toBe('/signup/success?stripe_price_id=plan_1&stripe_email=a%40b.c'));
  });

  it('goes to success when the payment session cannot be made', async () => {
    const { router } = await renderRoute(`/signup/checkout${QUERY}`, {
      handlers: {
        AccountSignupPaymentSession: fixture(() => graphQLError('Sign in to buy credits on Account & Billing')),
      },
    });
    await waitFor(() => expect(where(router)).toBe(`/signup/success${QUERY}`));
  });

  it('shows the total and description, and says so clearly when Stripe.js cannot load', async () => {
    const load = vi.spyOn(stripeJs, 'load').mockResolvedValue(null);
    const { calls } = await renderRoute(`/signup/checkout${QUERY}&coupon=WELCOME10`, {
      handlers: { AccountSignupPaymentSession: fixture(() => ({ data: { accountSignupPaymentSession: session } })) },
    });
    expect((await screen.findByTestId('checkout-total')).textContent).toBe('Total: $9.89');
    expect(screen.getByText('100 signal credits')).toBeTruthy();
    expect((await screen.findByTestId('card-form-unavailable')).textContent).toMatch(/could not be loaded from Stripe/);
    expect(load).toHaveBeenCalledWith('pk_test_1');
    expect(calls('AccountSignupPaymentSession')[0]?.variables).toMatchObject({
      email: 'new@example.com',
      stripePriceId: 'price_pack',
      coupon: 'WELCOME10',
      successUrl: `${window.location.origin}/signup/success${QUERY}&coupon=WELCOME10`,
    });
  });

  it("shows the total in the plan's currency, not always in dollars", async () => {
    vi.spyOn(stripeJs, 'load').mockResolvedValue(null);
    await renderRoute(`/signup/checkout${QUERY}`, {
      handlers: {
        AccountSignupPaymentSession: fixture(() => ({
          data: { accountSignupPaymentSession: { ...session, total: 1999, currency: 'eur' } },
        })),
      },
    });
    expect((await screen.findByTestId('checkout-total')).textContent).toBe('Total: €19.99');
  });

  it('names an unknown promotion code and goes on without it', async () => {
    vi.spyOn(stripeJs, 'load').mockResolvedValue(null);
    const { calls } = await renderRoute(`/signup/checkout${QUERY}`, {
      handlers: {
        AccountSignupPaymentSession: fixture(({ variables }) =>
          variables.promotionCode === ''
            ? { data: { accountSignupPaymentSession: { ...session, total: 1099 } } }
            : {
                data: null,
                errors: [
                  {
                    message: 'The promotion code "OLD" is unknown or has expired',
                    extensions: { code: 'BAD_USER_INPUT', field: 'promotionCode' },
                  },
                ],
              },
        ),
      },
    });
    expect(await screen.findByText('The promotion code "OLD" is unknown or has expired')).toBeTruthy();
    click('Continue without the code');
    expect((await screen.findByTestId('checkout-total')).textContent).toBe('Total: $10.99');
    expect(calls('AccountSignupPaymentSession')[1]?.variables.promotionCode).toBe('');
  });
});
