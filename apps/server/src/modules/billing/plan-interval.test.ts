// A plan Stripe charges every few months or weeks (`recurring.interval_count`) says so wherever
// its price is shown: in the catalogue, on the subscription card and in the payments, 'per 3
// months', never 'per month' for a charge made once a quarter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Billing, buy, newCustomer, postEvent, startBilling } from '../../../test/billing.ts';
import { gql } from '../../../test/identity.ts';
import { PRODUCT_ID } from '../../../test/stripe-fake/catalog.ts';
import { clearCatalog } from './catalog.ts';

let b: Billing;
let quarterly = '';
beforeAll(async () => {
  b = await startBilling();
  const price = await b.stripe.prices.create({
    currency: 'usd',
    unit_amount: 7500,
    recurring: { interval: 'month', interval_count: 3 },
    nickname: 'Quarterly plan',
    metadata: { credits: '900' },
    product: PRODUCT_ID,
  });
  quarterly = price.id;
  clearCatalog(b.t.services);
});
afterAll(() => b?.close());

describe('a plan charged every third month', () => {
  it('is shown per 3 months in the catalogue, on its card and in its payment', async () => {
    const user = await newCustomer(b, 'quarterly');
    const products = await gql<{ accountProducts: { stripePriceId: string; interval: string | null }[] }>(
      b.t.app,
      '{ accountProducts { stripePriceId interval } }',
      {},
      user.headers,
    );
    expect(products.data?.accountProducts.find((p) => p.stripePriceId === quarterly)?.interval).toBe('3 months');
    const { events } = await buy(b, user.headers, quarterly);
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
    const account = await gql<{
      account: { product: { interval: string | null } | null; payments: { price: number; interval: string | null }[] };
    }>(b.t.app, '{ account { product { interval } payments { price interval } } }', {}, user.headers);
    expect(account.data?.account.product?.interval).toBe('3 months');
    expect(account.data?.account.payments).toEqual([{ price: 7500, interval: '3 months' }]);
  });
});
