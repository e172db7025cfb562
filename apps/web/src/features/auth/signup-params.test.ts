import { describe, expect, it } from 'vitest';
import { afterSignupPath, signupParams } from './signup-params.ts';

describe('sign-up query (SPEC §2, §4)', () => {
  it('joins repeated codes with commas and reads the price id and referrer', () => {
    expect(signupParams('?code=A&code=B&stripe_price_id=price_9', 'friend42')).toEqual({
      referrerCode: 'friend42',
      promotionCode: 'A,B',
      stripePriceId: 'price_9',
    });
    expect(signupParams('')).toEqual({});
  });

  it('goes to checkout with stripe_email when a price id is given, else to success', () => {
    expect(afterSignupPath('?stripe_price_id=price_9&code=A', 'jo@x.io')).toBe(
      '/signup/checkout?stripe_price_id=price_9&code=A&stripe_email=jo%40x.io',
    );
    expect(afterSignupPath('?code=A', 'jo@x.io')).toBe('/signup/success');
  });
});
