// What is on sale and how a purchase starts: accountProducts from Stripe's active prices with
// credits (cached), accountPaymentSession (Checkout for a price, the portal without one), each
// Stripe call that creates something keyed by our own row; coupons; invoices of the caller only;
// and without STRIPE_SECRET_KEY an answer that says how credits come instead.
import { CARD_PAYMENTS_OFF } from '@router/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp } from '../../../test/app.ts';
import { type Billing, buy, newCustomer, paymentSession, postEvent, startBilling } from '../../../test/billing.ts';
import { gql } from '../../../test/identity.ts';
import { PACK_100, PACK_500, PLAN_MONTHLY, PROFESSIONAL } from '../../../test/stripe-fake/catalog.ts';
import { HAS_PLAN } from './payment-session.ts';

let b: Billing;
beforeAll(async () => {
  b = await startBilling();
});
afterAll(() => b?.close());

const PRODUCTS = '{ accountProducts { stripePriceId name credits price currency type interval professional } }';

const sessionIdOf = (url: string | undefined) => url?.split('/').at(-1) ?? '';

describe('accountProducts', () => {
  it('lists the active prices carrying credits or professional status, packs first, cached', async () => {
    const user = await newCustomer(b, 'catalogue');
    const first = await gql<{ accountProducts: Array<Record<string, unknown>> }>(b.t.app, PRODUCTS, {}, user.headers);
    expect(first.data?.accountProducts).toEqual([
      {
        stripePriceId: PACK_100,
        name: '100 signal credits',
        credits: 100,
        price: 1099,
        currency: 'usd',
        type: 1,
        interval: null,
        professional: false,
      },
      {
        stripePriceId: PACK_500,
        name: '500 signal credits',
        credits: 500,
        price: 3900,
        currency: 'usd',
        type: 1,
        interval: null,
        professional: false,
      },
      {
        stripePriceId: PROFESSIONAL,
        name: 'Professional status',
        credits: 0,
        price: 4900,
        currency: 'usd',
        type: 1,
        interval: null,
        professional: true,
      },
      {
        stripePriceId: PLAN_MONTHLY,
        name: 'Pro plan',
        credits: 300,
        price: 2000,
        currency: 'usd',
        type: 3,
        interval: 'month',
        professional: false,
      },
    ]);
    const asked = b.fake.requests.filter((r) => r.path === '/v1/prices').length;
    await gql(b.t.app, PRODUCTS, {}, user.headers);
    expect(b.fake.requests.filter((r) => r.path === '/v1/prices').length).toBe(asked);
  });
});

