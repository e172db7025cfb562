// A coupon redeemed by a Checkout session in subscription mode stays on its subscription as a
// Discount (`subscription.discounts`, ids; `expand[]=discounts.source.coupon`), as Stripe keeps
// it: `once` is spent by the first invoice, `repeating` ends `duration_in_months` after it
// started (`end`), `forever` never. Renewals are charged less it while it applies.
import type { StripeObject } from './fixtures.ts';
import { discountOf } from './money.ts';
import type { Store } from './store.ts';

/** The Discount the subscription keeps after its first invoice, or null (none, or a `once` coupon spent). */
export function makeSubscriptionDiscount(
  store: Store,
  input: { coupon: StripeObject; promotionCode: string | null; subscription: StripeObject; start: number },
): StripeObject | null {
  const { coupon, start } = input;
  if (coupon.duration === 'once') return null;
  const months = Number(coupon.duration_in_months ?? 0);
  const end = coupon.duration === 'repeating' ? new Date(start * 1000) : null;
  end?.setUTCMonth(end.getUTCMonth() + months);
  return store.put({
    id: store.newId('discount'),
    object: 'discount',
    checkout_session: null,
    customer: input.subscription.customer,
    end: end ? Math.floor(end.getTime() / 1000) : null,
    invoice: null,
    invoice_item: null,
    promotion_code: input.promotionCode,
    source: { coupon: coupon.id, type: 'coupon' },
    start,
    subscription: input.subscription.id,
    subscription_item: null,
  });
}

/** A renewal's amount at `at` (seconds): the subtotal less the subscription's discounts still running. */
export function renewalAmount(store: Store, subscription: StripeObject, subtotal: number, at: number): number {
  let amount = subtotal;
  for (const id of (subscription.discounts as string[] | undefined) ?? []) {
    const discount = store.get('discount', id);
    if (discount.end !== null && Number(discount.end) <= at) continue;
    const source = discount.source as { coupon: string };
    amount -= discountOf(amount, store.get('coupon', source.coupon), String(subscription.currency));
  }
  return amount;
}
