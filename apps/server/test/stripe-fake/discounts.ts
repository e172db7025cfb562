// A coupon redeemed by a Checkout session in subscription mode stays on its subscription as a
// Discount (`subscription.discounts`, ids; `expand[]=discounts.source.coupon`), as Stripe keeps
// it: `once` is spent by the first invoice, `repeating` ends `duration_in_months` after it
// started (`end`), `forever` never. Renewals are charged less it while it applies.
import type { StripeObject } from './fixtures.ts';
import { discountOf } from './money.ts';
import { now, type Store } from './store.ts';

/** The Discount the subscription keeps after its first invoice, or null (none, or a `once` coupon spent). */
export function makeSubscriptionDiscount(
  store: Store,
  input: { coupon: StripeObject; promotionCode: string | null; subscription: StripeObject; start: number },
): StripeObject | null {
  const { coupon, start } = input;
  if (coupon.duration === 'once') return null;
  return store.put({
    id: store.newId('discount'),
    object: 'discount',
    checkout_session: null,
    customer: input.subscription.customer,
    end: endOf(coupon, start),
    invoice: null,
    invoice_item: null,
    promotion_code: input.promotionCode,
    source: { coupon: coupon.id, type: 'coupon' },
    start,
    subscription: input.subscription.id,
    subscription_item: null,
  });
}

/** The end of a discount of `coupon` started at `start`: `duration_in_months` later when repeating. */
function endOf(coupon: StripeObject, start: number): number | null {
  if (coupon.duration !== 'repeating') return null;
  const end = new Date(start * 1000);
  end.setUTCMonth(end.getUTCMonth() + Number(coupon.duration_in_months ?? 0));
  return Math.floor(end.getTime() / 1000);
}

/**
 * A coupon on the customer itself (`customer.discount`, embedded, not listed by id): set in the
 * Dashboard or by an older API version (the `coupon` parameter of customer updates is gone since
 * 2025-03-31.basil), so tests set it here. Stripe applies it to the customer's invoices whose
 * subscription has no discount of its own (a plan's first invoice and renewals), not to one-time
 * Checkout payments; a `once` one is spent by the first such invoice.
 */
export function giveCustomerDiscount(store: Store, customerId: string, couponId: string, start = now()): StripeObject {
  const customer = store.get('customer', customerId);
  const coupon = store.get('coupon', couponId);
  customer.discount = {
    id: store.newId('discount'),
    object: 'discount',
    checkout_session: null,
    customer: customer.id,
    customer_account: null,
    end: endOf(coupon, start),
    invoice: null,
    invoice_item: null,
    promotion_code: null,
    source: { coupon: coupon.id, type: 'coupon' },
    start,
    subscription: null,
    subscription_item: null,
  };
  return customer;
}

/** The coupon of the customer's discount running at `at` (seconds), or null. */
export function customerCoupon(store: Store, customerId: string | null, at: number): StripeObject | null {
  if (!customerId) return null;
  const discount = store.get('customer', customerId).discount as StripeObject | null | undefined;
  if (!discount) return null;
  if (discount.end !== null && discount.end !== undefined && Number(discount.end) <= at) return null;
  const coupon = (discount.source as { coupon: string | null } | undefined)?.coupon;
  return coupon ? store.get('coupon', coupon) : null;
}

/** A customer's `once` discount spent by the invoice that applied it: Stripe removes it. */
export function spendCustomerDiscount(store: Store, customerId: string): void {
  const customer = store.get('customer', customerId);
  const coupon = customerCoupon(store, customerId, now());
  if (coupon?.duration === 'once') customer.discount = null;
}

/**
 * A renewal's amount at `at` (seconds): the subtotal less the subscription's discounts still
 * running; with none of its own, less the customer's discount (Stripe's precedence).
 */
export function renewalAmount(store: Store, subscription: StripeObject, subtotal: number, at: number): number {
  let amount = subtotal;
  const own = (subscription.discounts as string[] | undefined) ?? [];
  const currency = String(subscription.currency);
  for (const id of own) {
    const discount = store.get('discount', id);
    if (discount.end !== null && Number(discount.end) <= at) continue;
    const source = discount.source as { coupon: string };
    amount -= discountOf(amount, store.get('coupon', source.coupon), currency);
  }
  if (own.length === 0) {
    const customer = String(subscription.customer);
    amount -= discountOf(amount, customerCoupon(store, customer, at), currency);
    spendCustomerDiscount(store, customer);
  }
  return amount;
}
