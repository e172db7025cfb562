import { describe, expect, it } from 'vitest';
import { BrokerError } from '../../core/errors.ts';
import { MINUTE, paperFixture, START } from './paper.fixture.ts';

async function rejection(promise: Promise<unknown>): Promise<BrokerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BrokerError)) throw new Error(`expected a BrokerError, got ${String(error)}`);
  return error;
}

describe('paper simulator: market orders and the ledger', () => {
  it('fills a market buy at the quote and books cash and position', async () => {
    const paper = await paperFixture();
    expect(await paper.place({ quantity: 10 })).toEqual({
      id: 'PA-TEST1-1',
      status: 'filled',
      status_description: 'Filled: buy 10 AAPL at 100',
      price: 100,
    });
    expect(await paper.holdings()).toEqual({
      cash: 99_000,
      equity: 100_000,
      buyingPower: 99_000,
      currency: 'USD',
      positions: [{ symbol: 'AAPL', quantity: 10, averagePrice: 100, marketValue: 1000 }],
    });
  });

  it("fills at the signal's price hint and follows it afterwards", async () => {
    const paper = await paperFixture();
    const filled = await paper.place({ quantity: 10, extra: { price: '150' } });
    expect(filled).toMatchObject({ status: 'filled', price: 150 });
    paper.prices.set('AAPL', 110); // the synthetic market moves 10 % up; the account's view too
    expect((await paper.holdings()).positions[0]).toMatchObject({ averagePrice: 150, marketValue: 1650 });
  });

  it('averages in, sells part, and removes a flat position', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10 });
    paper.prices.set('AAPL', 130);
    await paper.place({ quantity: 20 });
    expect((await paper.holdings()).positions[0]).toMatchObject({ quantity: 30, averagePrice: 120 });
    await paper.place({ action: 'sell', quantity: 30 });
    const holdings = await paper.holdings();
    expect(holdings.positions).toEqual([]);
    expect(holdings.cash).toBe(100_000 - 1000 - 2600 + 3900);
  });

  it('sizes percent of equity on the equity after the exits the market reached elsewhere', async () => {
    // AAPL touches 150 for one minute only: the take profit sells there, +5,000 realized.
    const quote = (key: string, _cls: unknown, at: number) =>
      key === 'AAPL' ? (at === START + MINUTE ? 150 : 100) : 400;
    const paper = await paperFixture({ quote });
    await paper.place({ quantity: 100, take_profit_price: 150 });
    paper.advance(2 * MINUTE);
    // 10 % of 105,000, not of the 100,000 the account was worth with AAPL still held at 100.
    expect(await paper.place({ symbol: 'MSFT', quantity: 10, quantity_type: 'percent_of_equity' })).toMatchObject({
      status_description: 'Filled: buy 26.25 MSFT at 400',
    });
  });

  it('resolves quantity types: percent of equity, cash, percent of position', async () => {
    const paper = await paperFixture();
    expect(await paper.place({ quantity: 50, quantity_type: 'percent_of_equity' })).toMatchObject({
      status_description: 'Filled: buy 500 AAPL at 100',
    });
    expect(
      await paper.place({ symbol: 'BTCUSD', class: 'crypto', quantity: 1000, quantity_type: 'cash' }),
    ).toMatchObject({
      status_description: 'Filled: buy 0.02 BTC/USD at 50000',
    });
    expect(await paper.place({ action: 'sell', quantity: 25, quantity_type: 'percent_of_position' })).toMatchObject({
      status_description: 'Filled: sell 125 AAPL at 100',
    });
  });

  it('refuses what a cash account cannot pay', async () => {
    const paper = await paperFixture({ startingCash: 1000 });
    const error = await rejection(paper.place({ quantity: 11 }));
    expect(error).toMatchObject({ kind: 'InsufficientFunds', message: 'Paper Trading: insufficient buying power' });
    expect((await paper.holdings()).cash).toBe(1000);
  });

  it('refuses a quantity so large that its value overflows, leaving the account as it was', async () => {
    const paper = await paperFixture();
    // 1e305 shares to 4 decimals is Infinity: it used to fill ("sell Infinity AAPL"), cash became NaN.
    for (const order of [
      { action: 'sell_short', quantity: 1e305 },
      { symbol: 'BTC/USD', class: 'crypto', action: 'sell_short', quantity: 1e301 },
    ] as const) {
      expect(await rejection(paper.place(order))).toMatchObject({ kind: 'InsufficientFunds' });
    }
    expect(await paper.holdings()).toMatchObject({ cash: 100_000, equity: 100_000, positions: [] });
  });

  it('sells only what is held; sell_short opens a short that buy_to_cover closes', async () => {
    const paper = await paperFixture({ startingCash: 1000 });
    expect(await rejection(paper.place({ action: 'sell', quantity: 1 }))).toMatchObject({ kind: 'InvalidOrder' });
    expect(await paper.place({ action: 'sell_short', quantity: 5 })).toMatchObject({ status: 'filled', price: 100 });
    expect(await paper.holdings()).toMatchObject({ cash: 1500, equity: 1000, positions: [{ quantity: -5 }] });
    // The short's value stays locked: 1000 equity - 500 collateral leaves 500 to spend.
    expect(await rejection(paper.place({ symbol: 'MSFT', quantity: 2 }))).toMatchObject({ kind: 'InsufficientFunds' });
    expect(await rejection(paper.place({ action: 'buy_to_cover', quantity: 6 }))).toMatchObject({
      kind: 'InvalidOrder',
    });
    paper.prices.set('AAPL', 90);
    await paper.place({ action: 'buy_to_cover', quantity: 5 });
    expect(await paper.holdings()).toMatchObject({ cash: 1050, positions: [] });
  });

  it('refuses to sell short while long', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 1 });
    expect(await rejection(paper.place({ action: 'sell_short', quantity: 1 }))).toMatchObject({ kind: 'InvalidOrder' });
  });

  it('refuses what it does not simulate', async () => {
    const paper = await paperFixture();
    expect(await rejection(paper.place({ class: 'bond', symbol: '912828YK0' }))).toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: 'bond orders are not supported',
    });
    expect(await rejection(paper.place({ action: 'buy_to_open' }))).toMatchObject({
      brokerMessage: 'action buy_to_open is not supported for stock orders',
    });
    expect(await rejection(paper.place({ duration: 'gtd' }))).toMatchObject({ kind: 'InvalidOrder' });
    expect(await rejection(paper.place({ type: 'limit' }))).toMatchObject({
      brokerMessage: 'limit_price is required for limit orders',
    });
    expect(await rejection(paper.place({ quantity: 0.00001 }))).toMatchObject({ kind: 'InvalidOrder' });
  });
});

