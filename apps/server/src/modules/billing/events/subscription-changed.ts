// customer.subscription.updated and .deleted: the plan as Stripe holds it now is projected onto
// the account (cancel date, status, product). A subscription that ended takes the unused period
// credits with it (endCreditPeriod, once per subscription), and the professional status it sold;
// one-time credits stay. One changed to a plan that does not sell that status takes it (showPlan). One changed within the period recorded, with nothing invoiced now (the
// rest billed with the renewal), moves that period's credits by the difference (changeRecordedPeriod).
import type Stripe from 'stripe';
import { setProfessionalHeld } from '../../../db/repositories/billing-account.repository.ts';
import type { Transaction } from '../../../db/repositories/executor.ts';
import { findPaymentByReference } from '../../../db/repositories/payments.repository.ts';
import { changeRecordedPeriod, endCreditPeriod } from '../../accounts/credits.ts';
import { inTrial, isCurrentPlan, planDropsProfessional, planOf, showMembership, showPlan } from '../plan.ts';
import { isMissing } from '../stripe-client.ts';
import { userOf } from './event-user.ts';
import { currentSubscription, latestSubscription, subscriptionKeys } from './subscription.ts';
import { type EventContext, type EventHandler, idOf, unmatched } from './types.ts';

/**
 * Whether the plan is paid up, a change in it invoiced later or not at all: active, and its latest
 * invoice paid and booked. A change invoiced at once moves no credits here: its invoice.paid does
 * (and its payment entry says so), once paid.
 */
async function settled(ctx: EventContext, tx: Transaction, subscription: Stripe.Subscription): Promise<boolean> {
  if (subscription.status !== 'active') return false;
  const latest = subscription.latest_invoice;
  if (!latest) return true;
  try {
    const invoice = typeof latest === 'string' ? await ctx.stripe.invoices.retrieve(latest) : latest;
    if (invoice.status !== 'paid') return false;
    return (
      invoice.billing_reason !== 'subscription_update' || (await findPaymentByReference(tx, invoice.id)) !== undefined
    );
  } catch (error) {
    // A draft deleted since: nothing paid.
    if (isMissing(error)) return false;
    throw error;
  }
}

export const subscriptionChanged: EventHandler = async (ctx, object) => {
  const sent = object as Stripe.Subscription;
  const found = await currentSubscription(ctx, sent.id, sent);
  if (!found) return unmatched;
  const userId = await userOf(ctx.services, {
    userKeys: subscriptionKeys(found),
    customer: idOf(found.customer),
  });
  if (userId === null) return unmatched;
  return {
    userId,
    apply: async (tx) => {
      const subscription = await latestSubscription(ctx, found);
      const plan = planOf(subscription);
      const dropProfessional = await planDropsProfessional(ctx.stripe, tx, userId, plan);
      if (!(await isCurrentPlan(tx, userId, plan))) {
        // Another plan is shown (one for credits, beside this one for professional status): this
        // one ending still takes the status it sold, unless another source holds it.
        const dropped = dropProfessional && (await setProfessionalHeld(tx, userId, false));
        const shown = await showMembership(tx, userId, plan, subscription.status);
        return dropped || shown ? 'applied' : 'unchanged';
      }
      if (plan.ended) {
        await endCreditPeriod(tx, userId, `ended:${subscription.id}`);
      } else if (plan.periodEnd && !inTrial(subscription, plan.periodEnd) && (await settled(ctx, tx, subscription))) {
        // Changed within the period recorded, the rest of it billed with the renewal (Stripe's
        // proration items) or not at all: the account shows the new plan now, and its credits
        // for the rest of the period come now, as for a change invoiced at once (once: the
        // period's credits are the plan's afterwards; the renewal starts a fresh period).
        await changeRecordedPeriod(tx, userId, {
          credits: plan.credits,
          periodEnd: plan.periodEnd,
          reference: `${subscription.id}:${ctx.eventId ?? subscription.id}`,
        });
      }
      await showPlan(tx, userId, plan, subscription.status, dropProfessional);
      return 'applied';
    },
  };
};
