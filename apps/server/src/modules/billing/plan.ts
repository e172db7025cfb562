// A plan is a Stripe subscription to a price carrying metadata.credits (credits per period). What
// the account shows of it (type, product, metadata.recurring) is projected from the subscription
// as Stripe holds it now, retrieved when an event arrives: whatever the order of the events, the
// last one applied leaves the account as Stripe says it is. A paid invoice starts a credit period
// (credits.ts: once per invoice, never an older period after a newer one).
import { GROUP } from '@router/shared';
import type Stripe from 'stripe';
import { adminProfessionalDecision } from '../../db/repositories/admin-audit.repository.ts';
import { changeGroup } from '../../db/repositories/administrators.repository.ts';
import {
  clearMembership,
  findBillingAccount,
  keepShownAsMembership,
  markProfessionalPaid,
  type PlanProjection,
  projectMembership,
  projectPlan,
  setProfessionalHeld,
  showsProfessionalPlan,
} from '../../db/repositories/billing-account.repository.ts';
import type { Transaction } from '../../db/repositories/executor.ts';
import { findPaymentSession } from '../../db/repositories/payment-sessions.repository.ts';
import { keepsProfessionalPayment, recordPayment } from '../../db/repositories/payments.repository.ts';
import { ACCOUNT_TYPE } from '../../db/schema/index.ts';
import { startCreditPeriod } from '../accounts/credits.ts';
import { creditsOf, intervalOf, isProfessionalPrice } from './catalog.ts';
import { discountedPrice } from './discounts.ts';
import { refundRefusedPlan } from './refused-professional.ts';
import type { StripeClient } from './stripe-client.ts';
import { withExclusiveTax } from './tax.ts';

/**
 * Statuses in which the plan still runs (it may be waiting for a payment). Not `incomplete`: its
 * first payment was never made (it failed, needs the customer's action, or is still processing),
 * so it never ran; Stripe makes it `active` once paid, or `incomplete_expired` after 23 hours.
 */
const RUNNING = new Set(['active', 'trialing', 'past_due', 'unpaid', 'paused']);

export interface Plan {
  subscriptionId: string;
  running: boolean;
  /** It will not run (again): ended, or expired before its first payment; not while `incomplete`. */
  ended: boolean;
  /** Credits per period: Σ metadata.credits × quantity over the items. */
  credits: number;
  professional: boolean;
  /** The end of the current period (the items' current_period_end). */
  periodEnd: Date | null;
  name: string;
  interval: string | null;
  /** Cents per period, as the user pays it (the subscription's discounts taken off). */
  price: number;
  currency: string;
  stripePriceId: string | null;
  cancelAt: number | null;
  /** While in its free trial (status trialing): when the trial ends, the first payment (seconds). */
  trialEnd: number | null;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * A price's unit amount in the subscription's currency: its own, or its `currency_options` one
 * (expanded: `currentSubscription`) when the plan is charged in another of the price's currencies.
 */
function amountIn(price: Stripe.Price | undefined, currency: string | undefined): number {
  if (!price) return 0;
  if (!currency || price.currency === currency) return price.unit_amount ?? 0;
  return price.currency_options?.[currency]?.unit_amount ?? price.unit_amount ?? 0;
}

export function planOf(subscription: Stripe.Subscription): Plan {
  const items = subscription.items?.data ?? [];
  let credits = 0;
  let price = 0;
  let periodEnd = 0;
  for (const item of items) {
    const quantity = item.quantity ?? 1;
    credits += creditsOf(item.price?.metadata) * quantity;
    price += amountIn(item.price, subscription.currency) * quantity;
    periodEnd = Math.max(periodEnd, item.current_period_end ?? 0);
  }
  const first = items[0]?.price;
  const product = first && typeof first.product === 'object' && 'name' in first.product ? first.product.name : null;
  return {
    subscriptionId: subscription.id,
    running: RUNNING.has(subscription.status),
    ended: !RUNNING.has(subscription.status) && subscription.status !== 'incomplete',
    credits,
    professional: items.some((item) => isProfessionalPrice(item.price?.metadata)),
    periodEnd: periodEnd > 0 ? new Date(periodEnd * 1000) : null,
    name: first?.nickname ?? product ?? 'Plan',
    interval: intervalOf(first?.recurring),
    // What the user pays for the next period: the list price less the subscription's discounts.
    // With the tax Stripe adds on top of an exclusive price: what is charged.
    price: withExclusiveTax(
      subscription,
      discountedPrice(subscription, price, periodEnd > 0 ? periodEnd : Math.floor(Date.now() / 1000)),
    ),
    currency: subscription.currency ?? first?.currency ?? 'usd',
    stripePriceId: first?.id ?? null,
    cancelAt: subscription.cancel_at ?? (subscription.cancel_at_period_end && periodEnd > 0 ? periodEnd : null),
    trialEnd:
      subscription.status === 'trialing' ? (subscription.trial_end ?? (periodEnd > 0 ? periodEnd : null)) : null,
  };
}

export function projectionOf(plan: Plan, status: string): PlanProjection {
  return {
    subscriptionId: plan.subscriptionId,
    running: plan.running,
    product: plan.running
      ? {
          type: ACCOUNT_TYPE.RECURRING,
          name: plan.name,
          credits: plan.credits,
          price: plan.price,
          currency: plan.currency,
          interval: plan.interval,
          stripePriceId: plan.stripePriceId,
          professional: plan.professional,
        }
      : null,
    recurring: {
      subscriptionId: plan.subscriptionId,
      status,
      cancelAt: plan.cancelAt,
      // The running plan's own renewal (seconds): a plan that gives no credits never sets
      // recurringPeriodEnd, which may still be an earlier plan's.
      ...(plan.running && plan.periodEnd !== null ? { periodEnd: Math.floor(plan.periodEnd.getTime() / 1000) } : {}),
      // The card tells a trial by it: no period paid yet (recurringPeriodEnd is none, or an
      // earlier plan's), the first payment at its end.
      ...(plan.trialEnd !== null ? { trialEnd: plan.trialEnd } : {}),
    },
  };
}

/** The subscription of an invoice: `parent.subscription_details` (current API) or the legacy field. */
export function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(invoice.parent?.subscription_details?.subscription) ?? idOf(legacy);
}

