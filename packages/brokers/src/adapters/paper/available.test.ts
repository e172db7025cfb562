import { describe, expect, it } from 'vitest';
import { MINUTE, paperFixture } from './paper.fixture.ts';
import { createMemoryPaperStore } from './store.ts';

describe('paper broker: what resting orders already sell is not available to sell again', () => {
  it('refuses a second sale of shares a resting sell holds, up front, not when it fills', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 100 });
    await paper.place({ action: 'sell', quantity: 100, type: 'limit', limit_price: 120 }, 'first');
    const refusal = {
      kind: 'InvalidOrder',
      brokerMessage: 'cannot sell 100 AAPL: 100 held, 100 of it in open orders (cancel them first)',
    };
    await expect(paper.place({ action: 'sell', quantity: 100, type: 'limit', limit_price: 130 })).rejects.toMatchObject(
      refusal,
    );
    await expect(paper.place({ action: 'sell', quantity: 100 })).rejects.toMatchObject(refusal);
    // What is not held by the open order is still for sale.
    await paper.place({ quantity: 30 });
    expect(await paper.place({ action: 'sell', quantity: 30 })).toMatchObject({ status: 'filled' });
    paper.prices.set('AAPL', 125);
    paper.advance(MINUTE);
    expect(await paper.getOrder('first')).toMatchObject({ status: 'filled' });
    expect((await paper.holdings()).positions).toEqual([]);
  });

  it('counts what resting buy_to_cover orders buy back of a short', async () => {
    const paper = await paperFixture();
    await paper.place({ action: 'sell_short', quantity: 10 });
    await paper.place({ action: 'buy_to_cover', quantity: 6, type: 'limit', limit_price: 90 });
    await expect(
      paper.place({ action: 'buy_to_cover', quantity: 5, type: 'limit', limit_price: 80 }),
    ).rejects.toMatchObject({
      brokerMessage: 'cannot buy_to_cover 5 AAPL: 10 held, 6 of it in open orders (cancel them first)',
    });
    expect(await paper.place({ action: 'buy_to_cover', quantity: 4, type: 'limit', limit_price: 80 })).toMatchObject({
      status: 'accepted',
    });
  });

  it('refuses a partial close that would leave less than a resting sell sells, up front', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 100 });
    await paper.place({ action: 'sell', quantity: 80, type: 'limit', limit_price: 120 }, 'resting');
    await expect(
      paper.place({ action: 'close', quantity: 50, quantity_type: 'percent_of_position' }),
    ).rejects.toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: 'cannot close 50 AAPL: 100 held, 80 of it in open orders (cancel them first)',
    });
    await expect(paper.place({ action: 'close', quantity: 30 })).rejects.toMatchObject({
      brokerMessage: 'cannot close 30 AAPL: 100 held, 80 of it in open orders (cancel them first)',
    });
    expect((await paper.holdings()).positions).toMatchObject([{ symbol: 'AAPL', quantity: 100 }]);
    // What the resting sell leaves is still closable; the resting sell then fills in full.
    expect(await paper.place({ action: 'close', quantity: 20 })).toMatchObject({ status: 'filled' });
    paper.prices.set('AAPL', 125);
    paper.advance(MINUTE);
    expect(await paper.getOrder('resting')).toMatchObject({ status: 'filled' });
    expect((await paper.holdings()).positions).toEqual([]);
  });

  it('leaves a bracket’s exits out: a sale shrinks them to what is left', async () => {
    const paper = await paperFixture();
    await paper.place({ quantity: 10, take_profit_price: 110, stop_loss_price: 95 });
    expect(await paper.place({ action: 'sell', quantity: 4 })).toMatchObject({ status: 'filled' });
    expect((await paper.view()).openOrders.map(({ quantity }) => quantity)).toEqual([6, 6]);
  });
});

const call = (strike: string) => `SPY   250620C00${strike}000`;

/** A roll up from the 500 call to the 510 at `limit_price`, listed under its first leg (the 510). */
function rollUp(limit_price: number) {
  const legs = [
    { symbol: call('510'), class: 'option' as const, action: 'buy_to_open' as const, quantity: 1 },
    { symbol: call('500'), class: 'option' as const, action: 'sell_to_close' as const, quantity: 1 },
  ];
  return { ...legs[0], type: 'limit' as const, limit_price, group: 'combo' as const, legs };
}

describe('paper broker: every leg of a resting combo counts as in open orders', () => {
  it('refuses selling again the contracts a resting combo’s later leg sells', async () => {
    const paper = await paperFixture();
    paper.prices.set('SPY', 500);
    await paper.place({ symbol: call('500'), class: 'option', action: 'buy_to_open', quantity: 2 });
    // A roll up, listed under its first leg (the 510 call): it sells 1 of the 500 calls held.
    const roll = await paper.place(rollUp(-50));
    expect(roll).toMatchObject({ status: 'accepted' });
    const sale = { symbol: call('500'), class: 'option' as const, action: 'sell_to_close' as const };
    await expect(paper.place({ ...sale, quantity: 2, type: 'limit', limit_price: 90 })).rejects.toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: `cannot sell_to_close 2 ${call('500')}: 2 held, 1 of it in open orders (cancel them first)`,
    });
    // The contract the roll leaves is still for sale.
    expect(await paper.place({ ...sale, quantity: 1, type: 'limit', limit_price: 90 })).toMatchObject({
      status: 'accepted',
    });
  });
});

