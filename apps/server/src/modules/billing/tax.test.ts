// Prices whose tax Stripe computes (`tax_behavior: exclusive`, Stripe Tax): Checkout adds the tax
// on top (automatic tax, the billing address asked for), the payment is booked at what was
// charged, the plan's card shows what its renewals charge, tax included, and a refund takes back
// credits for the pre-tax money it gives back only (the tax first).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Billing,
  buy,
  deliverEvents,
  newCustomer,
  objectOf,
  ofType,
  startBilling,
  takeEvents,
} from '../../../test/billing.ts';
import { accountOf, expectBalancedLedger, inTransaction } from '../../../test/credit-fixtures.ts';
import { gql } from '../../../test/identity.ts';
import { PRODUCT_ID } from '../../../test/stripe-fake/catalog.ts';
import { FAKE_TAX_PERCENT } from '../../../test/stripe-fake/money.ts';
import { grantCredits } from '../accounts/credits.ts';
import { clearCatalog } from './catalog.ts';

let b: Billing;
let PACK = '';
let PLAN = '';
const withTax = (amount: number) => amount + Math.round((amount * FAKE_TAX_PERCENT) / 100);
beforeAll(async () => {
  b = await startBilling();
  const exclusive = { currency: 'usd', product: PRODUCT_ID, tax_behavior: 'exclusive' } as const;
  PACK = (await b.stripe.prices.create({ ...exclusive, unit_amount: 1000, metadata: { credits: '100' } })).id;
  PLAN = (
    await b.stripe.prices.create({
      ...exclusive,
      unit_amount: 2000,
      recurring: { interval: 'month' },
      metadata: { credits: '300' },
    })
  ).id;
  clearCatalog(b.t.services);
});
afterAll(() => b?.close());

async function account(headers: Record<string, string>) {
  const answer = await gql<{
    account: { product: { price: number } | null; payments: Array<{ price: number; credits: number }> };
  }>(b.t.app, '{ account { product { price } payments { price credits } } }', {}, headers);
  return answer.data?.account;
}

describe('a tax-exclusive price', () => {
  it('is charged with the tax Stripe adds, and booked at what was charged', async () => {
    const user = await newCustomer(b, 'tax-pack');
    const { sessionId, events } = await buy(b, user.headers, PACK);
    const session = b.fake.store.get('checkout.session', sessionId);
    expect(session.automatic_tax).toMatchObject({ enabled: true, status: 'complete' });
    expect(session.amount_total).toBe(withTax(1000));
    await deliverEvents(b, events);
    expect((await account(user.headers))?.payments).toEqual([{ price: withTax(1000), credits: 100 }]);
  });

  it('shows a plan at what its renewals charge, tax included', async () => {
    const user = await newCustomer(b, 'tax-plan');
    const { events } = await buy(b, user.headers, PLAN);
    await deliverEvents(b, events);
    const invoice = objectOf(ofType(events, 'invoice.paid'));
    expect(invoice.amount_paid).toBe(withTax(2000));
    expect((await account(user.headers))?.product?.price).toBe(withTax(2000));
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    expect(b.fake.subscriptions.renew(subscriptionId).amount_paid).toBe(withTax(2000));
    await deliverEvents(b, takeEvents(b));
    expect((await account(user.headers))?.product?.price).toBe(withTax(2000));
  });

  it('shows a plan in its free trial at what its first payment will charge, tax included', async () => {
    const user = await newCustomer(b, 'tax-trial');
    await inTransaction(b.t, (tx) => grantCredits(tx, user.id, 5, 'signup'));
    const marks = { user_key: user.key };
    const session = await b.stripe.checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: user.key,
      line_items: [{ price: PLAN, quantity: 1 }],
      metadata: marks,
      subscription_data: { metadata: marks, trial_period_days: 14 },
      automatic_tax: { enabled: true },
      billing_address_collection: 'required',
      success_url: 'http://localhost:3999/me/account',
    });
    b.fake.checkout.complete(session.id);
    const events = takeEvents(b);
    await deliverEvents(b, events);
    expect((await account(user.headers))?.product?.price).toBe(withTax(2000));
  });

  it('takes back credits for the pre-tax money refunded: the tax alone takes none, the rest all', async () => {
    const user = await newCustomer(b, 'tax-refund');
    const { sessionId, events } = await buy(b, user.headers, PACK);
    await deliverEvents(b, events);
    const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
    const tax = withTax(1000) - 1000;
    await b.stripe.refunds.create({ payment_intent: intent, amount: tax });
    await deliverEvents(b, takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance).toBe(100);
    // Half of the price before tax: half of the pack.
    await b.stripe.refunds.create({ payment_intent: intent, amount: 500 });
    await deliverEvents(b, takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance).toBe(50);
    await b.stripe.refunds.create({ payment_intent: intent });
    await deliverEvents(b, takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance ?? 0).toBe(0);
    await expectBalancedLedger(b.t, user.id);
  });
});
