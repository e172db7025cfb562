// Professional status (SPEC §2, §6): the application (every field and legal.a–l required), then
// group 16 only when Stripe says its payment completed; the customer group is required on every
// signed-in resolver, and what is reserved for professionals refuses them once they have it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountMetadata,
  type Billing,
  buy,
  newCustomer,
  objectOf,
  ofType,
  paymentSession,
  postEvent,
  startBilling,
  takeEvents,
} from '../../../test/billing.ts';
import { gql } from '../../../test/identity.ts';
import { professionalApplication, UPGRADE } from '../../../test/professional-application.ts';
import { PLAN_MONTHLY, PRODUCT_ID, PROFESSIONAL } from '../../../test/stripe-fake/catalog.ts';
import { clearCatalog } from './catalog.ts';
import { HAS_PLAN, PROFESSIONAL_PENDING } from './payment-session.ts';

/** metadata.membership as stored (billing-account.repository.ts showMembership). */
interface MembershipRow {
  subscriptionId: string;
  name?: string;
  status?: string;
  cancelAt?: number;
  paymentFailed?: { invoiceId: string };
}

let b: Billing;
beforeAll(async () => {
  b = await startBilling();
});
afterAll(() => b?.close());

const application = professionalApplication;

const groupOf = async (headers: Record<string, string>) =>
  (await gql<{ user: { group: number } }>(b.t.app, '{ user { group } }', {}, headers)).data?.user.group;

