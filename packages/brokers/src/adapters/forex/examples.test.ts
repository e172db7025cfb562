// The documentation's six examples (SPEC §2) as FOREX.com's docs screen shows them: no options, so
// no iron condor; the limit and bracket examples become FOREX.com's stop/limit order with its
// IfDone exits on EUR/USD, for a micro lot; stocks are refused with the classes FOREX.com trades.
import { exampleBody, isExampleAvailable, normalizeOrderOrThrow, ORDER_EXAMPLES } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { forexDescriptor } from './descriptor.ts';
import { toForexRequest } from './mapper.ts';

const provider = toProvider(forexDescriptor);
const example = (id: string) => {
  const found = ORDER_EXAMPLES.find((item) => item.id === id);
  if (!found) throw new Error(`no example ${id}`);
  return found;
};
const EURUSD = { marketId: 401484347, name: 'EUR/USD', decimals: 5 };
const ACCOUNT = { tradingAccountId: 400234567, clientAccountId: 400123456, kind: 'cfd', currency: 'USD' } as const;
const QUOTE = { bid: 1.08495, offer: 1.08512 };
const request = (id: string) =>
  toForexRequest(normalizeOrderOrThrow(exampleBody(example(id), provider), { provider }))(EURUSD, ACCOUNT, QUOTE);

describe('documentation examples for FOREX.com', () => {
  it('offers every example but the iron condor', () => {
    const unavailable = ORDER_EXAMPLES.filter((item) => !isExampleAvailable(item, provider)).map((item) => item.id);
    expect(unavailable).toEqual(['iron-condor']);
  });

  it('turns the limit order example into a gtc limit buy of EUR/USD below the market', () => {
    expect(request('limit-order')).toMatchObject({
      path: '/order/newstoplimitorder',
      body: {
        MarketId: 401484347,
        Direction: 'buy',
        // FOREX.com's smallest amount (a micro lot): the example is not refused as below the minimum.
        Quantity: 1000,
        TriggerPrice: 1.085,
        Applicability: 'gtc',
        IfDone: [],
      },
    });
  });

  it('turns the bracket example into the entry with a stop and a limit exit on either side of it', () => {
    expect(request('bracket-order').body.IfDone).toEqual([
      {
        Stop: { TriggerPrice: 1.07, Direction: 'sell', Quantity: 1000, Applicability: 'gtc' },
        Limit: { TriggerPrice: 1.1, Direction: 'sell', Quantity: 1000, Applicability: 'gtc' },
      },
    ]);
  });

  it('refuses a stock with the classes FOREX.com trades', () => {
    expect(() =>
      normalizeOrderOrThrow({ ...exampleBody(example('limit-order')), class: 'stock' }, { provider }),
    ).toThrow('FOREX.com: class: stock is not supported; use forex, commodity');
  });
});
