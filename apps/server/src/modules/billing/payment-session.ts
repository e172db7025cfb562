// `accountPaymentSession` (issue 14 point 1): with a price, a hosted Stripe Checkout session for
// it (mode payment for a pack, subscription for a plan); without one, the Stripe billing portal
// (Manage billing). Without STRIPE_SECRET_KEY: EXECUTION, saying how credits come instead.
import { GROUP } from '@router/shared';
import type Stripe from 'stripe';
import { findBillingAccount, hasProfessionalApplication } from '../../db/repositories/billing-account.repository.ts';
import {
  findPaymentSessionByStripeId,
  insertPaymentSession,
  setPaymentSessionStripeId,
} from '../../db/repositories/payment-sessions.repository.ts';
import { findPaymentByReference } from '../../db/repositories/payments.repository.ts';
import { findUserById, type UserRow } from '../../db/repositories/user.repository.ts';
import { ACCOUNT_TYPE } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../graphql/context.ts';
import type { Services } from '../../services.ts';
import { findProduct } from './catalog.ts';
import { createCheckout } from './checkout.ts';
import { localProduct } from './currency.ts';
import { ensureCustomer } from './customer.ts';
import { customerPackDiscount, discountId, resolveDiscount } from './discounts.ts';
import { idOf } from './events/types.ts';
import {
  expireOpenPlanCheckouts,
  hasRunningPlan,
  keepOnlyThisPage,
  type PlanKind,
  plansConflict,
  showsConflictingPlan,
} from './plan.ts';
import { type StripeClient, stripeClient, stripeFailure } from './stripe-client.ts';
import { ALREADY_PROFESSIONAL } from './upgrade.ts';

export interface PaymentSessionInput {
  stripePriceId?: string | null;
  quantity?: number | null;
  coupon?: string | null;
}

/** Paying, subscribing or managing billing for the user is theirs alone (admin proxy refused). */
export const PAYMENT_OWNER_ONLY =
  'Payments and billing can only be managed by the user, not by an administrator acting as them';
export const HAS_PLAN = 'You already have a plan: change or cancel it with Manage billing.';
const MAX_QUANTITY = 100;

async function signedInUser(services: Services, viewer: Viewer): Promise<UserRow> {
  const user = await findUserById(services.db, viewer.userId);
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in');
  return user;
}

/** hasRunningPlan, a failed call answered as card payments unavailable. */
export async function runningPlan(
  services: Services,
  stripe: StripeClient,
  customer: string,
  wanted: PlanKind,
): Promise<boolean> {
  try {
    return await hasRunningPlan(stripe, customer, wanted);
  } catch (error) {
    throw stripeFailure(services, error, 'reading subscriptions');
  }
}

async function portalSession(services: Services, stripe: StripeClient, user: UserRow): Promise<{ url: string }> {
  const customer = await ensureCustomer(services, stripe, user);
  const row = await insertPaymentSession(services.db, { userId: user.id, kind: 'portal' });
  try {
    const session = await stripe.billingPortal.sessions.create(
      { customer, return_url: `${services.config.PUBLIC_URL}/me/account` },
      { idempotencyKey: `portal-session:${user.key}:${row.id}` },
    );
    await setPaymentSessionStripeId(services.db, row.id, session.id);
    return { url: session.url };
  } catch (error) {
    throw stripeFailure(services, error, 'opening the billing portal');
  }
}

/** Payment intent statuses of a payment that failed or was given up: nothing will be paid. */
const NOT_PAYING: ReadonlySet<string> = new Set(['requires_payment_method', 'canceled']);

/**
 * Whether a complete Checkout session left unpaid may still be paid: a delayed payment method (a
 * bank debit) processing for days, its intent not failed or given up. Paid, it books the purchase
 * (checkout.session.async_payment_succeeded); a second page paid meanwhile would charge twice.
 */
async function stillPaying(stripe: StripeClient, session: Stripe.Checkout.Session): Promise<boolean> {
  const intent = session.payment_intent;
  if (!intent) return false;
  const status = typeof intent === 'string' ? (await stripe.paymentIntents.retrieve(intent)).status : intent.status;
  return !NOT_PAYING.has(status);
}

export const PROFESSIONAL_PENDING = 'Your payment for professional status is being processed.';

/**
 * Expires the customer's open Checkout pages that sell professional status but `made` (the page
 * made just now); true when one was paid, or is being paid (a bank debit processing), and its
 * payment is not booked yet.
 */
