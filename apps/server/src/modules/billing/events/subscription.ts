// The subscription as Stripe holds it now (documenso's convergent sync, ../shared/EXAMPLES.md §4).
import type Stripe from 'stripe';
import { isMissing } from '../stripe-client.ts';
import type { EventContext } from './types.ts';

/** Retrieved with its prices and products; `fallback` (the event's own copy) when Stripe no longer has it. */
export async function currentSubscription(
  ctx: EventContext,
  id: string,
  fallback?: Stripe.Subscription,
): Promise<Stripe.Subscription | null> {
  try {
    // Its discounts with their coupons: the plan's price shown is what the user pays (planOf).
    const subscription = await ctx.stripe.subscriptions.retrieve(id, {
      expand: [
        'items.data.price.product',
        // A plan charged in another of its price's currencies: the amount there (planOf).
        'items.data.price.currency_options',
        'discounts',
        'discounts.source.coupon',
        'discounts.source.coupon.currency_options',
        // With none of its own, the customer's discount is charged (discountedPrice).
        'customer.discount.source.coupon',
        // The tax its latest invoice added on top of the price (withExclusiveTax).
        'latest_invoice',
      ],
    });
    return await withTrialTax(ctx, subscription);
  } catch (error) {
    if (isMissing(error)) return fallback ?? null;
    throw error;
  }
}

/**
 * In a free trial with Stripe Tax, the only invoice is the trial's of 0, which tells no tax: the
 * tax is read instead (withExclusiveTax) from the invoice Stripe previews for the first payment,
 * at the buyer's address.
 */
async function withTrialTax(ctx: EventContext, subscription: Stripe.Subscription): Promise<Stripe.Subscription> {
  if (subscription.status !== 'trialing' || !subscription.automatic_tax?.enabled) return subscription;
  // Ending with its trial, it has no next payment: Stripe answers invoice_upcoming_none.
  if (subscription.cancel_at_period_end || subscription.cancel_at) return subscription;
  try {
    const next = await ctx.stripe.invoices.createPreview({ subscription: subscription.id });
    return { ...subscription, latest_invoice: next };
  } catch (error) {
    if ((error as { code?: string }).code === 'invoice_upcoming_none') return subscription;
    throw error;
  }
}

/**
 * The subscription read again (in `apply`, under the user's lock): Stripe's state may have moved
 * on since `first` was read, and another event may have written the newer one meanwhile.
 */
export async function latestSubscription(ctx: EventContext, first: Stripe.Subscription): Promise<Stripe.Subscription> {
  return (await currentSubscription(ctx, first.id, first)) ?? first;
}

/** The user keys a subscription may carry: ours in its metadata. */
export const subscriptionKeys = (subscription: Stripe.Subscription) => [subscription.metadata?.user_key];
