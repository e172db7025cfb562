// The documentation's six examples (SPEC §2) as tastytrade's docs screen shows them: each is
// available, and each one whose values are literal becomes the request tastytrade takes.
import { exampleBody, isExampleAvailable, normalizeOrderOrThrow, ORDER_EXAMPLES } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { orderRequest } from './account-orders.ts';
import { tastytradeDescriptor } from './descriptor.ts';

const provider = toProvider(tastytradeDescriptor);

describe('documentation examples for tastytrade', () => {
  it('offers all six', () => {
    expect(ORDER_EXAMPLES.filter((example) => !isExampleAvailable(example, provider)).map((e) => e.id)).toEqual([]);
  });

  it.each([
    [
      'limit-order',
      '/orders',
      { 'order-type': 'Limit', price: '175.25', 'price-effect': 'Debit', 'time-in-force': 'GTC' },
    ],
    ['bracket-order', '/complex-orders', { type: 'OTOCO' }],
    ['iron-condor', '/orders', { 'order-type': 'Limit', price: '1.25', 'price-effect': 'Credit' }],
    ['math-expressions', '/orders', { 'order-type': 'Limit', price: '147.25' }],
  ])('%s becomes a %s request', (id, path, fields) => {
    const example = ORDER_EXAMPLES.find((item) => item.id === id);
    if (!example) throw new Error(`no example ${id}`);
    const order = normalizeOrderOrThrow(exampleBody(example, provider), {
      provider,
      now: () => Date.parse('2026-06-09T14:31:00Z'),
    });
    const request = orderRequest(order, 'sig-example');
    expect(request.path).toBe(path);
    expect(request.json).toMatchObject(fields);
  });
});
