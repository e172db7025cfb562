// lastPrice against the MetaApi fake: the bid/ask midpoint of Read symbol price, for the server's
// own name of the symbol (as orders use it); a symbol the server lacks is refused, never guessed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerSession } from '../../core/broker.ts';
import { brokerFailure } from '../../core/expect-failure.ts';
import { callsSince, DEMO, DEMO_ID, type MetaApiWorld, startWorld } from './test-support.ts';

let world: MetaApiWorld;
let session: BrokerSession;
let accountId: string;
beforeAll(async () => {
  world = await startWorld();
  session = await world.broker.connect(world.ctx, { credentials: DEMO });
  accountId = session.accounts[0]?.id ?? '';
});
afterAll(() => world.close());

const lastPrice = (symbol: string, on = accountId) => world.broker.lastPrice(world.ctx, session, on, symbol, 'forex');

describe('MetaTrader: lastPrice', () => {
  it('reads the current price of the server’s symbol name and answers the bid/ask midpoint', async () => {
    const from = world.fake.requests.length;
    // The fake's EURUSD: bid 1.085, ask 1.0852; AAPL is AAPL.NAS on ICMarketsSC-Demo.
    expect(await lastPrice('EUR/USD')).toBeCloseTo(1.0851, 9);
    expect(await lastPrice('aapl')).toBeCloseTo(190.025, 9);
    expect(callsSince(world.fake, from).filter((call) => call.endsWith('/current-price'))).toEqual([
      `GET /users/current/accounts/${DEMO_ID}/symbols/EURUSD/current-price`,
      `GET /users/current/accounts/${DEMO_ID}/symbols/AAPL.NAS/current-price`,
    ]);
  });

  it('refuses a symbol the server lacks before asking, and an account outside the connection', async () => {
    const from = world.fake.requests.length;
    const unknown = await brokerFailure(lastPrice('NZDCAD'));
    expect([unknown.kind, unknown.message]).toEqual([
      'InvalidOrder',
      'MetaTrader: Symbol not found: NZDCAD (not on ICMarketsSC-Demo)',
    ]);
    expect(callsSince(world.fake, from).some((call) => call.endsWith('/current-price'))).toBe(false);
    expect((await brokerFailure(lastPrice('EURUSD', 'not-this-one'))).kind).toBe('InvalidOrder');
  });

  it('the fake answers MetaApi’s 404 for a symbol the server does not define, 401 without a known token', async () => {
    const url = `${world.fake.url}/users/current/accounts/${DEMO_ID}/symbols`;
    const headers = { 'auth-token': world.fake.operatorToken };
    const missing = await fetch(`${url}/NZDCAD/current-price`, { headers });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'NotFoundError' });
    expect((await fetch(`${url}/EURUSD/current-price`, { headers: { 'auth-token': 'nope' } })).status).toBe(401);
  });
});
