import { describe, expect, it } from 'vitest';
import { MINUTE, paperFixture } from './paper.fixture.ts';
import type { QuoteSource } from './quotes.ts';

const EXPIRY = Date.UTC(2025, 5, 20, 20);
const DAYS_PAST = 170 * 24 * 60 * MINUTE;
const SPY = (strike: string, right: 'C' | 'P') => `SPY   250620${right}00${strike}000`;

/** SPY at 500 until the June options expire, at `settlement` from then on. */
async function spyExpiringAt(settlement: number, startingCash?: number) {
  const quote: QuoteSource = (key, _cls, at) => (key === 'SPY' ? (at < EXPIRY ? 500 : settlement) : 10);
  return paperFixture({ quote, ...(startingCash === undefined ? {} : { startingCash }) });
}

const descriptions = async (paper: Awaited<ReturnType<typeof paperFixture>>) =>
  (await paper.view()).fills.map(({ description }) => description);

describe('paper broker: contracts held through their expiry are settled', () => {
  it('closes a dated future at its settlement price: its P&L realized, its margin freed', async () => {
    const futureExpiry = Date.UTC(2025, 2, 21, 20);
    const quote: QuoteSource = (key, _cls, at) => (key === 'ES' ? (at <= futureExpiry ? 5000 : 6000) : 10);
    const paper = await paperFixture({ quote });
    const bought = await paper.place({ symbol: 'ESH2025', class: 'future', quantity: 1 });
    paper.advance(100 * 24 * 60 * MINUTE);
    const view = await paper.view();
    expect(view.positions).toEqual([]);
    // ES at 5000 with three months of carry when bought, at 5000 when it settled: 50 a point.
    expect(view.cash).toBeCloseTo(100_000 + 50 * (5000 - (bought.price ?? 0)), 6);
    expect(view.buyingPower).toBeCloseTo(view.cash, 6);
    expect(view.fills.map(({ description }) => description)).toContain('Settled at expiry: sold 1 ESH2025 at 5000');
  });

  it('assigns a short put in the money: 100 shares bought at the strike', async () => {
    const paper = await spyExpiringAt(440);
    const sold = await paper.place({ symbol: SPY('460', 'P'), class: 'option', action: 'sell_to_open', quantity: 1 });
    paper.advance(DAYS_PAST);
    const holdings = await paper.holdings();
    expect(holdings.positions).toEqual([{ symbol: 'SPY', quantity: 100, averagePrice: 460, marketValue: 44_000 }]);
    expect(holdings.cash).toBeCloseTo(100_000 + 100 * (sold.price ?? 0) - 46_000, 6);
    expect(holdings.buyingPower).toBeCloseTo(holdings.cash ?? Number.NaN, 6);
    expect(await descriptions(paper)).toEqual(
      expect.arrayContaining([
        'Assigned at expiry: bought 100 SPY at the strike 460',
        `Filled: bought 100 SPY at the strike 460 (${SPY('460', 'P')} assigned)`,
      ]),
    );
  });

  it('calls away the shares of a covered call in the money, at the strike', async () => {
    const paper = await spyExpiringAt(560);
    await paper.place({ symbol: 'SPY', quantity: 100 });
    const sold = await paper.place({ symbol: SPY('540', 'C'), class: 'option', action: 'sell_to_open', quantity: 1 });
    paper.advance(DAYS_PAST);
    const holdings = await paper.holdings();
    expect(holdings.positions).toEqual([]);
    expect(holdings.cash).toBeCloseTo(100_000 + 100 * (sold.price ?? 0) + 4_000, 6);
  });

  it('fills what the market reached on the shares before the expiry first', async () => {
    // SPY dips to 440 the day before the expiry, through the shares' stop loss at 450, then settles at 560.
    const dip = EXPIRY - 24 * 60 * MINUTE;
    const quote: QuoteSource = (key, _cls, at) =>
      key === 'SPY' ? (at < dip ? 500 : at < dip + 10 * MINUTE ? 440 : at < EXPIRY ? 500 : 560) : 10;
    const paper = await paperFixture({ quote });
    await paper.place({ symbol: 'SPY', quantity: 100, stop_loss_price: 450 });
    await paper.place({ symbol: SPY('540', 'C'), class: 'option', action: 'sell_to_open', quantity: 1 });
    paper.advance(DAYS_PAST);
    // The stop loss sold the shares at 440; the call, uncovered then, was assigned: 100 SPY sold short at 540.
    expect(
      (await paper.view()).fills.map(({ side, symbol, price }) => [side, symbol.trim(), price]).slice(0, 3),
    ).toEqual([
      ['sell', 'SPY', 540],
      ['buy', 'SPY   250620C00540000', 0],
      ['sell', 'SPY', 440],
    ]);
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: 'SPY', quantity: -100, averagePrice: 540 }]);
  });

  it('cancels the bracket exits of shares called away, as every sale of them does', async () => {
    const paper = await spyExpiringAt(560);
    await paper.place({ symbol: 'SPY', quantity: 100, stop_loss_price: 400 });
    await paper.place({ symbol: SPY('540', 'C'), class: 'option', action: 'sell_to_open', quantity: 1 });
    paper.advance(DAYS_PAST);
    expect((await paper.holdings()).positions).toEqual([]);
    expect((await paper.view()).openOrders).toEqual([]);
  });

  it('removes what expired worthless and frees what it held', async () => {
    const paper = await spyExpiringAt(480);
    await paper.place({ symbol: SPY('460', 'P'), class: 'option', action: 'sell_to_open', quantity: 1 });
    paper.advance(DAYS_PAST);
    const holdings = await paper.holdings();
    expect(holdings.positions).toEqual([]);
    expect(holdings.buyingPower).toBeCloseTo(holdings.cash ?? Number.NaN, 6);
    expect(await descriptions(paper)).toContain(`Expired worthless: 1 ${SPY('460', 'P')}`);
  });

  it('sells a long call in the money an account cannot pay the shares of, for its intrinsic value', async () => {
    const paper = await spyExpiringAt(520, 5_000);
    const bought = await paper.place({ symbol: SPY('510', 'C'), class: 'option', action: 'buy_to_open', quantity: 1 });
    paper.advance(DAYS_PAST);
    const holdings = await paper.holdings();
    expect(holdings.positions).toEqual([]);
    expect(holdings.cash).toBeCloseTo(5_000 - 100 * (bought.price ?? 0) + 1_000, 6);
    expect(await descriptions(paper)).toContain(
      'Expired in the money: sold at 10 (not enough buying power to exercise)',
    );
  });
});
