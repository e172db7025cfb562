// What a Checkout says is bought (SPEC §3 Payment session description), for one or several.
import { describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE } from '../../db/schema/index.ts';
import { type CatalogProduct, describeProduct } from './catalog.ts';

const product = (changes: Partial<CatalogProduct>): CatalogProduct => ({
  stripePriceId: 'price_test',
  name: 'Pro plan',
  description: null,
  credits: 300,
  price: 2900,
  currency: 'usd',
  amounts: { usd: 2900 },
  taxBehavior: null,
  type: ACCOUNT_TYPE.BASE,
  interval: null,
  professional: false,
  ...changes,
});

describe('describeProduct', () => {
  it('names one of a product with its credits', () => {
    expect(describeProduct(product({ type: ACCOUNT_TYPE.RECURRING, interval: 'month' }))).toBe(
      'Pro plan: 300 signal credits per month',
    );
    expect(describeProduct(product({ name: '500 signal credits', credits: 500 }))).toBe('500 signal credits');
  });

  it('says what each of several brings and what they bring together', () => {
    expect(describeProduct(product({}), 2)).toBe('2 × Pro plan (300 signal credits each): 600 signal credits');
    expect(describeProduct(product({ name: '500 signal credits', credits: 500 }), 3)).toBe(
      '3 × 500 signal credits: 1500 signal credits',
    );
    expect(describeProduct(product({ type: ACCOUNT_TYPE.RECURRING, interval: 'month' }), 2)).toBe(
      '2 × Pro plan (300 signal credits each): 600 signal credits per month',
    );
  });

  it('names professional status alone without credits', () => {
    expect(describeProduct(product({ name: 'Professional status', credits: 0, professional: true }))).toBe(
      'Professional status',
    );
  });

  it('does not take a name with a longer number in it for the credits', () => {
    expect(describeProduct(product({ name: 'Desk 1000', credits: 100 }))).toBe('Desk 1000: 100 signal credits');
  });
});