async function professionalPending(
  services: Services,
  stripe: StripeClient,
  customer: string,
  made: string,
): Promise<boolean> {
  const sellsProfessional = async (session: Stripe.Checkout.Session) =>
    (await findPaymentSessionByStripeId(services.db, session.id))?.professional === true;
  try {
    await expireOpenPlanCheckouts(
      stripe,
      customer,
      async (session) => session.id !== made && (await sellsProfessional(session)),
    );
    const complete = await stripe.checkout.sessions.list({ customer, status: 'complete', limit: 100 });
    for (const session of complete.data) {
      if (!(await sellsProfessional(session))) continue;
      if (session.payment_status === 'unpaid' && !(await stillPaying(stripe, session))) continue;
      // A plan's payment is booked under its first invoice, a one-time payment under the session.
      const reference = session.mode === 'subscription' ? idOf(session.invoice) : session.id;
      if (reference && !(await findPaymentByReference(services.db, reference))) return true;
    }
    return false;
  } catch (error) {
    throw stripeFailure(services, error, 'reading checkout sessions');
  }
}

export async function createPaymentSession(
  services: Services,
  viewer: Viewer,
  input: PaymentSessionInput,
  acceptLanguage?: string,
): Promise<{ url: string }> {
  const stripe = await stripeClient(services);
  const user = await signedInUser(services, viewer);
  if (!input.stripePriceId) return portalSession(services, stripe, user);
  const listed = await findProduct(services, input.stripePriceId);
  const subscription = listed.type === ACCOUNT_TYPE.RECURRING;
  const quantity = input.quantity ?? 1;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_QUANTITY) {
    throw new AppError('VALIDATION', `Quantity must be a whole number from 1 to ${MAX_QUANTITY}`, {
      field: 'quantity',
    });
  }
  if (listed.professional) {
    if ((viewer.group & GROUP.PROFESSIONAL) !== 0) throw new AppError('FORBIDDEN', ALREADY_PROFESSIONAL);
    if (!(await hasProfessionalApplication(services.db, user.id))) {
      throw new AppError('VALIDATION', 'Apply for professional status first', { field: 'stripePriceId' });
    }
  }
  // A plan beside one that runs only when they bring different things (plansConflict): status
  // alone beside credits.
  if (subscription && showsConflictingPlan(await findBillingAccount(services.db, user.id), listed)) {
    throw new AppError('EXECUTION', HAS_PLAN);
  }
  // In the currency the user was shown it in (currency.ts).
  const product = await localProduct(services, stripe, user.id, listed, acceptLanguage, subscription);
  const given = await resolveDiscount(services, stripe, { coupon: input.coupon ?? null });
  const customer = await ensureCustomer(services, stripe, user);
  const discount =
    given ?? (subscription ? null : await customerPackDiscount(services, stripe, customer, product.currency));
  const row = await insertPaymentSession(services.db, {
    userId: user.id,
    kind: 'hosted',
    stripePriceId: product.stripePriceId,
    quantity: product.professional ? 1 : quantity,
    credits: product.credits * (product.professional ? 1 : quantity),
    professional: product.professional,
    mode: subscription ? 'subscription' : 'payment',
    discount: discountId(discount),
  });
  const base = services.config.PUBLIC_URL;
  const session = await createCheckout(services, stripe, {
    user,
    customer,
    product,
    row,
    discount,
    page: product.professional
      ? {
          kind: 'hosted',
          successUrl: `${base}/me/account/upgrade/success`,
          cancelUrl: `${base}/me/account/upgrade/checkout`,
        }
      : {
          kind: 'hosted',
          successUrl: `${base}/me/account?checkout=success`,
          cancelUrl: `${base}/me/account?checkout=cancel`,
        },
  });
  await keepOnlyThisPage(stripe, session, async () => {
    if (subscription) {
      // A plan page opened before and left open could be paid as well as this one: two plans, both
      // charged. It is expired (can no longer be paid) once this one is made, not before: a
      // discount Stripe refuses for this one leaves it open as it was. One paid meanwhile shows
      // as running. A page of a plan that runs beside this one (plansConflict) stays payable.
      const conflicting = async (open: Stripe.Checkout.Session) => {
        if (open.mode !== 'subscription' || open.id === session.id) return false;
        const other = await findPaymentSessionByStripeId(services.db, open.id);
        return !other || plansConflict(other, product);
      };
      try {
        await expireOpenPlanCheckouts(stripe, customer, conflicting);
      } catch (error) {
        throw stripeFailure(services, error, 'expiring a checkout session');
      }
    }
    // The same for professional status: one page payable; one paid a moment ago (its event not
    // here yet, so the group not granted) is not sold again.
    if (product.professional && (await professionalPending(services, stripe, customer, session.id))) {
      throw new AppError('EXECUTION', PROFESSIONAL_PENDING);
    }
    // Paid a moment ago, its events not here yet: the account does not show the plan.
    if (subscription && (await runningPlan(services, stripe, customer, product))) {
      throw new AppError('EXECUTION', HAS_PLAN);
    }
  });
  if (!session.url)
    throw stripeFailure(services, new Error('checkout session without a url'), 'creating a checkout session');
  return { url: session.url };
}
