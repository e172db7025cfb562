import { describe, expect, it } from 'vitest';
import { MINUTE, paperFixture } from './paper.fixture.ts';

describe('paper broker: the account view and reset', () => {
  it("shows balances, positions at today's price, open orders and fills, newest first", async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10 }, 'first');
    await paper.place({ symbol: 'MSFT', type: 'limit', limit_price: 390, quantity: 2 }, 'resting');
    paper.prices.set('AAPL', 110);
    paper.advance(MINUTE);
    await paper.place({ action: 'sell', quantity: 4 }, 'second');
    const view = await paper.view();
    expect(view).toMatchObject({
      id: paper.accountId,
      startingCash: 100_000,
      cash: 100_000 - 1000 + 440,
      equity: 100_000 - 1000 + 440 + 660,
      buyingPower: 100_000 - 1000 + 440 - 780,
      positions: [{ symbol: 'AAPL', quantity: 6, averagePrice: 100, price: 110, marketValue: 660, unrealizedPnl: 60 }],
      openOrders: [{ clientOrderId: 'resting', symbol: 'MSFT', type: 'limit', limitPrice: 390, quantity: 2 }],
      openOrderCount: 1,
      fills: [
        { clientOrderId: 'second', side: 'sell', quantity: 4, price: 110 },
        { clientOrderId: 'first', side: 'buy', quantity: 10, price: 100 },
      ],
    });
  });

  it('shows the average price of a coin quoted in billionths with the digits its fills have', async () => {
    const paper = await paperFixture();
    paper.prices.set('PEPEUSD', 0.000012346);
    await paper.place({ symbol: 'PEPE/USD', class: 'crypto', quantity: 100_000_000 });
    paper.prices.set('PEPEUSD', 0.000012399);
    await paper.place({ symbol: 'PEPE/USD', class: 'crypto', quantity: 100_000_000 });
    // 0.000012 (6 decimals) put the average below both fills: a gain of 79.80 at 0.000012399, not 5.30.
    const position = { symbol: 'PEPE/USD', quantity: 200_000_000, averagePrice: 0.0000123725 };
    expect((await paper.view()).positions).toMatchObject([{ ...position, price: 0.000012399, unrealizedPnl: 5.3 }]);
    expect((await paper.holdings()).positions).toMatchObject([position]);
  });

  it('shows fills of resting orders the market reached since the last call', async () => {
    const paper = await paperFixture();
    await paper.place({ symbol: 'MSFT', type: 'limit', limit_price: 390, quantity: 2 }, 'resting');
    paper.prices.set('MSFT', 380);
    paper.advance(MINUTE);
    const view = await paper.view();
    expect(view.openOrders).toEqual([]);
    expect(view.fills).toMatchObject([{ clientOrderId: 'resting', price: 390 }]);
    expect(view.positions).toMatchObject([{ symbol: 'MSFT', quantity: 2 }]);
  });

  it('fills what the market reached before a reset, whether or not the account was looked at meanwhile', async () => {
    // Reset 5 minutes on, or at the very minute the market reached the order (its fill is history all the same).
    for (const [looked, later] of [
      [false, 4],
      [true, 4],
      [false, 0],
    ] as const) {
      const paper = await paperFixture();
      await paper.place({ type: 'limit', limit_price: 95, quantity: 10 }, 'limit');
      paper.prices.set('AAPL', 94);
      paper.advance(MINUTE);
      if (looked) await paper.view();
      paper.advance(later * MINUTE);
      const reset = await paper.broker.resetAccount(paper.ctx, paper.session, paper.accountId);
      expect(reset).toMatchObject({ cash: 100_000, positions: [], openOrders: [], fills: [] });
      // Not looked at, it was 'Canceled: the account was reset', its signal too: a fill undone by when a screen was opened.
      expect(await paper.getOrder('limit')).toMatchObject({ status: 'filled', price: 95 });
    }
  });

  it('resets to the starting cash: open orders canceled, positions and fills gone, ids never reused', async () => {
    const paper = await paperFixture({ startingCash: 5000 });
    await paper.place({ quantity: 10, extra: { price: '120' } }, 'bought');
    await paper.place({ symbol: 'MSFT', type: 'limit', limit_price: 300, quantity: 1 }, 'resting');
    paper.advance(MINUTE);
    const reset = await paper.broker.resetAccount(paper.ctx, paper.session, paper.accountId);
    expect(reset).toMatchObject({
      cash: 5000,
      equity: 5000,
      buyingPower: 5000,
      positions: [],
      openOrders: [],
      fills: [],
    });
    expect(reset.resetAt).toBe(paper.now());
    expect(await paper.getOrder('resting')).toMatchObject({
      status: 'canceled',
      status_description: 'Canceled: the account was reset',
    });
    // The signal's price anchor is gone with the rest: AAPL fills at the market again.
    expect(await paper.place({ quantity: 1 }, 'after')).toMatchObject({ id: 'PA-TEST1-3', price: 100 });
    expect(await paper.place({ quantity: 99 }, 'bought')).toMatchObject({ id: 'PA-TEST1-1' });
  });
});
