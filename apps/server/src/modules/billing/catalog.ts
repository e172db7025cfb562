// What is on sale (issue 14 point 1): the active Stripe prices that carry `metadata.credits`
// (packs: one-time; plans: recurring, credits per period) or `metadata.professional = "true"`
// (professional status). The catalogue is kept in Stripe's dashboard; each instance caches the
// list for five minutes and serves the last good list while Stripe cannot be reached.
import type Stripe from 'stripe';
import { ACCOUNT_TYPE } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type StripeClient, stripeClient, stripeFailure } from './stripe-client.ts';

export interface CatalogProduct {
  stripePriceId: string;
  name: string;
  description: string | null;
  /** Credits per purchase (a pack) or per period (a plan); 0 for professional status alone. */
  credits: number;
  /** Cents. */
  price: number;
  currency: string;
  /** Cents in each currency the price is sold in: its own and its `currency_options` (currency.ts). */
  amounts: Record<string, number>;
  /**
   * Stripe's `tax_behavior` of the price: `exclusive` (tax added on top) and `inclusive` (in the
   * price) have Checkout compute tax (Stripe Tax); `unspecified` (or null) charges the price alone.
   */
  taxBehavior: string | null;
  /** SPEC §3: BASE 1 one-time, RECURRING 3 a plan. */
  type: number;
  /** A plan's billing interval (month, year). */
  interval: string | null;
  professional: boolean;
}

const TTL_MS = 5 * 60_000;
const MAX_PRICES = 1000;

interface Cached {
  at: number;
  products: CatalogProduct[];
}
const caches = new WeakMap<Services['config'], { value?: Cached; loading?: Promise<CatalogProduct[]> }>();

/** `metadata.credits` as a whole number of credits, or 0. */
export function creditsOf(metadata: Stripe.Metadata | null | undefined): number {
  const raw = metadata?.credits?.trim() ?? '';
  return /^\d{1,8}$/.test(raw) ? Number(raw) : 0;
}

export const isProfessionalPrice = (metadata: Stripe.Metadata | null | undefined): boolean =>
  metadata?.professional === 'true';

const productOf = (price: Stripe.Price): Stripe.Product | null =>
  typeof price.product === 'object' && price.product !== null && !('deleted' in price.product && price.product.deleted)
    ? (price.product as Stripe.Product)
    : null;

/**
 * A recurring price's billing interval in words, as the app shows it after 'per': 'month', or
 * '3 months' for a price Stripe charges every third month (`interval_count`); null when one-time.
 */
export function intervalOf(recurring: Pick<Stripe.Price.Recurring, 'interval' | 'interval_count'> | null | undefined) {
  if (!recurring) return null;
  const count = recurring.interval_count ?? 1;
  return count > 1 ? `${count} ${recurring.interval}s` : recurring.interval;
}

/** A price as a catalogue entry; null when it sells nothing of ours. */
export function toProduct(price: Stripe.Price): CatalogProduct | null {
  const product = productOf(price);
  const credits = creditsOf(price.metadata);
  const professional = isProfessionalPrice(price.metadata);
  if (!price.active || product?.active === false || (credits === 0 && !professional)) return null;
  if (price.unit_amount === null) return null;
  const amounts: Record<string, number> = {};
  for (const [currency, option] of Object.entries(price.currency_options ?? {})) {
    if (typeof option.unit_amount === 'number') amounts[currency] = option.unit_amount;
  }
  amounts[price.currency] = price.unit_amount;
  return {
    stripePriceId: price.id,
    name: price.nickname ?? product?.name ?? `${credits} signal credits`,
    description: product?.description ?? null,
    credits,
    price: price.unit_amount,
    currency: price.currency,
    amounts,
    taxBehavior: price.tax_behavior ?? null,
    type: price.type === 'recurring' ? ACCOUNT_TYPE.RECURRING : ACCOUNT_TYPE.BASE,
    interval: intervalOf(price.recurring),
    professional,
  };
}

async function fetchCatalog(stripe: StripeClient): Promise<CatalogProduct[]> {
  const products: CatalogProduct[] = [];
  let count = 0;
  for await (const price of stripe.prices.list({
    active: true,
    limit: 100,
    // Its amounts in other currencies: Stripe includes them only when asked.
    expand: ['data.product', 'data.currency_options'],
  })) {
    const product = toProduct(price);
    if (product) products.push(product);
    if (++count >= MAX_PRICES) break;
  }
  // Packs before plans, each cheapest first.
  return products.sort((a, b) => a.type - b.type || a.price - b.price || a.name.localeCompare(b.name));
}

/** The catalogue ([] without card payments). */
export async function listCatalog(services: Services): Promise<CatalogProduct[]> {
  if (!services.config.STRIPE_SECRET_KEY) return [];
  let cache = caches.get(services.config);
  if (!cache) {
    cache = {};
    caches.set(services.config, cache);
  }
  const { value } = cache;
  if (value && Date.now() - value.at < TTL_MS) return value.products;
  const entry = cache;
  entry.loading ??= stripeClient(services)
    .then(fetchCatalog)
    .then((products) => {
      entry.value = { at: Date.now(), products };
      return products;
    })
    .finally(() => {
      entry.loading = undefined;
    });
  try {
    return await entry.loading;
  } catch (error) {
    if (value) return value.products;
    throw stripeFailure(services, error, 'listing prices');
  }
}

/** The catalogue entry of this price, or VALIDATION when it is not on sale. */
export async function findProduct(services: Services, stripePriceId: string): Promise<CatalogProduct> {
  const product = (await listCatalog(services)).find((p) => p.stripePriceId === stripePriceId);
  if (!product) throw new AppError('VALIDATION', 'This price is not on sale', { field: 'stripePriceId' });
  return product;
}

/** Forgets the cached catalogue (tests; a price changed in Stripe shows within five minutes otherwise). */
export function clearCatalog(services: Services): void {
  caches.delete(services.config);
}

/**
 * The session's description (SPEC §3 Payment session): what is bought, in words. One: the name,
 * with its credits unless the name states them ('Pro plan: 300 signal credits per month').
 * Several: what each brings, then all of them together ('2 × Pro plan (300 signal credits each):
 * 600 signal credits'), never a total that reads as each one's.
 */
export function describeProduct(product: CatalogProduct, quantity = 1): string {
  const per = product.interval ? ` per ${product.interval}` : '';
  // The credits as a number of their own in the name ('500 signal credits'), not a part of another.
  // Professional status alone brings no credits: its name says what it is.
  const named = product.credits === 0 || new RegExp(`(^|\\D)${product.credits}(\\D|$)`).test(product.name);
  const one = named ? product.name : `${product.name}: ${product.credits} signal credits`;
  if (quantity <= 1) return `${one}${per}`;
  const each = named ? product.name : `${product.name} (${product.credits} signal credits each)`;
  return `${quantity} × ${each}: ${product.credits * quantity} signal credits${per}`;
}
