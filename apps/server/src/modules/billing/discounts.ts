// Coupons (`?coupon=`, SPEC §3 Coupon) and promotion codes (`promotionCode` at sign-up) applied to
// a Checkout session as Stripe's own discounts. An unknown or no longer usable one is refused
// with a message naming it, before any session is made; one Stripe refuses for this purchase when
// the session is made (first-time customers only, a minimum amount…) is a validation error too.
import type Stripe from 'stripe';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { isDiscountRefusal, isMissing, type StripeClient, stripeFailure } from './stripe-client.ts';

export type Discount = { coupon: string } | { promotion_code: string };

/** What the `discount` column of payment_sessions records. */
export const discountId = (discount: Discount | null): string | null =>
  discount === null ? null : 'coupon' in discount ? discount.coupon : discount.promotion_code;

const shown = (code: string) => JSON.stringify(code.slice(0, 64));

export async function couponDiscount(services: Services, stripe: StripeClient, couponId: string): Promise<Discount> {
  const refused = new AppError('VALIDATION', `The coupon ${shown(couponId)} is unknown or has expired`, {
    field: 'coupon',
  });
  if (!/^[\w-]{1,200}$/.test(couponId)) throw refused;
  try {
    const coupon = await stripe.coupons.retrieve(couponId);
    if (!coupon.valid) throw refused;
    return { coupon: coupon.id };
  } catch (error) {
    if (error === refused || isMissing(error)) throw refused;
    throw stripeFailure(services, error, 'reading a coupon');
  }
}

async function promotionCode(services: Services, stripe: StripeClient, code: string): Promise<string> {
  const refused = new AppError('VALIDATION', `The promotion code ${shown(code)} is unknown or has expired`, {
    field: 'promotionCode',
  });
  if (!/^[\w-]{1,200}$/.test(code)) throw refused;
  let found: Awaited<ReturnType<StripeClient['promotionCodes']['list']>>['data'][number] | undefined;
  try {
    found = (await stripe.promotionCodes.list({ code, active: true, limit: 1 })).data[0];
  } catch (error) {
    throw stripeFailure(services, error, 'reading a promotion code');
  }
  const now = Date.now() / 1000;
  const usable =
    found?.active === true &&
    (found.expires_at === null || found.expires_at > now) &&
    (found.max_redemptions === null || found.times_redeemed < found.max_redemptions);
  if (!found || !usable) throw refused;
  return found.id;
}

/**
 * The discount of a session: the coupon when given, else the first of the promotion codes
 * (Checkout takes one discount; every code given must still be valid, so none is dropped quietly).
 */
export async function resolveDiscount(
  services: Services,
  stripe: StripeClient,
  input: { coupon?: string | null; promotionCodes?: readonly string[] },
): Promise<Discount | null> {
  const coupon = input.coupon?.trim();
  if (coupon) return couponDiscount(services, stripe, coupon);
  const ids: string[] = [];
  for (const code of input.promotionCodes ?? []) ids.push(await promotionCode(services, stripe, code));
  return ids[0] ? { promotion_code: ids[0] } : null;
}

/**
 * The coupon on the Stripe customer (`customer.discount`, set in the Dashboard or by an older API)
 * as the discount of a pack's Checkout: Stripe applies it to a plan's invoices by itself, never to
 * a one-time payment, which would charge such a customer the list price. Applied while it runs, when
 * Checkout cannot refuse it: `forever` or `repeating` (a `once` one waits for the invoice Stripe
 * spends it on: given to packs it would be spent never), valid, for no particular products, and
 * an amount off only in the pack's currency. Null when there is none such.
 */
