// Stripe events change the books once: a pack grants metadata.credits × quantity per session,
// a plan one period per invoice, whatever arrives twice, out of order, or at two instances at
// once; the balance is the ledger's sum after each. Success pages grant nothing: only events.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  accountMetadata,
  type Billing,
  buy,
  newCustomer,
  objectOf,
  ofType,
  paymentSession,
  postEvent,
  secondInstance,
  startBilling,
  takeEvents,
} from '../../../test/billing.ts';
import { accountOf, expectBalancedLedger, inTransaction, ledgerOf } from '../../../test/credit-fixtures.ts';
import { gql } from '../../../test/identity.ts';
import { PACK_100, PACK_500, PLAN_MONTHLY, PRODUCT_ID } from '../../../test/stripe-fake/catalog.ts';
import type { StripeObject } from '../../../test/stripe-fake/fixtures.ts';
import { lastGrant } from '../../db/repositories/credits.repository.ts';
import { insertPaymentSession } from '../../db/repositories/payment-sessions.repository.ts';
import { referrerStats } from '../../db/repositories/referrer.repository.ts';
import { grantCredits, spendCredits } from '../accounts/credits.ts';
import { clearCatalog } from './catalog.ts';

let b: Billing;
beforeAll(async () => {
  b = await startBilling();
});
afterAll(() => b?.close());

const deliverAll = async (events: StripeObject[]) => {
  const statuses: number[] = [];
  for (const event of events) statuses.push((await postEvent(b, event)).status);
  return statuses;
};

async function payments(userId: number) {
  const { rows } = await b.t.services.db.$client.query<{
    reference: string;
    stripe_invoice_id: string | null;
    credits: number;
    price: number;
    interval: string | null;
  }>('select reference, stripe_invoice_id, credits, price, interval from payments where user_id = $1 order by id', [
    userId,
  ]);
  return rows;
}

/** Whether a transaction waits for an advisory lock, asked until one does or `done()` (at most ~5 s). */
async function lockAwaited(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 500 && !done(); i++) {
    const { rows } = await b.t.services.db.$client.query<{ n: number }>(
      `select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
       where d.datname = current_database() and l.locktype = 'advisory' and not l.granted`,
    );
    if ((rows[0]?.n ?? 0) > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

/**
 * The user's Stripe-event lock, taken here as another delivery of theirs would hold it: an event
 * posted meanwhile has read Stripe and waits at the lock until `release`.
 */
async function holdUserLock(userId: number) {
  const holder = await b.t.services.db.$client.connect();
  await holder.query('begin');
  await holder.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`stripe-events:${userId}`]);
  return {
    /** Resolves once a transaction waits for an advisory lock. */
    async waited() {
      if (!(await lockAwaited(() => false))) throw new Error('nothing waited for the lock');
    },
    async release() {
      await holder.query('commit');
      holder.release();
    },
  };
}

describe('a credit pack', () => {
  it('grants the price’s credits × quantity once, from checkout.session.completed only', async () => {
    const user = await newCustomer(b, 'pack');
    const { sessionId, events } = await buy(b, user.headers, PACK_100, { quantity: 3 });
    // Paid, returned to the success page: nothing yet.
    expect((await accountOf(b.t, user.id))?.balance ?? 0).toBe(0);
    expect(await deliverAll(events)).toEqual([200, 200]);
    const account = await accountOf(b.t, user.id);
    expect(account?.balance).toBe(300);
    const ledger = await expectBalancedLedger(b.t, user.id);
    expect(ledger.filter((l) => l.cause === 'purchase')).toEqual([
      { cause: 'purchase', credits: 300, recurring: 0, reference: sessionId, balance_after: 300 },
    ]);
    const [payment] = await payments(user.id);
    expect(payment).toMatchObject({ reference: sessionId, credits: 300, price: 3297, interval: null });
    expect(payment?.stripe_invoice_id).toMatch(/^in_/);
  });

  it('changes nothing on a repeat, and books once when invoice.paid comes first', async () => {
    const user = await newCustomer(b, 'repeat');
    const { events } = await buy(b, user.headers, PACK_500);
    const completed = ofType(events, 'checkout.session.completed');
    const paid = ofType(events, 'invoice.paid');
    expect((await postEvent(b, paid)).status).toBe(200);
    expect((await postEvent(b, completed)).status).toBe(200);
    const again = await postEvent(b, completed);
    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
    await postEvent(b, paid);
    const { rows } = await b.t.services.db.$client.query('select outcome, user_id from stripe_events where id = $1', [
      paid.id,
    ]);
    expect(rows).toEqual([{ outcome: 'applied', user_id: String(user.id) }]);
    expect((await accountOf(b.t, user.id))?.balance).toBe(500);
    expect(await payments(user.id)).toHaveLength(1);
    expect((await payments(user.id))[0]?.stripe_invoice_id).toBe(objectOf(paid).id);
    await expectBalancedLedger(b.t, user.id);
  });

  it('books once when the same event reaches two instances at once, and when it is sent many times at once', async () => {
    const user = await newCustomer(b, 'concurrent');
    const { events } = await buy(b, user.headers, PACK_100);
    const completed = ofType(events, 'checkout.session.completed');
    const other = await secondInstance(b);
    try {
      const answers = await Promise.all([
        ...Array.from({ length: 4 }, () => postEvent(b, completed)),
        ...Array.from({ length: 4 }, () => postEvent(b, completed, { app: other.app })),
      ]);
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      expect(answers.filter((a) => !a.body.duplicate)).toHaveLength(1);
    } finally {
      await other.close();
    }
    expect((await accountOf(b.t, user.id))?.balance).toBe(100);
    expect((await ledgerOf(b.t, user.id)).filter((l) => l.cause === 'purchase')).toHaveLength(1);
    await expectBalancedLedger(b.t, user.id);
  });

  it('books once when two different events of one session arrive at once', async () => {
    const user = await newCustomer(b, 'twoevents');
    const { events } = await buy(b, user.headers, PACK_100);
    const completed = ofType(events, 'checkout.session.completed');
    // Stripe re-sends an event with a new id after a replay from the dashboard.
    const copy = { ...completed, id: `${completed.id}copy` };
    const answers = await Promise.all([
      postEvent(b, completed),
      postEvent(b, copy),
      postEvent(b, completed),
      postEvent(b, copy),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect((await accountOf(b.t, user.id))?.balance).toBe(100);
    await expectBalancedLedger(b.t, user.id);
  });

  it('answers 200 for a session that is not ours and changes nothing', async () => {
    const user = await newCustomer(b, 'stranger');
    const { events } = await buy(b, user.headers, PACK_100);
    const completed = structuredClone(ofType(events, 'checkout.session.completed'));
    const session = objectOf(completed);
    Object.assign(session, {
      id: 'cs_test_not_ours',
      metadata: {},
      client_reference_id: null,
      customer: 'cus_unknown',
    });
    completed.id = 'evt_not_ours';
    expect((await postEvent(b, completed)).status).toBe(200);
    const { rows } = await b.t.services.db.$client.query('select outcome from stripe_events where id = $1', [
      'evt_not_ours',
    ]);
    expect(rows[0]).toEqual({ outcome: 'unmatched' });
    expect((await accountOf(b.t, user.id))?.balance ?? 0).toBe(0);
  });

  it('warns the operator, with Stripe’s ids, of a paid session and invoice for a user who is gone; still 200', async () => {
    const user = await newCustomer(b, 'gone');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    const completed = ofType(events, 'checkout.session.completed');
    const paid = ofType(events, 'invoice.paid');
    await b.t.services.db.$client.query('delete from users where id = $1', [user.id]);
    const warn = vi.spyOn(b.t.services.log, 'warn');
    try {
      expect((await postEvent(b, completed)).status).toBe(200);
      expect((await postEvent(b, paid)).status).toBe(200);
      const warned = warn.mock.calls.map(([fields]) => fields as unknown as Record<string, unknown>);
      expect(warned).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            event: completed.id,
            type: 'checkout.session.completed',
            object: objectOf(completed).id,
          }),
          expect.objectContaining({ event: paid.id, type: 'invoice.paid', object: objectOf(paid).id }),
        ]),
      );
      expect(JSON.stringify(warned)).not.toContain('whsec_');
    } finally {
      warn.mockRestore();
    }
  });

  it('grants nothing for another installation’s session whose payment_session names a row of ours', async () => {
    // Our row left without its Stripe id (the Stripe call failed), and another installation on
    // the same Stripe account, whose own row of that number was paid: its event reaches us too.
    const victim = await newCustomer(b, 'orphan-row');
    const orphan = await insertPaymentSession(b.t.services.db, {
      userId: victim.id,
      kind: 'hosted',
      stripePriceId: PACK_500,
      credits: 500,
      mode: 'payment',
    });
    const payer = await newCustomer(b, 'other-install');
    const { events } = await buy(b, payer.headers, PACK_100);
    const completed = structuredClone(ofType(events, 'checkout.session.completed'));
    Object.assign(objectOf(completed), {
      id: 'cs_test_other_installation',
      metadata: { user_key: 'key-of-another-installation', payment_session: String(orphan.id) },
      client_reference_id: 'key-of-another-installation',
      customer: 'cus_of_another_installation',
    });
    completed.id = 'evt_other_installation';
    expect((await postEvent(b, completed)).status).toBe(200);
    const { rows } = await b.t.services.db.$client.query('select outcome from stripe_events where id = $1', [
      completed.id,
    ]);
    expect(rows[0]).toEqual({ outcome: 'unmatched' });
    expect((await accountOf(b.t, victim.id))?.balance ?? 0).toBe(0);
    expect(await payments(victim.id)).toEqual([]);
  });

  it('answers 500 and stores nothing while Stripe cannot be asked; the retry books it', async () => {
    const user = await newCustomer(b, 'outage');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    const paid = ofType(events, 'invoice.paid');
    // The client is made once per configuration: a copy of it points at a closed port.
    const saved = b.t.services.config;
    b.t.services.config = { ...saved, STRIPE_API_URL: 'http://127.0.0.1:9' };
    try {
      expect((await postEvent(b, paid)).status).toBe(500);
    } finally {
      b.t.services.config = saved;
    }
    const { rows } = await b.t.services.db.$client.query('select 1 from stripe_events where id = $1', [paid.id]);
    expect(rows).toEqual([]);
    expect((await accountOf(b.t, user.id))?.balance ?? 0).toBe(0);
    expect((await postEvent(b, paid)).status).toBe(200);
    expect((await accountOf(b.t, user.id))?.balance).toBe(300);
  });
});

