// An administrator's removal of professional status (admin/professional.ts) ends what the user
// pays for it: every plan of theirs that sells the status and runs is set to cancel at the end of
// the period already paid for (cancel_at_period_end), so Stripe charges it no more. The period
// paid runs out as it is (its credits, if the plan gives any, stay); the plan's card shows its
// Cancel date once Stripe's customer.subscription.updated arrives. Nothing is refunded here. A
// plan whose renewal failed (past_due, unpaid: the period it is in was never paid, and Stripe
// would go on retrying its invoice until that period ends) is cancelled now: Stripe then stops
// collecting its invoices, so a retry cannot charge a period that no longer gives the status. A
// payment page for the status left open is expired: paid after the removal, it would charge for a
// purchase made before it, which gives the status no more.
import { findBillingAccount } from '../../db/repositories/billing-account.repository.ts';
import { findPaymentSessionByStripeId } from '../../db/repositories/payment-sessions.repository.ts';
import type { Services } from '../../services.ts';
import { expireOpenPlanCheckouts, planOf } from './plan.ts';
import { stripeClient, stripeFailure } from './stripe-client.ts';

/** A renewal not paid: the plan's current period was never paid for. */
const UNPAID: ReadonlySet<string> = new Set(['past_due', 'unpaid']);

/**
 * Sets the user's running plans that sell professional status to end with their period. Without
 * card payments, or without a Stripe customer, there is none. One whose renewal failed ends now,
 * and the payment pages for the status left open are expired. Throws UNAVAILABLE when Stripe
 * cannot be asked: the caller then changes nothing.
 */
export async function endProfessionalPlans(services: Services, userId: number): Promise<void> {
  if (!services.config.STRIPE_SECRET_KEY) return;
  const customer = (await findBillingAccount(services.db, userId))?.stripeCustomerId;
  if (!customer) return;
  try {
    const stripe = await stripeClient(services);
    await expireOpenPlanCheckouts(
      stripe,
      customer,
      async (session) => (await findPaymentSessionByStripeId(services.db, session.id))?.professional === true,
    );
    const subscriptions = await stripe.subscriptions.list({ customer, status: 'all', limit: 100 });
    for (const subscription of subscriptions.data) {
      const plan = planOf(subscription);
      if (!plan.running || !plan.professional) continue;
      if (UNPAID.has(subscription.status)) {
        await stripe.subscriptions.cancel(subscription.id);
        continue;
      }
      if (subscription.cancel_at_period_end) continue;
      const endsBy = plan.periodEnd ? Math.floor(plan.periodEnd.getTime() / 1000) : null;
      if (subscription.cancel_at !== null && endsBy !== null && subscription.cancel_at <= endsBy) continue;
      // cancel_at and cancel_at_period_end exclude each other: a later cancel date is brought forward.
      await stripe.subscriptions.update(
        subscription.id,
        subscription.cancel_at !== null && endsBy !== null ? { cancel_at: endsBy } : { cancel_at_period_end: true },
      );
    }
  } catch (error) {
    throw stripeFailure(services, error, 'ending a plan that sells professional status');
  }
}
