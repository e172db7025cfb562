// Contract: an MT5 stop-limit places a limit order when its stop triggers (MQL5 ENUM_ORDER_TYPE:
// "upon reaching the order price, a pending Buy Limit order is placed at the StopLimit price";
// WIRE.md §4: the stop goes in `openPrice`, the limit in `stopLimitPrice`). A buy limit rests
// below the price that triggered it and a sell limit above: a buy stop-limit whose limit is above
// its stop (a sell's below) cannot be placed as meant, and is refused before anything is sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerSession } from '../../core/broker.ts';
import { brokerFailure } from '../../core/expect-failure.ts';
import { DEMO, input, type MetaApiWorld, startWorld, tradesSince } from './test-support.ts';

let world: MetaApiWorld;
let session: BrokerSession;
beforeAll(async () => {
  world = await startWorld();
  session = await world.broker.connect(world.ctx, { credentials: DEMO });
});
afterAll(() => world.close());

const place = (signal: Record<string, unknown>) =>
  world.broker.placeOrder(world.ctx, session, input(session, { symbol: 'EURUSD', quantity: 0.01, ...signal }));

describe('MT5 stop-limit prices', () => {
  it.each([
    [
      'buy',
      1.1,
      1.101,
      'a buy stop_limit places a buy limit when its stop triggers: limit_price must be at or below stop_price',
    ],
    [
      'sell',
      1.07,
      1.069,
      'a sell stop_limit places a sell limit when its stop triggers: limit_price must be at or above stop_price',
    ],
  ])('a %s stop-limit with its limit past its stop is refused, nothing sent', async (action, stop, limit, message) => {
    const before = world.fake.trades().length;
    const error = await brokerFailure(place({ action, type: 'stop_limit', stop_price: stop, limit_price: limit }));
    expect(error).toMatchObject({ kind: 'InvalidOrder', message: `MetaTrader: ${message}` });
    expect(world.fake.trades().length).toBe(before);
  });

  it.each([
    ['buy', 1.1, 1.099, 'ORDER_TYPE_BUY_STOP_LIMIT'],
    ['buy', 1.1, 1.1, 'ORDER_TYPE_BUY_STOP_LIMIT'],
    ['sell', 1.07, 1.071, 'ORDER_TYPE_SELL_STOP_LIMIT'],
  ])('a %s stop-limit with its limit on the right side is sent as given', async (action, stop, limit, actionType) => {
    const before = world.fake.trades().length;
    const answer = await place({ action, type: 'stop_limit', stop_price: stop, limit_price: limit });
    expect(tradesSince(world.fake, before)).toMatchObject([{ actionType, openPrice: stop, stopLimitPrice: limit }]);
    expect(answer.status).toBe('accepted');
  });
});
