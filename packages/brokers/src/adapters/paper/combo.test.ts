import type { OrderLeg } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { MINUTE, paperFixture } from './paper.fixture.ts';

const leg = (strike: string, right: 'C' | 'P', action: OrderLeg['action']): OrderLeg => ({
  symbol: `SPY   250620${right}00${strike}000`,
  class: 'option',
  action,
  quantity: 1,
});
/** Long the 450 put, short the 460 put and the 540 call, long the 550 call, around SPY at 500. */
const condor = [
  leg('450', 'P', 'buy_to_open'),
  leg('460', 'P', 'sell_to_open'),
  leg('540', 'C', 'sell_to_open'),
  leg('550', 'C', 'buy_to_open'),
];
const first = condor[0] as OrderLeg;

describe('paper broker: multi-leg option orders', () => {
  it('fills an iron condor at once at the net of its legs, a credit', async () => {
    const paper = await paperFixture();
    paper.prices.set('SPY', 500);
    const filled = await paper.place({ ...first, group: 'combo', legs: condor });
    expect(filled).toMatchObject({ status: 'filled' });
    const net = filled.price ?? 0;
    expect(net).toBeLessThan(0);
    expect(filled.status_description).toBe(`Filled: 1 × 4-leg combo at a net ${net}`);
    const holdings = await paper.holdings();
    expect(holdings.cash).toBeCloseTo(100_000 - net * 100, 6);
    expect(holdings.positions.map((position) => [position.symbol.slice(12), position.quantity])).toEqual([
      ['P00450000', 1],
      ['P00460000', -1],
      ['C00540000', -1],
      ['C00550000', 1],
    ]);
  });

  it('rests a limit combo until its net reaches the limit, then fills it whole', async () => {
    const paper = await paperFixture();
    paper.prices.set('SPY', 500);
    const legs = [leg('500', 'C', 'buy_to_open'), leg('510', 'C', 'sell_to_open')];
    // A call spread: a debit of a few dollars now; a limit of 1 waits for SPY to fall.
    const rested = await paper.place({ ...legs[0], type: 'limit', limit_price: 1, legs, group: 'combo' }, 'spread');
    expect(rested).toMatchObject({
      status: 'accepted',
      status_description: 'Accepted: 2-leg combo ×1 at a net 1 (gtc)',
    });
    expect((await paper.view()).openOrders).toMatchObject([{ id: rested.id, legs: [{ ratio: 1 }, { ratio: 1 }] }]);
    paper.prices.set('SPY', 420);
    paper.advance(MINUTE);
    const filled = await paper.getOrder('spread');
    expect(filled).toMatchObject({ status: 'filled' });
    expect(filled?.price).toBeLessThanOrEqual(1);
    expect((await paper.holdings()).positions).toHaveLength(2);
  });

  it('never rounds a net limit past the trader’s: a credit of at least 0.005 more than the market rests', async () => {
    const market = await paperFixture();
    market.prices.set('SPY', 500);
    const net = (await market.place({ ...first, group: 'combo', legs: condor })).price ?? 0;
    const paper = await paperFixture();
    paper.prices.set('SPY', 500);
    const limit = Math.round((net - 0.005) * 1000) / 1000;
    expect(
      await paper.place({ ...first, type: 'limit', limit_price: limit, group: 'combo', legs: condor }),
    ).toMatchObject({
      status: 'accepted',
      status_description: `Accepted: 4-leg combo ×1 at a net ${Math.round((net - 0.01) * 100) / 100} (gtc)`,
    });
  });

  it('refuses what a combo desk would', async () => {
    const paper = await paperFixture();
    const mixed = [first, { ...leg('100', 'C', 'sell_to_open'), symbol: 'AAPL  250620C00100000' }];
    await expect(paper.place({ ...first, legs: mixed })).rejects.toMatchObject({
      brokerMessage: 'multi-leg orders are supported for options on one underlying',
    });
    await expect(paper.place({ ...first, legs: condor, type: 'stop', stop_price: 1 })).rejects.toMatchObject({
      brokerMessage: 'multi-leg orders are market or limit orders',
    });
    // A leg's own price would be dropped (the combo trades at its net): refused, never filled at the market.
    const priced = condor.map((one) => ({ ...one, type: 'limit' as const, limit_price: 0.05 }));
    await expect(paper.place({ ...first, legs: priced })).rejects.toMatchObject({
      brokerMessage: 'legs take no type or price: give the net price as limit_price',
    });
    expect((await paper.holdings()).positions).toEqual([]);
    const unknown = [first, { ...first, symbol: 'ZZZZZQ250620C00100000' }];
    await expect(paper.place({ ...first, legs: unknown })).rejects.toMatchObject({
      brokerMessage: 'Symbol not found: ZZZZZQ250620C00100000',
    });
  });
});

describe('paper broker: a combo names each contract once', () => {
  it('refuses two legs on one contract: two sales of the 1 call held would have sold 2, opening a short', async () => {
    const paper = await paperFixture();
    paper.prices.set('SPY', 500);
    const call = leg('500', 'C', 'sell_to_close');
    await paper.place({ ...call, action: 'buy_to_open' });
    await expect(paper.place({ ...call, group: 'combo', legs: [call, { ...call }] })).rejects.toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: `${call.symbol} is in two legs: give each contract once, with its whole quantity`,
    });
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: call.symbol, quantity: 1 }]);
  });
});

describe('paper broker: a close or a cancel of a contract ends the resting combos with a leg on it', () => {
  const call = (strike: string) => `SPY   250620C00${strike}000`;
  // A roll up, listed under its first leg (the 510 call): it sells the 500 call held.
  const roll = [
    { symbol: call('510'), class: 'option' as const, action: 'buy_to_open' as const, quantity: 1 },
    { symbol: call('500'), class: 'option' as const, action: 'sell_to_close' as const, quantity: 1 },
  ];
  async function rolling() {
    const paper = await paperFixture();
    paper.prices.set('SPY', 500);
    await paper.place({ symbol: call('500'), class: 'option', action: 'buy_to_open', quantity: 1 });
    await paper.place({ ...roll[0], type: 'limit', limit_price: -50, group: 'combo', legs: roll }, 'roll');
    return paper;
  }

  it('close cancels the roll first, rather than leave it to be rejected when it fills', async () => {
    const paper = await rolling();
    const close = await paper.place({ symbol: call('500'), class: 'option', action: 'close' });
    expect(close).toMatchObject({ status: 'filled' });
    expect(await paper.getOrder('roll')).toMatchObject({
      status: 'canceled',
      status_description: `Canceled by close order ${close.id}`,
    });
    expect((await paper.holdings()).positions).toEqual([]);
  });

  it('cancel cancels it too', async () => {
    const paper = await rolling();
    expect(await paper.place({ symbol: call('500'), class: 'option', action: 'cancel' })).toMatchObject({
      status: 'canceled',
      status_description: `Canceled 1 open order(s) for ${call('500')}`,
    });
    expect(await paper.getOrder('roll')).toMatchObject({ status: 'canceled' });
  });
});
