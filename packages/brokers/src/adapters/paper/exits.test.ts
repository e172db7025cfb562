import { describe, expect, it } from 'vitest';
import { MINUTE, paperFixture, START } from './paper.fixture.ts';
import type { QuoteSource } from './quotes.ts';

describe('paper simulator: brackets, close and cancel', () => {
  it('places take profit and stop loss when the entry fills; the first to fill cancels the other', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10, take_profit_price: 110, stop_loss_price: 95 }, 'entry');
    const { broker, ctx, session, accountId } = paper;
    paper.prices.set('AAPL', 111);
    paper.advance(MINUTE);
    expect(await paper.holdings()).toMatchObject({ cash: 100_100, positions: [] });
    // The exits are orders 2 and 3: the take profit filled, the stop loss was canceled with it.
    await expect(broker.cancelOrder(ctx, session, { accountId, brokerOrderId: 'PA-TEST1-3' })).rejects.toMatchObject({
      brokerMessage: 'order PA-TEST1-3 is already canceled',
    });
    paper.prices.set('AAPL', 90);
    paper.advance(MINUTE);
    expect((await paper.holdings()).cash).toBe(100_100);
  });

  it('puts the take profit on the tick, never past the trader’s price', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10, take_profit_price: 110.003 });
    await paper.place({ action: 'sell_short', symbol: 'MSFT', quantity: 1, take_profit_price: 380.007 });
    const exits = (await paper.view()).openOrders
      .map(({ symbol, side, limitPrice }) => [symbol, side, limitPrice])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    // A long's exit sells at 110.01 or better, a short's buys back at 380.00 or better.
    expect(exits).toEqual([
      ['AAPL', 'sell', 110.01],
      ['MSFT', 'buy', 380],
    ]);
  });

  it('puts the stop loss on the tick, never past the trader’s price', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10, stop_loss_price: 95.004 });
    await paper.place({ action: 'sell_short', symbol: 'MSFT', quantity: 1, stop_loss_price: 420.006 });
    const exits = (await paper.view()).openOrders
      .map(({ symbol, side, stopPrice }) => [symbol, side, stopPrice])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    // A long's stop sells once the price falls to 95.01 (not 95.00: a loss larger than asked), a
    // short's buys back once it rises to 420.00 (not 420.01), as a placed stop rounds.
    expect(exits).toEqual([
      ['AAPL', 'sell', 95.01],
      ['MSFT', 'buy', 420],
    ]);
  });

  it('executes exits in the order the market reached them', async () => {
    // Up through the take profit at minute 3, down through the stop loss at minute 6.
    const quote: QuoteSource = (_symbol, _cls, at) => {
      const minute = (at - START) / MINUTE;
      return minute < 2 ? 100 : minute < 5 ? 112 : 90;
    };
    const paper = await paperFixture({ quote });
    await paper.place({ quantity: 10, take_profit_price: 110, stop_loss_price: 95 });
    paper.advance(10 * MINUTE); // one sweep over the whole path
    expect(await paper.holdings()).toMatchObject({ cash: 100_100, positions: [] });
  });

  it('fills a take profit the entry already passed at once at the market, not at its limit a minute later', async () => {
    // 100 until minute 2, then 110: a buy stop at 105 fills at 110, over its take profit at 106.
    const quote: QuoteSource = (_symbol, _cls, at) => ((at - START) / MINUTE < 2 ? 100 : 110);
    const paper = await paperFixture({ quote });
    await paper.place({ quantity: 10, type: 'stop', stop_price: 105, take_profit_price: 106, stop_loss_price: 100 });
    paper.advance(5 * MINUTE);
    // Sold at 106, a minute after: 40 less than a broker gives for a marketable limit.
    expect(await paper.holdings()).toMatchObject({ cash: 100_000, positions: [] });
    expect((await paper.view()).fills.map(({ side, price }) => [side, price])).toEqual([
      ['sell', 110],
      ['buy', 110],
    ]);
  });

  it('triggers a stop loss the market is already past when a resting entry fills, not a minute later', async () => {
    // 100, 70 at minute 2 only, then 100: the buy limit at 90 fills at 90 on the way down, the
    // market at 70 is then under its stop loss at 85, back over it a minute later.
    const quote: QuoteSource = (_symbol, _cls, at) => ((at - START) / MINUTE === 2 ? 70 : 100);
    const paper = await paperFixture({ quote });
    await paper.place({ quantity: 10, type: 'limit', limit_price: 90, take_profit_price: 120, stop_loss_price: 85 });
    paper.advance(5 * MINUTE);
    // Held at 100 with a stop loss never triggered, where a broker's stop sold at 70.
    expect(await paper.holdings()).toMatchObject({ cash: 99_800, positions: [] });
    expect((await paper.view()).openOrders).toEqual([]);
    expect((await paper.view()).fills.map(({ side, price, filledAt }) => [side, price, filledAt])).toEqual([
      ['sell', 70, START + 2 * MINUTE],
      ['buy', 90, START + 2 * MINUTE],
    ]);
  });

  it('derives the stop loss from the fill price by percent or distance, and exits a short upwards', async () => {
    const paper = await paperFixture();
    await paper.place({ action: 'sell_short', quantity: 10, stop_loss_price_percent: 5 });
    paper.prices.set('AAPL', 104.9);
    paper.advance(MINUTE);
    expect((await paper.holdings()).positions).toHaveLength(1);
    paper.prices.set('AAPL', 105.2);
    paper.advance(MINUTE);
    expect((await paper.holdings()).positions).toEqual([]);
    await paper.place({ quantity: 1, stop_loss_price_distance: 2 });
    paper.prices.set('AAPL', 103.1);
    paper.advance(MINUTE);
    expect((await paper.holdings()).positions).toEqual([]);
  });

  it('cancels the exits of a bracket whose position another order closed, so they never trade a later position', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10, take_profit_price: 110, stop_loss_price: 95 });
    await paper.place({ action: 'sell', quantity: 10 });
    expect((await paper.view()).openOrders).toEqual([]);
    await paper.place({ quantity: 10 }, 'again');
    paper.prices.set('AAPL', 94);
    paper.advance(MINUTE);
    // The old stop loss did not sell the new position.
    expect(await paper.holdings()).toMatchObject({ cash: 99_000, positions: [{ symbol: 'AAPL', quantity: 10 }] });
  });

  it('cancels the exits of a margined position that a sale turned short', async () => {
    const paper = await paperFixture({ quote: () => 5000 });
    const future = { symbol: 'ESH2025', class: 'future' } as const;
    await paper.place({ ...future, quantity: 1, take_profit_price: 5100, stop_loss_price: 4900 });
    await paper.place({ ...future, action: 'sell', quantity: 2 });
    expect((await paper.view()).openOrders).toEqual([]);
  });

  it('shrinks the exits of a bracket to what a partial sale left, so the stop loss still sells the rest', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10, take_profit_price: 110, stop_loss_price: 95 });
    await paper.place({ action: 'sell', quantity: 4 });
    expect((await paper.view()).openOrders.map(({ type, quantity }) => [type, quantity]).sort()).toEqual([
      ['limit', 6],
      ['stop', 6],
    ]);
    paper.prices.set('AAPL', 94);
    paper.advance(MINUTE);
    // The stop loss sold the 6 left at 94 (before, it tried to sell 10 and was rejected: 6 held).
    expect(await paper.holdings()).toMatchObject({ cash: 100_000 - 1000 + 400 + 564, positions: [] });
  });

  it('never lets an exit of a partly sold margined position open a short', async () => {
    let price = 5000;
    const paper = await paperFixture({ quote: () => price });
    const future = { symbol: 'ESH2025', class: 'future' } as const;
    await paper.place({ ...future, quantity: 2, take_profit_price: 5100, stop_loss_price: 4900 });
    await paper.place({ ...future, action: 'sell', quantity: 1 });
    price = 4800;
    paper.advance(MINUTE);
    // The stop loss sold the one contract held, not the two of the entry.
    expect((await paper.holdings()).positions).toEqual([]);
  });

  it('gives a bracket buy exits only for what it opened, never a stop loss that adds to a short', async () => {
    let price = 5000;
    const paper = await paperFixture({ quote: () => price });
    const future = { symbol: 'ESH2025', class: 'future' } as const;
    await paper.place({ ...future, action: 'sell', quantity: 5 });
    // Buying 2 only reduces the short to 3: nothing long to protect, so no exits.
    expect(await paper.place({ ...future, quantity: 2, take_profit_price: 5100, stop_loss_price: 4900 })).toMatchObject(
      {
        status_description: 'Filled: buy 2 ESH2025 at 5024.5; no take profit or stop loss: it opened no long position',
      },
    );
    expect((await paper.view()).openOrders).toEqual([]);
    price = 4800;
    paper.advance(MINUTE);
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: 'ESH2025', quantity: -3 }]);
    // Buying 5 turns it long 2: the exits sell those 2.
    await paper.place({ ...future, quantity: 5, take_profit_price: 5100, stop_loss_price: 4700 });
    expect((await paper.view()).openOrders.map(({ type, side, quantity }) => [type, side, quantity]).sort()).toEqual([
      ['limit', 'sell', 2],
      ['stop', 'sell', 2],
    ]);
  });

  it('brackets a futures or forex short entered with sell, as a strategy sends it; a stock sale takes none', async () => {
    const paper = await paperFixture();
    paper.prices.set('ES', 5000);
    const entry = { symbol: 'ES1!', class: 'future' as const, action: 'sell' as const, quantity: 1 };
    await paper.place({ ...entry, take_profit_price: 4900, stop_loss_price_distance: 50 }, 'short');
    await paper.place({ symbol: 'EUR/USD', class: 'forex', action: 'sell', quantity: 10_000, stop_loss_price: 1.12 });
    const exits = (await paper.view()).openOrders.map(({ symbol, side, type, quantity }) => [
      symbol,
      side,
      type,
      quantity,
    ]);
    expect(exits).toEqual(
      expect.arrayContaining([
        ['ES1!', 'buy', 'limit', 1],
        ['ES1!', 'buy', 'stop', 1],
        ['EUR/USD', 'buy', 'stop', 10_000],
      ]),
    );
    paper.prices.set('ES', 4850);
    paper.advance(MINUTE);
    expect((await paper.holdings()).positions.map(({ symbol }) => symbol)).toEqual(['EUR/USD']);
    await paper.place({ quantity: 10 });
    await expect(paper.place({ action: 'sell', quantity: 10, stop_loss_price: 120 })).rejects.toMatchObject({
      kind: 'InvalidOrder',
    });
  });

  it('refuses exits on the wrong side of the entry', async () => {
    const paper = await paperFixture();
    await expect(paper.place({ take_profit_price: 90 })).rejects.toMatchObject({ kind: 'InvalidOrder' });
    await expect(paper.place({ action: 'sell_short', stop_loss_price: 90 })).rejects.toMatchObject({
      kind: 'InvalidOrder',
    });
    await expect(paper.place({ type: 'limit', limit_price: 80, stop_loss_price: 85 })).rejects.toMatchObject({
      brokerMessage: 'stop_loss_price must be below the entry price 80',
    });
    // A long's stop loss at or below zero would never trigger: refused, not accepted as protection.
    await expect(paper.place({ quantity: 10, stop_loss_price_distance: 150 })).rejects.toMatchObject({
      brokerMessage: 'stop_loss_price_distance 150 puts the stop loss at or below 0 (entry price 100)',
    });
    await expect(paper.place({ quantity: 10, stop_loss_price_percent: 100 })).rejects.toMatchObject({
      kind: 'InvalidOrder',
    });
    expect((await paper.holdings()).positions).toEqual([]);
  });

  it('close without a quantity cancels the open orders of the symbol and flattens its position', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 7, take_profit_price: 150 });
    await paper.place({ symbol: 'MSFT', type: 'limit', limit_price: 300 }, 'msft');
    paper.prices.set('AAPL', 102);
    expect(await paper.place({ action: 'close', quantity: undefined })).toMatchObject({
      status: 'filled',
      status_description: 'Filled: sell 7 AAPL at 102',
      price: 102,
    });
    expect(await paper.holdings()).toMatchObject({ cash: 100_014, positions: [] });
    expect(await paper.getOrder('msft')).toMatchObject({ status: 'accepted' });
    await expect(paper.place({ action: 'close' })).rejects.toMatchObject({
      brokerMessage: 'no position in AAPL to close',
    });
  });

  it('close with a fixed quantity closes that many (at most what is held), as the live brokers do', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 7 });
    expect(await paper.place({ action: 'close', quantity: 2 })).toMatchObject({
      status: 'filled',
      status_description: 'Filled: sell 2 AAPL at 100',
    });
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: 'AAPL', quantity: 5 }]);
    await paper.place({ action: 'sell_short', symbol: 'MSFT', quantity: 3 });
    expect(await paper.place({ action: 'close', symbol: 'MSFT', quantity: 1 })).toMatchObject({
      status_description: 'Filled: buy 1 MSFT at 400',
    });
    // More than is held closes what is held, never turns the position the other way.
    expect(await paper.place({ action: 'close', quantity: 50 })).toMatchObject({
      status_description: 'Filled: sell 5 AAPL at 100',
    });
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: 'MSFT', quantity: -2 }]);
    await expect(paper.place({ action: 'close', symbol: 'MSFT', quantity: 0.00001 })).rejects.toMatchObject({
      kind: 'InvalidOrder',
    });
  });

  it('a partial close keeps the exits of what is still held (shrunk to it); a full close cancels them', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10, take_profit_price: 110, stop_loss_price: 95 });
    await paper.place({ action: 'close', quantity: 4 });
    expect((await paper.view()).openOrders.map(({ type, quantity }) => [type, quantity]).sort()).toEqual([
      ['limit', 6],
      ['stop', 6],
    ]);
    await paper.place({ action: 'close', quantity: 50, quantity_type: 'percent_of_position' });
    expect((await paper.view()).openOrders.map(({ type, quantity }) => [type, quantity]).sort()).toEqual([
      ['limit', 3],
      ['stop', 3],
    ]);
    paper.prices.set('AAPL', 94);
    paper.advance(MINUTE);
    // The stop loss still protected the 3 left and sold them.
    expect((await paper.holdings()).positions).toEqual([]);
    await paper.place({ quantity: 5, stop_loss_price: 90 });
    await paper.place({ action: 'close', quantity: 5 });
    expect((await paper.view()).openOrders).toEqual([]);
  });

  it('refuses a close of a fractional number of contracts rather than closing fewer than asked', async () => {
    const paper = await paperFixture();
    paper.prices.set('ES', 5000);
    await paper.place({ symbol: 'ES1!', class: 'future', quantity: 3, take_profit_price: 6000 }, 'entry');
    // 1.5 contracts closed 1, silently, as placing them once bought 1.
    await expect(
      paper.place({ symbol: 'ES1!', class: 'future', action: 'close', quantity: 1.5 }),
    ).rejects.toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: 'quantity 1.5 must be a whole number: ES1! trades in whole units',
    });
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: 'ES1!', quantity: 3 }]);
    expect((await paper.view()).openOrders).toMatchObject([{ type: 'limit', quantity: 3 }]);
  });

  it('close with a percent_of_position quantity closes that part of the position, not all of it', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10 });
    expect(await paper.place({ action: 'close', quantity: 50, quantity_type: 'percent_of_position' })).toMatchObject({
      status: 'filled',
      status_description: 'Filled: sell 5 AAPL at 100',
    });
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: 'AAPL', quantity: 5 }]);
    await paper.place({ action: 'sell_short', symbol: 'MSFT', quantity: 3 });
    expect(
      await paper.place({ action: 'close', symbol: 'MSFT', quantity: 10, quantity_type: 'percent_of_position' }),
    ).toMatchObject({ status: 'filled', status_description: 'Filled: buy 0.3 MSFT at 400' });
    expect((await paper.holdings()).positions).toMatchObject([
      { symbol: 'AAPL', quantity: 5 },
      { symbol: 'MSFT', quantity: -2.7 },
    ]);
  });

  it('closes all of a crypto position with 100 percent_of_position, leaving no dust and no exit behind', async () => {
    const paper = await paperFixture();
    const eth = { symbol: 'ETH/USD', class: 'crypto' as const };
    // 85.21516638 × 100 / 100 is 85.21516637999999 in floating point: 85.21516637 was closed,
    // a partial close leaving 0.00000001 ETH and its take profit working.
    await paper.place({ ...eth, quantity: 85.21516638, take_profit_price: 20 });
    await paper.place({ ...eth, action: 'close', quantity: 100, quantity_type: 'percent_of_position' });
    expect((await paper.view()).positions).toEqual([]);
    expect((await paper.view()).openOrders).toEqual([]);
    await paper.place({ ...eth, quantity: 83.5889852 });
    await paper.place({ ...eth, action: 'sell', quantity: 100, quantity_type: 'percent_of_position' });
    expect((await paper.holdings()).positions).toEqual([]);
  });

  it('refuses a close sized in cash or percent of equity rather than closing the whole position', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10, stop_loss_price: 95 });
    for (const quantity_type of ['cash', 'percent_of_equity'] as const) {
      await expect(paper.place({ action: 'close', quantity: 5, quantity_type })).rejects.toMatchObject({
        brokerMessage: `close takes a fixed quantity or percent_of_position, not quantity_type ${quantity_type}`,
      });
    }
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: 'AAPL', quantity: 10 }]);
    expect((await paper.view()).openOrders).toHaveLength(1);
  });

  it('closes a short by buying it back, also through closePosition', async () => {
    const paper = await paperFixture();
    await paper.place({ action: 'sell_short', quantity: 3 });
    const closed = await paper.broker.closePosition(paper.ctx, paper.session, paper.accountId, 'AAPL');
    expect(closed).toMatchObject({ status: 'filled', status_description: 'Filled: buy 3 AAPL at 100' });
    expect((await paper.holdings()).positions).toEqual([]);
  });

  it('refuses closePosition of a symbol held in two classes rather than guessing which', async () => {
    const paper = await paperFixture();
    await paper.place({ symbol: 'AAPL', class: 'cfd', quantity: 10 });
    await paper.place({ symbol: 'AAPL', quantity: 5 });
    await expect(paper.broker.closePosition(paper.ctx, paper.session, paper.accountId, 'AAPL')).rejects.toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: 'AAPL is held as cfd and stock: close it with an order that names its class',
    });
    expect((await paper.view()).positions).toMatchObject([
      { symbol: 'AAPL', class: 'cfd', quantity: 10 },
      { symbol: 'AAPL', class: 'stock', quantity: 5 },
    ]);
  });

  it("cancel cancels the symbol's open orders only", async () => {
    const paper = await paperFixture();
    await paper.place({ type: 'limit', limit_price: 90 }, 'a1');
    await paper.place({ type: 'stop', stop_price: 120 }, 'a2');
    await paper.place({ symbol: 'MSFT', type: 'limit', limit_price: 300 }, 'm1');
    expect(await paper.place({ action: 'cancel' })).toMatchObject({
      status: 'canceled',
      status_description: 'Canceled 2 open order(s) for AAPL',
    });
    expect(await paper.getOrder('a1')).toMatchObject({ status: 'canceled' });
    expect(await paper.getOrder('a2')).toMatchObject({ status: 'canceled' });
    expect(await paper.getOrder('m1')).toMatchObject({ status: 'accepted' });
    expect(await paper.place({ action: 'cancel' })).toMatchObject({ status_description: 'No open orders for AAPL' });
    // The canceled order's buying power is free again.
    expect((await paper.holdings()).buyingPower).toBe(100_000 - 300);
  });

  it('close and cancel of a CFD leave the orders of the stock of the same name working', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10, stop_loss_price: 95 }, 'stock');
    await paper.place({ type: 'limit', limit_price: 90 }, 'dip');
    await paper.place({ class: 'cfd', quantity: 10 }, 'cfd');
    await paper.place({ class: 'cfd', type: 'limit', limit_price: 80 }, 'cfd-dip');
    expect(await paper.place({ class: 'cfd', action: 'cancel' })).toMatchObject({
      status_description: 'Canceled 1 open order(s) for AAPL',
    });
    await paper.place({ class: 'cfd', action: 'close', quantity: undefined });
    expect(await paper.getOrder('dip')).toMatchObject({ status: 'accepted' });
    expect(await paper.getOrder('cfd-dip')).toMatchObject({ status: 'canceled' });
    // The stock's stop loss still protects it.
    expect((await paper.view()).openOrders.map(({ class: cls, type }) => [cls, type]).sort()).toEqual([
      ['stock', 'limit'],
      ['stock', 'stop'],
    ]);
  });
});