/**
 * Invoices that pay a period of the plan (Stripe's `billing_reason`): the first one, a renewal, and
 * the rest of a period after a plan change. Others on a subscription pay for something else (an
 * operator's one-off invoice `manual`, usage `subscription_threshold`, pending invoice items
 * `automatic_pending_invoice_item_invoice`): no period credits, whatever their lines' period.
 */
const PERIOD_REASONS: ReadonlySet<string> = new Set([
  'subscription_create',
  'subscription_cycle',
  'subscription_update',
]);

export const paysPlanPeriod = (invoice: Stripe.Invoice): boolean => PERIOD_REASONS.has(invoice.billing_reason ?? '');

/**
 * The lines that state the service period the invoice paid for: those with a real period, not a
 * credit line's (a negative amount: the unused time of the price changed from, up to its period's
 * end, a year's when a yearly plan became monthly), unless the invoice has nothing else.
 */
function periodLines(invoice: Stripe.Invoice) {
  const lines = (invoice.lines?.data ?? []).filter((line) => line.period && line.period.end > line.period.start);
  const charged = lines.filter((line) => line.amount >= 0);
  return charged.length > 0 ? charged : lines;
}

/** The end of the service period the invoice paid for (periodLines). */
export function invoicePeriodEnd(invoice: Stripe.Invoice): Date | null {
  const end = Math.max(0, ...periodLines(invoice).map((line) => line.period.end));
  return end > 0 ? new Date(end * 1000) : null;
}

/**
 * Whether the invoice paid for the subscription's current period from its start: the first one, a
 * renewal, or a change that started a new billing cycle (to a price of another interval), not a
 * change's rest of a period.
 */
export function paysCurrentPeriodFromStart(invoice: Stripe.Invoice, subscription: Stripe.Subscription): boolean {
  const reason = invoice.billing_reason ?? '';
  if (reason === 'subscription_create' || reason === 'subscription_cycle') return true;
  if (reason !== 'subscription_update') return false;
  const start = Math.min(...periodLines(invoice).map((line) => line.period.start));
  return (subscription.items?.data ?? []).some((item) => item.current_period_start === start);
}

/** What a plan brings: credits per period, professional status. */
export interface PlanKind {
  credits: number;
  professional: boolean;
}

/**
 * Whether two plans cannot both run: both give credits (two periods' credits would not add up, both
 * charged), or both sell professional status. A plan for professional status alone (no credits)
 * runs beside one for credits.
 */
export const plansConflict = (a: PlanKind, b: PlanKind): boolean =>
  (a.credits > 0 && b.credits > 0) || (a.professional && b.professional);

/** What the plan the account shows running brings (its product), or null when none runs. */
export function shownPlanKind(account: { type: number; product: unknown } | undefined): PlanKind | null {
  if (account?.type !== ACCOUNT_TYPE.RECURRING) return null;
  const product = (account.product ?? {}) as { credits?: unknown; professional?: unknown };
  // A plan shown without its credits recorded counts as one that gives credits.
  const credits = typeof product.credits === 'number' ? product.credits : 1;
  return { credits, professional: product.professional === true };
}

