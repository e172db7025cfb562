// The documentation's six examples (SPEC §2) as Webull's docs screen shows them: all six are
// available; the literal ones become the orders Webull takes (a bracket of three orders, an iron
// condor as one strategy sold for its credit).
import { exampleBody, isExampleAvailable, normalizeOrderOrThrow, ORDER_EXAMPLES } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { webullDescriptor } from './descriptor.ts';
import { toWebullPlacement } from './mapper.ts';

const provider = toProvider(webullDescriptor);

describe('documentation examples for Webull', () => {
  it('offers all six', () => {
    expect(ORDER_EXAMPLES.filter((example) => !isExampleAvailable(example, provider)).map((e) => e.id)).toEqual([]);
  });

  it.each([
    ['limit-order', 'US_EQUITY', [{ order_type: 'LIMIT', limit_price: '188', time_in_force: 'GTC' }]],
    [
      'bracket-order',
      'US_EQUITY',
      [{ combo_type: 'MASTER' }, { combo_type: 'STOP_PROFIT' }, { combo_type: 'STOP_LOSS' }],
    ],
    ['iron-condor', 'US_OPTION', [{ option_strategy: 'IRON_CONDOR', side: 'SELL', limit_price: '1.25' }]],
    ['math-expressions', 'US_EQUITY', [{ quantity: '6', limit_price: '147.25' }]],
  ])('%s becomes a %s placement', (id, category, orders) => {
    const example = ORDER_EXAMPLES.find((item) => item.id === id);
    if (!example) throw new Error(`no example ${id}`);
    const order = normalizeOrderOrThrow(exampleBody(example, provider), { provider });
    const placement = toWebullPlacement(order, 'DEMOACCT0001', 'sigExample');
    expect(placement.category).toBe(category);
    expect(placement.body.new_orders).toHaveLength(orders.length);
    for (const [index, fields] of orders.entries()) expect(placement.body.new_orders[index]).toMatchObject(fields);
  });
});
