// A coupon on the Stripe customer itself (`customer.discount`; none given at Checkout): Stripe
// applies it to a plan's invoices, and the plan's card says so; a pack's Checkout is given it
// too (Stripe never applies it to a one-time payment) while it runs for every payment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Billing,
  buy,
  deliverEvents,
  newCustomer,
  objectOf,
  ofType,
  paymentSession,
  shownPrice,
  startBilling,
  takeEvents,
} from '../../../test/billing.ts';
import { gql } from '../../../test/identity.ts';
import { PACK_500, PLAN_MONTHLY } from '../../../test/stripe-fake/catalog.ts';
import { giveCustomerDiscount } from '../../../test/stripe-fake/discounts.ts';

let b: Billing;
let PLAN_PRICE = 0;
let PACK_PRICE = 0;
beforeAll(async () => {
  b = await startBilling();
  PLAN_PRICE = Number(b.fake.store.get('price', PLAN_MONTHLY).unit_amount);
  PACK_PRICE = Number(b.fake.store.get('price', PACK_500).unit_amount);
  await b.stripe.coupons.create({ id: 'CUSTOMER_FIFTH', percent_off: 20, duration: 'forever' });
});
afterAll(() => b?.close());

/** A user whose Stripe customer (made by opening Manage billing) carries `coupon`. */
async function customerWith(name: string, coupon: string) {
  const user = await newCustomer(b, name);
  await paymentSession(b, user.headers);
  const customer = b.fake.store
    .all('customer')
    .find((c) => (c.metadata as Record<string, string> | undefined)?.user_key === user.key);
  if (!customer) throw new Error('no customer');
  giveCustomerDiscount(b.fake.store, customer.id, coupon);
  return { user, customer };
}

describe('a coupon on the Stripe customer', () => {
  it('is taken off a plan by Stripe, and its card says what is charged', async () => {
    const { user } = await customerWith('customer-discount-forever', 'CUSTOMER_FIFTH');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverEvents(b, events);
    expect(objectOf(ofType(events, 'invoice.paid')).amount_paid).toBe(PLAN_PRICE * 0.8);
    expect(await shownPrice(b, user.headers)).toBe(PLAN_PRICE * 0.8);
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    expect(b.fake.subscriptions.renew(subscriptionId).amount_paid).toBe(PLAN_PRICE * 0.8);
    await deliverEvents(b, takeEvents(b));
    expect(await shownPrice(b, user.headers)).toBe(PLAN_PRICE * 0.8);
  });

  it('is the list price on the card once the first invoice spent a coupon for one payment', async () => {
    const { user } = await customerWith('customer-discount-once', 'WELCOME10');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverEvents(b, events);
    expect(objectOf(ofType(events, 'invoice.paid')).amount_paid).toBe(PLAN_PRICE * 0.9);
    expect(await shownPrice(b, user.headers)).toBe(PLAN_PRICE);
  });

  it('is taken off a pack too, which Stripe would charge at the list price', async () => {
    const { user } = await customerWith('customer-discount-pack', 'CUSTOMER_FIFTH');
    const { sessionId, events } = await buy(b, user.headers, PACK_500);
    expect(b.fake.store.get('checkout.session', sessionId).amount_total).toBe(PACK_PRICE * 0.8);
    await deliverEvents(b, events);
    const answer = await gql<{ account: { payments: Array<{ price: number }> } }>(
      b.t.app,
      '{ account { payments { price } } }',
      {},
      user.headers,
    );
    expect(answer.data?.account.payments).toEqual([{ price: PACK_PRICE * 0.8 }]);
  });

  it('for one payment is left for the plan’s invoice that spends it, not given to every pack', async () => {
    const { user, customer } = await customerWith('customer-discount-once-pack', 'WELCOME10');
    const { sessionId } = await buy(b, user.headers, PACK_500);
    expect(b.fake.store.get('checkout.session', sessionId).amount_total).toBe(PACK_PRICE);
    expect(b.fake.store.get('customer', customer.id).discount).not.toBeNull();
  });
});