/** Whether the account shows a running plan that cannot run beside `wanted`. */
export function showsConflictingPlan(account: { type: number; product: unknown } | undefined, wanted: PlanKind) {
  const shown = shownPlanKind(account);
  return shown !== null && plansConflict(shown, wanted);
}

/**
 * Whether the customer has a plan that cannot run beside `wanted` (plansConflict) running in
 * Stripe now, whether or not its events have reached us yet: paid a moment ago, the account does
 * not show it, and a second Checkout would charge both. An `incomplete` one counts too: its first
 * payment may still go through (a bank debit processing), and both would be charged.
 */
export async function hasRunningPlan(stripe: StripeClient, customer: string, wanted: PlanKind): Promise<boolean> {
  const subscriptions = await stripe.subscriptions.list({ customer, status: 'all', limit: 100 });
  return subscriptions.data.some((subscription) => {
    const plan = planOf(subscription);
    return (plan.running || subscription.status === 'incomplete') && plansConflict(plan, wanted);
  });
}

/**
 * Expires the customer's plan Checkout sessions still open (Stripe: only an open session can be
 * expired; it can no longer be paid), so that two plan pages left open cannot both be paid and
 * start two subscriptions. One paid meanwhile (the expiry refused) is left to hasRunningPlan.
 * `which` picks other sessions instead (professional status's, which is paid for once too).
 */
export async function expireOpenPlanCheckouts(
  stripe: StripeClient,
  customer: string,
  which: (session: Stripe.Checkout.Session) => boolean | Promise<boolean> = (session) =>
    session.mode === 'subscription',
): Promise<void> {
  const sessions = await stripe.checkout.sessions.list({ customer, status: 'open', limit: 100 });
  for (const session of sessions.data) {
    if (!(await which(session))) continue;
    try {
      await stripe.checkout.sessions.expire(session.id);
    } catch (error) {
      if ((await stripe.checkout.sessions.retrieve(session.id)).status === 'open') throw error;
    }
  }
}

/**
 * Runs `check` for a Checkout session made just now, whose page nobody has yet: it expires the
 * customer's other pages that must not stay payable with it, and throws when this one must not be
 * sold after all (paid meanwhile elsewhere). Then this one is expired too (an expiry refused is
 * left: its page was never shown), and the error thrown.
 */
export async function keepOnlyThisPage(
  stripe: StripeClient,
  session: Stripe.Checkout.Session,
  check: () => Promise<void>,
): Promise<void> {
  try {
    await check();
  } catch (error) {
    await stripe.checkout.sessions.expire(session.id).catch(() => undefined);
    throw error;
  }
}

/**
 * Whether this subscription is the one the account shows: the account has none yet, it is the
 * same, or it runs (a new plan replaces an ended one; an old one ending does not touch a new one).
 * One for professional status alone does not push a running plan with credits off the account:
 * both run, and the credits are what the account shows.
 */
export async function isCurrentPlan(tx: Transaction, userId: number, plan: Plan): Promise<boolean> {
  const account = await findBillingAccount(tx, userId);
  const current = account?.stripeSubscriptionId ?? null;
  if (current === null || current === plan.subscriptionId) return true;
  if (!plan.running) return false;
  return plan.credits > 0 || (shownPlanKind(account)?.credits ?? 0) === 0;
}

/**
 * Writes the plan onto the account (the caller decided it is the current one), and takes
 * professional status away when `dropProfessional` (planDropsProfessional, read before the
 * account was locked).
 */
export async function showPlan(
  tx: Transaction,
  userId: number,
  plan: Plan,
  status: string,
  dropProfessional: boolean,
): Promise<void> {
  if (dropProfessional) await setProfessionalHeld(tx, userId, false);
  await clearMembership(tx, userId, plan.subscriptionId);
  if (plan.running && plan.credits > 0) await keepShownAsMembership(tx, userId, plan.subscriptionId);
  await projectPlan(tx, userId, projectionOf(plan, status));
}

/**
 * A plan for professional status alone, not the one the account shows (a credits plan runs beside
 * it): metadata.membership shows its state (cancel date, renewal, a failed payment) while it runs.
 * True when the account changed.
 */
export async function showMembership(tx: Transaction, userId: number, plan: Plan, status: string): Promise<boolean> {
  if (!plan.running) return clearMembership(tx, userId, plan.subscriptionId);
  if (plan.credits > 0 || !plan.professional) return false;
  const { recurring, product } = projectionOf(plan, status);
  await projectMembership(tx, userId, { ...product, ...recurring, subscriptionId: plan.subscriptionId });
  return true;
}

