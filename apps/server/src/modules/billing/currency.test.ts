// A price sold in several currencies (`currency_options`): the card shows it in the user's
// currency (the Stripe customer's once set, else the browser's region's) and Checkout charges
// that amount in that currency, the plan's card too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Billing,
  newCustomer,
  objectOf,
  ofType,
  paymentSession,
  postEvent,
  startBilling,
  takeEvents,
} from '../../../test/billing.ts';
import { gql } from '../../../test/identity.ts';
import { PLAN_MONTHLY, PRODUCT_ID } from '../../../test/stripe-fake/catalog.ts';
import { clearCatalog } from './catalog.ts';
import { languageCurrencies, otherCurrencyPlan } from './currency.ts';

let b: Billing;
let PACK = '';
let PLAN = '';
beforeAll(async () => {
  b = await startBilling();
  const both = { currency: 'usd', product: PRODUCT_ID } as const;
  PACK = (
    await b.stripe.prices.create({
      ...both,
      unit_amount: 1999,
      currency_options: { eur: { unit_amount: 1799 }, gbp: { unit_amount: 1599 } },
      metadata: { credits: '200' },
    })
  ).id;
  PLAN = (
    await b.stripe.prices.create({
      ...both,
      unit_amount: 2500,
      currency_options: { eur: { unit_amount: 2300 } },
      recurring: { interval: 'month' },
      metadata: { credits: '400' },
    })
  ).id;
  clearCatalog(b.t.services);
});
afterAll(() => b?.close());

async function shown(headers: Record<string, string>, price: string) {
  const answer = await gql<{ accountProducts: Array<{ stripePriceId: string; price: number; currency: string }> }>(
    b.t.app,
    '{ accountProducts { stripePriceId price currency } }',
    {},
    headers,
  );
  const product = answer.data?.accountProducts.find((p) => p.stripePriceId === price);
  return product && { price: product.price, currency: product.currency };
}

/** The Checkout session the user is sent to for `price`, paid; its events delivered. */
async function pay(headers: Record<string, string>, price: string) {
  const answer = await paymentSession(b, headers, { price });
  const url = answer.data?.accountPaymentSession.url;
  if (!url) throw new Error(JSON.stringify(answer.errors));
  const sessionId = url.split('/').at(-1) ?? '';
  const session = b.fake.store.get('checkout.session', sessionId);
  b.fake.checkout.complete(sessionId);
  const events = takeEvents(b);
  for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
  return { charged: { price: session.amount_total, currency: session.currency }, events };
}

describe('languageCurrencies', () => {
  it('gives the currencies of the regions of the browser’s languages, most wanted first', () => {
    expect(languageCurrencies('de-CH,de;q=0.9,en-US;q=0.8,en;q=0.7')).toEqual(['chf', 'eur', 'usd']);
    expect(languageCurrencies('en;q=0.5, fr-FR')).toEqual(['eur', 'usd']);
    expect(languageCurrencies('')).toEqual([]);
    expect(languageCurrencies('*, not a tag!!, zz-ZZ')).toEqual([]);
  });
});

describe('a price sold in several currencies', () => {
  it('is shown and charged in the browser’s currency when the customer has none yet', async () => {
    const user = await newCustomer(b, 'currency-browser');
    const headers = { ...user.headers, 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };
    expect(await shown(headers, PACK)).toEqual({ price: 1799, currency: 'eur' });
    const { charged } = await pay(headers, PACK);
    expect(charged).toEqual({ price: 1799, currency: 'eur' });
    // A browser whose regions' currencies the price does not offer: its own currency.
    const other = await newCustomer(b, 'currency-elsewhere');
    expect(await shown({ ...other.headers, 'accept-language': 'ja-JP' }, PACK)).toEqual({
      price: 1999,
      currency: 'usd',
    });
  });

  it('is shown and charged in the Stripe customer’s currency once Stripe set it', async () => {
    const user = await newCustomer(b, 'currency-customer');
    // Bought in dollars (an English browser in the US): Stripe sets the customer's currency.
    const { charged } = await pay({ ...user.headers, 'accept-language': 'en-US' }, PACK);
    expect(charged.currency).toBe('usd');
    // Travelling: a French browser still sees and pays dollars, the customer's currency.
    const french = { ...user.headers, 'accept-language': 'fr-FR' };
    expect(await shown(french, PLAN)).toEqual({ price: 2500, currency: 'usd' });
    expect((await pay(french, PLAN)).charged).toEqual({ price: 2500, currency: 'usd' });
  });

  it('shows a plan bought in another of its currencies at its amount there', async () => {
    const user = await newCustomer(b, 'currency-plan');
    const headers = { ...user.headers, 'accept-language': 'fr-FR' };
    const { charged, events } = await pay(headers, PLAN);
    expect(charged).toEqual({ price: 2300, currency: 'eur' });
    expect(objectOf(ofType(events, 'invoice.paid')).amount_paid).toBe(2300);
    const answer = await gql<{ account: { product: { price: number; currency: string } | null } }>(
      b.t.app,
      '{ account { product { price currency } } }',
      {},
      headers,
    );
    expect(answer.data?.account.product).toEqual({ price: 2300, currency: 'eur' });
  });

  it('refuses a plan the customer cannot be charged in, saying why, before a page is made', async () => {
    const user = await newCustomer(b, 'currency-other-plan');
    const french = { ...user.headers, 'accept-language': 'fr-FR' };
    const { events } = await pay(french, PLAN);
    // The euro plan ends; Stripe keeps charging this customer in euros only.
    b.fake.subscriptions.cancelNow(String(objectOf(ofType(events, 'customer.subscription.created')).id));
    for (const event of takeEvents(b)) expect((await postEvent(b, event)).status).toBe(200);
    const sessions = b.fake.store.all('checkout.session').length;
    const answer = await paymentSession(b, french, { price: PLAN_MONTHLY });
    expect(answer.errors?.[0]?.message).toBe(otherCurrencyPlan('eur'));
    expect(answer.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(b.fake.store.all('checkout.session').length).toBe(sessions);
  });
});
