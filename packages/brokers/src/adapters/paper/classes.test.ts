import { describe, expect, it } from 'vitest';
import { MINUTE, paperFixture, START } from './paper.fixture.ts';
import { optionPremium } from './pricing.ts';
import type { QuoteSource } from './quotes.ts';

describe('paper broker: a real broker refuses what it does not list', () => {
  it('refuses an unknown symbol with "Symbol not found" and places nothing', async () => {
    const paper = await paperFixture();
    await expect(paper.place({ symbol: 'ZZZZZQ' }, 'unknown')).rejects.toMatchObject({
      kind: 'InvalidOrder',
      message: 'Paper Trading: Symbol not found: ZZZZZQ',
    });
    expect(await paper.getOrder('unknown')).toBeNull();
    expect(await paper.holdings()).toMatchObject({ cash: 100_000, positions: [] });
  });

  it('checks an order without an account as placing refuses it (checkOrder, a test hook)', async () => {
    const paper = await paperFixture();
    const check = (fields: Parameters<typeof paper.order>[0]) => () =>
      paper.broker.checkOrder({ accountId: 'A1', clientOrderId: 'sig-check', order: paper.order(fields) });
    for (const fields of [{ symbol: 'ZZZZZQ' }, { symbol: 'ESZ2024', class: 'future' as const }]) {
      const live = await paper.place(fields).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(live).toMatchObject({ kind: 'InvalidOrder' });
      expect(check(fields)).toThrow(live);
    }
    expect(check({ symbol: 'AAPL' })).not.toThrow();
    // An expired contract may still be closed, as placing allows.
    expect(check({ symbol: 'ESZ2024', class: 'future', action: 'close' })).not.toThrow();
  });

  it("trades a self-hoster's own symbols", async () => {
    const paper = await paperFixture({ symbols: [{ section: 'stock', symbol: 'ZZZZZQ', price: 12 }] });
    expect(await paper.place({ symbol: 'ZZZZZQ', quantity: 3 })).toMatchObject({ status: 'filled', price: 10 });
  });

  it('refuses expired contracts and months a future does not list', async () => {
    const paper = await paperFixture();
    await expect(paper.place({ symbol: 'ESZ2024', class: 'future' })).rejects.toMatchObject({
      brokerMessage: 'ESZ2024 expired on 2024-12-20',
    });
    await expect(paper.place({ symbol: 'ESF2026', class: 'future' })).rejects.toMatchObject({
      brokerMessage: 'Symbol not found: ESF2026',
    });
    await expect(
      paper.place({ symbol: 'AAPL  241220C00150000', class: 'option', action: 'buy_to_open' }),
    ).rejects.toMatchObject({ brokerMessage: 'AAPL  241220C00150000 expired on 2024-12-20' });
  });
});

