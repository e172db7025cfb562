import { describe, expect, it } from 'vitest';
import { isStripePriceId, LEGAL_QUESTIONS, paymentPeriodLabel, professionalApplicationSchema } from './billing.ts';

describe('billing', () => {
  it('accepts only price ids starting with price_ (SPEC §9)', () => {
    expect(isStripePriceId('price_1')).toBe(true);
    expect(isStripePriceId('plan_1')).toBe(false);
    expect(isStripePriceId(null)).toBe(false);
  });

  it("labels a plan's payment with its interval and a one-time payment with nothing", () => {
    expect(paymentPeriodLabel('month')).toBe('per month');
    expect(paymentPeriodLabel(null)).toBeNull();
  });

  it("requires every business field and a yes or no to legal.a–l ('Required')", () => {
    const legal = Object.fromEntries(Object.keys(LEGAL_QUESTIONS).map((k) => [k, 'yes']));
    const full = {
      businessName: 'A',
      businessWebsite: 'a.example',
      businessAddress: 'B',
      businessDescription: 'C',
      businessContact: 'D',
      legal,
    };
    expect(professionalApplicationSchema.safeParse(full).success).toBe(true);
    expect(Object.keys(LEGAL_QUESTIONS)).toEqual('abcdefghijkl'.split(''));
    const missing = professionalApplicationSchema.safeParse({
      ...full,
      businessAddress: ' ',
      legal: { ...legal, k: '' },
    });
    expect(missing.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['businessAddress', 'Required'],
      ['legal.k', 'Required'],
    ]);
  });
});