describe('paper simulator: resting orders', () => {
  it('rests a limit buy, holds its buying power, and fills at the limit when the market crosses', async () => {
    const paper = await paperFixture({ startingCash: 1000 });
    expect(await paper.place({ type: 'limit', limit_price: 95, quantity: 10 }, 'limit')).toMatchObject({
      status: 'accepted',
      status_description: 'Accepted: limit buy 10 AAPL at 95 (gtc)',
    });
    expect(await rejection(paper.place({ quantity: 1 }))).toMatchObject({ kind: 'InsufficientFunds' });
    paper.advance(5 * MINUTE);
    expect(await paper.getOrder('limit')).toMatchObject({ status: 'accepted' });
    paper.prices.set('AAPL', 94);
    paper.advance(MINUTE);
    expect(await paper.getOrder('limit')).toMatchObject({ status: 'filled', price: 95 });
    expect(await paper.holdings()).toMatchObject({ cash: 50, positions: [{ quantity: 10, averagePrice: 95 }] });
  });

  it('holds what a resting order will use at its own price, not less a gain it has not made', async () => {
    const paper = await paperFixture();
    paper.prices.set('ES', 5000);
    // Two ES contracts bought at 4000 hold 2 × 4000 × 50 × 6%; valued at the market (about
    // 5010) the order counted a 2 × 1010 × 50 gain as its own, and held nothing at all.
    await paper.place({ symbol: 'ES1!', class: 'future', type: 'limit', limit_price: 4000, quantity: 2 });
    expect((await paper.holdings()).buyingPower).toBe(100_000 - 24_000);
    const small = await paperFixture({ startingCash: 1000 });
    small.prices.set('ES', 5000);
    expect(
      await rejection(small.place({ symbol: 'ES1!', class: 'future', type: 'limit', limit_price: 4000, quantity: 1 })),
    ).toMatchObject({ kind: 'InsufficientFunds' });
    // A short of 10 at 110 holds twice 1,100 less its 1,100 proceeds, before and after it fills.
    const short = await paperFixture({ startingCash: 2000 });
    await short.place({ action: 'sell_short', type: 'limit', limit_price: 110, quantity: 10 }, 'short');
    expect((await short.holdings()).buyingPower).toBe(900);
    short.prices.set('AAPL', 110);
    short.advance(MINUTE);
    expect(await short.getOrder('short')).toMatchObject({ status: 'filled', price: 110 });
    expect((await short.holdings()).buyingPower).toBe(900);
  });

  it('fills a marketable limit at once at the better market price', async () => {
    const paper = await paperFixture();
    expect(await paper.place({ type: 'limit', limit_price: 105 })).toMatchObject({ status: 'filled', price: 100 });
  });

  it('snaps a limit price to the tick on the side the trader asked for, never past the limit', async () => {
    const paper = await paperFixture();
    paper.prices.set('AAPL', 100.01);
    // A buy at most 100.006 is a buy at most 100.00: the 100.01 market is above it.
    expect(await paper.place({ type: 'limit', limit_price: 100.006 }, 'buy')).toMatchObject({
      status: 'accepted',
      status_description: 'Accepted: limit buy 1 AAPL at 100 (gtc)',
    });
    await paper.place({ quantity: 1 });
    paper.prices.set('AAPL', 99.99);
    // A sell at least 99.994 is a sell at least 100.00: the 99.99 market is below it.
    expect(await paper.place({ action: 'sell', type: 'limit', limit_price: 99.994 }, 'sell')).toMatchObject({
      status: 'accepted',
      status_description: 'Accepted: limit sell 1 AAPL at 100 (gtc)',
    });
    // On the tick already, the price stays as given (100.01 / 0.01 is 10000.999… in binary).
    expect(await paper.place({ type: 'limit', limit_price: 100.01, quantity: 1 })).toMatchObject({
      status: 'filled',
      price: 99.99,
    });
  });

  it('refuses a price that rounds to 0 on the tick, placing nothing', async () => {
    const paper = await paperFixture();
    // A buy at most 0.00001234 would be a buy at 0 on the cent: another order, refused.
    expect(await rejection(paper.place({ type: 'limit', limit_price: 0.00001234 }))).toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: 'limit_price 0.00001234 is less than one tick (0.01): it would be 0',
    });
    await paper.place({ quantity: 1 });
    expect(await rejection(paper.place({ action: 'buy_to_cover', type: 'stop', stop_price: 0.004 }))).toMatchObject({
      brokerMessage: 'stop_price 0.004 is less than one tick (0.01): it would be 0',
    });
    // A short's take profit is a buy: at 0.004 its exit would be a buy at 0.
    const short = { action: 'sell_short', symbol: 'MSFT', quantity: 1, take_profit_price: 0.004 } as const;
    expect(await rejection(paper.place(short))).toMatchObject({
      brokerMessage: 'take_profit_price 0.004 is less than one tick (0.01): it would be 0',
    });
    expect(await paper.holdings()).toMatchObject({ positions: [{ symbol: 'AAPL', quantity: 1 }] });
  });

  it('snaps a stop price to the tick the way a limit goes, so a stop_limit keeps its limit on its side', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 2 });
    // A sell stop-limit of 100.004 / 100.001: the limit goes up to 100.01 (never past the trader's);
    // its stop to the nearest (100.00) would sit under the limit: triggered as the market falls
    // through 100.00, a sell at 100.01 or better could never fill. Both at 100.01 it can.
    await paper.place({ action: 'sell', type: 'stop_limit', stop_price: 100.004, limit_price: 100.001 }, 'sell');
    // A buy stop goes down, as a buy limit does: 110.006 is 110.00, not 110.01.
    await paper.place({ type: 'stop', stop_price: 110.006 }, 'buy');
    const open = (await paper.view()).openOrders.map(({ side, stopPrice, limitPrice }) => [
      side,
      stopPrice,
      limitPrice,
    ]);
    expect(open.sort()).toEqual([
      ['buy', 110, undefined],
      ['sell', 100.01, 100.01],
    ]);
  });

  it('triggers a stop when the market passes it and fills at that market price', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10 });
    await paper.place({ action: 'sell', type: 'stop', stop_price: 90, quantity: 10 }, 'stop');
    paper.prices.set('AAPL', 89.5);
    paper.advance(MINUTE);
    expect(await paper.getOrder('stop')).toMatchObject({ status: 'filled', price: 89.5 });
  });

  it('a stop_limit becomes a limit order once triggered', async () => {
    const paper = await paperFixture();
    await paper.place({ type: 'stop_limit', stop_price: 110, limit_price: 111 }, 'sl');
    paper.prices.set('AAPL', 115); // stop hit, limit not reached
    paper.advance(MINUTE);
    expect(await paper.getOrder('sl')).toMatchObject({ status: 'accepted' });
    paper.prices.set('AAPL', 108); // back below the limit: fills at the limit
    paper.advance(MINUTE);
    expect(await paper.getOrder('sl')).toMatchObject({ status: 'filled', price: 111 });
  });

  it('expires day orders at the session close and cancels unmarketable ioc orders', async () => {
    const paper = await paperFixture();
    await paper.place({ type: 'limit', limit_price: 50, duration: 'day' }, 'day');
    expect(await paper.place({ type: 'limit', limit_price: 50, duration: 'ioc' })).toMatchObject({
      status: 'canceled',
    });
    paper.advance(6 * 60 * MINUTE); // 20:30 UTC, past the session close
    expect(await paper.getOrder('day')).toMatchObject({
      status: 'canceled',
      status_description: 'Canceled: expired at the end of the day',
    });
  });

  it("works a stock's day order placed after Friday's close through Monday's session, a crypto one to Saturday's close", async () => {
    const paper = await paperFixture();
    paper.advance(4 * 24 * 60 * MINUTE + 7 * 60 * MINUTE); // Friday 10 January, 21:30 UTC: the session has closed
    await paper.place({ type: 'limit', limit_price: 50, duration: 'day' }, 'day');
    await paper.place({ symbol: 'BTCUSD', class: 'crypto', type: 'limit', limit_price: 100, duration: 'day' }, 'btc');
    paper.advance(24 * 60 * MINUTE); // Saturday 21:30 UTC
    expect(await paper.getOrder('day')).toMatchObject({ status: 'accepted' });
    expect(await paper.getOrder('btc')).toMatchObject({ status: 'canceled' });
    paper.advance(2 * 24 * 60 * MINUTE - 2 * 60 * MINUTE); // Monday 19:30 UTC, in its session
    expect(await paper.getOrder('day')).toMatchObject({ status: 'accepted' });
    paper.advance(60 * MINUTE); // Monday 20:30 UTC
    expect(await paper.getOrder('day')).toMatchObject({
      status: 'canceled',
      status_description: 'Canceled: expired at the end of the day',
    });
  });

  it('keeps the shares of a resting sell for it: a sale or a partial close of them is refused, the sell fills', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 5 });
    await paper.place({ action: 'sell', type: 'limit', limit_price: 120, quantity: 5 }, 'exit');
    await expect(paper.place({ action: 'sell', quantity: 5 })).rejects.toMatchObject({ kind: 'InvalidOrder' });
    await expect(paper.place({ action: 'close', quantity: 3 })).rejects.toMatchObject({ kind: 'InvalidOrder' });
    paper.prices.set('AAPL', 121);
    paper.advance(MINUTE);
    expect(await paper.getOrder('exit')).toMatchObject({ status: 'filled' });
  });
});
