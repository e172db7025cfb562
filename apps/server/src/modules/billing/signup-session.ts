// `accountSignupPaymentSession` (SPEC §2 Signup checkout): right after sign-up, before the email
// is confirmed, a Checkout session with ui_mode `elements` for the price chosen at sign-up; its
// client secret drives Stripe's Payment Element on /signup/checkout. Only a sign-up of the last
// 24 hours can be paid this way (later: Account & Billing, signed in), and only by the client
// (address) that signed up; the answer for an unknown email, or for anyone else, is the same, so
// it tells nothing about who is registered and hands nobody another's payment page. A reload reuses the open
// session; the promotion codes given at sign-up or a coupon become its discount. A plan is not
// sold to an account that has one, nor to a customer whose plan Stripe holds as running before
// its events reached us; a new plan session expires the plan pages still open.
import { emailSchema, isStripePriceId } from '@router/shared';
import type Stripe from 'stripe';
import { addressKey } from '../../address-key.ts';
import { findAccountOfUser } from '../../db/repositories/account-query.repository.ts';
import {
  findRecentSession,
  insertPaymentSession,
  type PaymentSessionRow,
} from '../../db/repositories/payment-sessions.repository.ts';
import { findUserByEmail } from '../../db/repositories/user.repository.ts';
import { ACCOUNT_TYPE } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import { type Caller, parseInput } from '../auth/caller.ts';
import { RULES } from '../auth/rate-limit.ts';
import { isSignupClient } from '../auth/signup-client.ts';
import { describeProduct, findProduct } from './catalog.ts';
import { createCheckout } from './checkout.ts';
import { ensureCustomer } from './customer.ts';
import { discountId, resolveDiscount } from './discounts.ts';
import { runningPlan } from './payment-session.ts';
import { expireOpenPlanCheckouts, keepOnlyThisPage, showsConflictingPlan } from './plan.ts';
import { type StripeClient, stripeClient, stripeFailure } from './stripe-client.ts';

export interface SignupSessionInput {
  email: string;
  stripePriceId: string;
  successUrl?: string | null;
  cancelUrl?: string | null;
  coupon?: string | null;
  /** Codes joined by commas instead of those given at sign-up ('' for none). */
  promotionCode?: string | null;
}

export interface SignupSession {
  clientSecret: string;
  /** Cents, after the discount. */
  total: number;
  /** Stripe's currency code of `total` (usd, eur). */
  currency: string;
  description: string;
  publishableKey: string | null;
}

export const NO_RECENT_SIGNUP = 'Sign in to buy credits on Account & Billing';
const SIGNUP_WINDOW_MS = 24 * 3_600_000;

/** A return address on our own origin, else none (no open redirect through Stripe). */
export function ownUrl(url: string | null | undefined, publicUrl: string): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.origin === new URL(publicUrl).origin ? parsed.toString() : null;
  } catch {
    return null;
  }
}

function promotionCodesOf(input: SignupSessionInput, metadata: Record<string, unknown> | undefined): string[] {
  if (typeof input.promotionCode === 'string') {
    return input.promotionCode
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
  }
  const signup = metadata?.signup as { promotionCodes?: unknown } | undefined;
  return Array.isArray(signup?.promotionCodes) ? signup.promotionCodes.filter((c) => typeof c === 'string') : [];
}

async function openSession(stripe: StripeClient, row: PaymentSessionRow | undefined) {
  if (!row?.stripeId) return null;
  const session = await stripe.checkout.sessions.retrieve(row.stripeId);
  return session.status === 'open' && session.client_secret ? session : null;
}

