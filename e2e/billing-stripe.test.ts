// Card payments end to end (issue 14) against a server with Stripe configured, its Stripe being
// the repository's fake (apps/server/test/stripe-fake), which sends signed webhooks back to the
// server. Offline: Checkout and the billing portal are the fake's own hosted pages; js.stripe.com
// is unreachable, so the sign-up card form says it cannot load and the test pays as Stripe.js
// would have. Credits, professional status and payments come from the webhooks only.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserNonce, type LocalJwks, startLocalJwks } from '../apps/server/test/jwks.ts';
import { PACK_100, PLAN_MONTHLY } from '../apps/server/test/stripe-fake/catalog.ts';
import { stripeEnv } from '../apps/server/test/stripe-fake/client.ts';
import { type StripeFake, startStripeFake } from '../apps/server/test/stripe-fake/server.ts';
import { openPage } from './browser.ts';
import { mailCount, mailLink } from './server-mail.ts';
import { DESKTOP, PHONE, saveScreen, useBrowser } from './support/screens.ts';
import { type E2eServer, startE2eServer, targetServer } from './support/server.ts';
import { createUser, graphql, signInPage } from './support/users.ts';

const WEBHOOK_SECRET = 'whsec_e2e_stripe_fake_endpoint';
const GOOGLE_CLIENT_ID = 'google-client.apps.test';
const browser = useBrowser();
let fake: StripeFake;
let server: E2eServer;
// Google's ID tokens, signed by a local key set (Google's own script is unreachable offline; the
// sign-up screen also reads a token from the address hash, SPEC §2, with the nonce value the
// sign-in's start kept in session storage).
let jwks: LocalJwks;

beforeAll(async () => {
  fake = await startStripeFake();
  jwks = await startLocalJwks();
  server = await startE2eServer(
    { ...stripeEnv(fake, WEBHOOK_SECRET), GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: jwks.url },
    'stripe',
  );
  fake.webhooks.endpoint = { url: `${server.baseUrl}/api/stripe/webhook`, secret: WEBHOOK_SECRET };
  targetServer(server);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await jwks?.close();
});

const tileValue = (page: Page, id: string) => page.getByTestId(`${id}-value`).textContent();
const balanceOf = async (token: string) =>
  (await graphql<{ account: { balance: number } }>(token, '{ account { balance } }')).account.balance;

async function payOnStripe(page: Page, amount: string) {
  await page.waitForURL(`${fake.url}/c/pay/**`);
  await page.getByRole('heading', { name: `Pay ${amount} USD` }).waitFor();
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
}

