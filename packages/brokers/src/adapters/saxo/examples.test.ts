// The documentation's six examples (SPEC §2) as Saxo's docs screen shows them: the iron condor is
// not offered (Saxo takes no option combos here), the other five are, and each whose values are
// literal becomes the order Saxo takes.
import {
  exampleBody,
  exampleUnavailableMessage,
  isExampleAvailable,
  normalizeOrderOrThrow,
  ORDER_EXAMPLES,
} from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { saxoDescriptor } from './descriptor.ts';
import { toSaxoOrder } from './mapper.ts';

const provider = toProvider(saxoDescriptor);
const AAPL = { uic: 211, assetType: 'Stock', symbol: 'AAPL:xnas' };

describe('documentation examples for Saxo', () => {
  it('offers five; the iron condor is not available for Saxo', () => {
    expect(ORDER_EXAMPLES.filter((example) => !isExampleAvailable(example, provider)).map((e) => e.id)).toEqual([
      'iron-condor',
    ]);
    expect(exampleUnavailableMessage(provider)).toBe('This type of order is not available for Saxo');
  });

  it.each([
    ['limit-order', { OrderType: 'Limit', OrderPrice: 175.25, OrderDuration: { DurationType: 'GoodTillCancel' } }, 0],
    ['bracket-order', { OrderType: 'Limit', OrderPrice: 175.25 }, 2],
    ['math-expressions', { OrderType: 'Limit', OrderPrice: 147.25, Amount: 6 }, 0],
  ])('%s becomes the order Saxo takes', (id, fields, related) => {
    const example = ORDER_EXAMPLES.find((item) => item.id === id);
    if (!example) throw new Error(`no example ${id}`);
    const order = normalizeOrderOrThrow(exampleBody(example, provider), {
      provider,
      now: () => Date.parse('2026-06-09T14:31:00Z'),
    });
    const body = toSaxoOrder(order, 'sig-example')(AAPL, 'Cf4xZWiYL6W1nMKpygBLLA==');
    expect(body).toMatchObject({ Uic: 211, AssetType: 'Stock', BuySell: 'Buy', ...fields });
    expect(body.Orders ?? []).toHaveLength(related);
  });
});
