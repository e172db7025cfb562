// customer.subscription.updated and .deleted: the plan as Stripe holds it now is projected onto
// the account (cancel date, status, product). A subscription that ended takes the unused period
// credits with it (endCreditPeriod, once per subscription), and the professional status it sold;
// one-time credits stay.
import type Stripe from 'stripe';
import { projectPlan, setProfessionalHeld } from '../../../db/repositories/billing-account.repository.ts';
import { endCreditPeriod } from '../../accounts/credits.ts';
import { isCurrentPlan, planOf, projectionOf } from '../plan.ts';
import { userOf } from './event-user.ts';
import { currentSubscription, latestSubscription, subscriptionKeys } from './subscription.ts';
import { type EventHandler, idOf, unmatched } from './types.ts';

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
      if (!(await isCurrentPlan(tx, userId, plan))) return 'unchanged';
      if (plan.ended) {
        await endCreditPeriod(tx, userId, `ended:${subscription.id}`);
        // Professional status the plan sold is held while the plan runs.
        if (plan.professional) await setProfessionalHeld(tx, userId, false);
      }
      await projectPlan(tx, userId, projectionOf(plan, subscription.status));
      return 'applied';
    },
  };
};