describe('accountPaymentSession', () => {
  it('makes a Checkout session for a pack, keyed by our row, with our marks on it', async () => {
    const user = await newCustomer(b, 'checkout');
    const answer = await paymentSession(b, user.headers, { price: PACK_500 });
    const url = answer.data?.accountPaymentSession.url;
    expect(url).toMatch(new RegExp(`^${b.fake.url}/c/pay/cs_test_`));
    const created = b.fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST').at(-1);
    const { rows } = await b.t.services.db.$client.query<{
      id: string;
      stripe_id: string;
      credits: number;
      mode: string;
    }>('select id, stripe_id, credits, mode from payment_sessions where user_id = $1', [user.id]);
    expect(rows).toEqual([{ id: expect.any(String), stripe_id: sessionIdOf(url), credits: 500, mode: 'payment' }]);
    expect(created?.idempotencyKey).toBe(`checkout-session:${user.key}:${rows[0]?.id}`);
    expect(created?.form).toMatchObject({
      mode: 'payment',
      client_reference_id: user.key,
      line_items: [{ price: PACK_500, quantity: '1' }],
      metadata: { user_key: user.key, payment_session: rows[0]?.id },
      invoice_creation: { enabled: 'true' },
      allow_promotion_codes: 'true',
      success_url: 'http://localhost:3999/me/account?checkout=success',
    });
    const customer = b.fake.requests.find(
      (r) => r.path === '/v1/customers' && r.form.email === 'checkout@billing.test',
    );
    expect(customer?.idempotencyKey).toBe(`customer:${user.key}`);
    // A second purchase reuses the customer.
    await paymentSession(b, user.headers, { price: PACK_100 });
    expect(
      b.fake.requests.filter((r) => r.path === '/v1/customers' && r.form.email === 'checkout@billing.test'),
    ).toHaveLength(1);
  });

  it('makes a subscription session for a plan, and refuses a second plan', async () => {
    const user = await newCustomer(b, 'second-plan');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    const created = b.fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST').at(-1);
    expect(created?.form).toMatchObject({
      mode: 'subscription',
      subscription_data: { metadata: { user_key: user.key } },
    });
    for (const event of events) await postEvent(b, event);
    const again = await paymentSession(b, user.headers, { price: PLAN_MONTHLY });
    expect(again.errors?.[0]?.message).toBe('You already have a plan: change or cancel it with Manage billing.');
  });

  it('refuses a second plan paid for a moment ago, before Stripe’s events reached us', async () => {
    const user = await newCustomer(b, 'second-plan-early');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    // Back on Account & Billing at once: the webhook is still on its way.
    const again = await paymentSession(b, user.headers, { price: PLAN_MONTHLY });
    expect(again.errors?.[0]?.message).toBe('You already have a plan: change or cancel it with Manage billing.');
    // A pack is still for sale, and the plan's events book it as usual.
    expect((await paymentSession(b, user.headers, { price: PACK_100 })).errors).toBeUndefined();
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
  });

  it('expires the plan Checkout left open when another is opened: two pages cannot both be paid', async () => {
    const user = await newCustomer(b, 'two-open-plans');
    const first = sessionIdOf(
      (await paymentSession(b, user.headers, { price: PLAN_MONTHLY })).data?.accountPaymentSession.url,
    );
    const pack = sessionIdOf(
      (await paymentSession(b, user.headers, { price: PACK_100 })).data?.accountPaymentSession.url,
    );
    const second = sessionIdOf(
      (await paymentSession(b, user.headers, { price: PLAN_MONTHLY })).data?.accountPaymentSession.url,
    );
    expect(second).not.toBe(first);
    expect(b.fake.store.get('checkout.session', first).status).toBe('expired');
    // A pack's Checkout is no plan: it stays open.
    expect(b.fake.store.get('checkout.session', pack).status).toBe('open');
    expect(() => b.fake.checkout.complete(first)).toThrow('no longer open');
    b.fake.checkout.complete(second);
    const customer = String(b.fake.store.get('checkout.session', second).customer);
    const subscriptions = b.fake.store.all('subscription').filter((s) => s.customer === customer);
    expect(subscriptions).toHaveLength(1);
    for (const event of b.fake.webhooks.pending.splice(0)) expect((await postEvent(b, event)).status).toBe(200);
  });

  it('leaves the plan page open before as it was when Stripe refuses the new page’s coupon', async () => {
    const user = await newCustomer(b, 'plan-coupon-refused');
    const first = sessionIdOf(
      (await paymentSession(b, user.headers, { price: PLAN_MONTHLY })).data?.accountPaymentSession.url,
    );
    const refused = await paymentSession(b, user.headers, { price: PLAN_MONTHLY, coupon: 'OTHERPRODUCT' });
    expect(refused.errors?.[0]?.message).toBe('The coupon "OTHERPRODUCT" cannot be used for this purchase');
    // No new page was made: the one the user has open can still be paid.
    expect(b.fake.store.get('checkout.session', first).status).toBe('open');
    b.fake.checkout.complete(first);
    for (const event of b.fake.webhooks.pending.splice(0)) expect((await postEvent(b, event)).status).toBe(200);
  });

  it('expires the plan page it just made, and refuses, when a plan was paid meanwhile', async () => {
    const user = await newCustomer(b, 'plan-paid-meanwhile');
    const first = sessionIdOf(
      (await paymentSession(b, user.headers, { price: PLAN_MONTHLY })).data?.accountPaymentSession.url,
    );
    // The first page is paid while the second is being made, after Stripe made the second.
    const created = b.fake.hold('POST', '/v1/checkout/sessions');
    const second = paymentSession(b, user.headers, { price: PLAN_MONTHLY });
    await created.reached;
    b.fake.checkout.complete(first);
    created.release();
    expect((await second).errors?.[0]?.message).toBe(HAS_PLAN);
    const customer = String(b.fake.store.get('checkout.session', first).customer);
    const open = b.fake.store.all('checkout.session').filter((s) => s.customer === customer && s.status === 'open');
    expect(open).toEqual([]);
    for (const event of b.fake.webhooks.pending.splice(0)) expect((await postEvent(b, event)).status).toBe(200);
  });

  it('opens the billing portal without a price', async () => {
    const user = await newCustomer(b, 'portal');
    const answer = await paymentSession(b, user.headers);
    expect(answer.data?.accountPaymentSession.url).toMatch(new RegExp(`^${b.fake.url}/p/session/bps_`));
    const portal = b.fake.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1);
    expect(portal?.form.return_url).toBe('http://localhost:3999/me/account');
    expect(portal?.idempotencyKey).toMatch(new RegExp(`^portal-session:${user.key}:\\d+$`));
  });

  it('applies a coupon, and names an unknown or expired one', async () => {
    const user = await newCustomer(b, 'coupon');
    const ok = await paymentSession(b, user.headers, { price: PACK_100, coupon: 'WELCOME10' });
    const session = b.fake.store.get('checkout.session', sessionIdOf(ok.data?.accountPaymentSession.url));
    expect(session.amount_total).toBe(989);
    for (const coupon of ['NOPE', 'SPENT']) {
      const refused = await paymentSession(b, user.headers, { price: PACK_100, coupon });
      expect(refused.errors?.[0]?.message).toBe(`The coupon "${coupon}" is unknown or has expired`);
      expect(refused.errors?.[0]?.extensions?.field).toBe('coupon');
    }
  });

  it('says a coupon Stripe refuses for this purchase cannot be used, not that payments are down', async () => {
    const user = await newCustomer(b, 'coupon-refused');
    const sessions = b.fake.store.all('checkout.session').length;
    const refused = await paymentSession(b, user.headers, { price: PACK_100, coupon: 'OTHERPRODUCT' });
    expect(refused.errors?.[0]).toMatchObject({
      message: 'The coupon "OTHERPRODUCT" cannot be used for this purchase',
      extensions: { code: 'BAD_USER_INPUT', field: 'coupon' },
    });
    expect(b.fake.store.all('checkout.session')).toHaveLength(sessions);
  });

  it('refuses prices not on sale, bad quantities, and professional status without an application', async () => {
    const user = await newCustomer(b, 'refusals');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ price: 'price_1PgafmB7WZ01zgkWinactive1' }, 'This price is not on sale'],
      [{ price: 'price_1PgafmB7WZ01zgkWnocredits1' }, 'This price is not on sale'],
      [{ price: PACK_100, quantity: 0 }, 'Quantity must be a whole number from 1 to 100'],
      [{ price: PROFESSIONAL }, 'Apply for professional status first'],
    ];
    for (const [variables, message] of cases) {
      expect((await paymentSession(b, user.headers, variables)).errors?.[0]?.message, JSON.stringify(variables)).toBe(
        message,
      );
    }
  });
});

