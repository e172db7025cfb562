// Contract tests of finding, canceling and closing at E*TRADE against the protocol fake: every
// lookup route findOrder takes (by id, by terms around the send time), cancel by either id and
// the cancel action, close from the portfolio, holdings.
import { describe, expect, it } from 'vitest';
import { brokerFailure } from '../../core/expect-failure.ts';
import { findOrder } from '../../core/find-order.ts';
import { ACCOUNT, MINUTE, toOrder, useEtradeFake } from './test-support.ts';

const t = useEtradeFake({
  accounts: [{ accountId: '84345821', accountIdKey: 'dBZOKt9xDrtRSAOl4MSiiA', cash: 10_000_000 }],
});
const lookup = { accountId: ACCOUNT, clientOrderId: 'sigLookup1' };

describe('findOrder', () => {
  it('by the order id when known, else by terms around the send time, never by our id alone', async () => {
    const session = await t.connect();
    t.clock.time += MINUTE;
    const signal = { symbol: 'AAPL', action: 'buy', quantity: 7 };
    const sentAt = t.clock.time;
    const placed = await t.place(session, signal, 'sigLookup1');
    expect(await findOrder(t.broker, t.ctx, session, lookup)).toEqual({
      match: 'unknown',
      reason: 'E*TRADE lists recent orders only, and the send time is not known',
    });
    expect(await findOrder(t.broker, t.ctx, session, { ...lookup, brokerOrderId: placed.id })).toEqual({
      match: 'exact',
      order: { id: placed.id, status: 'filled', status_description: 'EXECUTED', price: 175 },
    });
    t.fake.requests.length = 0;
    const bySent = await findOrder(t.broker, t.ctx, session, { ...lookup, order: toOrder(signal), sentAt });
    expect(bySent).toMatchObject({ match: 'probable', order: { id: placed.id, status: 'filled' } });
    expect(t.fake.requests.map((r) => r.url)).toEqual([
      `/v1/accounts/${ACCOUNT}/orders.json?count=100&fromDate=06092026&toDate=06092026`,
    ]);
    const other = toOrder({ symbol: 'AAPL', action: 'buy', quantity: 8 });
    expect(await findOrder(t.broker, t.ctx, session, { ...lookup, order: other, sentAt })).toEqual({ match: 'none' });
    const closing = toOrder({ symbol: 'AAPL', action: 'close' });
    expect(await findOrder(t.broker, t.ctx, session, { ...lookup, order: closing, sentAt })).toMatchObject({
      match: 'unknown',
    });
    const second = await t.place(session, signal, 'sigLookup2');
    expect(await findOrder(t.broker, t.ctx, session, { ...lookup, order: toOrder(signal), sentAt })).toEqual({
      match: 'unknown',
      reason: `2 orders at E*TRADE match (${second.id}, ${placed.id})`,
    });
    expect(await findOrder(t.broker, t.ctx, session, { ...lookup, brokerOrderId: '999' })).toEqual({
      match: 'unknown',
      reason: 'E*TRADE does not know its own order 999',
    });
  });

  it('reads past the first page of the list (marker and next)', async () => {
    const session = await t.connect();
    t.clock.time += MINUTE;
    const sentAt = t.clock.time;
    const before = t.fake.orders.length;
    // The 101 orders leave the list afterwards: the other tests read the same day in one page.
    try {
      const first = await t.place(session, { symbol: 'MSFT', action: 'sell_short', quantity: 1 }, 'sigPage0');
      for (let i = 1; i <= 100; i++)
        await t.place(session, { symbol: 'MSFT', action: 'buy', quantity: i }, `sigPage${i}`);
      t.fake.requests.length = 0;
      const found = await findOrder(t.broker, t.ctx, session, {
        ...lookup,
        order: toOrder({ symbol: 'MSFT', action: 'sell_short', quantity: 1 }),
        sentAt,
      });
      expect(found).toMatchObject({ match: 'probable', order: { id: first.id } });
      expect(t.fake.requests.map((r) => new URL(r.url, 'http://x').searchParams.get('marker'))).toEqual([null, '100']);
    } finally {
      t.fake.orders.splice(before);
    }
  });

  it('proves nothing when the window holds more orders than it reads: unknown, never none', async () => {
    const session = await t.connect();
    t.clock.time += MINUTE;
    const sentAt = t.clock.time;
    const signal = { symbol: 'ORCL', action: 'buy', quantity: 3 };
    await t.place(session, signal, 'sigDeep');
    // A thousand later orders in the window: ours is on the eleventh page of the list.
    const later = Array.from({ length: 1000 }, (_, index) => ({
      orderId: 70_000_000 + index,
      accountIdKey: ACCOUNT,
      orderType: 'EQ',
      clientOrderId: `sigLater${index}`,
      placedTime: sentAt + 1_000,
      status: 'CANCELLED',
      order: {
        allOrNone: false,
        priceType: 'LIMIT',
        orderTerm: 'GOOD_FOR_DAY',
        marketSession: 'REGULAR',
        limitPrice: 1,
        Instrument: [
          { Product: { symbol: 'IBM', securityType: 'EQ' }, orderAction: 'BUY', quantityType: 'QUANTITY', quantity: 1 },
        ],
      },
      placed: false,
    }));
    t.fake.orders.push(...later);
    try {
      const found = await findOrder(t.broker, t.ctx, session, { ...lookup, order: toOrder(signal), sentAt });
      expect(found).toEqual({ match: 'unknown', reason: 'E*TRADE no longer lists the orders of that time' });
    } finally {
      t.fake.orders.splice(t.fake.orders.length - later.length, later.length);
    }
  });
});

