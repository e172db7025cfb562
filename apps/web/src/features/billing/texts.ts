// Billing wording shared by the banner, Account & Billing and the checkout screens (not in SPEC
// unless marked; ours).
import { CARD_PAYMENTS_OFF } from '@router/shared';

/** How credits come without card payments (no STRIPE_SECRET_KEY). */
export const GRANTED_BY_ADMIN = CARD_PAYMENTS_OFF;

/** Signals left with SIGNAL_CREDITS=unlimited. */
export const UNLIMITED = 'Unlimited';

/** SPEC §2 Account & Billing: a subscription without an end date. */
export const ACTIVATE_SUBSCRIPTION = 'Please click the link below to activate the subscription.';

/** A plan in its free trial (Stripe status trialing); not in SPEC, ours. */
export const FREE_TRIAL = 'Free trial';

export const CHECKOUT_RETURN = {
  waiting: 'Thank you: your payment went through. Your credits appear as soon as Stripe confirms it.',
  confirmed: 'Payment confirmed: your credits are in.',
  /** What came was a free trial's invoice of 0: nothing paid, no credits yet. */
  trial: 'Free trial started: nothing is charged until it ends. Your plan’s credits come with its first payment.',
  /** Paid, but for something without credits (professional status). */
  confirmedNoCredits: 'Payment confirmed.',
  slow: 'Stripe has not confirmed the payment yet. Your credits appear here once it does; reload this page in a minute.',
  cancelled: 'Payment cancelled: nothing was charged.',
} as const;

/** Stripe.js (js.stripe.com) did not load: offline, blocked, or a server without a publishable key. */
export const CARD_FORM_UNAVAILABLE =
  "The card form could not be loaded from Stripe (js.stripe.com). Check your connection or your browser's blocker and reload this page, or continue and buy credits later on Account & Billing.";

/** The professional application's payment and its return (SPEC §2: success content not shown; ours). */
export const UPGRADE_TEXT = {
  applied: 'Your application was received.',
  /** The card on Account & Billing once the application is on file, its payment not made. */
  payToFinish: 'Professional status starts once its payment is made.',
  notOnSale:
    'Professional status is not on sale on this server: an administrator reviews your application and grants it.',
  waiting: 'Thank you: your payment went through. Professional status starts as soon as Stripe confirms it.',
  done: 'You now have professional status.',
  /** An administrator acting as the user (proxy mode): the server refuses the application then. */
  ownerOnly:
    'The professional application is a statement of the user: only they can send it, not an administrator acting as them.',
  slow: 'Stripe has not confirmed the payment yet. Reload this page in a minute.',
} as const;

/** A running plan that sells professional status to a user who no longer holds it (an administrator removed it, or its payment was given back). */
export const PLAN_WITHOUT_STATUS =
  'This plan no longer gives you professional status, and renewing it does not give it back. Contact support before you renew it.';
