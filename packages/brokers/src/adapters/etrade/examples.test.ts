// The documentation's six examples (SPEC §2) as E*TRADE's docs screen shows them: the bracket is
// not offered (E*TRADE documents no bracket requests), the other five are, and each whose values
// are literal becomes the preview E*TRADE takes.
import {
  exampleBody,
  exampleUnavailableMessage,
  isExampleAvailable,
  normalizeOrderOrThrow,
  ORDER_EXAMPLES,
} from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { etradeDescriptor } from './descriptor.ts';
import { toEtradeOrder } from './mapper.ts';

const provider = toProvider(etradeDescriptor);

describe('documentation examples for E*TRADE', () => {
  it('offers five; the bracket is not available for E*TRADE', () => {
    expect(ORDER_EXAMPLES.filter((example) => !isExampleAvailable(example, provider)).map((e) => e.id)).toEqual([
      'bracket-order',
    ]);
    expect(exampleUnavailableMessage(provider)).toBe('This type of order is not available for E*TRADE');
  });

  it.each([
    ['limit-order', 'EQ', { priceType: 'LIMIT', orderTerm: 'GOOD_UNTIL_CANCEL', limitPrice: 175.25 }, 1],
    ['iron-condor', 'IRON_CONDOR', { priceType: 'NET_CREDIT', limitPrice: 1.25 }, 4],
    ['math-expressions', 'EQ', { priceType: 'LIMIT', limitPrice: 147.25 }, 1],
  ])('%s becomes a %s preview', (id, orderType, fields, legs) => {
    const example = ORDER_EXAMPLES.find((item) => item.id === id);
    if (!example) throw new Error(`no example ${id}`);
    const order = normalizeOrderOrThrow(exampleBody(example, provider), {
      provider,
      now: () => Date.parse('2026-06-09T14:31:00Z'),
    });
    const request = toEtradeOrder(order, 'sigexample1');
    expect(request.orderType).toBe(orderType);
    expect(request.Order[0]).toMatchObject(fields);
    expect(request.Order[0].Instrument).toHaveLength(legs);
  });
});