describe('accountInvoice', () => {
  it("gives the PDF link of the caller's own invoices only", async () => {
    const user = await newCustomer(b, 'invoice');
    const other = await newCustomer(b, 'invoice-other');
    const { events } = await buy(b, user.headers, PACK_100);
    for (const event of events) await postEvent(b, event);
    const { rows } = await b.t.services.db.$client.query<{ stripe_invoice_id: string }>(
      'select stripe_invoice_id from payments where user_id = $1',
      [user.id],
    );
    const id = rows[0]?.stripe_invoice_id ?? '';
    const QUERY = 'query($id: String!) { accountInvoice(id: $id) { id invoicePdf } }';
    const mine = await gql<{ accountInvoice: { id: string; invoicePdf: string } }>(
      b.t.app,
      QUERY,
      { id },
      user.headers,
    );
    expect(mine.data?.accountInvoice).toEqual({ id, invoicePdf: `${b.fake.url}/invoice/${id}/pdf` });
    const pdf = await fetch(mine.data?.accountInvoice.invoicePdf ?? '');
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect((await pdf.text()).startsWith('%PDF-')).toBe(true);
    const theirs = await gql(b.t.app, QUERY, { id }, other.headers);
    expect(theirs.errors?.[0]).toMatchObject({ message: 'Invoice not found', extensions: { code: 'NOT_FOUND' } });
  });
});

describe('without STRIPE_SECRET_KEY', () => {
  it('offers nothing and says how credits are granted instead', async () => {
    const t = await startTestApp({ authenticate: authenticateAsUserId });
    try {
      const user = await insertTestUser(t.services, 'nostripe@billing.test');
      const products = await gql<{ accountProducts: unknown[] }>(
        t.app,
        '{ accountProducts { name } }',
        {},
        user.headers,
      );
      expect(products.data?.accountProducts).toEqual([]);
      for (const query of [
        '{ accountPaymentSession { url } }',
        `{ accountPaymentSession(stripePriceId: "${PACK_100}") { url } }`,
      ]) {
        const answer = await gql(t.app, query, {}, user.headers);
        expect(answer.errors?.[0]).toMatchObject({
          message: CARD_PAYMENTS_OFF,
          extensions: { code: 'EXECUTION_ERROR' },
        });
      }
      const account = await gql<{ account: { cardPayments: boolean } }>(
        t.app,
        '{ account { cardPayments } }',
        {},
        user.headers,
      );
      expect(account.data?.account.cardPayments).toBe(false);
      const webhook = await t.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        payload: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(webhook.statusCode).toBe(400);
    } finally {
      await t.close();
    }
  });
});