describe('accountUpgrade', () => {
  it("answers 'Required' naming the first missing field", async () => {
    const user = await newCustomer(b, 'apply-missing');
    const empty = await gql(b.t.app, UPGRADE, { m: {} }, user.headers);
    expect(empty.errors?.[0]).toMatchObject({
      message: 'Required',
      extensions: { field: 'businessName', code: 'BAD_USER_INPUT' },
    });
    const { legal, ...rest } = application();
    const noLegal = await gql(b.t.app, UPGRADE, { m: { ...rest, legal: { ...legal, c: 'maybe' } } }, user.headers);
    expect(noLegal.errors?.[0]).toMatchObject({ message: 'Required', extensions: { field: 'legal.c' } });
    const blank = await gql(b.t.app, UPGRADE, { m: { ...application(), businessContact: '  ' } }, user.headers);
    expect(blank.errors?.[0]?.extensions?.field).toBe('businessContact');
  });

  it('answers when the application was sent (account.professionalAppliedAt), null before; sent again, it is one', async () => {
    const user = await newCustomer(b, 'apply-on-file');
    const appliedAt = async () =>
      (
        await gql<{ account: { professionalAppliedAt: number | null } }>(
          b.t.app,
          '{ account { professionalAppliedAt } }',
          {},
          user.headers,
        )
      ).data?.account.professionalAppliedAt;
    expect(await appliedAt()).toBeNull();
    const before = Date.now();
    expect((await gql(b.t.app, UPGRADE, { m: application() }, user.headers)).data).toEqual({ accountUpgrade: true });
    const first = await appliedAt();
    expect(first).toBeGreaterThanOrEqual(before - 1000);
    expect((await gql(b.t.app, UPGRADE, { m: application() }, user.headers)).data).toEqual({ accountUpgrade: true });
    expect(await appliedAt()).toBeGreaterThanOrEqual(first ?? 0);
    const { rows } = await b.t.services.db.$client.query(
      'select count(*)::int as n from professional_applications where user_id = $1',
      [user.id],
    );
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('grants group 16 when the payment completes, from the webhook only', async () => {
    const user = await newCustomer(b, 'apply-pay');
    expect((await gql(b.t.app, UPGRADE, { m: application() }, user.headers)).data).toEqual({ accountUpgrade: true });
    const { events } = await buy(b, user.headers, PROFESSIONAL);
    const created = b.fake.requests.filter((r) => r.path === '/v1/checkout/sessions' && r.method === 'POST').at(-1);
    expect(created?.form.success_url).toBe('http://localhost:3999/me/account/upgrade/success');
    expect(await groupOf(user.headers)).toBe(4);
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
    expect(await groupOf(user.headers)).toBe(4 | 16);
    const { rows } = await b.t.services.db.$client.query(
      'select paid_at is not null as paid from professional_applications where user_id = $1',
      [user.id],
    );
    expect(rows).toEqual([{ paid: true }]);
    // A professional cannot apply or pay again.
    const again = await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    expect(again.errors?.[0]).toMatchObject({
      message: 'You already have professional status',
      extensions: { code: 'FORBIDDEN' },
    });
    const pay = await gql(
      b.t.app,
      `{ accountPaymentSession(stripePriceId: "${PROFESSIONAL}") { url } }`,
      {},
      user.headers,
    );
    expect(pay.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

describe('professional status whose price left the catalogue before its payment’s event', () => {
  it('is recorded as professional status, not as 0 signal credits', async () => {
    const price = await b.stripe.prices.create({
      currency: 'usd',
      unit_amount: 5900,
      nickname: 'Professional status 2027',
      metadata: { professional: 'true' },
      product: PRODUCT_ID,
    });
    clearCatalog(b.t.services);
    const user = await newCustomer(b, 'pro-price-gone');
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const { events } = await buy(b, user.headers, price.id);
    await b.stripe.prices.update(price.id, { active: false });
    clearCatalog(b.t.services);
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
    expect(await groupOf(user.headers)).toBe(4 | 16);
    const { rows } = await b.t.services.db.$client.query('select description from payments where user_id = $1', [
      user.id,
    ]);
    expect(rows).toEqual([{ description: 'Professional status' }]);
  });
});

describe('professional status paid and then given back', () => {
  const paidProfessional = async (name: string) => {
    const user = await newCustomer(b, name);
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const { sessionId, events } = await buy(b, user.headers, PROFESSIONAL);
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
    expect(await groupOf(user.headers)).toBe(4 | 16);
    const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
    return { user, intent };
  };
  const deliver = async () => {
    for (const event of takeEvents(b)) expect((await postEvent(b, event)).status).toBe(200);
  };

  it('is taken away when its payment is refunded in full, and stands again when the refund fails', async () => {
    const { user, intent } = await paidProfessional('pro-refund');
    const partial = await b.stripe.refunds.create({ payment_intent: intent, amount: 900 });
    await deliver();
    // A part given back (a goodwill gesture) keeps the status.
    expect(await groupOf(user.headers)).toBe(4 | 16);
    await b.stripe.refunds.create({ payment_intent: intent });
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
    // The first refund fails: not everything was given back after all.
    b.fake.charges.failRefund(partial.id);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4 | 16);
  });

  it('is not given back by a partial refund after an administrator took it away', async () => {
    const { user, intent } = await paidProfessional('pro-admin-revoked');
    await b.t.services.db.$client.query('update users set "group" = 4 where id = $1', [user.id]);
    await b.stripe.refunds.create({ payment_intent: intent, amount: 900 });
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
  });

  it('stays away after a lost dispute when a refund’s event of the same charge comes later', async () => {
    const { user, intent } = await paidProfessional('pro-dispute-late-refund');
    await b.stripe.refunds.create({ payment_intent: intent, amount: 900 });
    const refundEvents = takeEvents(b);
    b.fake.charges.closeDispute(intent, 'lost');
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
    for (const event of refundEvents) expect((await postEvent(b, event)).status).toBe(200);
    expect(await groupOf(user.headers)).toBe(4);
  });

  it('is taken away when a dispute of its payment is lost, not when it is won', async () => {
    const won = await paidProfessional('pro-dispute-won');
    b.fake.charges.closeDispute(won.intent, 'won');
    await deliver();
    expect(await groupOf(won.user.headers)).toBe(4 | 16);
    const lost = await paidProfessional('pro-dispute-lost');
    b.fake.charges.closeDispute(lost.intent, 'lost');
    await deliver();
    expect(await groupOf(lost.user.headers)).toBe(4);
  });

  it('goes while a dispute of its whole payment is open, and stands again when the dispute is won', async () => {
    const { user, intent } = await paidProfessional('pro-dispute-open');
    b.fake.charges.openDispute(intent);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
    b.fake.charges.closeDispute(intent, 'won');
    await deliver();
    expect(await groupOf(user.headers)).toBe(4 | 16);
  });
});

describe('professional status bought with a plan', () => {
  let planPrice = '';
  beforeAll(async () => {
    const price = await b.stripe.prices.create({
      currency: 'usd',
      unit_amount: 2900,
      recurring: { interval: 'month' },
      nickname: 'Professional desk',
      metadata: { professional: 'true', credits: '100' },
      product: PRODUCT_ID,
    });
    planPrice = price.id;
    clearCatalog(b.t.services);
  });
  const deliver = async (events = takeEvents(b)) => {
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
  };
  const subscribe = async (name: string, delivered = true) => {
    const user = await newCustomer(b, name);
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const { events } = await buy(b, user.headers, planPrice);
    if (delivered) {
      await deliver(events);
      expect(await groupOf(user.headers)).toBe(4 | 16);
    }
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    const invoiceId = String(objectOf(ofType(events, 'invoice.paid')).id);
    const payment = b.fake.store.all('invoice_payment').find((p) => p.invoice === invoiceId);
    const intent = String((payment?.payment as { payment_intent?: string } | undefined)?.payment_intent);
    return { user, events, subscriptionId, intent };
  };

  it('is not granted during a free trial, only by the first paid invoice after it', async () => {
    const user = await newCustomer(b, 'pro-plan-trial');
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const marks = { user_key: user.key };
    // A trial set up in Stripe (the operator's own Checkout): nothing is charged for 14 days.
    const session = await b.stripe.checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: user.key,
      line_items: [{ price: planPrice, quantity: 1 }],
      metadata: marks,
      subscription_data: { metadata: marks, trial_period_days: 14 },
      success_url: 'http://localhost:3999/me/account',
    });
    b.fake.checkout.complete(session.id);
    const events = takeEvents(b);
    expect(objectOf(ofType(events, 'invoice.paid'))).toMatchObject({ amount_paid: 0 });
    await deliver(events);
    expect(await groupOf(user.headers)).toBe(4);
    // The trial over, the plan's first paid invoice grants it.
    b.fake.subscriptions.renew(String(objectOf(ofType(events, 'customer.subscription.created')).id));
    await deliver();
    expect(await groupOf(user.headers)).toBe(4 | 16);
  });

  it('goes when the plan ends', async () => {
    const { user, subscriptionId } = await subscribe('pro-plan-ends');
    await b.stripe.subscriptions.cancel(subscriptionId);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
  });

  it('can be bought again once the plan that sold it ended (its booked payment is no pending one)', async () => {
    const { user, subscriptionId } = await subscribe('pro-plan-ends-buys-again');
    await b.stripe.subscriptions.cancel(subscriptionId);
    await deliver();
    // The plan's Checkout session is complete and its payment booked under its invoice's id.
    const again = await paymentSession(b, user.headers, { price: PROFESSIONAL });
    expect(again.errors).toBeUndefined();
    await deliver((await buy(b, user.headers, PROFESSIONAL)).events);
    expect(await groupOf(user.headers)).toBe(4 | 16);
  });

  /** The portal's "Update plan" to another price, the rest of the period billed with the renewal. */
  const changePlan = (subscriptionId: string, priceId: string) => {
    const subscription = b.fake.store.get('subscription', subscriptionId);
    const previous = { items: structuredClone(subscription.items) };
    const [item] = (subscription.items as { data: Array<Record<string, unknown>> }).data;
    if (item) item.price = structuredClone(b.fake.store.get('price', priceId));
    b.fake.webhooks.emit('customer.subscription.updated', subscription, previous);
  };
  const changeToPlainPlan = (subscriptionId: string) => changePlan(subscriptionId, PLAN_MONTHLY);

  it('goes when the plan is changed to one that does not sell it, and its renewal does not bring it back', async () => {
    const { user, subscriptionId } = await subscribe('pro-plan-downgrade');
    changeToPlainPlan(subscriptionId);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
    b.fake.subscriptions.renew(subscriptionId);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
  });

  it('goes when the plan ends after a change to one that does not sell it, that change’s event lost', async () => {
    const { user, subscriptionId } = await subscribe('pro-plan-downgrade-ends');
    changeToPlainPlan(subscriptionId);
    takeEvents(b);
    await b.stripe.subscriptions.cancel(subscriptionId);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
  });

  it('is not granted by the plan’s first payment delivered after the plan ended', async () => {
    const { user, events, subscriptionId } = await subscribe('pro-plan-ended-first', false);
    await b.stripe.subscriptions.cancel(subscriptionId);
    await deliver([...takeEvents(b), ...events]);
    expect(await groupOf(user.headers)).toBe(4);
  });

  it('goes when the payment of its current period is refunded in full, and stands again when the refund fails', async () => {
    const { user, intent } = await subscribe('pro-plan-refund');
    const refund = await b.stripe.refunds.create({ payment_intent: intent });
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
    b.fake.charges.failRefund(refund.id);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4 | 16);
  });

  it('goes when the invoice of a change to a yearly plan selling it is refunded in full', async () => {
    const yearly = await b.stripe.prices.create({
      currency: 'usd',
      unit_amount: 29000,
      recurring: { interval: 'year' },
      nickname: 'Professional desk yearly',
      metadata: { professional: 'true', credits: '1200' },
      product: PRODUCT_ID,
    });
    clearCatalog(b.t.services);
    const user = await newCustomer(b, 'pro-yearly-change-refund');
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const plan = await buy(b, user.headers, PLAN_MONTHLY);
    await deliver(plan.events);
    const subscriptionId = String(objectOf(ofType(plan.events, 'customer.subscription.created')).id);
    // Changed in the portal to the yearly plan: a new billing cycle, paid by the change's invoice.
    const invoice = b.fake.subscriptions.changeInterval(subscriptionId, yearly.id);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4 | 16);
    const payment = b.fake.store.all('invoice_payment').find((p) => p.invoice === invoice.id);
    const intent = String((payment?.payment as { payment_intent?: string } | undefined)?.payment_intent);
    await b.stripe.refunds.create({ payment_intent: intent });
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
  });

  it('stays while another source holds it: a one-time payment kept, or a plan selling it that runs', async () => {
    const user = await newCustomer(b, 'pro-two-sources');
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const bought = await buy(b, user.headers, PROFESSIONAL);
    await deliver(bought.events);
    expect(await groupOf(user.headers)).toBe(4 | 16);
    const intent = String(b.fake.store.get('checkout.session', bought.sessionId).payment_intent);
    const plan = await buy(b, user.headers, PLAN_MONTHLY);
    await deliver(plan.events);
    const subscriptionId = String(objectOf(ofType(plan.events, 'customer.subscription.created')).id);
    // Changed in the portal to the plan that sells the status, paid, then back to the plain one:
    // the status bought once stays.
    changePlan(subscriptionId, planPrice);
    await deliver();
    b.fake.subscriptions.renew(subscriptionId);
    await deliver();
    changeToPlainPlan(subscriptionId);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4 | 16);
    // On the plan that sells it again (paid): the one-time payment refunded in full leaves it.
    changePlan(subscriptionId, planPrice);
    b.fake.subscriptions.renew(subscriptionId);
    await deliver();
    await b.stripe.refunds.create({ payment_intent: intent });
    await deliver();
    expect(await groupOf(user.headers)).toBe(4 | 16);
    // Nothing holds it once that plan ends too.
    await b.stripe.subscriptions.cancel(subscriptionId);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
  });

  it('stays when an earlier period’s payment is refunded: the current period is paid', async () => {
    const { user, intent, subscriptionId } = await subscribe('pro-plan-refund-old');
    b.fake.subscriptions.renew(subscriptionId);
    await deliver();
    await b.stripe.refunds.create({ payment_intent: intent });
    await deliver();
    expect(await groupOf(user.headers)).toBe(4 | 16);
  });
});

describe('professional status sold by a plan without credits', () => {
  let price = { id: '' };
  beforeAll(async () => {
    price = await b.stripe.prices.create({
      currency: 'usd',
      unit_amount: 1900,
      recurring: { interval: 'month' },
      nickname: 'Professional membership',
      metadata: { professional: 'true' },
      product: PRODUCT_ID,
    });
    clearCatalog(b.t.services);
  });

  it('leaves the open payment page of a plan with credits payable, and the other way round', async () => {
    const user = await newCustomer(b, 'pro-only-pages');
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const open = async (priceId: string) => {
      const url = (await paymentSession(b, user.headers, { price: priceId })).data?.accountPaymentSession.url;
      return url?.split('/').at(-1) ?? '';
    };
    const status = (id: string) => b.fake.store.get('checkout.session', id).status;
    const credits = await open(PLAN_MONTHLY);
    const membership = await open(price.id);
    expect([status(credits), status(membership)]).toEqual(['open', 'open']);
    // Another page of the same kind still takes the place of the one left open.
    const credits2 = await open(PLAN_MONTHLY);
    expect([status(credits), status(membership), status(credits2)]).toEqual(['expired', 'open', 'open']);
  });

  it('leaves a plan with credits to be bought beside it, shown on the account, and goes when it ends', async () => {
    const deliver = async (events = takeEvents(b)) => {
      for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
    };
    const user = await newCustomer(b, 'pro-only-plan');
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const membership = await buy(b, user.headers, price.id);
    await deliver(membership.events);
    expect(await groupOf(user.headers)).toBe(4 | 16);
    const membershipId = String(objectOf(ofType(membership.events, 'customer.subscription.created')).id);
    // The credits plan is sold beside it, and it is what the account shows.
    const plan = await buy(b, user.headers, PLAN_MONTHLY);
    await deliver(plan.events);
    const planId = String(objectOf(ofType(plan.events, 'customer.subscription.created')).id);
    const shown = async () => {
      const { rows } = await b.t.services.db.$client.query<{ sub: string; type: number; balance: number }>(
        'select stripe_subscription_id as sub, type, balance from accounts where user_id = $1',
        [user.id],
      );
      return rows[0];
    };
    expect(await shown()).toEqual({ sub: planId, type: 3, balance: 300 });
    // The membership renewing does not push the credits plan off the account.
    b.fake.subscriptions.renew(membershipId);
    await deliver();
    expect(await shown()).toEqual({ sub: planId, type: 3, balance: 300 });
    // Its state is shown beside the credits plan's: a failed payment, the cancel date.
    const membershipOf = async () => {
      const { rows } = await b.t.services.db.$client.query<{ m: MembershipRow | null }>(
        "select metadata -> 'membership' as m from accounts where user_id = $1",
        [user.id],
      );
      return rows[0]?.m ?? null;
    };
    expect(await membershipOf()).toMatchObject({ subscriptionId: membershipId, name: 'Professional membership' });
    // …and answered to Account & Billing, which draws its card from account.metadata.membership.
    expect((await accountMetadata<{ membership: MembershipRow }>(b, user.headers)).membership).toMatchObject({
      subscriptionId: membershipId,
      name: 'Professional membership',
    });
    b.fake.subscriptions.renew(membershipId, { fail: true });
    await deliver();
    const failed = await membershipOf();
    expect(failed?.status).toBe('past_due');
    expect(typeof failed?.paymentFailed?.invoiceId).toBe('string');
    await b.stripe.subscriptions.update(membershipId, { cancel_at_period_end: true });
    await deliver();
    expect(typeof (await membershipOf())?.cancelAt).toBe('number');
    // A second credits plan is still refused.
    const again = await paymentSession(b, user.headers, { price: PLAN_MONTHLY });
    expect(again.errors?.[0]?.message).toBe(HAS_PLAN);
    // The membership ended: the status goes, the credits plan stays.
    await b.stripe.subscriptions.cancel(membershipId);
    await deliver();
    expect(await groupOf(user.headers)).toBe(4);
    expect(await shown()).toEqual({ sub: planId, type: 3, balance: 300 });
    expect(await membershipOf()).toBeNull();
  });
});

describe('professional status paid once', () => {
  it('leaves one payment page payable, and refuses another while a paid one is on its way', async () => {
    const user = await newCustomer(b, 'pro-twice');
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const open = async () => {
      const answer = await paymentSession(b, user.headers, { price: PROFESSIONAL });
      return { url: answer.data?.accountPaymentSession.url, error: answer.errors?.[0] };
    };
    const first = await open();
    const second = await open();
    const idOf = (url: string | undefined) => url?.split('/').at(-1) ?? '';
    expect(idOf(first.url)).not.toBe(idOf(second.url));
    // Two tabs: paying both would charge twice for one status.
    expect(() => b.fake.checkout.complete(idOf(first.url))).toThrow('no longer open');
    b.fake.checkout.complete(idOf(second.url));
    const events = takeEvents(b);
    // Paid, its events not here yet: no third page.
    expect((await open()).error?.message).toBe(PROFESSIONAL_PENDING);
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
    expect(await groupOf(user.headers)).toBe(4 | 16);
  });
});

describe('professional status paid by a bank debit still processing', () => {
  it('refuses another payment page while the debit processes, and sells again once it failed', async () => {
    const user = await newCustomer(b, 'pro-debit');
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const open = async () => {
      const answer = await paymentSession(b, user.headers, { price: PROFESSIONAL });
      return { url: answer.data?.accountPaymentSession.url, error: answer.errors?.[0] };
    };
    const first = await open();
    const id = first.url?.split('/').at(-1) ?? '';
    b.fake.checkout.complete(id);
    takeEvents(b);
    // A bank debit: the session completes unpaid, its payment processing for days.
    const session = b.fake.store.get('checkout.session', id);
    session.payment_status = 'unpaid';
    const intent = b.fake.store.get('payment_intent', String(session.payment_intent));
    intent.status = 'processing';
    expect((await open()).error?.message).toBe(PROFESSIONAL_PENDING);
    // The debit failed: nothing was paid, another page may be opened.
    intent.status = 'requires_payment_method';
    expect((await open()).url).toEqual(expect.any(String));
  });
});

describe('professional status with a coupon Stripe refuses', () => {
  it('leaves the payment page open before as it was', async () => {
    const user = await newCustomer(b, 'pro-coupon-refused');
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const first = (await paymentSession(b, user.headers, { price: PROFESSIONAL })).data?.accountPaymentSession.url;
    const refused = await paymentSession(b, user.headers, { price: PROFESSIONAL, coupon: 'OTHERPRODUCT' });
    expect(refused.errors?.[0]?.message).toBe('The coupon "OTHERPRODUCT" cannot be used for this purchase');
    const firstId = first?.split('/').at(-1) ?? '';
    expect(b.fake.store.get('checkout.session', firstId).status).toBe('open');
    b.fake.checkout.complete(firstId);
    for (const event of takeEvents(b)) expect((await postEvent(b, event)).status).toBe(200);
    expect(await groupOf(user.headers)).toBe(4 | 16);
  });
});

describe('the customer group', () => {
  it('is required by every signed-in resolver; the user query still answers', async () => {
    const outsider = await newCustomer(b, 'no-customer-bit', 0);
    for (const query of [
      '{ account { balance } }',
      '{ accountLedger { id } }',
      '{ accountProducts { name } }',
      '{ accountPaymentSession { url } }',
      '{ connectors { key } }',
      '{ actions { id } }',
      '{ userTokens { key } }',
      'mutation { userUpdate(firstName: "X") { key } }',
    ]) {
      const answer = await gql(b.t.app, query, {}, outsider.headers);
      expect(answer.errors?.[0]?.extensions?.code, query).toBe('FORBIDDEN');
    }
    expect(await groupOf(outsider.headers)).toBe(0);
    const anonymous = await gql(b.t.app, '{ account { balance } }');
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('professional status sold by a plan that gives no credits', () => {
  it('shows the plan’s own renewal date (its period end) though no credit period starts', async () => {
    const price = await b.stripe.prices.create({
      currency: 'usd',
      unit_amount: 1900,
      recurring: { interval: 'month' },
      nickname: 'Professional monthly',
      metadata: { professional: 'true' },
      product: PRODUCT_ID,
    });
    clearCatalog(b.t.services);
    const user = await newCustomer(b, 'pro-monthly');
    await gql(b.t.app, UPGRADE, { m: application() }, user.headers);
    const { events } = await buy(b, user.headers, price.id);
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
    expect(await groupOf(user.headers)).toBe(4 | 16);
    const subscription = objectOf(ofType(events, 'customer.subscription.created')) as unknown as {
      items: { data: Array<{ current_period_end: number }> };
    };
    const periodEnd = subscription.items.data[0]?.current_period_end;
    expect(periodEnd).toEqual(expect.any(Number));
    const answer = await gql<{ account: { type: number; recurringPeriodEnd: number | null; metadata: string } }>(
      b.t.app,
      '{ account { type recurringPeriodEnd metadata } }',
      {},
      user.headers,
    );
    expect(answer.data?.account).toMatchObject({ type: 3, recurringPeriodEnd: null });
    expect(JSON.parse(answer.data?.account.metadata ?? '{}').recurring).toMatchObject({ status: 'active', periodEnd });
  });
});
