import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaveFor } from '../../features/billing/leave-for.ts';
import type { FakeHandler, FakeRequest } from '../../test/fake-server.ts';
import { fakeUser, fixture, graphQLError } from '../../test/fake-server.ts';
import { click, fill, renderRoute, where } from '../../test/render-route.tsx';

const STRONG = 'Tr4il-Mix-Quasar!';
const estimate = ({ variables }: FakeRequest) => ({
  data: { authPasswordEstimate: String(variables.password) === STRONG ? 14 : 6 },
});
const signedUp = () => ({ data: { signup: { id: 'u1', email: 'jo@example.com', firstName: 'Jo' } } });

function fillForm(password = STRONG) {
  fill('First name', 'Jo');
  fill('Email', 'jo@example.com');
  fill('Password', password);
  fill('Password confirmation', password);
  fireEvent.click(screen.getByRole('checkbox'));
}

describe('sign-up screen (SPEC §2, §5, §8)', () => {
  it('checks email, confirmation, terms and name length', async () => {
    const { calls } = await renderRoute('/signup', { handlers: { AuthPasswordEstimate: estimate } });
    fill('First name', 'J'.repeat(33));
    fill('Email', 'not-an-email');
    fill('Password', STRONG);
    fill('Password confirmation', 'other');
    click('Create account');
    expect(await screen.findByText('Invalid email')).toBeTruthy();
    expect(screen.getByText('Required')).toBeTruthy();
    expect(screen.getByText('At most 32 characters')).toBeTruthy();
    // The pair is compared once the fields themselves are valid (the shared schema's refinement).
    fill('First name', 'Jo');
    fill('Email', 'jo@example.com');
    fireEvent.click(screen.getByRole('checkbox'));
    click('Create account');
    expect(await screen.findByText("Password confirmation doesn't match password.")).toBeTruthy();
    expect(calls('Signup')).toHaveLength(0);
  });

  it('draws the strength bar at score × 10 %, asking only for passwords longer than 3', async () => {
    const { calls } = await renderRoute('/signup', { handlers: { AuthPasswordEstimate: estimate } });
    fill('Password', 'abc');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(calls('AuthPasswordEstimate')).toHaveLength(0);
    fill('Password', 'abcd');
    await waitFor(() => expect(screen.getByTestId('password-strength').style.width).toBe('60%'));
    expect(calls('AuthPasswordEstimate')[0]?.variables).toEqual({ password: 'abcd' });
  });

  it("refuses a weak password with 'Password too weak.'", async () => {
    const { calls } = await renderRoute('/signup', { handlers: { AuthPasswordEstimate: estimate } });
    fillForm('abcdefgh');
    click('Create account');
    expect(await screen.findByText('Password too weak.')).toBeTruthy();
    expect(calls('Signup')).toHaveLength(0);
  });

  it('says a password is too weak on the same submit as the other fields’ errors, not one round later', async () => {
    await renderRoute('/signup', { handlers: { AuthPasswordEstimate: estimate } });
    fillForm('abcdefgh');
    fill('Email', 'jo@example');
    click('Create account');
    expect(await screen.findByText('Invalid email')).toBeTruthy();
    expect(await screen.findByText('Password too weak.')).toBeTruthy();
  });

  it('sends the referrer, joined codes and price id, then goes to checkout with stripe_email', async () => {
    const { router, calls } = await renderRoute('/signup/friend42?code=A&code=B&stripe_price_id=price_9', {
      handlers: { AuthPasswordEstimate: estimate, Signup: signedUp },
    });
    fillForm();
    click('Create account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signup/checkout'));
    expect(calls('Signup')[0]?.variables).toEqual({
      type: 'password',
      credentials: { email: 'jo@example.com', password: STRONG },
      firstName: 'Jo',
      referrerCode: 'friend42',
      promotionCode: 'A,B',
      stripePriceId: 'price_9',
    });
    expect(new URLSearchParams(router.state.location.search).get('stripe_email')).toBe('jo@example.com');
  });

  it('without a price id thanks the person on /signup/success', async () => {
    const { router } = await renderRoute('/signup', { handlers: { AuthPasswordEstimate: estimate, Signup: signedUp } });
    fillForm();
    click('Create account');
    expect(
      await screen.findByText('Thank you for the registration. Please check for the confirmation email to continue.'),
    ).toBeTruthy();
    expect(where(router)).toBe('/signup/success');
  });

  it("shows the server's message, or the fallback when it is 'Error'", async () => {
    let message = 'This email is already registered';
    await renderRoute('/signup', {
      handlers: { AuthPasswordEstimate: estimate, Signup: fixture(() => graphQLError(message)) },
    });
    fillForm();
    click('Create account');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('This email is already registered');
    // Above a long form whose button was disabled by the call: the failure takes the focus (and the view).
    await waitFor(() => expect(document.activeElement).toBe(alert));
    message = 'Error';
    screen.getByRole('button', { name: 'Create account' }).focus();
    click('Create account');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe("We can't sign you up with these credentials"),
    );
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('alert')));
  });

  it('links the terms of service', async () => {
    await renderRoute('/signup');
    expect(screen.getByRole('link', { name: 'terms of service' }).getAttribute('href')).toBe('/terms-of-service');
  });
});

