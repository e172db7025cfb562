// The Stripe fake against the official `stripe` package: what it sends is what the fake reads,
// and the fake answers as Stripe does (errors, idempotent replay, expand, checkout completion,
// signed events the SDK accepts).
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACK_100, PLAN_MONTHLY } from './catalog.ts';
import { fakeClient } from './client.ts';
import { fixtureFile } from './fixtures.ts';
import { parseForm } from './form.ts';
import { type StripeFake, startStripeFake } from './server.ts';
import { signedHeader } from './webhooks.ts';

let fake: StripeFake;
let stripe: Stripe;

beforeAll(async () => {
  fake = await startStripeFake({ delivery: 'manual' });
  stripe = fakeClient(fake);
});
afterAll(() => fake?.close());

describe('Stripe fake', () => {
  it('parses the bracket encoding the SDK sends', () => {
    expect(
      parseForm('a=1&metadata[user_key]=u%201&items[0][price]=p&items[1][price]=q&expand[0]=data.product'),
    ).toEqual({
      a: '1',
      metadata: { user_key: 'u 1' },
      items: [{ price: 'p' }, { price: 'q' }],
      expand: ['data.product'],
    });
  });

  it('creates customers from the fixture, with the pinned API version and form bodies', async () => {
    const customer = await stripe.customers.create({ email: 'a@b.test', metadata: { user_key: 'u_1' } });
    expect(customer.id).toMatch(/^cus_/);
    expect(customer.email).toBe('a@b.test');
    expect(customer.metadata).toEqual({ user_key: 'u_1' });
    const request = fake.requests.at(-1);
    expect(request?.stripeVersion).toBe('2026-10-28.endive');
    expect(request?.form.metadata).toEqual({ user_key: 'u_1' });
    expect((await stripe.customers.retrieve(customer.id)).id).toBe(customer.id);
  });

  it('replays an Idempotency-Key with the same parameters and refuses it with others', async () => {
    const first = await stripe.customers.create({ email: 'x@b.test' }, { idempotencyKey: 'customer:k1' });
    const again = await stripe.customers.create({ email: 'x@b.test' }, { idempotencyKey: 'customer:k1' });
    expect(again.id).toBe(first.id);
    expect(fake.store.all('customer').filter((c) => c.email === 'x@b.test')).toHaveLength(1);
    const mismatch = await stripe.customers
      .create({ email: 'other@b.test' }, { idempotencyKey: 'customer:k1' })
      .catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it("answers Stripe's errors: bad key, missing resource", async () => {
    const bad = await fakeClient(fake, 'sk_test_wrong')
      .customers.list()
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const missing = await stripe.prices.retrieve('price_nope').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((missing as Stripe.errors.StripeError).code).toBe('resource_missing');
  });

  it('lists active prices with their products expanded, paging through the SDK', async () => {
    const prices: Stripe.Price[] = [];
    for await (const price of stripe.prices.list({ active: true, limit: 2, expand: ['data.product'] }))
      prices.push(price);
    expect(prices.map((p) => p.id)).toContain(PACK_100);
    expect(prices.every((p) => p.active)).toBe(true);
    expect(((prices[0] as Stripe.Price).product as Stripe.Product).name).toBe('Signal credits');
  });

  it('completes a subscription checkout: subscription, paid first invoice, events in order', async () => {
    const customer = await stripe.customers.create({ email: 'sub@b.test' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: PLAN_MONTHLY, quantity: 2 }],
      subscription_data: { metadata: { user_key: 'u_sub' } },
      discounts: [{ coupon: 'WELCOME10' }],
      success_url: 'http://localhost/ok',
    });
    expect(session.amount_total).toBe(3600);
    expect(session.url).toContain(`/c/pay/${session.id}`);
    const events = fake.checkout.complete(session.id);
    expect(events.map((e) => e.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done.status).toBe('complete');
    const subscription = await stripe.subscriptions.retrieve(String(done.subscription), {
      expand: ['items.data.price.product'],
    });
    const item = subscription.items.data[0] as Stripe.SubscriptionItem;
    expect(item.quantity).toBe(2);
    expect(item.current_period_end).toBeGreaterThan(item.current_period_start);
    expect((item.price.product as Stripe.Product).name).toBe('Signal credits');
    const invoice = await stripe.invoices.retrieve(String(done.invoice));
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(invoice.amount_paid).toBe(3600);
  });

  it('signs events so that constructEvent accepts them, as the fixtures example does', () => {
    const { secret, timestamp, header } = fixtureFile().webhook_signature_example;
    const body = JSON.stringify(fixtureFile().resources['event.invoice.paid']);
    expect(signedHeader(body, secret, timestamp)).toBe(header);
    expect(Stripe.webhooks.constructEvent(body, signedHeader(body, secret), secret).id).toMatch(/^evt_/);
  });
});