describe('cancel, close and holdings', () => {
  it('cancels by order id, refuses by our id alone, and cancels a symbol’s open orders', async () => {
    const session = await t.connect();
    const resting = await t.place(
      session,
      { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 150 },
      'sigCancel1',
    );
    await t.broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: resting.id });
    expect(t.bodies('/cancel.json')).toEqual([{ CancelOrderRequest: { orderId: Number(resting.id) } }]);
    expect(await findOrder(t.broker, t.ctx, session, { ...lookup, brokerOrderId: resting.id })).toMatchObject({
      order: { status: 'canceled', status_description: 'CANCELLED' },
    });
    const again = await brokerFailure(
      t.broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: resting.id }),
    );
    expect(again.message).toBe(`E*TRADE: Order ${resting.id} cannot be cancelled.`);
    const byOurs = await brokerFailure(
      t.broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, clientOrderId: 'sigCancel1' }),
    );
    expect([byOurs.kind, byOurs.message]).toEqual([
      'OrderNotFound',
      'E*TRADE: no order with client order id sigCancel1',
    ]);
    const a = await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 151 }, 'sigCancel2');
    const b = await t.place(session, { symbol: 'AAPL', action: 'sell', quantity: 1, limit_price: 300 }, 'sigCancel3');
    await t.place(session, { symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 300 }, 'sigCancel4');
    t.fake.requests.length = 0;
    const answer = await t.place(session, { symbol: 'AAPL', action: 'cancel' });
    expect(answer).toEqual({
      id: `${b.id},${a.id}`,
      status: 'canceled',
      status_description: 'Canceled 2 open order(s) of AAPL',
    });
    // Listed by symbol, every status (an order executed in part works on): the working ones canceled.
    expect(new URL(t.fake.requests[0]?.url ?? '', 'http://x').searchParams.get('symbol')).toBe('AAPL');
    expect(await t.place(session, { symbol: 'AAPL', action: 'cancel' })).toMatchObject({
      status_description: 'No open orders of AAPL',
    });
  });

  it('a cancel signal that fails partway says which orders were canceled and which not', async () => {
    const session = await t.connect();
    const a = await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 140 }, 'sigSplit1');
    const b = await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 141 }, 'sigSplit2');
    // The first cancel goes through (the newest first: b); the second is refused.
    t.fake.inject({ method: 'PUT', path: /\/cancel\.json$/, delayMs: 1 });
    const body = { Error: { code: 5001, message: 'This order cannot be cancelled.' } };
    t.fake.inject({ method: 'PUT', path: /\/cancel\.json$/, status: 403, body });
    const error = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'cancel' }));
    expect([error.kind, error.outcomeUnknown]).toEqual(['InvalidOrder', false]);
    expect(error.message).toBe(
      `E*TRADE: This order cannot be cancelled.; of the open orders of AAPL, only some were canceled: ${b.id}; not ${a.id}: check them at the broker`,
    );
    expect(await t.place(session, { symbol: 'AAPL', action: 'cancel' })).toMatchObject({ id: a.id });
  });

  it('closes a long and a short position with market orders; holdings show them', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 30 }, 'sigClose1');
    await t.place(session, { symbol: 'TSLA', action: 'sell_short', quantity: 4 }, 'sigClose2');
    await t.place(session, { symbol: 'AAPL  261218C00200000', action: 'buy_to_open', quantity: 2 }, 'sigClose3');
    const holdings = await t.broker.getHoldings(t.ctx, session, ACCOUNT);
    expect(holdings.positions).toEqual(
      expect.arrayContaining([
        { symbol: 'AAPL', quantity: expect.any(Number), averagePrice: 175, marketValue: expect.any(Number) },
        { symbol: 'TSLA', quantity: -4, averagePrice: 100, marketValue: -400 },
        { symbol: 'AAPL  261218C00200000', quantity: 2, averagePrice: 2.5, marketValue: 500 },
      ]),
    );
    expect(holdings).toMatchObject({ currency: 'USD', cash: expect.any(Number), equity: expect.any(Number) });
    t.fake.requests.length = 0;
    await t.place(session, { symbol: 'TSLA', action: 'close' }, 'sigClose4');
    await t.broker.closePosition(t.ctx, session, ACCOUNT, 'AAPL  261218C00200000');
    const placed = t.bodies('/place.json') as Array<{
      PlaceOrderRequest: { Order: Array<{ priceType: string; Instrument: unknown[] }> };
    }>;
    expect(
      placed.map((body) => [body.PlaceOrderRequest.Order[0]?.priceType, body.PlaceOrderRequest.Order[0]?.Instrument]),
    ).toEqual([
      [
        'MARKET',
        [
          {
            Product: { securityType: 'EQ', symbol: 'TSLA' },
            orderAction: 'BUY_TO_COVER',
            quantityType: 'QUANTITY',
            quantity: 4,
          },
        ],
      ],
      [
        'MARKET',
        [
          {
            Product: {
              securityType: 'OPTN',
              symbol: 'AAPL',
              callPut: 'CALL',
              expiryYear: 2026,
              expiryMonth: 12,
              expiryDay: 18,
              strikePrice: 200,
            },
            orderAction: 'SELL_CLOSE',
            quantityType: 'QUANTITY',
            quantity: 2,
          },
        ],
      ],
    ]);
    const none = await brokerFailure(t.place(session, { symbol: 'NVDA', action: 'close' }, 'sigClose5'));
    expect(none.message).toBe('E*TRADE: no open position in NVDA');
  });

  it('a close of the whole position cancels the symbol’s open orders first; a close of part keeps them', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'IBM', action: 'buy', quantity: 10 }, 'sigFull1');
    const stop = await t.place(
      session,
      { symbol: 'IBM', action: 'sell', quantity: 10, type: 'stop', stop_price: 100 },
      'sigFull2',
    );
    await t.place(session, { symbol: 'TXN', action: 'buy', quantity: 1, limit_price: 150 }, 'sigFull3');
    t.fake.requests.length = 0;
    await t.place(session, { symbol: 'IBM', action: 'close', quantity: 4 }, 'sigFull4');
    expect(t.bodies('/cancel.json')).toEqual([]);
    // Kept, for what is left (changed into a new order).
    const kept = t.fake.orders.at(-1);
    expect([t.fake.orders.find((order) => order.orderId === Number(stop.id))?.status, kept?.status]).toEqual([
      'CANCELLED',
      'OPEN',
    ]);
    // Left working after the close, the stop would sell shares no longer held.
    await t.place(session, { symbol: 'IBM', action: 'close' }, 'sigFull5');
    expect(t.bodies('/cancel.json')).toEqual([{ CancelOrderRequest: { orderId: kept?.orderId } }]);
  });

  it('a close refused after the open orders were canceled for it says so: the position is still open, its exits gone', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'ORCL', action: 'buy', quantity: 5 }, 'sigGone1');
    const stop = await t.place(
      session,
      { symbol: 'ORCL', action: 'sell', quantity: 5, type: 'stop', stop_price: 100 },
      'sigGone2',
    );
    const message = 'Insufficient resources to process the request; try again later';
    t.fake.inject({ method: 'POST', path: /place\.json$/, status: 500, body: { Error: { code: 9999, message } } });
    const error = await brokerFailure(t.place(session, { symbol: 'ORCL', action: 'close' }, 'sigGone3'));
    expect([error.kind, error.outcomeUnknown]).toEqual(['InsufficientFunds', true]);
    expect(error.message).toBe(
      `E*TRADE: ${message}; the open orders of ORCL were canceled before the close (${stop.id}): check the position and its exits at the broker`,
    );
  });

  it('a close of part changes the exits larger than what is left into ones for what is left', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'QCOM', action: 'buy', quantity: 10 }, 'sigCut1');
    const stop = await t.place(
      session,
      { symbol: 'QCOM', action: 'sell', quantity: 10, type: 'stop', stop_price: 90, duration: 'gtc' },
      'sigCut2',
    );
    await t.place(session, { symbol: 'QCOM', action: 'sell', quantity: 3, limit_price: 300 }, 'sigCut3');
    t.fake.requests.length = 0;
    const answer = await t.place(session, { symbol: 'QCOM', action: 'close', quantity: 4 }, 'sigCut4');
    const changes = t.calls().filter((call) => call.includes('/change/'));
    const path = `/v1/accounts/${ACCOUNT}/orders/${stop.id}/change`;
    expect(changes).toEqual([`PUT ${path}/preview`, `PUT ${path}/place`]);
    // Left at 10, the stop would sell 4 shares more than the 6 held once triggered (a short).
    const changed = t.fake.orders.at(-1);
    expect(t.fake.orders.find((order) => order.orderId === Number(stop.id))?.status).toBe('CANCELLED');
    expect(changed?.status).toBe('OPEN');
    expect(changed?.order).toEqual({
      allOrNone: false,
      priceType: 'STOP',
      orderTerm: 'GOOD_UNTIL_CANCEL',
      marketSession: 'REGULAR',
      stopPrice: 90,
      Instrument: [
        { Product: { securityType: 'EQ', symbol: 'QCOM' }, orderAction: 'SELL', quantityType: 'QUANTITY', quantity: 6 },
      ],
    });
    expect(answer.status_description).toMatch(
      new RegExp(`; exits cut to the 6 left: ${stop.id} → ${changed?.orderId}$`),
    );
  });

  it('a close of all of it cancels an exit executed in part too (INDIVIDUAL_FILLS, still working)', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'NFLX', action: 'buy', quantity: 10 }, 'sigFill1');
    const target = await t.place(
      session,
      { symbol: 'NFLX', action: 'sell', quantity: 10, limit_price: 300, duration: 'gtc' },
      'sigFill2',
    );
    t.fake.fillPart(Number(target.id), 4);
    t.fake.requests.length = 0;
    await t.place(session, { symbol: 'NFLX', action: 'close' }, 'sigFill3');
    // Left working, the 6 the take profit has still to sell would be sold a second time (a short).
    expect(t.bodies('/cancel.json')).toEqual([{ CancelOrderRequest: { orderId: Number(target.id) } }]);
    const [close] = t.bodies('/place.json') as Array<{
      PlaceOrderRequest: { Order: Array<{ Instrument: Array<{ quantity: number }> }> };
    }>;
    expect(close?.PlaceOrderRequest.Order[0]?.Instrument[0]?.quantity).toBe(6);
  });

  it('a close with a quantity closes that many, never more than is held', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'CSCO', action: 'buy', quantity: 10 }, 'sigHalf1');
    t.fake.requests.length = 0;
    await t.place(session, { symbol: 'CSCO', action: 'close', quantity: 4 }, 'sigHalf2');
    await t.place(session, { symbol: 'CSCO', action: 'close', quantity: 50 }, 'sigPart3');
    const placed = t.bodies('/place.json') as Array<{
      PlaceOrderRequest: { Order: Array<{ Instrument: Array<{ orderAction: string; quantity: number }> }> };
    }>;
    expect(
      placed.map((body) => {
        const [instrument] = body.PlaceOrderRequest.Order[0]?.Instrument ?? [];
        return [instrument?.orderAction, instrument?.quantity];
      }),
    ).toEqual([
      ['SELL', 4],
      ['SELL', 6],
    ]);
  });
});

