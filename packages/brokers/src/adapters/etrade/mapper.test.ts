// Prices as E*TRADE receives them: on the US tick, never past the trader's side.
import { describe, expect, it } from 'vitest';
import { toEtradeOrder } from './mapper.ts';
import { toOrder } from './test-support.ts';

const detail = (signal: Record<string, unknown>) => toEtradeOrder(toOrder(signal), 'c1').Order[0];

describe('prices', () => {
  it('go on the tick, never past the trader’s side: a buy’s down, a sell’s up, stops alike', () => {
    // To the nearest 0.0001, a buy at most 100.006 went out at 100.006, off the cent tick.
    expect(detail({ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 100.006 })).toMatchObject({
      limitPrice: 100,
    });
    // A sell's stop of 100.004 fell under its limit of 100.001 to the nearest: both go up.
    expect(
      detail({
        symbol: 'AAPL',
        action: 'sell',
        quantity: 1,
        type: 'stop_limit',
        stop_price: 100.004,
        limit_price: 100.001,
      }),
    ).toMatchObject({ stopPrice: 100.01, limitPrice: 100.01, stopLimitPrice: 100.01 });
    expect(detail({ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 0.123456 })).toMatchObject({
      limitPrice: 0.1234,
    });
  });
});
