// Contract: a close of part (percent_of_position) follows the symbol's lot rule from MetaApi's
// symbol specification (MetatraderSymbolSpecification: minVolume, volumeStep; GET
// …/symbols/:symbol/specification), not a fixed 0.01 lot: the fake's AAPL (AAPL.NAS) trades in whole lots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerSession } from '../../core/broker.ts';
import { brokerFailure } from '../../core/expect-failure.ts';
import { DEMO, DEMO_ID, input, type MetaApiWorld, startWorld, tradesSince } from './test-support.ts';

let world: MetaApiWorld;
let session: BrokerSession;
beforeAll(async () => {
  world = await startWorld();
  session = await world.broker.connect(world.ctx, { credentials: DEMO });
});
afterAll(() => world.close());

const place = (signal: Record<string, unknown>) =>
  world.broker.placeOrder(world.ctx, session, input(session, { symbol: 'AAPL', ...signal }));
const closing = (percent: number) =>
  place({ action: 'close', quantity: percent, quantity_type: 'percent_of_position' });

describe('a close of part in the symbol’s lot steps', () => {
  it('closes whole lot steps of a 1-lot-step symbol; a part under its 1 lot minimum is refused, nothing sent', async () => {
    const opened = await place({ action: 'buy', quantity: 3 });
    let before = world.fake.trades().length;
    const answer = await closing(50);
    expect(tradesSince(world.fake, before)).toEqual([
      { actionType: 'POSITION_PARTIAL', positionId: opened.id, volume: 1 },
    ]);
    expect(answer.status).toBe('filled');
    expect(world.fake.terminals.get(DEMO_ID)?.positions.get(opened.id)?.volume).toBe(2);
    before = world.fake.trades().length;
    const error = await brokerFailure(closing(20));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'MetaTrader: 20 % of the AAPL.NAS position is less than 1 lot',
    });
    expect(world.fake.trades().length).toBe(before);
  });
});