describe('a portfolio of more than one page (50 positions a page)', () => {
  it('holdings list every page, and a close finds the position on a later page', async () => {
    const session = await t.connect();
    const account = t.fake.accounts.get(ACCOUNT);
    const symbolOf = (i: number) =>
      `ZZ${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`;
    // 60 positions: E*TRADE answers 50 on the first page; ZZCH (the 60th) is on the second.
    for (let i = 0; i < 60; i++) {
      const symbol = symbolOf(i);
      account?.positions.set(symbol, { product: { symbol, securityType: 'EQ' }, quantity: 10 + i, costPerShare: 5 });
    }
    const holdings = await t.broker.getHoldings(t.ctx, session, ACCOUNT);
    expect(holdings.positions.filter((position) => position.symbol.startsWith('ZZ'))).toHaveLength(60);
    t.fake.requests.length = 0;
    await t.place(session, { symbol: 'ZZCH', action: 'close' }, 'sigPortfolio1');
    const placed = t.bodies('/place.json') as Array<{
      PlaceOrderRequest: { Order: Array<{ Instrument: Array<{ orderAction: string; quantity: number }> }> };
    }>;
    const [instrument] = placed[0]?.PlaceOrderRequest.Order[0]?.Instrument ?? [];
    expect([instrument?.orderAction, instrument?.quantity]).toEqual(['SELL', 69]);
    for (let i = 0; i < 60; i++) account?.positions.delete(symbolOf(i));
  });
});