describe('paper broker: options', () => {
  const CALL = 'AAPL  250620C00100000';
  const option = { symbol: CALL, class: 'option' as const, quantity: 2 };

  it('prices a premium from the underlying and trades 100 shares a contract', async () => {
    const paper = await paperFixture();
    const bought = await paper.place({ ...option, action: 'buy_to_open' });
    const premium = bought.price ?? 0;
    // At the money, five months and a half out, AAPL's volatility: a few dollars over nothing.
    expect(premium).toBeGreaterThan(5);
    expect(premium).toBeLessThan(20);
    expect((await paper.holdings()).cash).toBeCloseTo(100_000 - 2 * 100 * premium, 6);
    paper.prices.set('AAPL', 120);
    const sold = await paper.place({ ...option, action: 'sell_to_close' });
    expect(sold.price).toBeGreaterThan(premium + 10);
    expect((await paper.holdings()).cash).toBeCloseTo(100_000 + 200 * ((sold.price ?? 0) - premium), 6);
  });

  it('keeps opening and closing apart: no sell_to_close of nothing, no buy_to_open while short', async () => {
    const paper = await paperFixture();
    await expect(paper.place({ ...option, action: 'sell_to_close' })).rejects.toMatchObject({
      brokerMessage: `cannot sell_to_close 2 ${CALL}, none held`,
    });
    await paper.place({ ...option, action: 'sell_to_open' });
    await expect(paper.place({ ...option, action: 'buy_to_open' })).rejects.toMatchObject({
      brokerMessage: `cannot buy_to_open ${CALL} while short; buy_to_close it first`,
    });
    expect(await paper.place({ ...option, action: 'buy_to_close' })).toMatchObject({ status: 'filled' });
    expect((await paper.holdings()).positions).toEqual([]);
  });

  it('exercises a long call held through expiry into shares at the strike', async () => {
    const paper = await paperFixture();
    const weekly = { symbol: 'AAPL  250110C00090000', class: 'option' as const, quantity: 1 };
    const bought = await paper.place({ ...weekly, action: 'buy_to_open' });
    paper.advance(7 * 24 * 60 * MINUTE);
    const holdings = await paper.holdings();
    expect(holdings.positions).toEqual([{ symbol: 'AAPL', quantity: 100, averagePrice: 90, marketValue: 10_000 }]);
    expect(holdings.cash).toBeCloseTo(100_000 - 100 * (bought.price ?? 0) - 9_000, 6);
    // Opening it is refused still.
    await expect(paper.place({ ...weekly, action: 'buy_to_open' })).rejects.toMatchObject({
      brokerMessage: 'AAPL  250110C00090000 expired on 2025-01-10',
    });
  });

  it('settles a future and options held past their expiry at what they settled at, not at the market since', async () => {
    const optionExpiry = Date.UTC(2025, 0, 10, 20);
    const futureExpiry = Date.UTC(2025, 2, 21, 20);
    // AAPL at 100 until the calls expire, 130 after; ES at 5000 until March's contract expires, 6000 after.
    const quote: QuoteSource = (key, _cls, at) =>
      key === 'AAPL' ? (at <= optionExpiry ? 100 : 130) : key === 'ES' ? (at <= futureExpiry ? 5000 : 6000) : 10;
    const paper = await paperFixture({ quote });
    const worthless = { symbol: 'AAPL  250110C00120000', class: 'option' as const, quantity: 10 };
    await paper.place({ ...worthless, action: 'buy_to_open' });
    await paper.place({ symbol: 'AAPL  250110C00090000', class: 'option', action: 'buy_to_open', quantity: 1 });
    await paper.place({ symbol: 'ESH2025', class: 'future', quantity: 1 });
    paper.advance(100 * 24 * 60 * MINUTE);
    // The future sold at 5000; the call struck at 120 expired worthless, the one at 90 became
    // 100 shares bought at 90 (AAPL was 100 then, whatever it is since).
    const view = await paper.view();
    expect(view.positions.map(({ symbol, price, averagePrice }) => [symbol, price, averagePrice])).toEqual([
      ['AAPL', 130, 90],
    ]);
    expect(view.fills.map(({ symbol, price }) => [symbol, price])).toEqual(expect.arrayContaining([['ESH2025', 5000]]));
  });

  it('never fills a resting order after its contract expired', async () => {
    const expiry = Date.UTC(2025, 0, 10, 20);
    const quote: QuoteSource = (key, _cls, at) => (key === 'AAPL' ? (at <= expiry ? 100 : 103) : 10);
    const paper = await paperFixture({ quote });
    const weekly = { symbol: 'AAPL  250110C00090000', class: 'option' as const, quantity: 1 };
    await paper.place({ ...weekly, action: 'buy_to_open' });
    await paper.place({ ...weekly, action: 'sell_to_close', type: 'limit', limit_price: 12 }, 'exit');
    paper.advance(7 * 24 * 60 * MINUTE);
    // Worth 13 only after the expiry: the order ended with its contract.
    expect(await paper.getOrder('exit')).toMatchObject({ status: 'canceled' });
  });

  it('is worth its intrinsic value at expiry', () => {
    expect(optionPremium(120, 100, 0, 0.3, 'C')).toBe(20);
    expect(optionPremium(120, 100, 0, 0.3, 'P')).toBe(0);
    expect(optionPremium(100, 100, 0.5, 0.3, 'C')).toBeGreaterThan(optionPremium(100, 100, 0.5, 0.3, 'P'));
  });
});

