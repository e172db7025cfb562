// What charge.refunded and the dispute events (charge-dispute.ts) share: the pack purchase a charge paid,
// and its credits taken back in proportion to the money given back. Each refund or dispute
// takes its share once (the ledger's reference '<session id>:<refund or dispute id>' is unique
// per cause), whatever Stripe delivers twice: the credits due for the charge's reversals,
// oldest first, are round(credits × pre-tax money given back so far / charged before tax) less the
// same before it (money given back counts against the tax first: share), so partial refunds add
// up to the pack's credits exactly. What is taken is one-time credits, never
// below 0 (credits.ts says in the ledger when fewer were left). A plan's payment (its invoice,
// found from the charge's payment intent by its InvoicePayment) takes back its share of the
// period credits that invoice granted, from the period credits left while that period is the
// account's current one (an older period's credits lapsed already); reference
// '<invoice id>:<refund or dispute id>'.
// A refund that fails later (charge.refund.updated, refund.updated, refund.failed: the card was
// closed, the money stays with us) gives back what its reversal took, once (restoreReversal), and
// its cents no longer count as given back. A dispute counts as money given back from its opening
// (its credits held while the bank holds the money) until it is won, which gives them back as a
// failed refund does. Professional status bought with the charge goes when
// all of its money was given back, and stands again when a refund of it fails. A refund made
// before its payment was booked (its event found nothing) is taken back when the payment's own
// event books it (reverseEarlierRefunds), and so is a dispute lost before it; the two take turns
// on the payment's lock (lockStripePayment), so a refund made while the booking runs is not
// missed by both.
import type Stripe from 'stripe';
import { setProfessionalHeld } from '../../../db/repositories/billing-account.repository.ts';
import { findLedgerEntry } from '../../../db/repositories/credits.repository.ts';
import type { Transaction } from '../../../db/repositories/executor.ts';
import { findPaymentSessionByStripeId } from '../../../db/repositories/payment-sessions.repository.ts';
import {
  findPaymentByReference,
  lowerPaymentRefunded,
  type PaymentDisputeStatus,
  type PaymentRow,
  setPaymentDispute,
  setPaymentRefunded,
} from '../../../db/repositories/payments.repository.ts';
import { lockStripePayment } from '../../../db/repositories/stripe-events.repository.ts';
import { restoreReversal, reverseCredits } from '../../accounts/credits.ts';
import { isProfessionalPrice } from '../catalog.ts';
import { intentOfInvoice } from '../invoice.ts';
import {
  invoicePeriodEnd,
  type ProfessionalSource,
  paysCurrentPeriodFromStart,
  planBoughtAt,
  planOf,
  purchaseGivesProfessional,
  releaseProfessional,
  subscriptionOfInvoice,
} from '../plan.ts';
import { currentSubscription } from './subscription.ts';
import { type Effect, type EventContext, idOf } from './types.ts';

/** Money given back: a refund, or a lost dispute. */
export interface Reversal {
  id: string;
  /** Cents. */
  amount: number;
  created: number;
}

/**
 * Our payment entry of what this charge paid: a pack (the Checkout session of its payment intent),
 * else a plan's invoice (the invoice its payment intent paid).
 */
export async function purchaseOfCharge(ctx: EventContext, charge: Stripe.Charge): Promise<PaymentRow | undefined> {
  const intent = idOf(charge.payment_intent);
  if (!intent) return undefined;
  const sessions = await ctx.stripe.checkout.sessions.list({ payment_intent: intent, limit: 1 });
  const session = sessions.data[0];
  if (session?.mode === 'payment') {
    const payment = await bookedPayment(ctx, session.id);
    return payment && !paysInvoice(payment) ? payment : undefined;
  }
  const paid = await ctx.stripe.invoicePayments.list({
    payment: { type: 'payment_intent', payment_intent: intent },
    limit: 1,
  });
  const invoiceId = idOf(paid.data[0]?.invoice);
  if (!invoiceId) return undefined;
  const payment = await bookedPayment(ctx, invoiceId);
  return payment && paysInvoice(payment) ? payment : undefined;
}