describe('card payments with Stripe', () => {
  it('buys a pack on Stripe Checkout: the credits come with the webhook, never with the success page', async () => {
    const user = await createUser('stripe-pack');
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/account');
    await expect.poll(() => tileValue(page, 'account-balance')).toBe('5');
    const pack = page.getByTestId(`product-${PACK_100}`);
    await pack.getByText('$10.99').waitFor();
    await saveScreen(page, 'billing-stripe-offer-desktop', true);

    await pack.getByRole('button', { name: 'Buy' }).click();
    await payOnStripe(page, '10.99');
    await page.waitForURL(/\/me\/account\?checkout=success$/);
    await expect
      .poll(() => page.getByTestId('checkout-return').textContent())
      .toBe('Payment confirmed: your credits are in.');
    await expect.poll(() => tileValue(page, 'account-balance')).toBe('105');
    const payments = page.locator('section', { has: page.getByRole('heading', { name: 'Recent payments' }) });
    await payments.getByText('100 signal credits').waitFor();
    const history = page.locator('section', { has: page.getByRole('heading', { name: 'Credit history' }) });
    await history.getByText('Purchase').waitFor();
    const [pdf] = await Promise.all([
      page.waitForRequest(/\/invoice\/in_\w+\/pdf$/),
      payments.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(pdf.url().startsWith(fake.url)).toBe(true);
    await saveScreen(page, 'billing-stripe-paid-desktop', true);

    // Stripe holds its webhooks back: paid and returned, yet nothing is granted until they come.
    fake.webhooks.mode = 'manual';
    try {
      await page.goto('/me/account');
      await page.getByTestId(`product-${PACK_100}`).getByRole('button', { name: 'Buy' }).click();
      await payOnStripe(page, '10.99');
      await page.waitForURL(/\/me\/account\?checkout=success$/);
      await expect.poll(() => page.getByTestId('checkout-return').textContent()).toMatch(/as soon as Stripe confirms/);
      expect(await balanceOf(user.token)).toBe(105);
      expect(await fake.webhooks.flush()).toEqual([200, 200]);
    } finally {
      fake.webhooks.mode = 'auto';
    }
    await expect.poll(() => tileValue(page, 'account-balance')).toBe('205');
    expect(errors).toEqual([]);
    await close();

    const phone = await openPage(browser(), PHONE);
    await signInPage(phone.page, user);
    await phone.page.goto('/me/account');
    await phone.page.getByRole('heading', { name: 'Recent payments' }).waitFor();
    await saveScreen(phone.page, 'billing-stripe-account-phone', true);
    expect(phone.errors).toEqual([]);
    await phone.close();
  });

  it('upgrades to professional status: application, payment, status from the webhook', async () => {
    const user = await createUser('stripe-pro');
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await signInPage(page, user);
    await page.goto('/me/account');
    await page.getByRole('link', { name: 'Apply for professional status' }).click();
    await page.getByRole('heading', { level: 1, name: 'Professional status' }).waitFor();
    await page.getByRole('button', { name: 'Apply and continue to payment' }).click();
    expect(await page.getByText('Required').count()).toBe(17);
    await page.getByLabel('Business name').fill('Journey Signals LLC');
    await page.getByLabel('Business website').fill('https://journey.example');
    await page.getByLabel('Business address').fill('1 Main St, Chicago');
    await page.getByLabel('What your business does').fill('Signals for clients');
    await page.getByLabel('Contact person (name, email or phone)').fill('Jo Journey');
    for (const key of 'abcdefghijkl') await page.locator(`#legal-${key}-no`).check();
    await page.getByRole('button', { name: 'Apply and continue to payment' }).click();
    await page.getByText('Your application was received.').waitFor();
    await page.getByText('$49.00').waitFor();
    await page.getByRole('button', { name: 'Pay with card' }).click();
    await payOnStripe(page, '49.00');
    await page.waitForURL(/\/me\/account\/upgrade\/success$/);
    await expect.poll(() => page.getByTestId('upgrade-status').textContent()).toBe('You now have professional status.');
    const { user: me } = await graphql<{ user: { group: number } }>(user.token, '{ user { group } }');
    expect(me.group & 16).toBe(16);
    await saveScreen(page, 'billing-stripe-professional-desktop', false);
    // SPEC §6: a professional cannot open the upgrade page.
    await page.goto('/me/account/upgrade');
    await page.waitForURL(/\/me$/);
    expect(errors).toEqual([]);
    await close();
  });

  it('signs up with a price and a promotion code: the card form says when Stripe.js cannot load', async () => {
    const email = `stripe-signup-${Date.now()}@example.test`;
    const password = 'Quartz-Lantern-42!';
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await page.route('https://js.stripe.com/**', (route) => route.abort());
    const mailsBefore = mailCount();
    await page.goto(`/signup?stripe_price_id=${PACK_100}&code=SPRING`);
    await page.getByLabel('First name').fill('Journey');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await expect.poll(() => page.getByTestId('password-strength').evaluate((bar) => bar.style.width)).toBe('100%');
    await page.getByLabel('Password confirmation').fill(password);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/signup\/checkout\?/);
    await expect.poll(() => page.getByTestId('checkout-total').textContent()).toBe('Total: $9.89');
    await page.getByTestId('card-form-unavailable').waitFor();
    await saveScreen(page, 'billing-stripe-signup-checkout-desktop', false);

    // Paid as Stripe.js would have confirmed it: the webhook grants the pack to the new account.
    const customer = fake.store.all('customer').find((c) => c.email === email);
    const session = fake.store
      .all('checkout.session')
      .find((s) => s.customer === customer?.id && s.ui_mode === 'elements' && s.status === 'open');
    expect(session?.amount_total).toBe(989);
    fake.checkout.complete(String(session?.id));
    await fake.webhooks.settled();
    await page.getByRole('link', { name: 'Skip for now' }).click();
    await page
      .getByText('Thank you for the registration. Please check for the confirmation email to continue.')
      .waitFor();
    const link = new URL(await mailLink(email, '/auth/email?token=', mailsBefore));
    const { authEmailConfirm } = await graphql<{ authEmailConfirm: { token: string } }>(
      '',
      'mutation ($token: String!) { authEmailConfirm(token: $token) { token } }',
      { token: link.searchParams.get('token') ?? '' },
    );
    expect(await balanceOf(authEmailConfirm.token)).toBe(105);
    // The only errors: the blocked js.stripe.com.
    expect(errors.filter((e) => !/ERR_FAILED|Failed to load resource/.test(e))).toEqual([]);
    await close();
  });

  it('signs up with Google and a plan: on to Stripe Checkout for that plan, then the plan is running', async () => {
    const email = `google-plan-${Date.now()}@example.test`;
    const nonce = browserNonce();
    const token = await jwks.sign({
      iss: 'https://accounts.google.com',
      aud: GOOGLE_CLIENT_ID,
      sub: email,
      email,
      email_verified: true,
      // A Workspace account (hd), which Google vouches for: whichever account confirmed first.
      hd: 'example.test',
      given_name: 'Grace',
      family_name: 'Hopper',
      nonce: nonce.claim,
    });
    const { page, errors, close } = await openPage(browser(), DESKTOP);
    await page.addInitScript((value) => window.sessionStorage.setItem('signinNonce', value), nonce.value);
    await page.goto(`/signup?stripe_price_id=${PLAN_MONTHLY}#id_token=${token}`);
    await page.waitForURL(`${fake.url}/c/pay/**`);
    const customer = fake.store.all('customer').find((c) => c.email === email);
    const session = fake.store.all('checkout.session').find((s) => s.customer === customer?.id);
    expect(session?.mode).toBe('subscription');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/\/me\/account\?checkout=success$/);
    await fake.webhooks.settled();
    await page.reload();
    await page.getByTestId('subscription-card').waitFor();
    // The only errors: Google's script, unreachable offline.
    expect(errors.filter((e) => !/ERR_|Failed to load resource/.test(e))).toEqual([]);
    await close();
  });
});