/** What gave professional status: a one-time payment (its reference) or a plan (its subscription). */
export interface ProfessionalSource {
  reference?: string;
  subscriptionId?: string;
}

/**
 * When an administrator last removed the user's professional status (their newest decision on it
 * is a removal), else null. A removal holds until an administrator grants it again or the user
 * buys it anew: what was bought before it (a plan's renewals included) gives it back no more.
 */
async function adminRemovedAt(tx: Transaction, userId: number): Promise<Date | null> {
  const decision = await adminProfessionalDecision(tx, userId);
  return decision && !decision.granted ? decision.at : null;
}

/** Whether a purchase made at `boughtAt` may give professional status (adminRemovedAt). */
export async function purchaseGivesProfessional(tx: Transaction, userId: number, boughtAt: Date): Promise<boolean> {
  const removedAt = await adminRemovedAt(tx, userId);
  return removedAt === null || boughtAt.getTime() > removedAt.getTime();
}

/** When the plan was bought: our Checkout row of it (metadata.payment_session), else when Stripe made it. */
export async function planBoughtAt(tx: Transaction, userId: number, subscription: Stripe.Subscription): Promise<Date> {
  const id = subscription.metadata?.payment_session;
  const row = id && /^\d{1,15}$/.test(id) ? await findPaymentSession(tx, Number(id)) : undefined;
  return row?.userId === userId ? row.createdAt : new Date(subscription.created * 1000);
}

/**
 * Whether professional status stands without `source` (refunded, the plan ended or changed): an
 * administrator's grant (until an administrator removes it), a one-time payment for it kept, or
 * another plan that sells it and runs past its trial (as Stripe holds the customer's subscriptions
 * now), either bought after an administrator's removal, if any. Asks Stripe: read it before the
 * account is locked.
 */
export async function professionalHeldElsewhere(
  stripe: StripeClient,
  tx: Transaction,
  userId: number,
  source: ProfessionalSource,
): Promise<boolean> {
  const decision = await adminProfessionalDecision(tx, userId);
  if (decision?.granted) return true;
  const removedAt = decision?.at ?? null;
  if (await keepsProfessionalPayment(tx, userId, source.reference ?? null, removedAt)) return true;
  const customer = (await findBillingAccount(tx, userId))?.stripeCustomerId;
  if (!customer) return false;
  const subscriptions = await stripe.subscriptions.list({ customer, status: 'all', limit: 100 });
  for (const subscription of subscriptions.data) {
    const plan = planOf(subscription);
    const sells =
      subscription.id !== source.subscriptionId &&
      subscription.status !== 'trialing' &&
      plan.running &&
      plan.professional;
    if (sells && (removedAt === null || (await planBoughtAt(tx, userId, subscription)) > removedAt)) return true;
  }
  return false;
}

/** Takes professional status away as `source` no longer holds it, unless another does. True when it went. */
export async function releaseProfessional(
  stripe: StripeClient,
  tx: Transaction,
  userId: number,
  source: ProfessionalSource,
): Promise<boolean> {
  if (await professionalHeldElsewhere(stripe, tx, userId, source)) return false;
  return setProfessionalHeld(tx, userId, false);
}

/**
 * Whether the plan as it is now takes professional status away: it sold it and is over (whatever
 * it sold by then: the change's own event may never have come), or the account shows it as one
 * that sells it and it no longer does; and no other source holds the status. The status comes
 * back only with a paid invoice of a plan that sells it. Read before the account is locked.
 */
export async function planDropsProfessional(
  stripe: StripeClient,
  tx: Transaction,
  userId: number,
  plan: Plan,
): Promise<boolean> {
  const lost =
    (plan.ended && plan.professional) ||
    (!(plan.running && plan.professional) && (await showsProfessionalPlan(tx, userId, plan.subscriptionId)));
  return lost && !(await professionalHeldElsewhere(stripe, tx, userId, { subscriptionId: plan.subscriptionId }));
}

/**
 * Grants professional status paid for by a purchase made at `boughtAt`, unless an administrator
 * removed it since: false then (the purchase gives nothing).
 */
export async function grantProfessional(tx: Transaction, userId: number, boughtAt: Date): Promise<boolean> {
  if (!(await purchaseGivesProfessional(tx, userId, boughtAt))) return false;
  await changeGroup(tx, userId, { add: GROUP.PROFESSIONAL });
  await markProfessionalPaid(tx, userId);
  return true;
}