describe('a credit pack whose price changed before its payment’s event', () => {
  it('is described with the credits it granted, not the price’s credits now', async () => {
    const price = await b.stripe.prices.create({
      currency: 'usd',
      unit_amount: 1500,
      nickname: 'Starter pack',
      metadata: { credits: '100' },
      product: PRODUCT_ID,
    });
    clearCatalog(b.t.services);
    const user = await newCustomer(b, 'pack-price-changed');
    const { events } = await buy(b, user.headers, price.id, { quantity: 2 });
    // The operator gives the price more credits from now on: this purchase was made for 100 each.
    await b.stripe.prices.update(price.id, { metadata: { credits: '150' } });
    clearCatalog(b.t.services);
    await deliverAll(events);
    expect((await accountOf(b.t, user.id))?.balance).toBe(200);
    const { rows } = await b.t.services.db.$client.query('select description from payments where user_id = $1', [
      user.id,
    ]);
    expect(rows).toEqual([{ description: '2 × Starter pack (100 signal credits each): 200 signal credits' }]);
  });
});

describe('a monthly plan', () => {
  it('starts one period for the first invoice whichever event books it, renews, and ends', async () => {
    const user = await newCustomer(b, 'plan');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    expect(events.map((e) => e.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);
    // Out of order: the session first, then the invoice of the same payment.
    await deliverAll([
      ofType(events, 'checkout.session.completed'),
      ofType(events, 'invoice.paid'),
      events[0] as StripeObject,
    ]);
    let account = await accountOf(b.t, user.id);
    expect(account).toMatchObject({ balance: 300, recurring_credits: 300, recurring_period_credits: 300 });
    expect(await payments(user.id)).toHaveLength(1);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;

    // Spend some, then the next period: what is left lapses, the period's credits come.
    await b.t.services.db.$client.query('update accounts set balance = balance - 120 where user_id = $1', [user.id]);
    b.fake.subscriptions.renew(subscriptionId);
    const second = takeEvents(b);
    expect(second.map((e) => e.type)).toEqual(['invoice.paid', 'customer.subscription.updated']);
    await deliverAll(second);
    account = await accountOf(b.t, user.id);
    expect(account).toMatchObject({ balance: 300, recurring_credits: 300 });

    // Periods 3 and 4 delivered out of order: 4 first, then 3, which is older and books no credits.
    b.fake.subscriptions.renew(subscriptionId);
    const third = takeEvents(b);
    b.fake.subscriptions.renew(subscriptionId);
    const fourth = takeEvents(b);
    await b.t.services.db.$client.query('update accounts set balance = balance - 50 where user_id = $1', [user.id]);
    await deliverAll(fourth);
    const periodFourEnd = (await accountOf(b.t, user.id))?.recurring_period_end?.getTime() ?? 0;
    await deliverAll(third);
    await deliverAll(second.map((e) => ({ ...e, id: `${e.id}late` })));
    account = await accountOf(b.t, user.id);
    expect(account).toMatchObject({ balance: 300, recurring_credits: 300 });
    expect(account?.recurring_period_end?.getTime()).toBe(periodFourEnd);
    expect(await payments(user.id)).toHaveLength(4);
    expect((await payments(user.id)).every((p) => p.interval === 'month')).toBe(true);
    const ledger = await expectBalancedLedger(b.t, user.id);
    expect(ledger.filter((l) => l.cause === 'period')).toHaveLength(3);

    // Cancelled at the period end: the cancel date shows; the credits stay until it ends.
    await b.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    await deliverAll(takeEvents(b));
    const shown = await gql<{
      account: { type: number; metadata: string; product: { name: string; credits: number } };
    }>(b.t.app, '{ account { type metadata product { name credits } } }', {}, user.headers);
    const metadata = JSON.parse(shown.data?.account.metadata ?? '{}') as { recurring: { cancelAt: number | null } };
    expect(shown.data?.account).toMatchObject({ type: 3, product: { name: 'Pro plan', credits: 300 } });
    expect(metadata.recurring.cancelAt).toBe(Math.floor((account?.recurring_period_end?.getTime() ?? 0) / 1000));
    expect((await accountOf(b.t, user.id))?.balance).toBe(300);

    // Ended: the period's credits lapse (once), one-time credits stay, the card goes.
    await b.t.services.db.$client.query('update accounts set balance = balance + 7 where user_id = $1', [user.id]);
    await b.stripe.subscriptions.cancel(subscriptionId);
    const ended = takeEvents(b);
    await deliverAll([...ended, ...ended.map((e) => ({ ...e, id: `${e.id}again` }))]);
    account = await accountOf(b.t, user.id);
    expect(account).toMatchObject({ balance: 7, recurring_credits: 0, recurring_period_credits: 0 });
    const after = await gql<{ account: { type: number; product: unknown } }>(
      b.t.app,
      '{ account { type product { name } } }',
      {},
      user.headers,
    );
    expect(after.data?.account).toEqual({ type: 1, product: null });
    expect((await expectBalancedLedger(b.t, user.id)).filter((l) => l.cause === 'lapse').at(-1)?.credits).toBe(-300);
  });

  it('notes a failed renewal without changing credits, until a payment succeeds', async () => {
    const user = await newCustomer(b, 'failing');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = objectOf(events[0]).id;
    const failedInvoice = b.fake.subscriptions.renew(subscriptionId, { fail: true });
    await deliverAll(takeEvents(b));
    const metadata = () =>
      accountMetadata<{
        recurring: { status: string; paymentFailed?: { invoiceId: string; url: string } };
      }>(b, user.headers);
    const failed = await metadata();
    expect(failed.recurring.status).toBe('past_due');
    expect(failed.recurring.paymentFailed).toMatchObject({ invoiceId: failedInvoice.id });
    expect(failed.recurring.paymentFailed?.url).toContain(`/i/${failedInvoice.id}`);
    expect((await accountOf(b.t, user.id))?.balance).toBe(300);
    b.fake.subscriptions.renew(subscriptionId);
    await deliverAll(takeEvents(b));
    expect((await metadata()).recurring).toEqual({
      subscriptionId,
      status: 'active',
      cancelAt: null,
      periodEnd: expect.any(Number),
    });
    await expectBalancedLedger(b.t, user.id);
  });
});

describe('a plan that starts with a free trial', () => {
  it('grants the period’s credits with the first paid invoice, none for the trial’s invoice of 0', async () => {
    const user = await newCustomer(b, 'trial');
    await inTransaction(b.t, (tx) => grantCredits(tx, user.id, 5, 'signup'));
    const marks = { user_key: user.key };
    // A trial set up in Stripe (the operator's own Checkout): nothing is charged for 14 days.
    const session = await b.stripe.checkout.sessions.create({
      mode: 'subscription',
      client_reference_id: user.key,
      line_items: [{ price: PLAN_MONTHLY, quantity: 1 }],
      metadata: marks,
      subscription_data: { metadata: marks, trial_period_days: 14 },
      success_url: 'http://localhost:3999/me/account',
    });
    b.fake.checkout.complete(session.id);
    const events = takeEvents(b);
    expect(objectOf(ofType(events, 'invoice.paid'))).toMatchObject({ amount_paid: 0 });
    expect(await deliverAll([...events, ...events.map((e) => ({ ...e, id: `${e.id}again` }))])).toEqual(
      Array(6).fill(200),
    );
    // The plan shows (trialing); a period no one paid for brings no period credits.
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 5, recurring_credits: 0 });
    const shown = await gql<{ account: { type: number } }>(b.t.app, '{ account { type } }', {}, user.headers);
    expect(shown.data?.account.type).toBe(3);
    // The card tells the trial and when it ends (the first payment); the trial's invoice of 0 is
    // no payment 'per month'.
    const trialEnd = objectOf(ofType(events, 'customer.subscription.created')).trial_end;
    expect(trialEnd).toEqual(expect.any(Number));
    const shownPlan = async () => {
      const answer = await gql<{ account: { metadata: string; payments: Array<Record<string, unknown>> } }>(
        b.t.app,
        '{ account { metadata payments { price interval description } } }',
        {},
        user.headers,
      );
      return {
        recurring: (JSON.parse(answer.data?.account.metadata ?? '{}') as { recurring: Record<string, unknown> })
          .recurring,
        payments: answer.data?.account.payments ?? [],
      };
    };
    const inTrial = await shownPlan();
    expect(inTrial.recurring).toMatchObject({ status: 'trialing', trialEnd });
    expect(inTrial.payments).toEqual([{ price: 0, interval: null, description: 'Pro plan (free trial)' }]);
    // The trial over, the first paid invoice starts the plan's period.
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    b.fake.subscriptions.renew(subscriptionId);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({
      balance: 305,
      recurring_credits: 300,
      recurring_period_credits: 300,
    });
    const paid = await shownPlan();
    expect(paid.recurring.status).toBe('active');
    expect(paid.recurring).not.toHaveProperty('trialEnd');
    expect(paid.payments[0]).toMatchObject({ price: 2000, interval: 'month' });
    await expectBalancedLedger(b.t, user.id);
  });
});