const campaign = (isActive: boolean, credits = 100) =>
  fixture(({ variables }) => ({
    data: {
      signupReferrer:
        String(variables.code).toLowerCase() === 'k7m2q9xa'
          ? { code: 'k7m2q9xa', name: 'Spring', credits, isActive }
          : null,
    },
  }));

describe('sign-up through a referrer link (issue 15)', () => {
  const referralField = () => screen.getByLabelText(/Referral code/) as HTMLInputElement;

  it('fills in the code of /signup/{code} and tells the campaign’s credits', async () => {
    await renderRoute('/signup/k7m2q9xa', { handlers: { SignupReferrer: campaign(true) } });
    expect(referralField().value).toBe('k7m2q9xa');
    expect(await screen.findByText('You get 100 extra signals once you confirm your email.')).toBeTruthy();
  });

  it('groups a large number of credits (en-US, SPEC §9)', async () => {
    await renderRoute('/signup/k7m2q9xa', { handlers: { SignupReferrer: campaign(true, 2500) } });
    expect(await screen.findByText('You get 2,500 extra signals once you confirm your email.')).toBeTruthy();
  });

  it('says so when the campaign was deleted, or when the code is not ours', async () => {
    await renderRoute('/signup/k7m2q9xa', { handlers: { SignupReferrer: campaign(false) } });
    expect(
      await screen.findByText('This referral link has been deleted: signing up through it gives no extra signals'),
    ).toBeTruthy();
    fill(/Referral code/, 'bogus123');
    expect(await screen.findByText('This referral code is not valid')).toBeTruthy();
  });

  it('takes a ?code= of ours as the referral code; other codes stay promotion codes', async () => {
    const { calls } = await renderRoute('/signup?code=K7M2Q9XA&code=PROMO', {
      handlers: { AuthPasswordEstimate: estimate, Signup: signedUp, SignupReferrer: campaign(true) },
    });
    await waitFor(() => expect(referralField().value).toBe('k7m2q9xa'));
    fillForm();
    click('Create account');
    await waitFor(() => expect(calls('Signup')).toHaveLength(1));
    expect(calls('Signup')[0]?.variables).toMatchObject({ referrerCode: 'k7m2q9xa', promotionCode: 'K7M2Q9XA,PROMO' });
  });

  it('sends no referrer for a promotion code alone', async () => {
    const { calls } = await renderRoute('/signup?code=PROMO', {
      handlers: { AuthPasswordEstimate: estimate, Signup: signedUp, SignupReferrer: campaign(true) },
    });
    await waitFor(() => expect(calls('SignupReferrer').length).toBeGreaterThan(0));
    expect(referralField().value).toBe('');
    fillForm();
    click('Create account');
    await waitFor(() => expect(calls('Signup')).toHaveLength(1));
    expect(calls('Signup')[0]?.variables.referrerCode).toBeUndefined();
    expect(calls('Signup')[0]?.variables.promotionCode).toBe('PROMO');
  });

  it('keeps the code through a social sign-up: token sign-up first, then sign-in', async () => {
    let signedIn = false;
    const { calls, router } = await renderRoute('/signup/k7m2q9xa?code=PROMO#id_token=google-id-token', {
      handlers: {
        SignupReferrer: campaign(true),
        Signup: () => ({ data: { signup: { id: 'u1', email: 'jo@example.com', firstName: null } } }),
        Signin: () => {
          signedIn = true;
          return { data: { signin: { token: 'session', issuer: 'user', email: null } } };
        },
        User: () => (signedIn ? { data: { user: fakeUser(4) } } : graphQLError('Sign in first', 'UNAUTHENTICATED')),
      },
    });
    await waitFor(() => expect(where(router)).toBe('/me'));
    expect(calls('Signin')).toHaveLength(1);
    expect(calls('Signup')[0]?.variables).toEqual({
      type: 'token',
      credentials: { issuer: 'google', token: 'google-id-token' },
      firstName: null,
      lastName: null,
      referrerCode: 'k7m2q9xa',
      promotionCode: 'PROMO',
    });
  });
});