/**
 * Whether the period ending `periodEnd` is (part of) the subscription's free trial: its invoice,
 * of 0, paid for nothing, so it brings no period credits; those come with the first paid invoice,
 * the period after the trial.
 */
export const inTrial = (subscription: Stripe.Subscription, periodEnd: Date): boolean =>
  subscription.trial_end != null && periodEnd.getTime() <= subscription.trial_end * 1000;

export interface InvoicePayment {
  invoiceId: string;
  /** Cents paid. */
  amount: number;
  currency: string;
  periodEnd: Date | null;
  /** An invoice for the rest of the period after a plan change (billing_reason subscription_update). */
  change?: boolean;
  /** The plan's first invoice (billing_reason subscription_create): what bought it. */
  first?: boolean;
  /** It pays a period of the plan (paysPlanPeriod); else no credits, no professional status. */
  period: boolean;
  /** What an invoice that pays no period was for (its lines), shown instead of the plan's name. */
  description?: string;
}

/** What an invoice's lines say they are for, or null. */
export function invoiceDescription(invoice: Stripe.Invoice): string | null {
  const lines = (invoice.lines?.data ?? []).map((line) => line.description?.trim()).filter(Boolean);
  return lines.join(', ').slice(0, 500) || invoice.description?.trim() || null;
}

/**
 * A paid plan invoice (from invoice.paid, or the first one from checkout.session.completed): the
 * period's credits once per invoice while the plan runs and the period is not over, the payment
 * entry once (with the credits it granted: a plan change's difference, none when nothing was, as
 * for an invoice that pays no period), professional status when the plan sells it (by an invoice
 * that pays a period), then the account's plan. True when anything changed.
 */
export async function applyPlanPayment(
  stripe: StripeClient,
  tx: Transaction,
  userId: number,
  subscription: Stripe.Subscription,
  payment: InvoicePayment | null,
): Promise<boolean> {
  const plan = planOf(subscription);
  const dropProfessional = await planDropsProfessional(stripe, tx, userId, plan);
  let changed = false;
  if (payment) {
    const periodEnd = payment.periodEnd ?? plan.periodEnd;
    // The trial's invoice (of 0) paid for nothing: no period credits, no professional status.
    const trial = periodEnd ? inTrial(subscription, periodEnd) : subscription.status === 'trialing';
    let granted = 0;
    if (payment.period && plan.running && plan.credits > 0 && periodEnd && periodEnd.getTime() > Date.now() && !trial) {
      const entries = await startCreditPeriod(tx, userId, {
        credits: plan.credits,
        periodEnd,
        reference: payment.invoiceId,
        // The subscription's current period (it reaches the items' current_period_end): booked
        // even when the period recorded, of a longer plan it replaced, ends later.
        current: plan.periodEnd !== null && periodEnd.getTime() >= plan.periodEnd.getTime(),
        // A plan changed within the period: what was spent of it stays spent.
        change: payment.change === true,
      });
      changed = entries !== null;
      granted = entries?.find((entry) => entry.cause === 'period')?.credits ?? 0;
    }
    const recorded = await recordPayment(tx, {
      userId,
      reference: payment.invoiceId,
      stripeInvoiceId: payment.invoiceId,
      credits: granted,
      price: payment.amount,
      currency: payment.currency,
      // A one-off invoice on the subscription is no payment of the plan, nor 'per month'; nor is
      // the free trial's (of 0), nor a change's (the rest of the period, once).
      description: payment.period
        ? trial
          ? `${plan.name} (free trial)`
          : plan.name
        : (payment.description ?? 'Invoice'),
      interval: payment.period && !trial && !payment.change ? plan.interval : null,
    });
    // Not by a payment delivered after its plan ended (the end took the status away, if given),
    // nor by a free trial's: the status comes with the first invoice that pays for it.
    // Its first payment made before an administrator removed the status and booked after it
    // gives nothing: its money goes back and the plan ends (refundRefusedPlan).
    if (
      recorded &&
      payment.period &&
      !trial &&
      plan.professional &&
      plan.running &&
      !(await grantProfessional(tx, userId, await planBoughtAt(tx, userId, subscription))) &&
      payment.first
    ) {
      await refundRefusedPlan(stripe, subscription.id, payment.invoiceId);
    }
    changed ||= recorded;
  }
  if (await isCurrentPlan(tx, userId, plan)) {
    await showPlan(tx, userId, plan, subscription.status, dropProfessional);
    changed = true;
  } else {
    changed = (await showMembership(tx, userId, plan, subscription.status)) || changed;
  }
  return changed;
}