describe('a plan’s checkout.session.completed delivered late', () => {
  it('books nothing again after the plan renewed, whichever of the first invoice’s events comes last', async () => {
    const user = await newCustomer(b, 'late-session');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
    // Only the subscription reached us; then the plan renewed, and its renewal was delivered.
    await deliverAll([ofType(events, 'customer.subscription.created')]);
    b.fake.subscriptions.renew(subscriptionId);
    await deliverAll(takeEvents(b));
    await inTransaction(b.t, (tx) => spendCredits(tx, user.id, 100, 'late-session-signals'));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 200, recurring_credits: 200 });
    // The first payment's events at last: its period is over, nothing is handed out again.
    await deliverAll([ofType(events, 'checkout.session.completed'), ofType(events, 'invoice.paid')]);
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 200, recurring_credits: 200 });
    expect(await payments(user.id)).toHaveLength(2);
    await expectBalancedLedger(b.t, user.id);
  });
});

describe('a plan changed within its period', () => {
  it('keeps what was spent of the period: an upgrade adds the difference, a downgrade takes it, once', async () => {
    const user = await newCustomer(b, 'plan-change');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
    await inTransaction(b.t, (tx) => spendCredits(tx, user.id, 250, 'plan-change-signals'));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 50, recurring_credits: 50 });

    // Upgraded to 2 × 300 for the rest of the period: 300 more, not a fresh 600.
    const upgradeInvoice = b.fake.subscriptions.changeQuantity(subscriptionId, 2);
    const upgrade = takeEvents(b);
    expect(await deliverAll([...upgrade, ...upgrade.map((e) => ({ ...e, id: `${e.id}again` }))])).toEqual([
      200, 200, 200, 200,
    ]);
    expect(await accountOf(b.t, user.id)).toMatchObject({
      balance: 350,
      recurring_credits: 350,
      recurring_period_credits: 600,
    });

    // Down again, nothing paid: 300 fewer; and down and up again changes nothing on the whole.
    const downgradeInvoice = b.fake.subscriptions.changeQuantity(subscriptionId, 1);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({
      balance: 50,
      recurring_credits: 50,
      recurring_period_credits: 300,
    });
    b.fake.subscriptions.changeQuantity(subscriptionId, 2);
    await deliverAll(takeEvents(b));
    b.fake.subscriptions.changeQuantity(subscriptionId, 1);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 50, recurring_credits: 50 });

    // The next period is the plan's full credits again.
    b.fake.subscriptions.renew(subscriptionId);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 300, recurring_credits: 300 });
    await expectBalancedLedger(b.t, user.id);

    // The payments the user sees state what each granted: the difference on an upgrade, none on a
    // downgrade, not the new plan's whole credits.
    const shown = await gql<{ account: { payments: Array<{ credits: number; stripeInvoiceId: string }> } }>(
      b.t.app,
      '{ account { payments { credits stripeInvoiceId } } }',
      {},
      user.headers,
    );
    const byInvoice = new Map(shown.data?.account.payments.map((p) => [p.stripeInvoiceId, p.credits]));
    expect([upgradeInvoice, downgradeInvoice].map((invoice) => byInvoice.get(invoice.id))).toEqual([300, 0]);
    expect((await payments(user.id)).map((p) => p.credits)).toEqual([300, 300, 0, 300, 0, 300]);
    // A change's invoice is a one-off amount for the rest of the period, not a price 'per month'.
    expect((await payments(user.id)).map((p) => p.interval)).toEqual(['month', null, null, null, null, 'month']);
  });
});