describe('paper broker: an option sale counts only the resting combos the market has not reached', () => {
  it('fills a resting combo the market reached before counting its leg as in open orders', async () => {
    const paper = await paperFixture();
    paper.prices.set('SPY', 500);
    await paper.place({ symbol: call('500'), class: 'option', action: 'buy_to_open', quantity: 2 });
    // A roll up listed under its 510 leg: it sells 1 of the 500 calls held for a credit of 8 or more.
    await paper.place(rollUp(-8), 'roll');
    expect(await paper.getOrder('roll')).toMatchObject({ status: 'accepted' });
    // SPY runs up: the 500 call is worth almost 10 more than the 510, the roll's credit is reached.
    paper.prices.set('SPY', 700);
    paper.advance(MINUTE);
    const sale = { symbol: call('500'), class: 'option' as const, action: 'sell_to_close' as const };
    await expect(paper.place({ ...sale, quantity: 2 })).rejects.toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: `cannot sell_to_close 2 ${call('500')}, 1 held`,
    });
    expect(await paper.getOrder('roll')).toMatchObject({ status: 'filled' });
    expect(await paper.place({ ...sale, quantity: 1 })).toMatchObject({ status: 'filled' });
  });
});

describe('paper broker: shares covering a resting call sold to open are held for it', () => {
  const call = `SPY   250620C00540000`;
  const sellCall = { symbol: call, class: 'option' as const, action: 'sell_to_open' as const, quantity: 1 };
  it('refuses selling them up front, rather than reject the call when it fills', async () => {
    const paper = await paperFixture({ startingCash: 51_000 });
    paper.prices.set('SPY', 500);
    // 50,000 of shares: sold, their 50,000 would not carry the call naked at SPY 600 (60,000).
    await paper.place({ symbol: 'SPY', quantity: 100 });
    await paper.place({ ...sellCall, type: 'limit', limit_price: 30 }, 'covered-call');
    expect(await paper.getOrder('covered-call')).toMatchObject({ status: 'accepted' });
    await expect(paper.place({ symbol: 'SPY', action: 'sell', quantity: 100 })).rejects.toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: 'cannot sell 100 SPY: 100 held, 100 of it in open orders (cancel them first)',
    });
    await expect(paper.place({ symbol: 'SPY', action: 'close', quantity: 1 })).rejects.toMatchObject({
      brokerMessage: 'cannot close 1 SPY: 100 held, 100 of it in open orders (cancel them first)',
    });
    // A close of the whole position too, its own open orders left as they were.
    await paper.place({ symbol: 'SPY', quantity: 1, type: 'limit', limit_price: 400 }, 'dip');
    await expect(paper.place({ symbol: 'SPY', action: 'close', quantity: undefined })).rejects.toMatchObject({
      brokerMessage: 'cannot close 100 SPY: 100 held, 100 of it in open orders (cancel them first)',
    });
    expect(await paper.getOrder('dip')).toMatchObject({ status: 'accepted' });
    // SPY runs up: the call fills, covered by the shares still held.
    paper.prices.set('SPY', 600);
    paper.advance(MINUTE);
    expect(await paper.getOrder('covered-call')).toMatchObject({ status: 'filled' });
    expect((await paper.holdings()).positions).toMatchObject([
      { symbol: 'SPY', quantity: 100 },
      { symbol: call, quantity: -1 },
    ]);
  });

  it('holds them for a call resting since before the count, the account counting it at its next call', async () => {
    const store = createMemoryPaperStore();
    const paper = await paperFixture({ startingCash: 200_000, store });
    paper.prices.set('SPY', 500);
    await paper.place({ symbol: 'SPY', quantity: 100 });
    await paper.place({ ...sellCall, type: 'limit', limit_price: 30 }, 'covered-call');
    // The account as written before the count: the call rests, nothing counted.
    await store.transaction(paper.accountId, async (tx) => {
      const { openCallSales, ...before } = (await tx.getAccount()) ?? expect.fail('no account');
      expect(openCallSales).toEqual({ SPY: 1 });
      await tx.putAccount(before);
    });
    await expect(paper.place({ symbol: 'SPY', action: 'sell', quantity: 100 })).rejects.toMatchObject({
      kind: 'InvalidOrder',
      brokerMessage: 'cannot sell 100 SPY: 100 held, 100 of it in open orders (cancel them first)',
    });
    // Counted once: a second call sold to open and canceled leaves the first counted.
    const other = 'SPY   250620C00560000';
    await paper.place({ ...sellCall, symbol: other, type: 'limit', limit_price: 20 });
    await paper.place({ symbol: other, class: 'option', action: 'cancel' });
    await expect(paper.place({ symbol: 'SPY', action: 'sell', quantity: 100 })).rejects.toMatchObject({
      kind: 'InvalidOrder',
    });
    expect(await paper.getOrder('covered-call')).toMatchObject({ status: 'accepted' });
  });

  it('frees the shares once the call is canceled, and counts a call spread as covering itself', async () => {
    const paper = await paperFixture();
    paper.prices.set('SPY', 500);
    await paper.place({ symbol: 'SPY', quantity: 100 });
    await paper.place({ ...sellCall, type: 'limit', limit_price: 30 });
    await paper.place({ symbol: call, class: 'option', action: 'cancel' });
    const legs = [
      { symbol: call, class: 'option' as const, action: 'sell_to_open' as const, quantity: 1 },
      { symbol: 'SPY   250620C00550000', class: 'option' as const, action: 'buy_to_open' as const, quantity: 1 },
    ];
    await paper.place({ ...legs[0], type: 'limit', limit_price: -9, group: 'combo', legs }, 'spread');
    expect(await paper.getOrder('spread')).toMatchObject({ status: 'accepted' });
    expect(await paper.place({ symbol: 'SPY', action: 'sell', quantity: 100 })).toMatchObject({ status: 'filled' });
  });
});
