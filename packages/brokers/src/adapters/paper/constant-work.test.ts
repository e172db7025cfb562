// A placement reads what it needs, not every resting order: the orders a store hands out per
// placement are the same with no resting orders and with thousands (bench/ measures the time).
import { describe, expect, it } from 'vitest';
import { MINUTE, paperFixture } from './paper.fixture.ts';
import { createMemoryPaperStore, type PaperStore, type PaperStoreTransaction } from './store.ts';

/** A store counting the orders its transactions return. */
function countingStore(): { store: PaperStore; taken: () => number } {
  const inner = createMemoryPaperStore();
  let orders = 0;
  const count = <T>(value: T): T => {
    orders += Array.isArray(value) ? value.length : value ? 1 : 0;
    return value;
  };
  // Every method delegated by name (a transaction's methods live on its prototype: no spread).
  const wrap = (tx: PaperStoreTransaction): PaperStoreTransaction => ({
    getAccount: () => tx.getAccount(),
    putAccount: (account) => tx.putAccount(account),
    putOrder: (order) => tx.putOrder(order),
    getSymbol: (symbol) => tx.getSymbol(symbol),
    putSymbol: (state) => tx.putSymbol(state),
    listActiveSymbols: () => tx.listActiveSymbols(),
    getOrder: async (id) => count(await tx.getOrder(id)),
    findOrderByClientId: async (id) => count(await tx.findOrderByClientId(id)),
    listOpenOrders: async (symbol) => count(await tx.listOpenOrders(symbol)),
    listReachedOrders: async (symbol, reach) => count(await tx.listReachedOrders(symbol, reach)),
    listFills: async (since, limit) => count(await tx.listFills(since, limit)),
  });
  return {
    store: { transaction: (id, work, hint) => inner.transaction(id, (tx) => work(wrap(tx)), hint) },
    taken: () => orders,
  };
}

async function ordersReadPerPlacement(resting: number): Promise<number[]> {
  const counting = countingStore();
  const paper = await paperFixture({ store: counting.store, startingCash: 1e9 });
  for (let i = 0; i < resting; i++) {
    const symbol = ['AAPL', 'MSFT', 'NVDA'][i % 3];
    await paper.place({ symbol, type: 'limit', limit_price: 1 + (i % 50) / 10, quantity: 1 });
  }
  const reads: number[] = [];
  for (let i = 0; i < 6; i++) {
    // Half the placements cross a minute boundary, so their sweep samples the market.
    if (i % 2 === 0) paper.advance(MINUTE);
    const before = counting.taken();
    await paper.place({ quantity: 1 });
    reads.push(counting.taken() - before);
  }
  return reads;
}

describe('paper broker: work per placement', () => {
  it('reads the same orders with 0 and with 3,000 resting orders', async () => {
    const none = await ordersReadPerPlacement(0);
    expect(await ordersReadPerPlacement(3000)).toEqual(none);
    expect(Math.max(...none)).toBeLessThanOrEqual(1);
  });

  it('reads the resting orders the market reached, and those only', async () => {
    const counting = countingStore();
    const paper = await paperFixture({ store: counting.store });
    for (let limit = 1; limit <= 100; limit++) await paper.place({ type: 'limit', limit_price: limit, quantity: 1 });
    paper.prices.set('AAPL', 95.5);
    paper.advance(MINUTE);
    const before = counting.taken();
    await paper.place({ symbol: 'AAPL', quantity: 1 });
    // The limit at 100 filled when placed; those at 96 to 99 now, then the market buy.
    expect(counting.taken() - before).toBe(4);
    expect((await paper.holdings()).positions).toMatchObject([{ quantity: 6 }]);
  });

  it('reads, for an option’s sale, the orders where combos rest on its underlying, not every option order', async () => {
    const counting = countingStore();
    const paper = await paperFixture({ store: counting.store, startingCash: 1e7 });
    paper.prices.set('SPY', 500);
    const call = (strike: number) => `SPY   250620C00${strike}000`;
    await paper.place({ symbol: call(500), class: 'option', action: 'buy_to_open', quantity: 5 });
    for (let strike = 400; strike < 450; strike++)
      await paper.place({
        symbol: call(strike),
        class: 'option',
        action: 'buy_to_open',
        type: 'limit',
        limit_price: 0.01,
      });
    const legs = [
      { symbol: call(510), class: 'option' as const, action: 'buy_to_open' as const, quantity: 1 },
      { symbol: call(500), class: 'option' as const, action: 'sell_to_close' as const, quantity: 1 },
    ];
    await paper.place({ ...legs[0], type: 'limit', limit_price: -50, group: 'combo', legs });
    const before = counting.taken();
    await paper.place({ symbol: call(500), class: 'option', action: 'sell_to_close', type: 'limit', limit_price: 90 });
    // The roll (where it rests, under the 510 call), not the 50 buy limits.
    expect(counting.taken() - before).toBe(1);
  });
});
