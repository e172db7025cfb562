// The documentation's six examples (SPEC §2) as Robinhood's docs screen shows them: brackets and
// multi-leg are not available; the limit order becomes Robinhood's limit body; a stock is refused
// with the reason (an AAPL ticker is refused the same way by the adapter: adapter.test.ts).
import { exampleBody, isExampleAvailable, normalizeOrderOrThrow, ORDER_EXAMPLES } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { robinhoodDescriptor } from './descriptor.ts';
import { toRobinhoodOrder } from './mapper.ts';

const provider = toProvider(robinhoodDescriptor);
const example = (id: string) => {
  const found = ORDER_EXAMPLES.find((item) => item.id === id);
  if (!found) throw new Error(`no example ${id}`);
  return found;
};
const BTC = {
  symbol: 'BTC-USD',
  assetCode: 'BTC',
  assetIncrement: '0.00000001',
  quoteIncrement: '0.01',
  status: 'tradable',
};

describe('documentation examples for Robinhood', () => {
  it('offers the limit order and the variable examples, not brackets or the iron condor', () => {
    const unavailable = ORDER_EXAMPLES.filter((item) => !isExampleAvailable(item, provider)).map((item) => item.id);
    expect(unavailable).toEqual(['bracket-order', 'iron-condor']);
  });

  it('turns the limit order example into a gtc limit buy of BTC-USD', () => {
    const order = normalizeOrderOrThrow(exampleBody(example('limit-order'), provider), { provider });
    expect(toRobinhoodOrder(order, 'c6a1f8c4-0b57-4d6e-9a34-6f1c2b7e9d10')(BTC)).toEqual({
      client_order_id: 'c6a1f8c4-0b57-4d6e-9a34-6f1c2b7e9d10',
      side: 'buy',
      type: 'limit',
      symbol: 'BTC-USD',
      limit_order_config: { asset_quantity: '1', limit_price: '61000.00', time_in_force: 'gtc' },
    });
  });

  it('refuses the stock examples with the reason Robinhood gives none', () => {
    expect(() =>
      normalizeOrderOrThrow({ ...exampleBody(example('limit-order')), class: 'stock' }, { provider }),
    ).toThrow(/Robinhood has no public order API for stocks and options/);
  });
});
