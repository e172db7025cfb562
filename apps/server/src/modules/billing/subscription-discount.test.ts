// The subscription card (SPEC §2 Account & Billing) shows what the user pays for the plan: a
// coupon that stays on the subscription (forever, or repeating until its end) lowers the price
// shown; one spent by the first payment (once), or ended, does not.
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
import { PLAN_MONTHLY } from '../../../test/stripe-fake/catalog.ts';

let b: Billing;
let LIST_PRICE = 0;
beforeAll(async () => {
  b = await startBilling();
  LIST_PRICE = Number(b.fake.store.get('price', PLAN_MONTHLY).unit_amount);
});
afterAll(() => b?.close());

/** A plan bought with `coupon`, its events delivered: its subscription id and first invoice. */
async function planWith(name: string, coupon: string) {
  const user = await newCustomer(b, name);
  const { events } = await buy(b, user.headers, PLAN_MONTHLY, { coupon });
  await deliverEvents(b, events);
  const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
  return { user, subscriptionId, invoice: objectOf(ofType(events, 'invoice.paid')) };
}

describe('the subscription card’s price', () => {
  it('is the price less a coupon kept forever', async () => {
    await b.stripe.coupons.create({ id: 'QUARTER_FOREVER', percent_off: 25, duration: 'forever' });
    const { user, subscriptionId, invoice } = await planWith('discount-forever', 'QUARTER_FOREVER');
    expect(invoice.amount_paid).toBe(LIST_PRICE * 0.75);
    expect(await shownPrice(b, user.headers)).toBe(LIST_PRICE * 0.75);
    // The renewal charges the same, and the card still says so.
    expect(b.fake.subscriptions.renew(subscriptionId).amount_paid).toBe(LIST_PRICE * 0.75);
    await deliverEvents(b, takeEvents(b));
    expect(await shownPrice(b, user.headers)).toBe(LIST_PRICE * 0.75);
  });

  it('is the price less a repeating coupon until it ends, then the list price', async () => {
    await b.stripe.coupons.create({
      id: 'OFF500_TWO_MONTHS',
      amount_off: 500,
      currency: 'usd',
      duration: 'repeating',
      duration_in_months: 2,
    });
    const { user, subscriptionId } = await planWith('discount-repeating', 'OFF500_TWO_MONTHS');
    expect(await shownPrice(b, user.headers)).toBe(LIST_PRICE - 500);
    // The second month is discounted too; the third (after the coupon's end) is not.
    expect(b.fake.subscriptions.renew(subscriptionId).amount_paid).toBe(LIST_PRICE - 500);
    await deliverEvents(b, takeEvents(b));
    expect(await shownPrice(b, user.headers)).toBe(LIST_PRICE);
  });

  it('is the price less a coupon’s amount in the plan’s currency when the coupon is in another', async () => {
    // A euro coupon that Stripe applies to dollar purchases as 6.00 USD off (`currency_options`).
    await b.stripe.coupons.create({
      id: 'EUR5_USD6_FOREVER',
      amount_off: 500,
      currency: 'eur',
      currency_options: { usd: { amount_off: 600 } },
      duration: 'forever',
    });
    const { user, subscriptionId, invoice } = await planWith('discount-currency', 'EUR5_USD6_FOREVER');
    expect(invoice.amount_paid).toBe(LIST_PRICE - 600);
    expect(await shownPrice(b, user.headers)).toBe(LIST_PRICE - 600);
    expect(b.fake.subscriptions.renew(subscriptionId).amount_paid).toBe(LIST_PRICE - 600);
    await deliverEvents(b, takeEvents(b));
    expect(await shownPrice(b, user.headers)).toBe(LIST_PRICE - 600);
  });

  it('refuses an amount-off coupon with no amount in the plan’s currency, before a payment is made', async () => {
    await b.stripe.coupons.create({ id: 'EUR5_ONLY', amount_off: 500, currency: 'eur', duration: 'forever' });
    const user = await newCustomer(b, 'discount-wrong-currency');
    const answer = await paymentSession(b, user.headers, { price: PLAN_MONTHLY, coupon: 'EUR5_ONLY' });
    expect(answer.errors?.[0]?.message).toBe('The coupon "EUR5_ONLY" cannot be used for this purchase');
    expect(answer.data?.accountPaymentSession ?? null).toBeNull();
  });

  it('is the list price after a coupon for the first payment only', async () => {
    const { user, invoice } = await planWith('discount-once', 'WELCOME10');
    expect(invoice.amount_paid).toBe(LIST_PRICE * 0.9);
    expect(await shownPrice(b, user.headers)).toBe(LIST_PRICE);
  });
});