describe('a plan downgraded past what was used of its period, then upgraded again', () => {
  it('counts every credit used in the period against the upgrade: the difference is not handed out again', async () => {
    const user = await newCustomer(b, 'down-up-used');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    b.fake.subscriptions.changeQuantity(subscriptionId, 2);
    await deliverAll(takeEvents(b));
    // 590 of the 2 × 300 used; down to 300 a period leaves none, up to 600 again leaves 10.
    await inTransaction(b.t, (tx) => spendCredits(tx, user.id, 590, 'down-up-used-signals'));
    b.fake.subscriptions.changeQuantity(subscriptionId, 1);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ recurring_credits: 0, recurring_period_credits: 300 });
    b.fake.subscriptions.changeQuantity(subscriptionId, 2);
    const up = takeEvents(b);
    await deliverAll([...up, ...up.map((e) => ({ ...e, id: `${e.id}again` }))]);
    expect(await accountOf(b.t, user.id)).toMatchObject({
      balance: 10,
      recurring_credits: 10,
      recurring_period_credits: 600,
    });
    // The same billed at the renewal (no invoice now): down and up leave the 10.
    b.fake.subscriptions.changeQuantity(subscriptionId, 1, { billed: 'at renewal' });
    await deliverAll(takeEvents(b));
    b.fake.subscriptions.changeQuantity(subscriptionId, 2, { billed: 'at renewal' });
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ recurring_credits: 10, recurring_period_credits: 600 });
    // The renewal starts a whole period of the plan.
    b.fake.subscriptions.renew(subscriptionId);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ recurring_credits: 600 });
    await expectBalancedLedger(b.t, user.id);
  });
});

describe('a plan upgraded within its period, billed at the next renewal', () => {
  it('adds the difference for the rest of the period at once, and the renewal starts the new plan’s period, once', async () => {
    const user = await newCustomer(b, 'change-billed-later');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    await inTransaction(b.t, (tx) => spendCredits(tx, user.id, 250, 'change-billed-later-signals'));
    // Upgraded to 2 × 300: the account shows 600 a month at once, and the rest of this period
    // is billed with the renewal: its credits come now, as when it is invoiced at once.
    b.fake.subscriptions.changeQuantity(subscriptionId, 2, { billed: 'at renewal' });
    const change = takeEvents(b);
    expect(change.map((e) => e.type)).toEqual(['customer.subscription.updated']);
    await deliverAll([...change, ...change.map((e) => ({ ...e, id: `${e.id}again` }))]);
    expect(await accountOf(b.t, user.id)).toMatchObject({
      balance: 350,
      recurring_credits: 350,
      recurring_period_credits: 600,
    });
    // The renewal: the new plan's whole period, nothing more for the one before.
    b.fake.subscriptions.renew(subscriptionId);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 600, recurring_credits: 600 });
    await expectBalancedLedger(b.t, user.id);
  });

  it('leaves a change invoiced at once to its invoice, whichever of its events comes first', async () => {
    const user = await newCustomer(b, 'change-invoiced-order');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    const invoice = b.fake.subscriptions.changeQuantity(subscriptionId, 2);
    const change = takeEvents(b);
    await deliverAll([ofType(change, 'customer.subscription.updated'), ofType(change, 'invoice.paid')]);
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 600, recurring_period_credits: 600 });
    // The upgrade's payment says what it brought.
    expect((await payments(user.id)).find((p) => p.reference === invoice.id)?.credits).toBe(300);
    await expectBalancedLedger(b.t, user.id);
  });

  it('adds nothing while the upgrade’s invoice is unpaid', async () => {
    const user = await newCustomer(b, 'change-unpaid');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    // Invoiced at once, and its payment failed: the subscription's latest invoice is open.
    const invoice = b.fake.subscriptions.changeQuantity(subscriptionId, 2);
    Object.assign(b.fake.store.get('invoice', String(invoice.id)), { status: 'open', amount_paid: 0 });
    await deliverAll(takeEvents(b).filter((e) => e.type === 'customer.subscription.updated'));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 300, recurring_period_credits: 300 });
  });
});

describe('a plan changed before its first invoice’s events arrived', () => {
  it('starts the period once: the first invoice delivered after the change’s hands out nothing again', async () => {
    const user = await newCustomer(b, 'change-first');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
    // Only the subscription reached us (the server was down); then an upgrade, delivered at once.
    await deliverAll([ofType(events, 'customer.subscription.created')]);
    b.fake.subscriptions.changeQuantity(subscriptionId, 2);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 600, recurring_credits: 600 });
    await inTransaction(b.t, (tx) => spendCredits(tx, user.id, 500, 'change-first-signals'));
    // Stripe's retries of the first payment at last: the same period, started already.
    await deliverAll([ofType(events, 'invoice.paid'), ofType(events, 'checkout.session.completed')]);
    expect(await accountOf(b.t, user.id)).toMatchObject({
      balance: 100,
      recurring_credits: 100,
      recurring_period_credits: 600,
    });
    expect(await payments(user.id)).toHaveLength(2);
    await expectBalancedLedger(b.t, user.id);
  });
});

