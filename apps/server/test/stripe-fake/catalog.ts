// The fake's starting catalogue and discounts, derived from the fixtures' product and prices:
// two credit packs, a monthly plan, professional status, and prices our server must not offer
// (inactive, or without metadata.credits). Coupons and promotion codes are not in the fixtures;
// they carry the fields of Stripe's Coupon and PromotionCode objects that billing reads.
import { fromFixture, type StripeObject } from './fixtures.ts';

export const PRODUCT_ID = 'prod_QXg1hqf4jFNsqG';
/** The fixture's one-time price: 100 credits for $10.99. */
export const PACK_100 = 'price_1PgafmB7WZ01zgkWcredits100';
export const PACK_500 = 'price_1PgafmB7WZ01zgkWcredits500';
/** The fixture's recurring price, carrying 300 credits per month. */
export const PLAN_MONTHLY = 'price_1PgafmB7WZ01zgkW6dKueIc5';
export const PROFESSIONAL = 'price_1PgafmB7WZ01zgkWprofessnl';
export const INACTIVE_PACK = 'price_1PgafmB7WZ01zgkWinactive1';
export const NO_CREDITS = 'price_1PgafmB7WZ01zgkWnocredits1';

export function startingProducts(): StripeObject[] {
  return [
    fromFixture('product', {
      name: 'Signal credits',
      description: 'Signals for live webhooks',
      default_price: PACK_100,
      package_dimensions: null,
    }),
  ];
}

const oneTime = (id: string, changes: Record<string, unknown>) =>
  fromFixture('price.one_time', { id, created: 1732447200, ...changes });

export function startingPrices(): StripeObject[] {
  return [
    fromFixture('price.one_time', {}),
    oneTime(PACK_500, {
      unit_amount: 3900,
      unit_amount_decimal: '3900',
      lookup_key: 'credits_500',
      nickname: '500 signal credits',
      metadata: { credits: '500' },
    }),
    fromFixture('price.recurring', { nickname: 'Pro plan', metadata: { credits: '300' }, transform_quantity: null }),
    oneTime(PROFESSIONAL, {
      unit_amount: 4900,
      unit_amount_decimal: '4900',
      lookup_key: 'professional',
      nickname: 'Professional status',
      metadata: { professional: 'true' },
    }),
    oneTime(INACTIVE_PACK, { active: false, lookup_key: null, nickname: 'Old pack', metadata: { credits: '50' } }),
    oneTime(NO_CREDITS, { lookup_key: null, nickname: 'T-shirt', metadata: {} }),
  ];
}

const coupon = (id: string, changes: Record<string, unknown>): StripeObject => ({
  id,
  object: 'coupon',
  amount_off: null,
  created: 1732447200,
  currency: null,
  duration: 'once',
  duration_in_months: null,
  livemode: false,
  max_redemptions: null,
  metadata: {},
  name: id,
  percent_off: null,
  redeem_by: null,
  times_redeemed: 0,
  valid: true,
  ...changes,
});

export function startingCoupons(): StripeObject[] {
  return [
    coupon('WELCOME10', { percent_off: 10 }),
    coupon('SPENT', { percent_off: 50, valid: false, redeem_by: 1700000000 }),
    // Valid, but only for another product: Checkout refuses it for ours.
    coupon('OTHERPRODUCT', { percent_off: 20, applies_to: { products: ['prod_QXg1other000000'] } }),
  ];
}

const promotion = (id: string, code: string, couponId: string, changes: Record<string, unknown>): StripeObject => ({
  id,
  object: 'promotion_code',
  active: true,
  code,
  created: 1732447200,
  customer: null,
  expires_at: null,
  livemode: false,
  max_redemptions: null,
  metadata: {},
  promotion: { coupon: couponId, type: 'coupon' },
  restrictions: { first_time_transaction: false, minimum_amount: null, minimum_amount_currency: null },
  times_redeemed: 0,
  ...changes,
});

export function startingPromotionCodes(): StripeObject[] {
  return [
    promotion('promo_1Spring0000000000000001', 'SPRING', 'WELCOME10', {}),
    promotion('promo_1Expired000000000000001', 'LASTYEAR', 'WELCOME10', { active: false, expires_at: 1700000000 }),
    // Active, but Checkout refuses them for a customer who paid before, or below $500.
    promotion('promo_1FirstBuy00000000000001', 'FIRSTBUY', 'WELCOME10', {
      restrictions: { first_time_transaction: true, minimum_amount: null, minimum_amount_currency: null },
    }),
    promotion('promo_1BigSpend00000000000001', 'BIGSPEND', 'WELCOME10', {
      restrictions: { first_time_transaction: false, minimum_amount: 50000, minimum_amount_currency: 'usd' },
    }),
  ];
}