/**
 * A payment entry of an invoice on a subscription (a plan's period, or a one-off invoice on it),
 * not of a pack's Checkout session (whose reference is the session; its invoice is a receipt).
 */
const paysInvoice = (payment: PaymentRow) => payment.reference === payment.stripeInvoiceId;

/**
 * The payment entry of a session or invoice, looked up under the payment's lock: a booking of it
 * running now has committed first, or reads the charge's refunds from Stripe after this.
 */
function bookedPayment(ctx: EventContext, reference: string): Promise<PaymentRow | undefined> {
  return ctx.services.db.transaction(async (tx) => {
    await lockStripePayment(tx, reference);
    return findPaymentByReference(tx, reference);
  });
}

/**
 * What a payment's reversal takes from: a pack's credits (one-time credits), or the period credits
 * a plan's invoice granted (the period it paid for, ending `periodEnd`); and the tax in what was
 * charged (Stripe Tax), which buys no credits.
 */
async function reversible(
  ctx: EventContext,
  tx: Transaction,
  payment: PaymentRow,
): Promise<{ credits: number; tax: number; periodEnd?: Date | null }> {
  if (!paysInvoice(payment)) {
    const session = await ctx.stripe.checkout.sessions.retrieve(payment.reference);
    return { credits: payment.credits, tax: session.total_details?.amount_tax ?? 0 };
  }
  const granted = await findLedgerEntry(tx, 'period', payment.reference);
  if (!granted || granted.userId !== payment.userId) return { credits: 0, tax: 0, periodEnd: null };
  const invoice = await ctx.stripe.invoices.retrieve(payment.reference);
  const tax = (invoice.total_taxes ?? []).reduce((sum, entry) => sum + entry.amount, 0);
  return { credits: Math.max(granted.credits, 0), tax, periodEnd: invoicePeriodEnd(invoice) };
}

type Listed = Reversal & { status: string | null };

/**
 * Oldest first: those whose money went back or may (`given`), and those whose did not (`failed`).
 * Stripe lists newest first, also within a second (`created`'s unit), which ids do not tell: the
 * list reversed, sorted stably, is the order they were made in, the same at every event.
 */
function split(items: Listed[], given: ReadonlySet<string>, failed: ReadonlySet<string>) {
  const sorted = [...items].reverse().sort((a, b) => a.created - b.created);
  const reversal = ({ id, amount, created }: Listed): Reversal => ({ id, amount, created });
  return {
    given: sorted.filter((r) => given.has(r.status ?? '')).map(reversal),
    failed: sorted.filter((r) => failed.has(r.status ?? '')).map(reversal),
  };
}

const REFUND_GIVEN = new Set(['succeeded', 'pending']);
const REFUND_FAILED = new Set(['failed', 'canceled']);
/** A dispute open: the card's bank holds the money while it is reviewed. */
const DISPUTE_OPEN = new Set(['needs_response', 'under_review']);
/** A dispute open or lost: its credits are held or taken. */
const DISPUTE_GIVEN = new Set([...DISPUTE_OPEN, 'lost']);
/** Won: the money came back to us; what its opening held is given back. */
const DISPUTE_FAILED = new Set(['won']);

type Dispute = { status: PaymentDisputeStatus; amount: number } | null;

/** The charge's newest dispute as the payments table tells it (an inquiry, warning_*, is none). */
function disputeOf(disputes: Listed[]): Dispute {
  const newest = [...disputes].sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1));
  for (const d of newest) {
    const status = DISPUTE_OPEN.has(d.status ?? '')
      ? 'open'
      : d.status === 'won' || d.status === 'lost'
        ? d.status
        : null;
    if (status) return { status, amount: d.amount };
  }
  return null;
}

/**
 * The charge's refunds, then its disputes, as Stripe holds them now: those that gave money back or
 * will (a refund pending, a dispute open or lost), and those that did not after all (a refund
 * failed or canceled, a dispute won). An inquiry (warning_*) takes no money: neither. Also the
 * charge's dispute as the payments table tells it.
 */
