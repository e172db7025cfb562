// The documentation's six examples (SPEC §2) as cTrader's docs screen shows them: all but the
// option combo are available, and each literal one becomes the ProtoOANewOrderReq cTrader takes.
import {
  exampleBody,
  exampleUnavailableMessage,
  isExampleAvailable,
  normalizeOrderOrThrow,
  ORDER_EXAMPLES,
} from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { ctraderDescriptor } from './descriptor.ts';
import { toNewOrder } from './mapper.ts';

const provider = toProvider(ctraderDescriptor);
const gold = { symbolId: 41, name: 'XAUUSD', digits: 2, minVolume: 100, stepVolume: 100, maxVolume: 10_000_000 };
const apple = { symbolId: 7, name: 'AAPL', digits: 2, minVolume: 100, stepVolume: 100 };

describe('documentation examples for cTrader', () => {
  it('offers all but the option combo, which says it is not available', () => {
    const unavailable = ORDER_EXAMPLES.filter((example) => !isExampleAvailable(example, provider)).map((e) => e.id);
    expect(unavailable).toEqual(['iron-condor']);
    expect(exampleUnavailableMessage(provider)).toBe('This type of order is not available for cTrader');
  });

  it.each([
    [
      'limit-order',
      gold,
      { symbolId: 41, orderType: 2, tradeSide: 1, volume: 100, limitPrice: 2650.5, timeInForce: 2 },
    ],
    [
      'bracket-order',
      gold,
      { symbolId: 41, orderType: 2, tradeSide: 1, volume: 100, limitPrice: 2650.5, takeProfit: 2700, stopLoss: 2600 },
    ],
    ['math-expressions', apple, { symbolId: 7, orderType: 2, tradeSide: 1, volume: 600, limitPrice: 147.25 }],
  ])('%s becomes a ProtoOANewOrderReq', (id, symbol, fields) => {
    const example = ORDER_EXAMPLES.find((item) => item.id === id);
    if (!example) throw new Error(`no example ${id}`);
    const order = normalizeOrderOrThrow(exampleBody(example, provider), { provider });
    expect(toNewOrder(order, 'sig-example')(symbol)).toMatchObject({ ...fields, clientOrderId: 'sig-example' });
  });
});