describe('paper broker: margined classes', () => {
  it('futures: a fraction of the notional held, P&L settled in cash at the multiplier, sell opens a short', async () => {
    const paper = await paperFixture();
    paper.prices.set('ES', 5000);
    const bought = await paper.place({ symbol: 'ES1!', class: 'future', quantity: 2 });
    const entry = bought.price ?? 0;
    // The front contract trades a little over the root (carry to its expiry), on a 0.25 tick.
    expect(entry).toBeGreaterThan(5000);
    expect((entry * 4) % 1).toBe(0);
    const held = await paper.holdings();
    expect(held.cash).toBe(100_000);
    expect(held.buyingPower).toBeCloseTo(100_000 - 2 * entry * 50 * 0.06, 2);
    paper.prices.set('ES', 5010);
    const sold = await paper.place({ symbol: 'ES1!', class: 'future', action: 'sell', quantity: 3 });
    const exit = sold.price ?? 0;
    expect(exit - entry).toBeGreaterThan(9);
    const after = await paper.holdings();
    expect(after.cash).toBeCloseTo(100_000 + 2 * (exit - entry) * 50, 6);
    expect(after.positions).toMatchObject([{ symbol: 'ES1!', quantity: -1, averagePrice: exit }]);
  });

  it('keeps a continuous future (ES1!) where it was when its front contract rolls: no P&L out of a roll', async () => {
    const paper = await paperFixture();
    paper.prices.set('ES', 5000);
    // An hour before March's ES expires, to an hour after: ES1! was March's, then June's, priced
    // with three more months of carry: a long gained 30 points (1,500 USD) with ES unchanged.
    paper.advance(Date.UTC(2025, 2, 21, 19) - paper.now());
    const bought = await paper.place({ symbol: 'ES1!', class: 'future', quantity: 1 });
    expect(bought.price).toBeGreaterThan(5000);
    paper.advance(2 * 60 * MINUTE);
    expect((await paper.view()).positions).toMatchObject([{ symbol: 'ES1!', price: bought.price, unrealizedPnl: 0 }]);
  });

  it('refuses a fractional number of contracts rather than trading fewer than asked', async () => {
    const paper = await paperFixture();
    paper.prices.set('ES', 5000);
    // 1.5 contracts were once traded as 1, silently (a live broker refuses them).
    await expect(paper.place({ symbol: 'ES1!', class: 'future', quantity: 1.5 })).rejects.toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: 'quantity 1.5 must be a whole number: ES1! trades in whole units',
    });
    expect((await paper.holdings()).positions).toEqual([]);
    // A whole number given with floating point noise (a strategy's computed size) is that number.
    expect(await paper.place({ symbol: 'ES1!', class: 'future', quantity: 2.0000000001 })).toMatchObject({
      status: 'filled',
    });
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: 'ES1!', quantity: 2 }]);
  });

  it('forex: P&L of a pair quoted in yen converts to USD', async () => {
    const paper = await paperFixture();
    paper.prices.set('USDJPY', 150);
    await paper.place({ symbol: 'USD/JPY', class: 'forex', quantity: 10_000 });
    // 2 % of a notional of 10,000 USD.
    expect((await paper.holdings()).buyingPower).toBe(99_800);
    paper.prices.set('USDJPY', 151.5);
    await paper.place({ symbol: 'USD/JPY', class: 'forex', action: 'sell', quantity: 10_000 });
    expect((await paper.holdings()).cash).toBeCloseTo(100_100, 6);
  });

  it('CFDs: index CFDs and any listed symbol, margined', async () => {
    const paper = await paperFixture();
    paper.prices.set('US500', 5000);
    await paper.place({ symbol: 'US500', class: 'cfd', quantity: 2 });
    await paper.place({ symbol: 'AAPL', class: 'cfd', quantity: 10 });
    expect(await paper.holdings()).toMatchObject({ cash: 100_000, buyingPower: 100_000 - 500 - 200 });
    // The stock itself is another position.
    await paper.place({ symbol: 'AAPL', quantity: 5 });
    await paper.place({ symbol: 'AAPL', action: 'sell', quantity: 5 });
    expect((await paper.view()).positions).toMatchObject([
      { symbol: 'US500', class: 'cfd', quantity: 2 },
      { symbol: 'AAPL', class: 'cfd', quantity: 10 },
    ]);
  });

  it('CFDs listed under names that read as futures (HK50: root H, May 2050) trade by those names', async () => {
    const paper = await paperFixture();
    for (const symbol of ['HK50', 'EU50']) {
      expect(await paper.place({ symbol, class: 'cfd', quantity: 1 })).toMatchObject({ status: 'filled' });
    }
    expect((await paper.view()).positions.map(({ symbol, class: cls }) => [symbol, cls])).toEqual([
      ['HK50', 'cfd'],
      ['EU50', 'cfd'],
    ]);
  });

  it('crypto: holds the coins bought to the last of 8 decimals, and sells them to nothing', async () => {
    const paper = await paperFixture();
    paper.prices.set('PEPEUSD', 0.00001);
    const pepe = { symbol: 'PEPE/USD', class: 'crypto' as const, quantity: 94_896_846.6752038 };
    await paper.place(pepe);
    // Held as 94896846.67520382 (a 1e9 scale past what a double keeps), sold down to 0.000000015.
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: 'PEPE/USD', quantity: 94_896_846.6752038 }]);
    await paper.place({ ...pepe, action: 'sell' });
    expect((await paper.holdings()).positions).toEqual([]);
  });

  it('crypto: BTC/USDT trades on the BTC/USD feed, paid in full', async () => {
    const paper = await paperFixture();
    expect(await paper.place({ symbol: 'BTCUSDT', class: 'crypto', quantity: 0.5 })).toMatchObject({
      status_description: 'Filled: buy 0.5 BTC/USDT at 50000',
    });
    expect((await paper.holdings()).cash).toBe(75_000);
  });

  it('rests a futures limit and fills it when the market reaches it', async () => {
    const paper = await paperFixture();
    paper.prices.set('ES', 5000);
    // December trades about 2 % over the front in January (carry).
    await paper.place({ symbol: 'ESZ2025', class: 'future', type: 'limit', limit_price: 4950 }, 'dip');
    expect(await paper.getOrder('dip')).toMatchObject({ status: 'accepted' });
    paper.prices.set('ES', 4800);
    paper.advance(MINUTE);
    expect(await paper.getOrder('dip')).toMatchObject({ status: 'filled', price: 4950 });
  });

  it('keeps the resting orders of a stock and a future of one name on their own prices', async () => {
    // Colgate-Palmolive (CL, the stock at 95, then 97) and crude oil (CL, the future at 75).
    const quote: QuoteSource = (key, cls, at) => {
      if (key !== 'CL') return 10;
      return cls === 'future' ? 75 : at > START ? 97 : 95;
    };
    const paper = await paperFixture({ quote, startingCash: 1_000_000 });
    await paper.place({ symbol: 'CL', class: 'future', type: 'limit', limit_price: 70 }, 'oil');
    await paper.place({ symbol: 'CL', type: 'limit', limit_price: 90 }, 'dip');
    await paper.place({ symbol: 'CL', action: 'sell_short', type: 'limit', limit_price: 96 }, 'rally');
    paper.advance(MINUTE);
    // The stock never went below 95: its buy at 90 did not fill at the oil price; its sale at 96 did.
    expect(await paper.getOrder('dip')).toMatchObject({ status: 'accepted' });
    expect(await paper.getOrder('rally')).toMatchObject({ status: 'filled', price: 96 });
    expect(await paper.getOrder('oil')).toMatchObject({ status: 'accepted' });
  });

  it("a signal's price for a stock leaves the future of the same name where it was", async () => {
    const quote: QuoteSource = (key, cls) => (key === 'CL' ? (cls === 'future' ? 75 : 95) : 10);
    const paper = await paperFixture({ quote });
    const oil = () => paper.broker.lastPrice(paper.ctx, paper.session, paper.accountId, 'CL1!', 'future');
    const before = await oil();
    await paper.place({ symbol: 'CL', quantity: 1, extra: { price: 100 } });
    expect(await paper.broker.lastPrice(paper.ctx, paper.session, paper.accountId, 'CL', 'stock')).toBe(100);
    expect(await oil()).toBe(before);
  });
});
