// Contract: Broker.closePosition takes a symbol as the holdings list it (tastytrade's spelling, no
// class given) and closes that instrument, not another read from the same text: a future
// (/ESH7), an option (OCC, padded), a cryptocurrency (BTC/USD) and a share class (BRK/B).
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrokerSession } from '../../core/broker.ts';
import { ACCOUNT, useTastytradeFake } from './fixtures/harness.ts';

const t = useTastytradeFake();
let session: BrokerSession;
beforeAll(async () => {
  session = await t.connect();
});

describe('closePosition by the symbols the holdings show', () => {
  it('closes each instrument with its own instrument-type', async () => {
    await t.place(session, { symbol: 'ESH2027', action: 'buy', quantity: 1 }, 'o-1');
    await t.place(session, { symbol: 'AAPL  270618C00200000', action: 'buy_to_open', quantity: 2 }, 'o-2');
    await t.place(session, { symbol: 'BTC/USD', action: 'buy', quantity: 0.5 }, 'o-3');
    await t.place(session, { symbol: 'BRK.B', action: 'buy', quantity: 1 }, 'o-4');
    const held = (await t.broker.getHoldings(t.ctx, session, ACCOUNT)).positions.map((p) => p.symbol);
    expect(held).toEqual(['/ESH7', 'AAPL  270618C00200000', 'BTC/USD', 'BRK/B']);
    t.fake.requests.length = 0;
    for (const symbol of held) await t.broker.closePosition(t.ctx, session, ACCOUNT, symbol);
    const legs = t.fake.submissions().map((r) => (JSON.parse(r.body) as { legs: unknown[] }).legs[0]);
    expect(legs).toEqual([
      { 'instrument-type': 'Future', symbol: '/ESH7', quantity: 1, action: 'Sell' },
      { 'instrument-type': 'Equity Option', symbol: 'AAPL  270618C00200000', quantity: 2, action: 'Sell to Close' },
      { 'instrument-type': 'Cryptocurrency', symbol: 'BTC/USD', quantity: 0.5, action: 'Sell to Close' },
      { 'instrument-type': 'Equity', symbol: 'BRK/B', quantity: 1, action: 'Sell to Close' },
    ]);
  });
});
