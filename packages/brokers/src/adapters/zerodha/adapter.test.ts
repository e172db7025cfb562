// Contract: Kite's errors by error_type, titled; nothing placed twice (timeouts, 429, 5xx);
// lookups through findOrder (by Kite's id, by our tag in the day's book: exact, none, unknown);
// cancel by either id; close and cancel signals; holdings.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findOrder } from '../../core/find-order.ts';
import { ACCOUNT, type Connected, connected, expectFailure, input, sentSince } from './test-support.ts';

// A fake and session of each case's own: orders filled by one case change the cash, positions and
// book the next one reads.
let c: Connected;
beforeEach(async () => {
  c = await connected();
});
afterEach(() => c.fake.close());

const BUY = { symbol: 'NSE:SBIN', action: 'buy', quantity: 1 };
const kiteError = (status: number, error_type: string, message: string) => ({
  status,
  body: { status: 'error', message, data: null, error_type },
});

describe('errors', () => {
  it.each([
    [kiteError(400, 'InputException', 'Tag length cannot be more than 20 characters.'), 'InvalidOrder', false],
    [
      kiteError(
        400,
        'MarginException',
        'Insufficient funds. Required margin is 228365.92 but available margin is 228358.50.',
      ),
      'InsufficientFunds',
      false,
    ],
    [kiteError(403, 'TokenException', 'Incorrect `api_key` or `access_token`.'), 'AuthenticationError', false],
    // The app may not make this call (a personal app has no quotes): the token is good, the call refused.
    [kiteError(403, 'PermissionException', 'Insufficient permission for that call.'), 'InvalidOrder', false],
    // An account-level refusal of this order (Kite: "user account related errors"); only TokenException
    // says the session is gone (WIRE.md §8).
    [kiteError(403, 'UserException', 'Your account is not enabled for this segment.'), 'InvalidOrder', false],
    // Kite's order system failing on the order (500): it may stand, so the outcome is unknown.
    [kiteError(500, 'OrderException', 'Order could not be placed. Try again.'), 'BrokerUnavailable', true],
    [kiteError(500, 'GeneralException', 'Something went wrong'), 'BrokerUnavailable', true],
    [kiteError(503, 'NetworkException', 'Gateway timed out'), 'BrokerUnavailable', true],
    [kiteError(502, 'DataException', 'Bad response from the OMS'), 'BrokerUnavailable', true],
    // A 5xx decides nothing, whatever error_type it carries: the order may stand, the session is not refused.
    [kiteError(500, 'InputException', 'Something went wrong'), 'InvalidOrder', true],
    [kiteError(503, 'TokenException', 'Gateway could not verify the session'), 'BrokerUnavailable', true],
  ])('maps %j by error_type, sent once', async (answer, kind, outcomeUnknown) => {
    const before = c.fake.submissions().length;
    c.fake.inject({ method: 'POST', path: '/orders/regular', ...answer });
    const error = await expectFailure(c.broker.placeOrder(c.ctx, c.session, input(BUY)));
    expect(error).toMatchObject({ kind, outcomeUnknown, message: `Zerodha: ${answer.body.message}` });
    expect(c.fake.submissions().length).toBe(before + 1);
  });

  it('429 on an order: reported, not retried (the order was not placed)', async () => {
    const before = c.fake.submissions().length;
    c.fake.inject({
      method: 'POST',
      path: '/orders/regular',
      ...kiteError(429, 'NetworkException', 'Too many requests'),
    });
    const error = await expectFailure(c.broker.placeOrder(c.ctx, c.session, input(BUY)));
    expect(error).toMatchObject({
      kind: 'RateLimited',
      outcomeUnknown: false,
      message: 'Zerodha: rate limit reached (Too many requests); the order was not placed',
    });
    expect(c.fake.submissions().length).toBe(before + 1);
  });

  it('429 on a cancel: reported, not retried, and the order said to be still working (not canceled)', async () => {
    const open = await c.broker.placeOrder(c.ctx, c.session, input({ ...BUY, limit_price: 702 }));
    c.fake.inject({
      method: 'DELETE',
      path: `/orders/regular/${open.id}`,
      ...kiteError(429, 'NetworkException', 'Too many requests'),
    });
    const error = await expectFailure(
      c.broker.cancelOrder(c.ctx, c.session, { accountId: ACCOUNT, brokerOrderId: open.id }),
    );
    expect(error).toMatchObject({
      kind: 'RateLimited',
      message: 'Zerodha: rate limit reached (Too many requests); the order was not canceled',
    });
  });

  it('429 on a read: tried once more after a second', async () => {
    c.fake.inject({ method: 'GET', path: '/user/margins', ...kiteError(429, 'NetworkException', 'Too many requests') });
    const before = c.fake.requests.length;
    expect((await c.broker.getHoldings(c.ctx, c.session, ACCOUNT)).cash).toBe(500_000);
    expect(sentSince(c.fake, before).filter((r) => r.path === '/user/margins')).toHaveLength(2);
  });

  it('an HTTP 200 that is not a success is an error, not an order', async () => {
    c.fake.inject({
      method: 'POST',
      path: '/orders/regular',
      status: 200,
      body: { status: 'error', message: 'Order placement failed', error_type: 'InputException' },
    });
    expect(await expectFailure(c.broker.placeOrder(c.ctx, c.session, input(BUY)))).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Zerodha: Order placement failed',
    });
    c.fake.inject({ method: 'POST', path: '/orders/regular', status: 200, body: { status: 'success', data: {} } });
    expect(await expectFailure(c.broker.placeOrder(c.ctx, c.session, input(BUY)))).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
    });
  });

  it('a timed-out placement is not resent; our tag finds it in the book', async () => {
    const before = c.fake.submissions().length;
    const held = c.fake.orders.length;
    // The deadline passes as the order reaches Kite, which places it 400 ms later.
    const deadline = new AbortController();
    c.fake.inject({ method: 'POST', path: '/orders/regular', delayMs: 400, onArrival: () => deadline.abort() });
    const placing = input(BUY, 'lostSignal1');
    const error = await expectFailure(c.broker.placeOrder({ ...c.ctx, signal: deadline.signal }, c.session, placing));
    expect(error).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
      message: 'Zerodha: no answer before the deadline',
    });
    await vi.waitFor(() => expect(c.fake.orders).toHaveLength(held + 1), { timeout: 4_000 });
    expect(c.fake.submissions().length).toBe(before + 1);
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: ACCOUNT,
      clientOrderId: 'lostSignal1',
      order: placing.order,
      sentAt: c.clock.now,
    });
    expect(found).toMatchObject({ match: 'exact', order: { status: 'filled', price: 800 } });
  });
});