describe('an extra invoice on a plan’s subscription', () => {
  it('grants no period credits for an operator’s one-off invoice, with or without a period on its line', async () => {
    const user = await newCustomer(b, 'extra-invoice');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscription = objectOf(ofType(events, 'customer.subscription.created'));
    const customer = String(subscription.customer);
    const periodEnd = (await accountOf(b.t, user.id))?.recurring_period_end?.getTime();
    await inTransaction(b.t, (tx) => spendCredits(tx, user.id, 250, 'extra-invoice-signals'));

    // A setup fee, then a fee stating the plan's period (the service it is for): billing_reason manual.
    const periods = [
      undefined,
      { start: Math.floor(Date.now() / 1000) - 60, end: Math.floor((periodEnd ?? 0) / 1000) },
    ];
    const invoiceIds: string[] = [];
    for (const period of periods) {
      await b.stripe.invoiceItems.create({
        customer,
        subscription: subscription.id,
        amount: 500,
        currency: 'usd',
        description: 'Setup fee',
        ...(period ? { period } : {}),
      });
      const invoice = await b.stripe.invoices.create({
        customer,
        subscription: subscription.id,
        pending_invoice_items_behavior: 'include',
      });
      const paid = await b.stripe.invoices.pay(invoice.id ?? '');
      expect(paid).toMatchObject({ status: 'paid', billing_reason: 'manual', amount_paid: 500 });
      invoiceIds.push(paid.id ?? '');
      expect(await deliverAll(takeEvents(b))).toEqual([200]);
    }

    expect(await accountOf(b.t, user.id)).toMatchObject({
      balance: 50,
      recurring_credits: 50,
      recurring_period_credits: 300,
    });
    expect((await accountOf(b.t, user.id))?.recurring_period_end?.getTime()).toBe(periodEnd);
    const ledger = await expectBalancedLedger(b.t, user.id);
    expect(ledger.filter((l) => invoiceIds.includes(l.reference ?? ''))).toEqual([]);
    // The payments are listed, with the credits they brought: none.
    const extra = (await payments(user.id)).filter((p) => invoiceIds.includes(p.reference));
    expect(extra.map((p) => ({ credits: p.credits, price: p.price }))).toEqual([
      { credits: 0, price: 500 },
      { credits: 0, price: 500 },
    ]);
    // Under what they were for, not the plan's name, and not 'per month': they pay no period.
    const shown = await gql<{
      account: { payments: Array<{ description: string; interval: string | null; stripeInvoiceId: string }> };
    }>(b.t.app, '{ account { payments { description interval stripeInvoiceId } } }', {}, user.headers);
    expect(
      shown.data?.account.payments
        .filter((p) => invoiceIds.includes(p.stripeInvoiceId))
        .map(({ description, interval }) => ({ description, interval })),
    ).toEqual([
      { description: 'Setup fee', interval: null },
      { description: 'Setup fee', interval: null },
    ]);
  });
});

describe('a subscription whose first payment was never made (incomplete)', () => {
  it('neither replaces the plan that runs nor takes its period’s credits when it expires', async () => {
    const user = await newCustomer(b, 'incomplete');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const running = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    // A second subscription of the customer (made in Stripe's dashboard) whose first payment
    // failed: incomplete for 23 hours, then incomplete_expired; it never ran.
    const second = b.fake.store.put({
      ...structuredClone(b.fake.store.get('subscription', running)),
      id: b.fake.store.newId('subscription'),
      status: 'incomplete',
    });
    b.fake.webhooks.emit('customer.subscription.updated', second, { metadata: {} });
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    second.status = 'incomplete_expired';
    b.fake.webhooks.emit('customer.subscription.updated', second, { status: 'incomplete' });
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 300, recurring_credits: 300 });
    const shown = await gql<{ account: { type: number; metadata: string } }>(
      b.t.app,
      '{ account { type metadata } }',
      {},
      user.headers,
    );
    expect(shown.data?.account.type).toBe(3);
    expect(JSON.parse(shown.data?.account.metadata ?? '{}').recurring).toMatchObject({
      subscriptionId: running,
      status: 'active',
    });
    await expectBalancedLedger(b.t, user.id);
  });
});

describe('a failed renewal delivered late', () => {
  it('shows no failed payment once Stripe says the plan is paid again', async () => {
    const user = await newCustomer(b, 'late-failure');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
    b.fake.subscriptions.renew(subscriptionId, { fail: true });
    const failed = takeEvents(b);
    b.fake.subscriptions.renew(subscriptionId);
    // The failure arrives last (Stripe does not keep the order).
    await deliverAll([ofType(failed, 'customer.subscription.updated'), ...takeEvents(b)]);
    expect((await postEvent(b, ofType(failed, 'invoice.payment_failed'))).status).toBe(200);
    const metadata = await accountMetadata<{ recurring: Record<string, unknown> }>(b, user.headers);
    expect(metadata.recurring).toEqual({
      subscriptionId,
      status: 'active',
      cancelAt: null,
      periodEnd: expect.any(Number),
    });
  });
});

describe('failed renewal attempts delivered out of order', () => {
  it('shows the attempts as Stripe holds them now: no retry date once Stripe stopped retrying', async () => {
    const user = await newCustomer(b, 'retries-out-of-order');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
    const invoice = b.fake.subscriptions.renew(subscriptionId, { fail: true });
    const first = ofType(takeEvents(b), 'invoice.payment_failed');
    // Stripe's last retry fails too: no further attempt.
    Object.assign(b.fake.store.get('invoice', String(invoice.id)), { attempt_count: 4, next_payment_attempt: null });
    const last = b.fake.webhooks.emit('invoice.payment_failed', b.fake.store.get('invoice', String(invoice.id)));
    takeEvents(b);
    for (const event of [last, first]) expect((await postEvent(b, event)).status).toBe(200);
    const metadata = await accountMetadata<{
      recurring: { paymentFailed?: { invoiceId: string; nextAttempt: number | null } };
    }>(b, user.headers);
    expect(metadata.recurring.paymentFailed).toMatchObject({ invoiceId: invoice.id, nextAttempt: null });
  });
});

describe('a plan replaced by a shorter one', () => {
  it('books the new plan’s period although the ended yearly plan’s period ran longer', async () => {
    const yearly = await b.stripe.prices.create({
      currency: 'usd',
      unit_amount: 99000,
      recurring: { interval: 'year' },
      product: PRODUCT_ID,
      nickname: 'Yearly plan',
      metadata: { credits: '4000' },
    });
    clearCatalog(b.t.services);
    const user = await newCustomer(b, 'yearly-then-monthly');
    const first = await buy(b, user.headers, yearly.id);
    await deliverAll(first.events);
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 4000, recurring_credits: 4000 });
    // Cancelled at once (the portal's "cancel immediately"), then a monthly plan bought.
    await b.stripe.subscriptions.cancel(objectOf(ofType(first.events, 'customer.subscription.created')).id);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 0, recurring_credits: 0 });
    const second = await buy(b, user.headers, PLAN_MONTHLY);
    expect(await deliverAll(second.events)).toEqual([200, 200, 200]);
    expect(await accountOf(b.t, user.id)).toMatchObject({
      balance: 300,
      recurring_credits: 300,
      recurring_period_credits: 300,
    });
    const monthlyEnd = (await accountOf(b.t, user.id))?.recurring_period_end?.getTime() ?? 0;
    expect(monthlyEnd).toBeLessThan(Date.now() + 32 * 86_400_000);
    // And its renewal: a later period of the plan that runs now.
    b.fake.subscriptions.renew(objectOf(ofType(second.events, 'customer.subscription.created')).id);
    await deliverAll(takeEvents(b));
    expect((await accountOf(b.t, user.id))?.recurring_period_end?.getTime() ?? 0).toBeGreaterThan(monthlyEnd);
    await expectBalancedLedger(b.t, user.id);
  });
});

describe('a yearly plan changed to a monthly one within its year', () => {
  it('starts the monthly period the change paid for, not one ending with the year credited back', async () => {
    const yearly = await b.stripe.prices.create({
      currency: 'usd',
      unit_amount: 99000,
      recurring: { interval: 'year' },
      product: PRODUCT_ID,
      nickname: 'Yearly desk',
      metadata: { credits: '4000' },
    });
    clearCatalog(b.t.services);
    const user = await newCustomer(b, 'yearly-to-monthly');
    const first = await buy(b, user.headers, yearly.id);
    await deliverAll(first.events);
    await inTransaction(b.t, (tx) => spendCredits(tx, user.id, 100, 'yearly-to-monthly-signals'));
    // The portal's "Update plan" to the monthly price: the unused year is credited back to the
    // customer, and a month starts now.
    const subscriptionId = String(objectOf(ofType(first.events, 'customer.subscription.created')).id);
    b.fake.subscriptions.changeInterval(subscriptionId, PLAN_MONTHLY);
    const change = takeEvents(b);
    await deliverAll([...change, ...change.map((e) => ({ ...e, id: `${e.id}again` }))]);
    const account = await accountOf(b.t, user.id);
    // The year's credits left lapse with the year given back; the month's 300 are the plan's.
    expect(account).toMatchObject({ balance: 300, recurring_credits: 300, recurring_period_credits: 300 });
    expect(account?.recurring_period_end?.getTime() ?? 0).toBeLessThan(Date.now() + 32 * 86_400_000);
    // Its renewal a month later: the next month, once.
    b.fake.subscriptions.renew(subscriptionId);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 300, recurring_credits: 300 });
    await expectBalancedLedger(b.t, user.id);
  });
});