export async function createSignupPaymentSession(caller: Caller, input: SignupSessionInput): Promise<SignupSession> {
  const { services } = caller;
  await services.identity.limiter.enforce(`signup-payment:${addressKey(caller.ip)}`, RULES.signup);
  const stripe = await stripeClient(services);
  const email = parseInput(emailSchema, input.email, 'email');
  if (!isStripePriceId(input.stripePriceId)) {
    throw new AppError('VALIDATION', 'A price id starts with price_', { field: 'stripePriceId' });
  }
  const user = await findUserByEmail(services.db, email);
  const account = user && (await findAccountOfUser(services.db, user.id));
  // Only the client that signed up (signup-client.ts): anyone else who knows the email is
  // answered as for an unknown one, and gets no session of it.
  if (
    !user ||
    Date.now() - user.createdAt.getTime() > SIGNUP_WINDOW_MS ||
    !isSignupClient(services, caller.ip, account?.metadata)
  ) {
    throw new AppError('VALIDATION', NO_RECENT_SIGNUP, { field: 'email' });
  }
  const product = await findProduct(services, input.stripePriceId);
  if (product.professional) throw new AppError('VALIDATION', 'This price is not on sale', { field: 'stripePriceId' });
  const subscription = product.type === ACCOUNT_TYPE.RECURRING;
  // A second plan is refused as on Account & Billing (HAS_PLAN), in words that tell an anonymous
  // caller nothing about the account: its credits would not add up, both would be charged.
  // Stripe is asked too: a reload right after paying comes before the plan's events.
  if (
    subscription &&
    (showsConflictingPlan(account, product) ||
      (account?.stripeCustomerId && (await runningPlan(services, stripe, account.stripeCustomerId, product))))
  ) {
    throw new AppError('VALIDATION', NO_RECENT_SIGNUP, { field: 'email' });
  }
  const discount = await resolveDiscount(services, stripe, {
    coupon: input.coupon ?? null,
    promotionCodes: promotionCodesOf(input, account?.metadata),
  });
  const match = {
    userId: user.id,
    kind: 'elements' as const,
    stripePriceId: product.stripePriceId,
    discount: discountId(discount),
  };
  const reused = await findRecentSession(services.db, match, new Date(Date.now() - SIGNUP_WINDOW_MS));
  let session: Stripe.Checkout.Session | null;
  try {
    session = await openSession(stripe, reused);
  } catch (error) {
    throw stripeFailure(services, error, 'reading a checkout session');
  }
  if (!session) {
    const row =
      reused && !reused.stripeId
        ? reused // made before a crash or a failed call: the same Idempotency-Key gets Stripe's first answer
        : await insertPaymentSession(services.db, {
            ...match,
            credits: product.credits,
            mode: subscription ? 'subscription' : 'payment',
          });
    const customer = await ensureCustomer(services, stripe, user);
    const returnUrl =
      ownUrl(input.successUrl, services.config.PUBLIC_URL) ?? `${services.config.PUBLIC_URL}/signup/success`;
    const made = await createCheckout(services, stripe, {
      user,
      customer,
      product,
      row,
      discount,
      page: { kind: 'elements', returnUrl },
    });
    if (subscription) {
      // As on Account & Billing: a plan page opened before (another tab, another discount) could
      // be paid as well as this one, two plans both charged; it can no longer be paid once this
      // one is made (a discount Stripe refuses for this one leaves it as it was). One paid
      // meanwhile shows as running: this one is not sold then.
      await keepOnlyThisPage(stripe, made, async () => {
        try {
          await expireOpenPlanCheckouts(
            stripe,
            customer,
            (open) => open.mode === 'subscription' && open.id !== made.id,
          );
        } catch (error) {
          throw stripeFailure(services, error, 'expiring a checkout session');
        }
        if (await runningPlan(services, stripe, customer, product)) {
          throw new AppError('VALIDATION', NO_RECENT_SIGNUP, { field: 'email' });
        }
      });
    }
    session = made;
  }
  if (!session.client_secret) {
    throw stripeFailure(services, new Error('checkout session without a client secret'), 'creating a checkout session');
  }
  return {
    clientSecret: session.client_secret,
    total: session.amount_total ?? product.price,
    currency: session.currency ?? product.currency,
    description: describeProduct(product),
    publishableKey: services.config.STRIPE_PUBLISHABLE_KEY ?? null,
  };
}