describe('social sign-up with a price (SPEC §4: with price id go to checkout)', () => {
  afterEach(() => vi.restoreAllMocks());

  function socialSignup(search: string, checkout: FakeHandler) {
    let signedIn = false;
    return renderRoute(`/signup${search}#id_token=google-id-token`, {
      handlers: {
        Signup: () => ({ data: { signup: { id: 'u1', email: 'jo@example.com', firstName: null } } }),
        Signin: () => {
          signedIn = true;
          return { data: { signin: { token: 'session', issuer: 'user', email: null } } };
        },
        User: () => (signedIn ? { data: { user: fakeUser(4) } } : graphQLError('Sign in first', 'UNAUTHENTICATED')),
        AccountPaymentSession: fixture(checkout),
      },
    });
  }

  it('signs in, then leaves for Stripe Checkout for the chosen price and coupon', async () => {
    const assign = vi.spyOn(leaveFor, 'assign').mockImplementation(() => {});
    const { calls, router } = await socialSignup('?stripe_price_id=price_pro&coupon=WELCOME10', () => ({
      data: { accountPaymentSession: { url: 'https://stripe.test/checkout/cs_1' } },
    }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://stripe.test/checkout/cs_1'));
    expect(calls('Signup')[0]?.variables.stripePriceId).toBe('price_pro');
    expect(calls('AccountPaymentSession')[0]?.variables).toEqual({ stripePriceId: 'price_pro', coupon: 'WELCOME10' });
    expect(where(router)).toBe('/me/account');
  });

  it('stays on Account & Billing, signed in, when Checkout cannot be opened', async () => {
    const assign = vi.spyOn(leaveFor, 'assign').mockImplementation(() => {});
    const { calls, router } = await socialSignup('?stripe_price_id=price_pro', () =>
      graphQLError('Card payments are not configured'),
    );
    await waitFor(() => expect(calls('AccountPaymentSession')).toHaveLength(1));
    await waitFor(() => expect(where(router)).toBe('/me/account'));
    expect(assign).not.toHaveBeenCalled();
  });

  it('goes to the sign-in target as before without a price id starting with price_', async () => {
    const { calls, router } = await socialSignup('?stripe_price_id=plan_1', () => graphQLError('unexpected'));
    await waitFor(() => expect(where(router)).toBe('/me'));
    expect(calls('AccountPaymentSession')).toHaveLength(0);
  });
});

describe('signup checkout (SPEC §2)', () => {
  it('skips to success keeping the query when the price id does not start with price_', async () => {
    const { router } = await renderRoute('/signup/checkout?stripe_price_id=plan_1&stripe_email=jo%40x.io');
    await screen.findByRole('heading', { level: 1, name: 'Registration complete' });
    expect(where(router)).toBe('/signup/success?stripe_price_id=plan_1&stripe_email=jo%40x.io');
  });
});
