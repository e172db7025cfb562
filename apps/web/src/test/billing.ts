// What the fake GraphQL server sells in billing screen tests: a pack, a monthly plan and
// professional status, as accountProducts answers them.
const product = (
  stripePriceId: string,
  name: string,
  credits: number,
  price: number,
  extra: Record<string, unknown> = {},
) => ({
  stripePriceId,
  name,
  description: null,
  credits,
  price,
  currency: 'usd',
  type: 1,
  interval: null,
  professional: false,
  ...extra,
});

export const PACK = product('price_pack', '100 signal credits', 100, 1099);
export const PLAN = product('price_plan', 'Pro plan', 300, 2000, { type: 3, interval: 'month' });
export const PROFESSIONAL_STATUS = product('price_pro', 'Professional status', 0, 4900, { professional: true });

export const productsAnswer = (products = [PACK, PLAN, PROFESSIONAL_STATUS]) => ({
  data: { accountProducts: products },
});
