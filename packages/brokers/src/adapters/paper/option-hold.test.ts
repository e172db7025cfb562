import type { OrderLeg } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { paperFixture } from './paper.fixture.ts';

const SPY = (strike: string, right: 'C' | 'P') => `SPY   250620${right}00${strike}000`;
const leg = (strike: string, right: 'C' | 'P', action: OrderLeg['action']): OrderLeg => ({
  symbol: SPY(strike, right),
  class: 'option',
  action,
  quantity: 1,
});

async function spyAt500(startingCash?: number) {
  const paper = await paperFixture(startingCash === undefined ? {} : { startingCash });
  paper.prices.set('SPY', 500);
  return paper;
}

describe('paper broker: what short options hold in a cash account', () => {
  it('holds a short put’s strike × 100 (cash-secured), not only its premium', async () => {
    const paper = await spyAt500();
    const put = { symbol: SPY('460', 'P'), class: 'option' as const, action: 'sell_to_open' as const, quantity: 2 };
    await paper.place(put);
    const { cash } = await paper.view();
    // The premium received is cash; 2 × 46,000 is held to buy the shares if assigned.
    expect((await paper.view()).buyingPower).toBeCloseTo(cash - 92_000, 6);
    await expect(paper.place(put)).rejects.toMatchObject({
      kind: 'InsufficientFunds',
      brokerMessage: 'insufficient buying power',
    });
  });

  it('holds an iron condor’s widest spread, less nothing for its wings', async () => {
    const paper = await spyAt500();
    const condor = [
      leg('450', 'P', 'buy_to_open'),
      leg('460', 'P', 'sell_to_open'),
      leg('540', 'C', 'sell_to_open'),
      leg('550', 'C', 'buy_to_open'),
    ];
    await paper.place({ ...condor[0], group: 'combo', legs: condor, quantity: 1 });
    const { cash } = await paper.view();
    // Both spreads are 10 wide: at most one loses 1,000 at expiry.
    expect((await paper.view()).buyingPower).toBeCloseTo(cash - 1_000, 6);
  });

  it('holds a naked call’s shares’ value; a covered call holds nothing more', async () => {
    const paper = await spyAt500();
    await paper.place({ symbol: SPY('540', 'C'), class: 'option', action: 'sell_to_open', quantity: 1 });
    const { cash } = await paper.view();
    expect((await paper.view()).buyingPower).toBeCloseTo(cash - 50_000, 6);
    // Buying the 100 shares uses the 50,000 the call held: it is covered now.
    await paper.place({ symbol: 'SPY', quantity: 100 });
    expect((await paper.view()).buyingPower).toBeCloseTo(cash - 50_000, 6);
    expect((await paper.holdings()).cash).toBeCloseTo(cash - 50_000, 6);
  });

  it('holds a covered call’s shares’ value again when its shares are sold', async () => {
    const paper = await spyAt500();
    await paper.place({ symbol: 'SPY', quantity: 100 });
    await paper.place({ symbol: SPY('540', 'C'), class: 'option', action: 'sell_to_open', quantity: 1 });
    const covered = (await paper.view()).buyingPower;
    // The sale's 50,000 are held for the call, naked now: buying power does not grow.
    expect(await paper.place({ symbol: 'SPY', action: 'sell', quantity: 100 })).toMatchObject({ status: 'filled' });
    const { cash, buyingPower } = await paper.view();
    expect(cash).toBeCloseTo(covered + 50_000, 6);
    expect(buyingPower).toBeCloseTo(covered, 6);
  });

  it('holds a calendar’s short call as naked: its later long is still open when the short is assigned', async () => {
    const paper = await spyAt500();
    await paper.place({ symbol: SPY('540', 'C').replace('250620', '250919'), class: 'option', action: 'buy_to_open' });
    await paper.place({ symbol: SPY('540', 'C'), class: 'option', action: 'sell_to_open', quantity: 1 });
    const { cash, buyingPower } = await paper.view();
    expect(buyingPower).toBeCloseTo(cash - 50_000, 6);
  });

  it('refuses a short put a small account cannot secure', async () => {
    const paper = await spyAt500(10_000);
    await expect(
      paper.place({ symbol: SPY('460', 'P'), class: 'option', action: 'sell_to_open', quantity: 1 }),
    ).rejects.toMatchObject({ kind: 'InsufficientFunds' });
    // A put spread 10 wide needs 1,000 less its credit.
    const spread = [leg('460', 'P', 'sell_to_open'), leg('450', 'P', 'buy_to_open')];
    expect(await paper.place({ ...spread[0], group: 'combo', legs: spread, quantity: 1 })).toMatchObject({
      status: 'filled',
    });
  });
});
