// An administrator's removal of professional status (`adminUserProfessional(isProfessional:
// false)`) holds until an administrator grants it again or the user buys it anew: what was bought
// before the removal (a plan's renewals, a refund of it that fails) does not bring it back, and
// the plans that sell it are set to end with the period paid, so Stripe charges them no more.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accountMetadata,
  type Billing,
  buy,
  objectOf,
  ofType,
  paymentSession,
  postEvent,
  startBilling,
  takeEvents,
} from '../../../test/billing.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import { applyForProfessional } from '../../../test/professional-application.ts';
import { PLAN_MONTHLY, PRODUCT_ID, PROFESSIONAL as PROFESSIONAL_PRICE } from '../../../test/stripe-fake/catalog.ts';
import { authenticate } from '../auth/authenticate.ts';
import { clearCatalog } from '../billing/catalog.ts';

let b: Billing;
let adminToken: string;
let planPrice = '';
beforeAll(async () => {
  b = await startBilling({ authenticate });
  adminToken = (await confirmedUser(b.t, 'admin@removal.test')).token;
  const price = await b.stripe.prices.create({
    currency: 'usd',
    unit_amount: 2900,
    recurring: { interval: 'month' },
    nickname: 'Professional desk',
    metadata: { professional: 'true' },
    product: PRODUCT_ID,
  });
  planPrice = price.id;
  clearCatalog(b.t.services);
});
afterAll(() => b?.close());

const GRANT = `mutation($email: String!, $on: Boolean!) {
  adminUserProfessional(email: $email, isProfessional: $on) { group }
}`;
const setStatus = async (email: string, on: boolean) =>
  expect((await gql(b.t.app, GRANT, { email, on }, bearer(adminToken))).errors).toBeUndefined();
const groupOf = async (token: string) =>
  (await gql<{ user: { group: number } }>(b.t.app, '{ user { group } }', {}, bearer(token))).data?.user.group;
const deliver = async (events = takeEvents(b)) => {
  for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
};

/** A confirmed user who applied for professional status (accountUpgrade). */
async function applicant(email: string): Promise<string> {
  const { token } = await confirmedUser(b.t, email);
  await applyForProfessional(b.t, bearer(token));
  return token;
}

