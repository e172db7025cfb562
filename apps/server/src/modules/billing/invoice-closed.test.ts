// A failed renewal's invoice that Stripe later voids or marks uncollectible: Account & Billing
// tells what is true then, whatever arrives twice or late.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountMetadata,
  type Billing,
  buy,
  newCustomer,
  objectOf,
  ofType,
  postEvent,
  startBilling,
  takeEvents,
} from '../../../test/billing.ts';
import { accountOf } from '../../../test/credit-fixtures.ts';
import { PLAN_MONTHLY } from '../../../test/stripe-fake/catalog.ts';
import type { StripeObject } from '../../../test/stripe-fake/fixtures.ts';

let b: Billing;
beforeAll(async () => {
  b = await startBilling();
});
afterAll(() => b?.close());

type Failed = { invoiceId: string; url: string | null; nextAttempt: number | null };

async function recurring(headers: Record<string, string>) {
  return (await accountMetadata<{ recurring: { paymentFailed?: Failed } }>(b, headers)).recurring;
}

/** A plan whose renewal failed, the failure delivered: the failed invoice and its events. */
async function failedRenewal(name: string) {
  const user = await newCustomer(b, name);
  const { events } = await buy(b, user.headers, PLAN_MONTHLY);
  for (const event of events) await postEvent(b, event);
  const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
  const invoice = b.fake.subscriptions.renew(subscriptionId, { fail: true });
  const failed = takeEvents(b);
  for (const event of failed) expect((await postEvent(b, event)).status).toBe(200);
  expect((await recurring(user.headers)).paymentFailed).toMatchObject({ invoiceId: invoice.id });
  return { user, invoiceId: String(invoice.id), failed };
}

const deliver = async (events: StripeObject[]) => {
  for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
};

describe('a failed invoice closed by Stripe', () => {
  it('voided: the failure and its "pay now" link go, also under replays and a late failure', async () => {
    const { user, invoiceId, failed } = await failedRenewal('voided');
    const balance = (await accountOf(b.t, user.id))?.balance;
    await b.stripe.invoices.voidInvoice(invoiceId);
    const voided = ofType(takeEvents(b), 'invoice.voided');
    await deliver([voided, voided, ofType(failed, 'invoice.payment_failed')]);
    expect((await recurring(user.headers)).paymentFailed).toBeUndefined();
    expect((await accountOf(b.t, user.id))?.balance).toBe(balance);
  });

  it('voided before its failure reached us: no failure is shown', async () => {
    const user = await newCustomer(b, 'voided-early');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliver(events);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
    const invoice = b.fake.subscriptions.renew(subscriptionId, { fail: true });
    const failed = takeEvents(b);
    await b.stripe.invoices.voidInvoice(String(invoice.id));
    await deliver([...takeEvents(b), ...failed]);
    expect((await recurring(user.headers)).paymentFailed).toBeUndefined();
  });

  it('marked uncollectible: still payable on its page, but Stripe no longer retries', async () => {
    const { user, invoiceId } = await failedRenewal('uncollectible');
    expect((await recurring(user.headers)).paymentFailed?.nextAttempt).not.toBeNull();
    await b.stripe.invoices.markUncollectible(invoiceId);
    const marked = ofType(takeEvents(b), 'invoice.marked_uncollectible');
    await deliver([marked, marked]);
    const shown = (await recurring(user.headers)).paymentFailed;
    expect(shown).toMatchObject({ invoiceId, nextAttempt: null });
    expect(shown?.url).toContain(`/i/${invoiceId}`);
  });
});