async function reversalsOf(
  ctx: EventContext,
  chargeId: string,
): Promise<{ given: Reversal[]; failed: Reversal[]; dispute: Dispute }> {
  const [refunds, disputes] = await Promise.all([
    ctx.stripe.refunds.list({ charge: chargeId, limit: 100 }),
    ctx.stripe.disputes.list({ charge: chargeId, limit: 100 }),
  ]);
  const listed = (r: { id: string; amount: number; created: number; status: string | null }): Listed => ({
    id: r.id,
    amount: r.amount,
    created: r.created,
    status: r.status,
  });
  const ofRefunds = split(refunds.data.map(listed), REFUND_GIVEN, REFUND_FAILED);
  const ofDisputes = split(disputes.data.map(listed), DISPUTE_GIVEN, DISPUTE_FAILED);
  return {
    given: [...ofRefunds.given, ...ofDisputes.given],
    failed: [...ofRefunds.failed, ...ofDisputes.failed],
    dispute: disputeOf(disputes.data.map(listed)),
  };
}

/**
 * What the payment holds professional status as (null: it does not), and when it was bought: a
 * pack's Checkout session that sold it (our row, else its line items); a plan's invoice that paid
 * the current period from its start (paysCurrentPeriodFromStart: not a change's rest of it) of a
 * plan that sells it and runs.
 */
async function soldProfessional(
  ctx: EventContext,
  tx: Transaction,
  payment: PaymentRow,
): Promise<(ProfessionalSource & { boughtAt: Date }) | null> {
  if (paysInvoice(payment)) {
    const invoice = await ctx.stripe.invoices.retrieve(payment.reference);
    const subscriptionId = subscriptionOfInvoice(invoice);
    const subscription = subscriptionId ? await currentSubscription(ctx, subscriptionId) : null;
    if (!subscriptionId || !subscription || !paysCurrentPeriodFromStart(invoice, subscription)) return null;
    const plan = planOf(subscription);
    const end = invoicePeriodEnd(invoice);
    const sold = plan.professional && plan.running && end?.getTime() === plan.periodEnd?.getTime();
    const boughtAt = await planBoughtAt(tx, payment.userId, subscription);
    return sold ? { reference: payment.reference, subscriptionId, boughtAt } : null;
  }
  const row = await findPaymentSessionByStripeId(tx, payment.reference);
  const source = { reference: payment.reference, boughtAt: row?.createdAt ?? payment.createdAt };
  if (row) return row.professional ? source : null;
  const items = await ctx.stripe.checkout.sessions.listLineItems(payment.reference, {
    limit: 100,
    expand: ['data.price'],
  });
  return items.data.some((item) => isProfessionalPrice(item.price?.metadata)) ? source : null;
}

/**
 * The credits due for `given` cents given back of a charge of `amount` cents, `tax` of them tax: the
 * money given back counts against the tax first (a refund of the tax alone, say once the buyer's tax
 * ID shows none was due, takes no credits), then against the price before tax, whose share of the
 * credits goes back; all of the money, all of the credits.
 */
function share(credits: number, given: number, amount: number, tax: number): number {
  const untaxed = amount - Math.min(Math.max(tax, 0), amount);
  if (untaxed <= 0) return given >= amount ? credits : 0;
  return Math.round((credits * Math.max(given - (amount - untaxed), 0)) / untaxed);
}

/**
 * Takes back the pack's credits for every refund of the charge and every dispute of it open or lost
 * after them (read under the user's lock), gives back what a failed refund or a won dispute took,
 * and records the cents given back on the payment entry.
 */
