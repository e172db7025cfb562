// Prices as Schwab receives them: on the US tick, never past the trader's side.
import { describe, expect, it } from 'vitest';
import { toOrder } from './fixtures/signals.ts';
import { toSchwabOrder } from './mapper.ts';

const build = (signal: Record<string, unknown>) => toSchwabOrder(toOrder(signal));

describe('prices', () => {
  it('go on the tick, never past the trader’s side: a buy’s down, a sell’s up, stops alike', () => {
    // To the nearest 0.0001, a buy at most 100.006 went out at 100.006, off the cent tick.
    expect(build({ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 100.006 })).toMatchObject({
      price: '100',
    });
    // A sell's stop of 100.004 fell under its limit of 100.001 to the nearest: both go up.
    expect(
      build({
        symbol: 'AAPL',
        action: 'sell',
        quantity: 1,
        type: 'stop_limit',
        stop_price: 100.004,
        limit_price: 100.001,
      }),
    ).toMatchObject({ stopPrice: '100.01', price: '100.01' });
    expect(build({ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 0.123456 })).toMatchObject({
      price: '0.1234',
    });
  });

  it('a bracket’s exits round on their own side: a long’s take profit and stop loss go up', () => {
    const bracket = build({
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      type: 'limit',
      limit_price: 185.5,
      take_profit_price: 190.004,
      stop_loss_price: 180.004,
    });
    expect(bracket.childOrderStrategies?.[0]?.childOrderStrategies).toMatchObject([
      { orderType: 'LIMIT', price: '190.01' },
      { orderType: 'STOP', stopPrice: '180.01' },
    ]);
  });
});