describe("an administrator's removal of professional status", () => {
  it('is not undone by the next renewal of the plan that sold it, but by a plan bought after it', async () => {
    const token = await applicant('renewed@removal.test');
    const { events } = await buy(b, bearer(token), planPrice);
    await deliver(events);
    expect(await groupOf(token)).toBe(4 | 16);
    await setStatus('renewed@removal.test', false);
    expect(await groupOf(token)).toBe(4);
    // The account still shows the plan as one selling the status (its card says it gives it no more).
    const shown = await gql<{ account: { product: { professional: boolean } | null } }>(
      b.t.app,
      '{ account { product { professional } } }',
      {},
      bearer(token),
    );
    expect(shown.data?.account.product).toEqual({ professional: true });
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    b.fake.subscriptions.renew(subscriptionId);
    await deliver();
    expect(await groupOf(token)).toBe(4);
    // The trader ends that plan and subscribes again: a purchase of their own after the removal.
    await b.stripe.subscriptions.cancel(subscriptionId);
    await deliver();
    await deliver((await buy(b, bearer(token), planPrice)).events);
    expect(await groupOf(token)).toBe(4 | 16);
  });

  it('is not undone when a refund of the payment made before it fails', async () => {
    const token = await applicant('refund-failed@removal.test');
    const { sessionId, events } = await buy(b, bearer(token), PROFESSIONAL_PRICE);
    await deliver(events);
    const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
    await setStatus('refund-failed@removal.test', false);
    const refund = await b.stripe.refunds.create({ payment_intent: intent, amount: 900 });
    await deliver();
    b.fake.charges.failRefund(refund.id);
    await deliver();
    expect(await groupOf(token)).toBe(4);
  });

  it('leaves a status bought anew to its own payment: refunded in full, it goes though an older plan runs', async () => {
    const token = await applicant('anew@removal.test');
    await deliver((await buy(b, bearer(token), planPrice)).events);
    await setStatus('anew@removal.test', false);
    const { sessionId, events } = await buy(b, bearer(token), PROFESSIONAL_PRICE);
    await deliver(events);
    expect(await groupOf(token)).toBe(4 | 16);
    const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
    await b.stripe.refunds.create({ payment_intent: intent });
    await deliver();
    expect(await groupOf(token)).toBe(4);
  });

  it('ends the plan that sells it with the period paid (no further charge), not a plan of credits beside it', async () => {
    const token = await applicant('plan-ends@removal.test');
    const professional = await buy(b, bearer(token), planPrice);
    await deliver(professional.events);
    const credits = await buy(b, bearer(token), PLAN_MONTHLY);
    await deliver(credits.events);
    const subscriptionOf = (events: typeof credits.events) =>
      b.fake.store.get('subscription', String(objectOf(ofType(events, 'customer.subscription.created')).id));
    await setStatus('plan-ends@removal.test', false);
    const ending = subscriptionOf(professional.events);
    expect(ending).toMatchObject({ status: 'active', cancel_at_period_end: true });
    expect(subscriptionOf(credits.events)).toMatchObject({ status: 'active', cancel_at_period_end: false });
    // Stripe's customer.subscription.updated: the status plan's card shows its Cancel date.
    await deliver();
    const metadata = await accountMetadata<{ membership?: { cancelAt?: number } }>(b, bearer(token));
    expect(metadata.membership?.cancelAt).toBe(ending.cancel_at);
    expect(await groupOf(token)).toBe(4);
  });

  it('ends at once a plan that sells it whose renewal failed, so Stripe’s retries cannot charge it', async () => {
    const token = await applicant('past-due@removal.test');
    const { events } = await buy(b, bearer(token), planPrice);
    await deliver(events);
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    b.fake.subscriptions.renew(subscriptionId, { fail: true });
    await deliver();
    expect(b.fake.store.get('subscription', subscriptionId).status).toBe('past_due');
    await setStatus('past-due@removal.test', false);
    expect(b.fake.store.get('subscription', subscriptionId).status).toBe('canceled');
    await deliver();
    expect(await groupOf(token)).toBe(4);
  });

  it('expires the payment pages for it left open, which would charge without giving it', async () => {
    const token = await applicant('open-page@removal.test');
    // One page for the status is payable at a time (a new one expires the others).
    const urls = [];
    for (const price of [planPrice, PLAN_MONTHLY]) {
      urls.push((await paymentSession(b, bearer(token), { price })).data?.accountPaymentSession.url ?? '');
    }
    const [plan, credits] = urls.map((url) => b.fake.store.get('checkout.session', url.split('/').at(-1) ?? ''));
    await setStatus('open-page@removal.test', false);
    expect(plan?.status).toBe('expired');
    // A plan of credits alone still sells what it says.
    expect(credits?.status).toBe('open');
  });

  it('gives back a payment for it made before the removal whose event came after: charged once, refunded once', async () => {
    const token = await applicant('paid-before@removal.test');
    // A page opened before an administrator's grant, paid while the status stands, its event late.
    const url = (await paymentSession(b, bearer(token), { price: PROFESSIONAL_PRICE })).data?.accountPaymentSession.url;
    const sessionId = url?.split('/').at(-1) ?? '';
    await setStatus('paid-before@removal.test', true);
    b.fake.checkout.complete(sessionId);
    const events = takeEvents(b);
    await setStatus('paid-before@removal.test', false);
    await deliver(events);
    const completed = ofType(events, 'checkout.session.completed');
    // The same payment delivered again under another event id refunds nothing twice.
    expect((await postEvent(b, { ...completed, id: `${completed.id}_again` })).status).toBe(200);
    await deliver();
    expect(await groupOf(token)).toBe(4);
    const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
    const charge = b.fake.charges.chargeOf(intent);
    expect(charge).toMatchObject({ amount_refunded: charge.amount, refunded: true });
    const refunds = b.fake.requests.filter((r) => r.path === '/v1/refunds' && r.form.payment_intent === intent);
    expect(new Set(refunds.map((r) => r.idempotencyKey))).toEqual(new Set([`professional-refund:${sessionId}`]));
    expect(b.fake.store.all('refund').filter((r) => r.charge === charge.id)).toHaveLength(1);
    const payments = await gql<{ account: { payments: { refunded: number; price: number }[] } }>(
      b.t.app,
      '{ account { payments { refunded price } } }',
      {},
      bearer(token),
    );
    expect(payments.data?.account.payments).toEqual([{ refunded: charge.amount, price: charge.amount }]);
  });

  it('warns the operator, once, when the refund of such a payment fails: the user has neither status nor money', async () => {
    const token = await applicant('refund-lost@removal.test');
    const url = (await paymentSession(b, bearer(token), { price: PROFESSIONAL_PRICE })).data?.accountPaymentSession.url;
    const sessionId = url?.split('/').at(-1) ?? '';
    await setStatus('refund-lost@removal.test', true);
    b.fake.checkout.complete(sessionId);
    const events = takeEvents(b);
    await setStatus('refund-lost@removal.test', false);
    await deliver(events);
    await deliver();
    const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
    const refund = b.fake.store.all('refund').find((r) => r.payment_intent === intent);
    const warn = vi.spyOn(b.t.services.log, 'warn');
    try {
      b.fake.charges.failRefund(String(refund?.id));
      // charge.refund.updated, refund.updated and refund.failed: one warning between them.
      await deliver();
      const lost = warn.mock.calls.filter(([, message]) => String(message).includes('professional status'));
      expect(lost).toHaveLength(1);
      expect(lost[0]?.[0]).toMatchObject({ refund: refund?.id, paymentIntent: intent, purchase: sessionId });
    } finally {
      warn.mockRestore();
    }
    expect(await groupOf(token)).toBe(4);
  });

  it('leaves such a payment disputed meanwhile to its dispute: its event is booked, nothing refunded', async () => {
    const token = await applicant('disputed-before@removal.test');
    const url = (await paymentSession(b, bearer(token), { price: PROFESSIONAL_PRICE })).data?.accountPaymentSession.url;
    const sessionId = url?.split('/').at(-1) ?? '';
    await setStatus('disputed-before@removal.test', true);
    b.fake.checkout.complete(sessionId);
    const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
    b.fake.charges.openDispute(intent);
    const events = takeEvents(b);
    await setStatus('disputed-before@removal.test', false);
    await deliver(events);
    expect(await groupOf(token)).toBe(4);
    expect(b.fake.requests.filter((r) => r.path === '/v1/refunds' && r.form.payment_intent === intent)).toEqual([]);
  });

  it('gives back the first payment of a plan selling it made before the removal, and ends the plan', async () => {
    const token = await applicant('plan-before@removal.test');
    const url = (await paymentSession(b, bearer(token), { price: planPrice })).data?.accountPaymentSession.url;
    await setStatus('plan-before@removal.test', true);
    b.fake.checkout.complete(url?.split('/').at(-1) ?? '');
    const events = takeEvents(b);
    await setStatus('plan-before@removal.test', false);
    await deliver(events);
    await deliver();
    expect(await groupOf(token)).toBe(4);
    const invoice = objectOf(ofType(events, 'invoice.paid'));
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    expect(b.fake.store.get('subscription', subscriptionId).status).toBe('canceled');
    const refunds = b.fake.requests.filter((r) => r.path === '/v1/refunds' && r.method === 'POST');
    expect(refunds.filter((r) => r.idempotencyKey === `professional-refund:${invoice.id}`)).toHaveLength(1);
    const payments = await gql<{ account: { payments: { refunded: number; price: number }[] } }>(
      b.t.app,
      '{ account { payments { refunded price } } }',
      {},
      bearer(token),
    );
    expect(payments.data?.account.payments).toEqual([{ refunded: 2900, price: 2900 }]);
  });

  it('ends when an administrator grants the status again', async () => {
    const token = await applicant('regranted@removal.test');
    await setStatus('regranted@removal.test', true);
    await setStatus('regranted@removal.test', false);
    await setStatus('regranted@removal.test', true);
    expect(await groupOf(token)).toBe(4 | 16);
  });
});