export function reversalEffect(
  ctx: EventContext,
  payment: PaymentRow,
  charge: Pick<Stripe.Charge, 'id' | 'amount'>,
): Effect {
  return {
    userId: payment.userId,
    apply: async (tx) => {
      const refunds = await reversalsOf(ctx, charge.id);
      const { credits, tax, periodEnd } = await reversible(ctx, tx, payment);
      let changed = false;
      let restored = false;
      // A refund counted before that failed since, or a dispute held that was won: its credits back
      // and its cents off, once.
      for (const failed of refunds.failed) {
        if (await restoreReversal(tx, payment.userId, `${payment.reference}:${failed.id}`, periodEnd)) {
          await lowerPaymentRefunded(tx, payment.reference, failed.amount);
          changed = true;
          restored = true;
        }
      }
      let before = 0;
      for (const reversal of refunds.given) {
        const after = Math.min(before + reversal.amount, charge.amount);
        const due = share(credits, after, charge.amount, tax) - share(credits, before, charge.amount, tax);
        before = after;
        // Written even when its share rounds to 0: the row is what a later failure of the refund
        // finds to take its cents off the payment entry again.
        if (await reverseCredits(tx, payment.userId, due, `${payment.reference}:${reversal.id}`, periodEnd)) {
          changed = true;
        }
      }
      if (await setPaymentRefunded(tx, payment.reference, before)) changed = true;
      if (await setPaymentDispute(tx, payment.reference, refunds.dispute)) changed = true;
      // Professional status: gone once all was given back, as the entry counts it (a dispute lost
      // before stays counted when a later event lists only the refunds); granted back only by a
      // refund failing now, and not when an administrator removed the status after the purchase.
      // Taken away only when no other source (another payment for it, a plan selling it) holds it.
      const givenBack = (await findPaymentByReference(tx, payment.reference))?.refunded ?? before;
      const held = givenBack < charge.amount;
      const source = !held || restored ? await soldProfessional(ctx, tx, payment) : null;
      if (
        source &&
        (held
          ? (await purchaseGivesProfessional(tx, payment.userId, source.boughtAt)) &&
            (await setProfessionalHeld(tx, payment.userId, true))
          : await releaseProfessional(ctx.stripe, tx, payment.userId, source))
      ) {
        changed = true;
      }
      return changed ? 'applied' : 'unchanged';
    },
  };
}

/** The charge of a payment intent when some of it was given back already, or disputed (else null). */
export async function refundedChargeOfIntent(
  ctx: EventContext,
  intentId: string | null,
): Promise<Stripe.Charge | null> {
  if (!intentId) return null;
  const chargeId = idOf((await ctx.stripe.paymentIntents.retrieve(intentId)).latest_charge);
  if (!chargeId) return null;
  const charge = await ctx.stripe.charges.retrieve(chargeId);
  return charge.amount_refunded > 0 || charge.disputed ? charge : null;
}

/** The same for the charge that paid a plan's invoice (its InvoicePayment). */
export async function refundedChargeOfInvoice(ctx: EventContext, invoiceId: string): Promise<Stripe.Charge | null> {
  return refundedChargeOfIntent(ctx, await intentOfInvoice(ctx.stripe, invoiceId));
}

/**
 * The charge of a payment about to be booked (`reference`: its session or invoice) when some of it
 * was given back already (`refundedCharge`), read under the payment's lock, held to the commit: a
 * refund's event that found nothing booked looked before this read, so this read sees its refund.
 * Called before the booking locks the account: signals spending must not wait for Stripe.
 */
export async function refundedBeforeBooking(
  tx: Transaction,
  reference: string,
  refundedCharge: () => Promise<Stripe.Charge | null>,
): Promise<Stripe.Charge | null> {
  await lockStripePayment(tx, reference);
  return refundedCharge();
}

/**
 * A payment booked just now whose charge was refunded, or a dispute of it lost, before its event
 * reached us (the refund's or dispute's event found nothing to take back then): those are taken
 * back now, once each, as charge.refunded and charge.dispute.closed would have.
 */
export async function reverseEarlierRefunds(
  ctx: EventContext,
  tx: Transaction,
  reference: string,
  charge: Stripe.Charge | null,
): Promise<void> {
  const payment = charge ? await findPaymentByReference(tx, reference) : undefined;
  if (!charge || !payment) return;
  const reversal = reversalEffect(ctx, payment, charge);
  if ('apply' in reversal) await reversal.apply(tx);
}
