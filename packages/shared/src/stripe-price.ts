// SPEC §9: a Stripe price id starts with price_. Apart from billing.ts (zod schemas), so the
// sign-in screen's social buttons can check a sign-up's price without loading the schemas.

/** SPEC §9: a Stripe price id starts with price_. */
export const isStripePriceId = (value: string | null | undefined): value is string =>
  typeof value === 'string' && value.startsWith('price_');