describe('findOrder', () => {
  it('by Kite’s order id: its history’s current state', async () => {
    const placed = await c.broker.placeOrder(c.ctx, c.session, input({ ...BUY, limit_price: 700 }, 'byBrokerId'));
    const before = c.fake.requests.length;
    expect(
      await findOrder(c.broker, c.ctx, c.session, {
        accountId: ACCOUNT,
        clientOrderId: 'byBrokerId',
        brokerOrderId: placed.id,
      }),
    ).toEqual({
      match: 'exact',
      order: { id: placed.id, status: 'accepted', status_description: 'Zerodha order open' },
    });
    expect(sentSince(c.fake, before).map((r) => r.path)).toEqual([`/orders/${placed.id}`]);
    expect(await c.broker.findByBrokerId(c.ctx, c.session, ACCOUNT, '1999999999999999999')).toBeNull();
  });

  it('by our tag: none once the book surely covers the window', async () => {
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: ACCOUNT,
      clientOrderId: 'neverPlaced',
      sentAt: c.clock.now,
    });
    expect(found).toEqual({ match: 'none' });
  });

  it('by our tag: unknown when the book may have been started after the window', async () => {
    // 05:30 IST: the window lies before midnight, and the fresh book holds nothing older.
    c.clock.now = Date.parse('2026-06-10T00:00:00Z');
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: ACCOUNT,
      clientOrderId: 'lastEvening',
      sentAt: Date.parse('2026-06-09T18:20:00Z'),
    });
    expect(found).toEqual({ match: 'unknown', reason: 'Zerodha no longer lists the orders of that time' });
    // An order in the book from before the window proves the book covers it.
    await c.broker.placeOrder(c.ctx, c.session, input(BUY));
    c.clock.now += 20 * 60_000;
    const later = await findOrder(c.broker, c.ctx, c.session, {
      accountId: ACCOUNT,
      clientOrderId: 'lastEvening',
      sentAt: c.clock.now - 10 * 60_000,
    });
    expect(later).toEqual({ match: 'none' });
  });

  it('a close whose answer was lost after it exited a cover order is found by the stop leg it exited', async () => {
    const entry = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:SBIN', action: 'buy', quantity: 2, stop_loss_price: 790 }),
    );
    const leg = c.fake.orders.find((order) => order.parent_order_id === entry.id);
    c.clock.now += 60_000;
    // The close deletes the stop leg (no tag of ours on it): Kite squares the position off with it.
    const close = input({ symbol: 'NSE:SBIN', action: 'close' }, 'lostCoClose');
    const sentAt = c.clock.now;
    await c.broker.placeOrder(c.ctx, c.session, close);
    const found = await findOrder(c.broker, c.ctx, c.session, { ...close, sentAt });
    expect(found).toMatchObject({ match: 'probable', order: { id: leg?.order_id, status: 'filled' } });
    // A stop leg that filled before the window is not the close's: nothing else proves absence.
    c.clock.now += 30 * 60_000;
    const later = input({ symbol: 'NSE:SBIN', action: 'close' }, 'laterClose');
    expect(await findOrder(c.broker, c.ctx, c.session, { ...later, sentAt: c.clock.now })).toEqual({ match: 'none' });
  });

  it('a cancel signal whose answer was lost is unknown: it canceled orders, and none carries our tag', async () => {
    await c.broker.placeOrder(c.ctx, c.session, input({ ...BUY, limit_price: 700 }));
    const cancel = input({ symbol: 'NSE:SBIN', action: 'cancel' }, 'lostCancel');
    const sentAt = c.clock.now;
    const answer = await c.broker.placeOrder(c.ctx, c.session, cancel);
    expect(answer.status_description).toBe('Canceled 1 open order(s) of NSE:SBIN');
    const found = await findOrder(c.broker, c.ctx, c.session, { ...cancel, sentAt });
    expect(found).toEqual({ match: 'unknown', reason: 'Zerodha keeps no id of ours on what a cancel signal sends' });
  });
});

