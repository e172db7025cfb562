// Which currency a price sold in several (`currency_options`) is shown and charged in: the Stripe
// customer's own once Stripe set it (its first subscription or invoice; Stripe charges a plan in no
// other), else the one of the region of the browser's languages (Accept-Language, in order), else
// the price's own. The catalogue shows that amount and Checkout is asked for that currency
// (`currency`), so Stripe does not pick another from where the buyer is.
import { findBillingAccount } from '../../db/repositories/billing-account.repository.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../graphql/context.ts';
import type { Services } from '../../services.ts';
import { type CatalogProduct, listCatalog } from './catalog.ts';
import { type StripeClient, stripeClient, stripeFailure } from './stripe-client.ts';

const EURO = 'AT BE CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK BG AD MC SM VA ME XK';
const OTHERS: Record<string, string> = {
  US: 'usd',
  GB: 'gbp',
  CA: 'cad',
  AU: 'aud',
  NZ: 'nzd',
  JP: 'jpy',
  CH: 'chf',
  LI: 'chf',
  SE: 'sek',
  NO: 'nok',
  DK: 'dkk',
  PL: 'pln',
  CZ: 'czk',
  HU: 'huf',
  RO: 'ron',
  IS: 'isk',
  IN: 'inr',
  BR: 'brl',
  MX: 'mxn',
  SG: 'sgd',
  HK: 'hkd',
  CN: 'cny',
  KR: 'krw',
  ZA: 'zar',
  IL: 'ils',
  AE: 'aed',
  TR: 'try',
  TH: 'thb',
  MY: 'myr',
  ID: 'idr',
  PH: 'php',
  TW: 'twd',
  AR: 'ars',
  CL: 'clp',
  CO: 'cop',
};
const REGION_CURRENCY: Record<string, string> = {
  ...Object.fromEntries(EURO.split(' ').map((region) => [region, 'eur'])),
  ...OTHERS,
};

/** The region's currency of each language of an Accept-Language header, most wanted first. */
export function languageCurrencies(acceptLanguage: string | null | undefined): string[] {
  const tags = (acceptLanguage ?? '')
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const currencies: string[] = [];
  for (const { tag } of tags) {
    let region: string | undefined;
    try {
      region = new Intl.Locale(tag).maximize().region;
    } catch {
      continue;
    }
    const currency = region ? REGION_CURRENCY[region] : undefined;
    if (currency && !currencies.includes(currency)) currencies.push(currency);
  }
  return currencies;
}

/** The product in the first of `preferred` it is sold in (its price there), else as it is. */
export function localize(product: CatalogProduct, preferred: readonly string[]): CatalogProduct {
  const currency = preferred.find((c) => product.amounts[c] !== undefined);
  const price = currency === undefined ? undefined : product.amounts[currency];
  return currency === undefined || price === undefined ? product : { ...product, currency, price };
}

/**
 * The Stripe customer's currency, once Stripe set it (null before, or without a customer).
 * `strict`: a Stripe that cannot be read is UNAVAILABLE (a payment); otherwise null (the
 * catalogue, served while Stripe is away).
 */
export async function customerCurrency(
  services: Services,
  stripe: StripeClient,
  userId: number,
  strict: boolean,
): Promise<string | null> {
  const customerId = (await findBillingAccount(services.db, userId))?.stripeCustomerId;
  if (!customerId) return null;
  try {
    // The catalogue does not wait long for it: it is served while Stripe is away.
    const customer = await stripe.customers.retrieve(
      customerId,
      {},
      strict ? {} : { timeout: 5000, maxNetworkRetries: 0 },
    );
    return 'deleted' in customer && customer.deleted ? null : (customer.currency ?? null);
  } catch (error) {
    if (strict) throw stripeFailure(services, error, 'reading a customer');
    return null;
  }
}

/** The currencies the user is shown and charged in, in order: the customer's, then the languages'. */
export const preferredOf = (own: string | null, acceptLanguage: string | null | undefined): string[] => [
  ...(own ? [own] : []),
  ...languageCurrencies(acceptLanguage),
];

export const otherCurrencyPlan = (own: string) =>
  `This plan is not sold in ${own.toUpperCase()}, the currency Stripe charges you in since your first plan or invoice. Please contact support.`;

/**
 * The product as the user is shown and charged it; a plan the customer cannot be charged for is
 * refused: Stripe bills one customer's subscriptions in one currency only, and refuses another at
 * Checkout (answered as card payments being unavailable before).
 */
export async function localProduct(
  services: Services,
  stripe: StripeClient,
  userId: number,
  product: CatalogProduct,
  acceptLanguage: string | null | undefined,
  subscription: boolean,
): Promise<CatalogProduct> {
  const own = await customerCurrency(services, stripe, userId, true);
  const local = localize(product, preferredOf(own, acceptLanguage));
  if (subscription && own && local.currency !== own) {
    throw new AppError('VALIDATION', otherCurrencyPlan(own), { field: 'stripePriceId' });
  }
  return local;
}

/** The catalogue as the user is shown it: each price in their currency when it is sold in it. */
export async function localCatalog(
  services: Services,
  viewer: Viewer,
  acceptLanguage: string | null | undefined,
): Promise<CatalogProduct[]> {
  const products = await listCatalog(services);
  if (!products.some((product) => Object.keys(product.amounts).length > 1)) return products;
  const own = await customerCurrency(services, await stripeClient(services), viewer.userId, false);
  const preferred = preferredOf(own, acceptLanguage);
  return products.map((product) => localize(product, preferred));
}
