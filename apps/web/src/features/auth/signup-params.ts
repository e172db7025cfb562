// SPEC §2 Sign-up query: `code` (repeatable: promotion codes), `stripe_price_id`; the referrer
// code comes from the route (/signup/{referrer}).

export interface SignupParams {
  referrerCode?: string;
  promotionCode?: string;
  stripePriceId?: string;
}

export function signupParams(search: string, referrer?: string): SignupParams {
  const query = new URLSearchParams(search);
  const codes = query
    .getAll('code')
    .map((code) => code.trim())
    .filter(Boolean);
  const priceId = query.get('stripe_price_id')?.trim();
  return {
    ...(referrer ? { referrerCode: referrer } : {}),
    ...(codes.length > 0 ? { promotionCode: codes.join(',') } : {}),
    ...(priceId ? { stripePriceId: priceId } : {}),
  };
}

/** SPEC §4 Sign-up: with a price id on to checkout, the query kept and stripe_email added. */
export function afterSignupPath(search: string, email: string): string {
  const query = new URLSearchParams(search);
  if (!query.get('stripe_price_id')) return '/signup/success';
  query.set('stripe_email', email);
  return `/signup/checkout?${query}`;
}
