// Tax on prices whose `tax_behavior` is set (Stripe Tax): Checkout computes it, and what the user
// is shown as paid or to pay is the total with it, as Stripe charges it.
import type Stripe from 'stripe';
import type { CatalogProduct } from './catalog.ts';

/** A price whose tax Stripe computes (its `tax_behavior` is set: exclusive or inclusive). */
export const taxed = (product: Pick<CatalogProduct, 'taxBehavior'>) =>
  product.taxBehavior === 'exclusive' || product.taxBehavior === 'inclusive';

/**
 * Stripe Tax on the hosted page: it asks for the billing address, keeps it on the customer (which
 * Stripe demands for a customer without one) and shows and charges the total with the tax (a plan
 * keeps automatic tax on its renewals). The sign-up card form (ui_mode elements) has no address
 * form: its price is charged as it is shown.
 */
export const AUTOMATIC_TAX = {
  automatic_tax: { enabled: true },
  billing_address_collection: 'required',
  customer_update: { address: 'auto', name: 'auto' },
} as const satisfies Partial<Stripe.Checkout.SessionCreateParams>;

/**
 * The plan's next payment with the tax Stripe adds on top (an exclusive price): at the rate its
 * latest invoice was taxed (`latest_invoice` expanded: `currentSubscription`; in a free trial, the
 * preview of its first payment), the buyer's address and rate being the same until they change.
 * Tax inside the price, or none, adds nothing.
 */
export function withExclusiveTax(subscription: Stripe.Subscription, amount: number): number {
  const invoice = subscription.latest_invoice;
  if (!invoice || typeof invoice === 'string') return amount;
  let tax = 0;
  let taxable = 0;
  for (const entry of invoice.total_taxes ?? []) {
    if (entry.tax_behavior !== 'exclusive') continue;
    tax += entry.amount;
    taxable += entry.taxable_amount ?? 0;
  }
  return taxable > 0 ? amount + Math.round((amount * tax) / taxable) : amount;
}