describe('cancel', () => {
  it('by Kite’s id: the variety is read from the order first', async () => {
    const amo = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ ...BUY, limit_price: 700, extra: { variety: 'amo' } }),
    );
    const before = c.fake.requests.length;
    await c.broker.cancelOrder(c.ctx, c.session, { accountId: ACCOUNT, brokerOrderId: amo.id });
    expect(sentSince(c.fake, before).map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /orders/${amo.id}`,
      `DELETE /orders/amo/${amo.id}`,
    ]);
    expect(c.fake.orders.find((order) => order.order_id === amo.id)?.status).toBe('CANCELLED');
    expect(
      await expectFailure(c.broker.cancelOrder(c.ctx, c.session, { accountId: ACCOUNT, brokerOrderId: amo.id })),
    ).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Zerodha: Order cannot be cancelled as it is cancelled.',
    });
  });

  it('by our id: found by its tag among the live orders', async () => {
    const open = await c.broker.placeOrder(c.ctx, c.session, input({ ...BUY, limit_price: 701 }, 'cancelMe'));
    await c.broker.cancelOrder(c.ctx, c.session, { accountId: ACCOUNT, clientOrderId: 'cancelMe' });
    expect(c.fake.requests.at(-1)).toMatchObject({ method: 'DELETE', url: `/orders/regular/${open.id}` });
    expect(
      await expectFailure(c.broker.cancelOrder(c.ctx, c.session, { accountId: ACCOUNT, clientOrderId: 'cancelMe' })),
    ).toMatchObject({
      kind: 'OrderNotFound',
      message: 'Zerodha: no open order with client order id cancelMe',
    });
  });

  it('a close refused after the open orders were canceled for it says so: the position is still open, its exits gone', async () => {
    await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NSE:INFY', action: 'buy', quantity: 2 }));
    const exit = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:INFY', action: 'sell', quantity: 2, limit_price: 99_999 }),
    );
    c.fake.inject({
      method: 'POST',
      path: '/orders/regular',
      ...kiteError(400, 'InputException', 'Market is closed.'),
    });
    const error = await expectFailure(
      c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NSE:INFY', action: 'close' })),
    );
    expect(error).toMatchObject({ kind: 'InvalidOrder', outcomeUnknown: false });
    expect(error.message).toBe(
      `Zerodha: Market is closed.; the open orders of NSE:INFY were canceled before the close (${exit.id}): check the position and its exits at the broker`,
    );
  });

  it('a cancel signal that fails partway says which orders were canceled and which not', async () => {
    const limit = (price: number) =>
      c.broker.placeOrder(
        c.ctx,
        c.session,
        input({ symbol: 'NSE:RELIANCE', action: 'buy', quantity: 1, limit_price: price }),
      );
    const [first, second] = [await limit(2000), await limit(2001)];
    c.fake.inject({
      method: 'DELETE',
      path: `/orders/regular/${second.id}`,
      ...kiteError(429, 'NetworkException', 'Too many requests'),
    });
    const error = await expectFailure(
      c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NSE:RELIANCE', action: 'cancel' }, 'cancelSome')),
    );
    expect(error).toMatchObject({
      kind: 'RateLimited',
      message: `Zerodha: rate limit reached (Too many requests); the order was not canceled; of the open orders of NSE:RELIANCE, only some were canceled: ${first.id}; not ${second.id}: check them at the broker`,
    });
  });

  it('a cancel signal cancels the symbol’s open orders', async () => {
    const first = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:TATASTEEL', action: 'buy', quantity: 1, limit_price: 100 }),
    );
    const second = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:TATASTEEL', action: 'buy', quantity: 2, limit_price: 101 }),
    );
    const answer = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:TATASTEEL', action: 'cancel' }, 'cancelAll'),
    );
    expect(answer).toEqual({
      id: `${first.id},${second.id}`,
      status: 'canceled',
      status_description: 'Canceled 2 open order(s) of NSE:TATASTEEL',
    });
    expect(
      await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NSE:TATASTEEL', action: 'cancel' }, 'cancelNone')),
    ).toEqual({
      id: 'cancelNone',
      status: 'canceled',
      status_description: 'Canceled 0 open order(s) of NSE:TATASTEEL',
    });
  });
});

describe('close and holdings', () => {
  it('close sells the holding (delivery) with our tag', async () => {
    const before = c.fake.requests.length;
    const answer = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:INFY', action: 'close' }, 'closeInfy'),
    );
    const post = sentSince(c.fake, before).find((r) => r.method === 'POST');
    expect(post).toMatchObject({
      path: '/orders/regular',
      body: {
        tradingsymbol: 'INFY',
        exchange: 'NSE',
        transaction_type: 'SELL',
        order_type: 'MARKET',
        quantity: '10',
        product: 'CNC',
        validity: 'DAY',
        market_protection: '-1',
        tag: 'closeInfy',
      },
    });
    expect(answer).toMatchObject({ status: 'filled', price: 1520 });
    // Sold today: nothing is left to close.
    expect(
      await expectFailure(c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NSE:INFY', action: 'close' }))),
    ).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Zerodha: no position in NSE:INFY',
    });
  });

  it('close of an intraday short buys it back; percent_of_position closes a part', async () => {
    await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NSE:RELIANCE', action: 'sell_short', quantity: 10 }));
    const before = c.fake.requests.length;
    await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:RELIANCE', action: 'close', quantity: 50, quantity_type: 'percent_of_position' }),
    );
    expect(sentSince(c.fake, before).find((r) => r.method === 'POST')?.body).toMatchObject({
      transaction_type: 'BUY',
      quantity: '5',
      product: 'MIS',
    });
    await c.broker.closePosition(c.ctx, c.session, ACCOUNT, 'NSE:RELIANCE');
    const holdings = await c.broker.getHoldings(c.ctx, c.session, ACCOUNT);
    expect(holdings.positions.find((p) => p.symbol === 'NSE:RELIANCE')).toBeUndefined();
  });

  it('a percent_of_position close never sells more than the percentage: cut down, refused when under one share', async () => {
    await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NSE:RELIANCE', action: 'sell_short', quantity: 5 }));
    let before = c.fake.requests.length;
    await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:RELIANCE', action: 'close', quantity: 30, quantity_type: 'percent_of_position' }),
    );
    // 30 % of 5 is 1.5: one share, not two.
    expect(sentSince(c.fake, before).find((r) => r.method === 'POST')?.body).toMatchObject({ quantity: '1' });
    // An open order of the symbol (an exit of the 4 left, say) must survive a refused close.
    await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:RELIANCE', action: 'buy_to_cover', quantity: 4, type: 'limit', limit_price: 1 }, 'exitOf4'),
    );
    before = c.fake.requests.length;
    // 10 % of the 4 left is 0.4: refused, nothing sent (not the whole 4), nothing canceled.
    expect(
      await expectFailure(
        c.broker.placeOrder(
          c.ctx,
          c.session,
          input({ symbol: 'NSE:RELIANCE', action: 'close', quantity: 10, quantity_type: 'percent_of_position' }),
        ),
      ),
    ).toMatchObject({ kind: 'InvalidOrder', message: 'Zerodha: 10 % of 4 in NSE:RELIANCE is less than one share' });
    expect(sentSince(c.fake, before).filter((r) => r.method === 'POST' && r.path === '/orders/regular')).toEqual([]);
    expect(sentSince(c.fake, before).filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  it('a close of part of a position keeps its exits, so a part Kite refuses (not in lots) changes nothing', async () => {
    c.fake.close();
    c = await connected({ cash: 10_000_000 });
    const FUTURE = { symbol: 'NFO:NIFTY26JUNFUT', class: 'future' };
    await c.broker.placeOrder(c.ctx, c.session, input({ ...FUTURE, action: 'buy', quantity: 150 }));
    const exit = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ ...FUTURE, action: 'sell', quantity: 150, stop_price: 23000, limit_price: 22990 }, 'stopOf150'),
    );
    const stop = () => c.fake.orders.find((order) => order.order_id === exit.id)?.status;
    expect(stop()).toBe('TRIGGER PENDING');
    let before = c.fake.requests.length;
    // 40 % of 150 is 60, not a multiple of the lot of 75: Kite refuses it, and the stop stays.
    await expectFailure(
      c.broker.placeOrder(
        c.ctx,
        c.session,
        input({ ...FUTURE, action: 'close', quantity: 40, quantity_type: 'percent_of_position' }),
      ),
    );
    expect(sentSince(c.fake, before).filter((r) => r.method === 'DELETE')).toEqual([]);
    expect(stop()).toBe('TRIGGER PENDING');
    // Half of it, one lot: sold, and the stop of the lot still held stays.
    before = c.fake.requests.length;
    await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ ...FUTURE, action: 'close', quantity: 50, quantity_type: 'percent_of_position' }),
    );
    expect(sentSince(c.fake, before).find((r) => r.method === 'POST')?.body).toMatchObject({
      transaction_type: 'SELL',
      quantity: '75',
    });
    expect(stop()).toBe('TRIGGER PENDING');
    // …cut to the lot left: a stop of 150 would sell 75 more than is held, a short position.
    const kept = c.fake.orders.find((order) => order.order_id === exit.id);
    expect([kept?.quantity, kept?.pending_quantity]).toEqual([75, 75]);
    // A fixed quantity of all that is left closes the position: its exits go with it.
    await c.broker.placeOrder(c.ctx, c.session, input({ ...FUTURE, action: 'close', quantity: 75 }));
    expect(stop()).toBe('CANCELLED');
  });

  it('close of a cover order position exits it through its stop leg, as Kite exits a cover order', async () => {
    const entry = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:SBIN', action: 'buy', quantity: 2, stop_loss_price: 790 }),
    );
    const leg = c.fake.orders.find((order) => order.parent_order_id === entry.id);
    expect(leg?.status).toBe('TRIGGER PENDING');
    // Kite exits a cover order whole: half of it is refused, nothing sent or canceled.
    const half = input({ symbol: 'NSE:SBIN', action: 'close', quantity: 50, quantity_type: 'percent_of_position' });
    const ahead = c.fake.requests.length;
    expect(await expectFailure(c.broker.placeOrder(c.ctx, c.session, half))).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Zerodha: a cover order position in NSE:SBIN is exited whole at Kite, not in part',
    });
    expect(sentSince(c.fake, ahead).filter((r) => r.method !== 'GET')).toEqual([]);
    const before = c.fake.requests.length;
    const answer = await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:SBIN', action: 'close' }, 'closeCo'),
    );
    // Not a regular order with product CO (Kite takes CO only as variety co): the leg's exit.
    expect(sentSince(c.fake, before).filter((r) => r.method === 'POST')).toEqual([]);
    expect(sentSince(c.fake, before).find((r) => r.method === 'DELETE')).toMatchObject({
      path: `/orders/co/${leg?.order_id}`,
      query: { parent_order_id: entry.id },
    });
    expect(answer).toMatchObject({ id: leg?.order_id, status: 'filled' });
    const holdings = await c.broker.getHoldings(c.ctx, c.session, ACCOUNT);
    expect(holdings.positions.find((p) => p.symbol === 'NSE:SBIN')).toBeUndefined();
  });

  it('a close of a fixed quantity held in two products sells that quantity in all, not that much of each', async () => {
    // 10 delivery shares held, 10 more bought intraday (MIS): 20 held, 5 to close.
    await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NSE:INFY', action: 'buy', quantity: 10, extra: { product: 'MIS' } }),
    );
    const before = c.fake.requests.length;
    await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NSE:INFY', action: 'close', quantity: 5 }));
    const sells = sentSince(c.fake, before).filter((r) => r.method === 'POST');
    expect(sells.every((r) => (r.body as Record<string, string>).transaction_type === 'SELL')).toBe(true);
    expect(sells.reduce((sum, r) => sum + Number((r.body as Record<string, string>).quantity), 0)).toBe(5);
  });

  it('holdings: cash and margin in INR, holdings and open positions', async () => {
    await c.broker.placeOrder(
      c.ctx,
      c.session,
      input({ symbol: 'NFO:NIFTY26JUN24000CE', class: 'option', action: 'buy_to_open', quantity: 75 }),
    );
    const holdings = await c.broker.getHoldings(c.ctx, c.session, ACCOUNT);
    expect(holdings).toMatchObject({ currency: 'INR', cash: expect.any(Number), buyingPower: expect.any(Number) });
    expect(holdings.positions).toContainEqual({
      symbol: 'NSE:INFY',
      quantity: 10,
      averagePrice: 1400,
      marketValue: 15200,
    });
    expect(holdings.positions).toContainEqual({
      symbol: 'NFO:NIFTY26JUN24000CE',
      quantity: 75,
      averagePrice: 210,
      marketValue: 15750,
    });
  });
});
