// The documentation's six examples (SPEC §2) as Zerodha's docs screen shows them: a limit order
// and math expressions become Kite orders; Kite has no take-profit leg and no multi-leg orders,
// so the bracket and iron condor examples carry the "not available" warning.
import {
  exampleBody,
  exampleUnavailableMessage,
  isExampleAvailable,
  normalizeOrderOrThrow,
  ORDER_EXAMPLES,
} from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { zerodhaDescriptor } from './descriptor.ts';
import { toKiteOrder } from './mapper.ts';

const provider = toProvider(zerodhaDescriptor);
const example = (id: string) => {
  const found = ORDER_EXAMPLES.find((item) => item.id === id);
  if (!found) throw new Error(`no example ${id}`);
  return found;
};

describe('documentation examples for Zerodha', () => {
  it('offers four of six, and says why not the others', () => {
    const unavailable = ORDER_EXAMPLES.filter((item) => !isExampleAvailable(item, provider)).map((item) => item.id);
    expect(unavailable).toEqual(['bracket-order', 'iron-condor']);
    expect(exampleUnavailableMessage(provider)).toBe('This type of order is not available for Zerodha');
  });

  it.each([
    [
      'limit-order',
      '/orders/regular',
      { tradingsymbol: 'INFY', exchange: 'NSE', order_type: 'LIMIT', price: '1520.50', validity: 'DAY' },
    ],
    ['math-expressions', '/orders/regular', { tradingsymbol: 'AAPL', exchange: 'NSE', quantity: '6', price: '147.25' }],
  ])('%s becomes a Kite order', (id, path, fields) => {
    const order = normalizeOrderOrThrow(exampleBody(example(id), provider), { provider });
    const request = toKiteOrder(order, 'sigExample');
    expect(`/orders/${request.variety}`).toBe(path);
    expect(request.form).toMatchObject({ ...fields, product: 'CNC', transaction_type: 'BUY', tag: 'sigExample' });
  });
});
