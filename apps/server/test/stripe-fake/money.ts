// Amounts of a checkout: line items from prices, and a coupon's discount (percent or amount off).
import type { StripeObject } from './fixtures.ts';

export interface Line {
  price: StripeObject;
  quantity: number;
}

export const unitAmount = (price: StripeObject) => Number(price.unit_amount ?? 0);

/**
 * A price's unit amount in `currency`: its own in its own currency, else its `currency_options`
 * one (a price sold in several currencies); null when it has none there.
 */
export function unitAmountIn(price: StripeObject, currency: string): number | null {
  if (price.currency === currency) return unitAmount(price);
  const options = price.currency_options as Record<string, { unit_amount?: number | null }> | null | undefined;
  const amount = options?.[currency]?.unit_amount;
  return typeof amount === 'number' ? amount : null;
}

/** The price as it is charged in `currency` (its amount there); itself when that is its own. */
export function localized(price: StripeObject, currency: string): StripeObject {
  const amount = unitAmountIn(price, currency);
  if (price.currency === currency || amount === null) return price;
  return { ...price, currency, unit_amount: amount, unit_amount_decimal: String(amount) };
}

export const subtotalOf = (lines: Line[]) =>
  lines.reduce((sum, line) => sum + unitAmount(line.price) * line.quantity, 0);

/**
 * An amount-off coupon's amount in `currency`: its own `amount_off` in its own currency, else the
 * one its `currency_options` gives for that currency; null when it has none there (Stripe refuses it).
 */
export function amountOffIn(coupon: StripeObject, currency: string): number | null {
  if (typeof coupon.amount_off !== 'number') return null;
  if (coupon.currency === currency) return coupon.amount_off;
  const options = coupon.currency_options as Record<string, { amount_off?: number }> | null | undefined;
  const other = options?.[currency]?.amount_off;
  return typeof other === 'number' ? other : null;
}

export function discountOf(subtotal: number, coupon: StripeObject | null, currency: string): number {
  if (!coupon) return 0;
  if (typeof coupon.percent_off === 'number') return Math.round((subtotal * coupon.percent_off) / 100);
  return Math.min(amountOffIn(coupon, currency) ?? 0, subtotal);
}

/** The end of one billing interval after `start` (seconds), in calendar terms. */
export function addInterval(start: number, price: StripeObject): number {
  const recurring = price.recurring as { interval?: string; interval_count?: number } | null;
  const date = new Date(start * 1000);
  const count = recurring?.interval_count ?? 1;
  switch (recurring?.interval) {
    case 'day':
      date.setUTCDate(date.getUTCDate() + count);
      break;
    case 'week':
      date.setUTCDate(date.getUTCDate() + 7 * count);
      break;
    case 'year':
      date.setUTCFullYear(date.getUTCFullYear() + count);
      break;
    default:
      date.setUTCMonth(date.getUTCMonth() + count);
  }
  return Math.floor(date.getTime() / 1000);
}

/**
 * Stripe Tax in the fake: one standard rate wherever the buyer is (Stripe's depends on the
 * address). Added on top of a `tax_behavior: exclusive` price; an inclusive one holds it already.
 */
export const FAKE_TAX_PERCENT = 20;

/** The tax added to `amount` (after discounts) of `price` when automatic tax is on. */
export const exclusiveTax = (amount: number, price: StripeObject | undefined) =>
  price?.tax_behavior === 'exclusive' ? Math.round((amount * FAKE_TAX_PERCENT) / 100) : 0;