describe('two events of one subscription applied at once', () => {
  it('leaves the plan as Stripe holds it last, though an older answer of Stripe arrives late', async () => {
    const user = await newCustomer(b, 'race');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
    await b.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    const [updated] = takeEvents(b);
    // The update's delivery asks Stripe for the subscription; the answer (still running) is slow.
    const hold = b.fake.hold('GET', `/v1/subscriptions/${subscriptionId}`);
    const slow = postEvent(b, updated);
    await hold.reached;
    // Meanwhile the plan ends, at once, and that event is applied (another delivery, another instance).
    await b.stripe.subscriptions.cancel(subscriptionId);
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    hold.release();
    expect((await slow).status).toBe(200);
    const shown = await gql<{ account: { type: number; product: unknown; metadata: string } }>(
      b.t.app,
      '{ account { type product { name } metadata } }',
      {},
      user.headers,
    );
    expect(shown.data?.account).toMatchObject({ type: 1, product: null });
    const metadata = JSON.parse(shown.data?.account.metadata ?? '{}') as { recurring: { status: string } };
    expect(metadata.recurring.status).toBe('canceled');
    // And a new plan can be bought (no 'You already have a plan').
    expect((await paymentSession(b, user.headers, { price: PLAN_MONTHLY })).errors).toBeUndefined();
  });

  it('applies one user’s events one at a time: the second reads Stripe after the first committed', async () => {
    const user = await newCustomer(b, 'race-locked');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
    await b.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    const [updated] = takeEvents(b);
    // The update is applied up to its read of the subscription under the user's lock (the
    // handler's first read passes); that answer (still running) is slow.
    const hold = b.fake.hold('GET', `/v1/subscriptions/${subscriptionId}`, 1);
    const slow = postEvent(b, updated);
    await hold.reached;
    await b.stripe.subscriptions.cancel(subscriptionId);
    let deletedDone = false;
    const deleted = postEvent(b, ofType(takeEvents(b), 'customer.subscription.deleted')).finally(() => {
      deletedDone = true;
    });
    // The deletion waits for the update's lock (unserialized, it would finish first).
    const waitingForLock = async () => {
      const { rows } = await b.t.services.db.$client.query<{ n: number }>(
        `select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
         where d.datname = current_database() and l.locktype = 'advisory' and not l.granted`,
      );
      return (rows[0]?.n ?? 0) > 0;
    };
    try {
      for (let i = 0; i < 500 && !deletedDone && !(await waitingForLock()); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(deletedDone).toBe(false);
      expect(await waitingForLock()).toBe(true);
    } finally {
      hold.release();
    }
    expect((await slow).status).toBe(200);
    expect((await deleted).status).toBe(200);
    const shown = await gql<{ account: { type: number; product: unknown } }>(
      b.t.app,
      '{ account { type product { name } } }',
      {},
      user.headers,
    );
    expect(shown.data?.account).toEqual({ type: 1, product: null });
  });
});

describe('a refunded pack', () => {
  const intentOf = (sessionId: string) => String(b.fake.store.get('checkout.session', sessionId).payment_intent);
  const reversals = async (userId: number) => {
    const { rows } = await b.t.services.db.$client.query<{ credits: number; note: string | null }>(
      "select credits, note from credit_ledger where user_id = $1 and cause = 'reversal' order by id",
      [userId],
    );
    return rows;
  };
  const refunded = async (userId: number) => {
    const { rows } = await b.t.services.db.$client.query<{ refunded: number }>(
      'select refunded from payments where user_id = $1',
      [userId],
    );
    return rows.map((r) => r.refunded);
  };

  it('takes its credits back once on a full refund, and the payment entry shows it', async () => {
    const user = await newCustomer(b, 'refund-full');
    const { sessionId, events } = await buy(b, user.headers, PACK_100);
    await deliverAll(events);
    expect((await accountOf(b.t, user.id))?.balance).toBe(100);
    await b.stripe.refunds.create({ payment_intent: intentOf(sessionId) });
    const refundedEvents = takeEvents(b);
    expect(refundedEvents.map((e) => e.type)).toEqual(['charge.refunded']);
    // Delivered twice, and again under another id (a replay from the dashboard), two at once.
    const [event] = refundedEvents as [StripeObject];
    const replay = { ...event, id: `${event.id}replay` };
    const answers = await Promise.all([postEvent(b, event), postEvent(b, replay), postEvent(b, event)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect((await accountOf(b.t, user.id))?.balance).toBe(0);
    expect(await reversals(user.id)).toEqual([{ credits: -100, note: null }]);
    expect(await refunded(user.id)).toEqual([1099]);
    const shown = await gql<{ account: { payments: Array<{ price: number; refunded: number }> } }>(
      b.t.app,
      '{ account { payments { price refunded } } }',
      {},
      user.headers,
    );
    expect(shown.data?.account.payments).toEqual([{ price: 1099, refunded: 1099 }]);
    await expectBalancedLedger(b.t, user.id);
  });

  it('takes back each partial refund’s share, and only what is left when the credits were spent', async () => {
    const user = await newCustomer(b, 'refund-partial');
    const { sessionId, events } = await buy(b, user.headers, PACK_100, { quantity: 3 });
    await deliverAll(events);
    const intent = intentOf(sessionId);
    await b.stripe.refunds.create({ payment_intent: intent, amount: 1099 });
    await deliverAll(takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance).toBe(200);
    expect(await refunded(user.id)).toEqual([1099]);
    // 170 of the 200 left are spent; the rest is refunded: 200 due, 30 left to take.
    await b.t.services.db.$client.query('update accounts set balance = balance - 170 where user_id = $1', [user.id]);
    await b.stripe.refunds.create({ payment_intent: intent });
    const second = takeEvents(b);
    await deliverAll([...second, ...second.map((e) => ({ ...e, id: `${e.id}again` }))]);
    expect((await accountOf(b.t, user.id))?.balance).toBe(0);
    expect(await reversals(user.id)).toEqual([
      { credits: -100, note: null },
      { credits: -30, note: '200 credits due, 30 left to take back' },
    ]);
    expect(await refunded(user.id)).toEqual([3297]);
    await expectBalancedLedger(b.t, user.id);
  });

  it('gives the credits back once when a refund fails later, and the payment entry no longer shows it', async () => {
    const user = await newCustomer(b, 'refund-failed');
    const { sessionId, events } = await buy(b, user.headers, PACK_100, { quantity: 3 });
    await deliverAll(events);
    const intent = intentOf(sessionId);
    const failing = await b.stripe.refunds.create({ payment_intent: intent, amount: 1099 });
    await deliverAll(takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance).toBe(200);
    // The card was closed: the refund fails, the money stays with us (three events, one change).
    b.fake.charges.failRefund(failing.id);
    const failedEvents = takeEvents(b);
    expect(failedEvents.map((e) => e.type)).toEqual(['charge.refund.updated', 'refund.updated', 'refund.failed']);
    expect(await deliverAll([...failedEvents, ...failedEvents])).toEqual([200, 200, 200, 200, 200, 200]);
    expect((await accountOf(b.t, user.id))?.balance).toBe(300);
    expect(await refunded(user.id)).toEqual([0]);
    // A later refund that goes through takes its own share, as if the failed one never was.
    await b.stripe.refunds.create({ payment_intent: intent, amount: 1099 });
    await deliverAll(takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance).toBe(200);
    expect(await refunded(user.id)).toEqual([1099]);
    await expectBalancedLedger(b.t, user.id);
  });

  it('measures the low-credit mark against the pack bought, not against credits a failed refund gave back', async () => {
    const user = await newCustomer(b, 'refund-failed-last-grant');
    const { sessionId, events } = await buy(b, user.headers, PACK_100, { quantity: 3 });
    await deliverAll(events);
    const failing = await b.stripe.refunds.create({ payment_intent: intentOf(sessionId), amount: 1099 });
    await deliverAll(takeEvents(b));
    b.fake.charges.failRefund(failing.id);
    await deliverAll(takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance).toBe(300);
    // The last grant is still the 300 bought: the 100 given back were no new grant.
    expect(await lastGrant(b.t.services.db, user.id)).toBe(300);
    await expectBalancedLedger(b.t, user.id);
  });

  it('no longer counts a refund too small to take a credit once it fails', async () => {
    const user = await newCustomer(b, 'refund-tiny-failed');
    const { sessionId, events } = await buy(b, user.headers, PACK_100);
    await deliverAll(events);
    // 1 cent of 1099: its share of 100 credits rounds to 0.
    const tiny = await b.stripe.refunds.create({ payment_intent: intentOf(sessionId), amount: 1 });
    await deliverAll(takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance).toBe(100);
    expect(await refunded(user.id)).toEqual([1]);
    b.fake.charges.failRefund(tiny.id);
    expect(await deliverAll(takeEvents(b))).toEqual([200, 200, 200]);
    expect((await accountOf(b.t, user.id))?.balance).toBe(100);
    expect(await refunded(user.id)).toEqual([0]);
    await expectBalancedLedger(b.t, user.id);
  });

  it('grants nothing for a payment refunded before its checkout.session.completed reached us', async () => {
    const user = await newCustomer(b, 'refund-before-session');
    const { sessionId, events } = await buy(b, user.headers, PACK_100, { quantity: 3 });
    // Our server was down: the buyer asked for the credits, the operator refunded a part meanwhile.
    await b.stripe.refunds.create({ payment_intent: intentOf(sessionId), amount: 1099 });
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    await deliverAll(events);
    expect((await accountOf(b.t, user.id))?.balance).toBe(200);
    expect(await refunded(user.id)).toEqual([1099]);
    // A later refund of the rest takes the rest, and nothing twice.
    await b.stripe.refunds.create({ payment_intent: intentOf(sessionId) });
    await deliverAll(takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance).toBe(0);
    await expectBalancedLedger(b.t, user.id);
  });

  it('takes back a refund made while its checkout.session.completed was being applied', async () => {
    const user = await newCustomer(b, 'refund-during-session');
    const { sessionId, events } = await buy(b, user.headers, PACK_100, { quantity: 3 });
    // The booking has read Stripe (nothing refunded then) and waits for the user's lock.
    const lock = await holdUserLock(user.id);
    let booking: ReturnType<typeof postEvent> | undefined;
    try {
      booking = postEvent(b, ofType(events, 'checkout.session.completed'));
      await lock.waited();
      // Meanwhile a third is refunded, and that event is handled (another delivery, another instance).
      await b.stripe.refunds.create({ payment_intent: intentOf(sessionId), amount: 1099 });
      expect(await deliverAll(takeEvents(b))).toEqual([200]);
    } finally {
      await lock.release();
    }
    expect((await booking)?.status).toBe(200);
    expect((await accountOf(b.t, user.id))?.balance).toBe(200);
    expect(await refunded(user.id)).toEqual([1099]);
    await expectBalancedLedger(b.t, user.id);
  });

  it('has a refund’s event wait for the booking of its payment that is reading the charge', async () => {
    const user = await newCustomer(b, 'refund-waits');
    const { sessionId, events } = await buy(b, user.headers, PACK_100);
    const chargeId = String(b.fake.store.get('payment_intent', intentOf(sessionId)).latest_charge);
    // The booking holds the payment's lock; Stripe's answer about the charge is slow.
    const hold = b.fake.hold('GET', `/v1/charges/${chargeId}`);
    const booking = postEvent(b, ofType(events, 'checkout.session.completed'));
    let refundDone = false;
    let refund: Promise<number[]> | undefined;
    try {
      await hold.reached;
      await b.stripe.refunds.create({ payment_intent: intentOf(sessionId) });
      refund = deliverAll(takeEvents(b)).finally(() => {
        refundDone = true;
      });
      // Not consumed as unmatched while the booking has not committed: it waits for it.
      expect(await lockAwaited(() => refundDone)).toBe(true);
      expect(refundDone).toBe(false);
    } finally {
      hold.release();
    }
    expect((await booking).status).toBe(200);
    expect(await refund).toEqual([200]);
    expect((await accountOf(b.t, user.id))?.balance).toBe(0);
    expect(await refunded(user.id)).toEqual([1099]);
    await expectBalancedLedger(b.t, user.id);
  });

  it('no longer counts a referred buyer as paying once the payment was refunded in full', async () => {
    const { rows } = await b.t.services.db.$client.query<{ id: string }>(
      "insert into referrers (code, name, credits) values ('refundrf', 'Refunds', 10) returning id",
    );
    const referrerId = rows[0]?.id;
    const paying = async () => (await referrerStats(b.t.services.db)).find((r) => r.code === 'refundrf')?.payingUsers;
    const users = [await newCustomer(b, 'referred-kept'), await newCustomer(b, 'referred-refunded')];
    const sessions: string[] = [];
    for (const user of users) {
      await b.t.services.db.$client.query('insert into referral_signups (user_id, referrer_id) values ($1, $2)', [
        user.id,
        referrerId,
      ]);
      const { sessionId, events } = await buy(b, user.headers, PACK_100);
      await deliverAll(events);
      sessions.push(sessionId);
    }
    expect(await paying()).toBe(2);
    // The first is refunded in part (still paid something), the second in full.
    await b.stripe.refunds.create({ payment_intent: intentOf(sessions[0] ?? ''), amount: 500 });
    await b.stripe.refunds.create({ payment_intent: intentOf(sessions[1] ?? '') });
    expect(await deliverAll(takeEvents(b))).toEqual([200, 200]);
    expect(await paying()).toBe(1);
  });

  it('grants nothing for a payment whose dispute was lost before its checkout.session.completed reached us', async () => {
    const user = await newCustomer(b, 'dispute-before-session');
    const { sessionId, events } = await buy(b, user.headers, PACK_500);
    b.fake.charges.closeDispute(intentOf(sessionId), 'lost');
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    await deliverAll(events);
    expect((await accountOf(b.t, user.id))?.balance).toBe(0);
    expect(await reversals(user.id)).toEqual([{ credits: -500, note: null }]);
    await expectBalancedLedger(b.t, user.id);
  });

  it('takes the credits back when a dispute is lost, not when it is won', async () => {
    const won = await newCustomer(b, 'dispute-won');
    const first = await buy(b, won.headers, PACK_500);
    await deliverAll(first.events);
    b.fake.charges.closeDispute(intentOf(first.sessionId), 'won');
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    expect((await accountOf(b.t, won.id))?.balance).toBe(500);

    const lost = await newCustomer(b, 'dispute-lost');
    const second = await buy(b, lost.headers, PACK_500);
    await deliverAll(second.events);
    b.fake.charges.closeDispute(intentOf(second.sessionId), 'lost');
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    expect((await accountOf(b.t, lost.id))?.balance).toBe(0);
    expect(await reversals(lost.id)).toEqual([{ credits: -500, note: null }]);
    await expectBalancedLedger(b.t, lost.id);
  });
});

describe('a refunded plan payment', () => {
  /** The payment intent that paid a plan invoice (its InvoicePayment). */
  const intentOfInvoice = (invoiceId: string) => {
    const payment = b.fake.store.all('invoice_payment').find((p) => p.invoice === invoiceId);
    return String((payment?.payment as { payment_intent?: string } | undefined)?.payment_intent);
  };
  const firstInvoice = (events: StripeObject[]) => String(objectOf(ofType(events, 'invoice.paid')).id);

  it('takes back the refunded share of the period’s credits still left, once', async () => {
    const user = await newCustomer(b, 'plan-refund');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    expect((await accountOf(b.t, user.id))?.balance).toBe(300);
    const intent = intentOfInvoice(firstInvoice(events));
    // Half the money back: half the period's credits.
    const charged = Number(objectOf(ofType(events, 'invoice.paid')).amount_paid);
    await b.stripe.refunds.create({ payment_intent: intent, amount: Math.round(charged / 2) });
    const half = takeEvents(b);
    await deliverAll([...half, ...half.map((e) => ({ ...e, id: `${e.id}again` }))]);
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 150, recurring_credits: 150 });
    // 100 of them spent, then the rest refunded: 150 due, 50 left to take.
    await b.t.services.db.$client.query('update accounts set balance = balance - 100 where user_id = $1', [user.id]);
    await b.stripe.refunds.create({ payment_intent: intent });
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 0, recurring_credits: 0 });
    const { rows } = await b.t.services.db.$client.query<{ refunded: number; price: number }>(
      'select refunded, price from payments where user_id = $1',
      [user.id],
    );
    expect(rows).toEqual([{ refunded: charged, price: charged }]);
    await expectBalancedLedger(b.t, user.id);
  });

  it('takes nothing from a later period when an earlier period’s invoice is refunded', async () => {
    const user = await newCustomer(b, 'plan-refund-old');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
    b.fake.subscriptions.renew(subscriptionId);
    await deliverAll(takeEvents(b));
    await b.stripe.refunds.create({ payment_intent: intentOfInvoice(firstInvoice(events)) });
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 300, recurring_credits: 300 });
    await expectBalancedLedger(b.t, user.id);
  });

  it('gives the period’s credits back when the refund fails, unless that period is over', async () => {
    const user = await newCustomer(b, 'plan-refund-failed');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = objectOf(ofType(events, 'customer.subscription.created')).id;
    const intent = intentOfInvoice(firstInvoice(events));
    const first = await b.stripe.refunds.create({ payment_intent: intent, amount: 100 });
    await deliverAll(takeEvents(b));
    const afterFirst = (await accountOf(b.t, user.id))?.balance ?? 0;
    expect(afterFirst).toBeLessThan(300);
    // Failed within the period: its credits stand again.
    b.fake.charges.failRefund(first.id);
    await deliverAll(takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance).toBe(300);
    // Refunded in full, the plan renewed, then the refund fails: the first period's credits
    // would have lapsed; the new period's 300 stay 300.
    const second = await b.stripe.refunds.create({ payment_intent: intent });
    await deliverAll(takeEvents(b));
    expect((await accountOf(b.t, user.id))?.balance).toBe(0);
    b.fake.subscriptions.renew(subscriptionId);
    await deliverAll(takeEvents(b));
    b.fake.charges.failRefund(second.id);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 300, recurring_credits: 300 });
    await expectBalancedLedger(b.t, user.id);
  });

  it('gives no period credits back into a plan that ended before the refund failed', async () => {
    const user = await newCustomer(b, 'plan-refund-failed-ended');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    const refund = await b.stripe.refunds.create({ payment_intent: intentOfInvoice(firstInvoice(events)) });
    await deliverAll(takeEvents(b));
    // Cancelled at once: the period's credits left lapse with it; then the refund fails.
    await b.stripe.subscriptions.cancel(subscriptionId);
    await deliverAll(takeEvents(b));
    b.fake.charges.failRefund(refund.id);
    await deliverAll(takeEvents(b));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 0, recurring_credits: 0 });
    await expectBalancedLedger(b.t, user.id);
  });

  it('takes back a refund made before the invoice’s events reached us', async () => {
    const user = await newCustomer(b, 'plan-refund-early');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await b.stripe.refunds.create({ payment_intent: intentOfInvoice(firstInvoice(events)) });
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    await deliverAll(events);
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 0, recurring_credits: 0 });
    await expectBalancedLedger(b.t, user.id);
  });

  it('takes back a refund made while a renewal’s invoice.paid was being applied', async () => {
    const user = await newCustomer(b, 'plan-refund-during');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    const subscriptionId = String(objectOf(ofType(events, 'customer.subscription.created')).id);
    const renewal = String(b.fake.subscriptions.renew(subscriptionId).id);
    const renewed = takeEvents(b);
    // The renewal's booking has read Stripe (nothing refunded then) and waits for the user's lock.
    const lock = await holdUserLock(user.id);
    let booking: ReturnType<typeof postEvent> | undefined;
    try {
      booking = postEvent(b, ofType(renewed, 'invoice.paid'));
      await lock.waited();
      await b.stripe.refunds.create({ payment_intent: intentOfInvoice(renewal) });
      expect(await deliverAll(takeEvents(b))).toEqual([200]);
    } finally {
      await lock.release();
    }
    expect((await booking)?.status).toBe(200);
    await deliverAll(renewed.filter((e) => e.type !== 'invoice.paid'));
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 0, recurring_credits: 0 });
    await expectBalancedLedger(b.t, user.id);
  });

  it('takes back a dispute lost before the invoice’s events reached us', async () => {
    const user = await newCustomer(b, 'plan-dispute-early');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    b.fake.charges.closeDispute(intentOfInvoice(firstInvoice(events)), 'lost');
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    await deliverAll(events);
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 0, recurring_credits: 0 });
    await expectBalancedLedger(b.t, user.id);
  });

  it('takes the period’s credits back when a dispute of its payment is lost', async () => {
    const user = await newCustomer(b, 'plan-dispute');
    const { events } = await buy(b, user.headers, PLAN_MONTHLY);
    await deliverAll(events);
    b.fake.charges.closeDispute(intentOfInvoice(firstInvoice(events)), 'lost');
    expect(await deliverAll(takeEvents(b))).toEqual([200]);
    expect(await accountOf(b.t, user.id)).toMatchObject({ balance: 0, recurring_credits: 0 });
    await expectBalancedLedger(b.t, user.id);
  });
});