export async function customerPackDiscount(
  services: Services,
  stripe: StripeClient,
  customerId: string,
  currency: string,
): Promise<Discount | null> {
  let customer: Stripe.Customer | Stripe.DeletedCustomer;
  try {
    customer = await stripe.customers.retrieve(customerId, {
      expand: ['discount.source.coupon.applies_to', 'discount.source.coupon.currency_options'],
    });
  } catch (error) {
    throw stripeFailure(services, error, 'reading a customer');
  }
  const discount = 'deleted' in customer && customer.deleted ? null : (customer as Stripe.Customer).discount;
  const coupon = discount?.source?.coupon;
  if (!discount || !coupon || typeof coupon === 'string') return null;
  if (discount.end !== null && discount.end <= Date.now() / 1000) return null;
  if (!coupon.valid || coupon.duration === 'once' || (coupon.applies_to?.products.length ?? 0) > 0) return null;
  if (coupon.percent_off === null && amountOff(coupon, currency) === null) return null;
  return { coupon: coupon.id };
}

/**
 * Stripe's refusal of the session's discount as a validation error on its field (null: the
 * error is something else). The promotion code is known here by its Stripe id only: not named.
 */
export function discountRefusal(services: Pick<Services, 'log'>, error: unknown, discount: Discount | null) {
  if (!discount || !isDiscountRefusal(error)) return null;
  services.log.info(
    { stripe: { message: error instanceof Error ? error.message : String(error) } },
    'stripe: a discount was refused',
  );
  return 'coupon' in discount
    ? new AppError('VALIDATION', `The coupon ${shown(discount.coupon)} cannot be used for this purchase`, {
        field: 'coupon',
      })
    : new AppError('VALIDATION', 'The promotion code cannot be used for this purchase', { field: 'promotionCode' });
}

/**
 * An amount-off coupon's amount in `currency`, as Stripe applies it: its `amount_off` in its own
 * currency, else its `currency_options` entry for that currency (expanded: Stripe leaves it out
 * unless asked); null when it has none there.
 */
function amountOff(coupon: Stripe.Coupon, currency: string): number | null {
  if (coupon.amount_off === null) return null;
  if (coupon.currency === currency) return coupon.amount_off;
  return coupon.currency_options?.[currency]?.amount_off ?? null;
}

/**
 * The customer's own discount (`customer.discount`, expanded with its coupon), which Stripe
 * applies to the invoices of a subscription that has no discount of its own; null otherwise.
 */
function customerDiscount(subscription: Stripe.Subscription): Stripe.Discount | null {
  const customer = subscription.customer;
  if (typeof customer === 'string' || customer.deleted) return null;
  return customer.discount ?? null;
}

/**
 * What the plan's next payment costs after the subscription's discounts (Stripe's Discount
 * objects, expanded with their coupons: `currentSubscription`), so the card shows what the user
 * pays, not the list price: a `forever` coupon always, a `repeating` one until its `end`, a `once`
 * one only before the first payment (during a free trial; the first invoice spends it), each in
 * Stripe's order on what is left (percent off, or an amount off in the plan's currency: the
 * coupon's `currency_options` one when its own currency is another), never below 0. A
 * subscription without discounts of its own is charged less the customer's (`customer.discount`,
 * a `once` one still there being spent by the next invoice). `renewsAt`: when that payment is
 * made (seconds). Discounts not expanded count as none.
 */
export function discountedPrice(subscription: Stripe.Subscription, listPrice: number, renewsAt: number): number {
  let price = listPrice;
  const own = subscription.discounts ?? [];
  const onCustomer = own.length === 0 ? customerDiscount(subscription) : null;
  for (const discount of onCustomer ? [onCustomer] : own) {
    if (typeof discount === 'string') continue;
    const coupon = discount.source?.coupon;
    if (!coupon || typeof coupon === 'string') continue;
    if (discount.end !== null && discount.end <= renewsAt) continue;
    if (coupon.duration === 'once' && !onCustomer && subscription.status !== 'trialing') continue;
    if (coupon.percent_off !== null) price -= Math.round((price * coupon.percent_off) / 100);
    else price -= amountOff(coupon, subscription.currency) ?? 0;
    price = Math.max(price, 0);
  }
  return price;
}
