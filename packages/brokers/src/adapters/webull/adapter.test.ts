// Contract: Webull orders of every class on their accounts, refused before sending where Webull
// cannot take them; errors titled, resent only after a 429 (under the same client_order_id); a
// repeated client_order_id answered with the first order; lookup by our id (exact, none); cancel
// by either id; close; holdings; preview.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { findOrder } from '../../core/find-order.ts';
import { checkOrder } from './fake-rules.ts';
import { type Connected, CRYPTO, connected, expectFailure, FUTURES, input, STOCKS, sentSince } from './test-support.ts';

let c: Connected;
beforeAll(async () => {
  c = await connected({ positions: { MSFT: 10 } });
});
afterAll(() => c.fake.close());
afterEach(() => c.fake.clearInjections());

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };

async function place(signal: Record<string, unknown>, clientOrderId?: string, accountId = STOCKS) {
  const before = c.fake.requests.length;
  const answer = await c.broker.placeOrder(c.ctx, c.session, input(signal, clientOrderId, accountId));
  const post = sentSince(c.fake, before).find((r) => r.path === '/openapi/trade/order/place');
  const headers = c.fake.requests.slice(before).find((r) => r.url === '/openapi/trade/order/place')?.headers;
  return { answer, body: post?.body as { new_orders: Array<Record<string, unknown>> }, category: headers?.category };
}

describe('orders', () => {
  it('a stock market buy: one NORMAL order, our id, category US_EQUITY; filled', async () => {
    const { answer, body, category } = await place(BUY, 'sigStock1');
    expect(category).toBe('US_EQUITY');
    expect(body.new_orders).toEqual([
      {
        combo_type: 'NORMAL',
        client_order_id: 'sigStock1',
        symbol: 'AAPL',
        instrument_type: 'EQUITY',
        market: 'US',
        order_type: 'MARKET',
        quantity: '1',
        support_trading_session: 'CORE',
        side: 'BUY',
        time_in_force: 'DAY',
        entrust_type: 'QTY',
      },
    ]);
    expect(answer).toEqual({
      id: expect.stringMatching(/^ORD[0-9A-F]{22}$/),
      status: 'accepted',
      status_description: 'Webull order submitted',
    });
    expect(await findOrder(c.broker, c.ctx, c.session, { accountId: STOCKS, clientOrderId: 'sigStock1' })).toEqual({
      match: 'exact',
      order: { id: answer.id, status: 'filled', status_description: 'Webull order filled', price: 190 },
    });
  });

  it('a quantity past 9 decimals is cut, never rounded up to more than was signalled', async () => {
    const { body } = await place({ ...BUY, quantity: 1.9999999999 });
    expect(body.new_orders[0]).toMatchObject({ quantity: '1.999999999' });
  });

  it('an option (US_OPTION) with its leg; a future and crypto on their own accounts', async () => {
    const option = await place({ symbol: 'AAPL261218C00200000', action: 'buy_to_open', quantity: 2, limit_price: 4.5 });
    expect(option.category).toBe('US_OPTION');
    expect(option.body.new_orders[0]).toMatchObject({
      option_strategy: 'SINGLE',
      position_intent: 'BUY_TO_OPEN',
      time_in_force: 'GTC',
    });
    const future = await place({ symbol: 'ESZ26', action: 'sell', quantity: 1, limit_price: 5100 }, undefined, FUTURES);
    expect(future.category).toBe('US_FUTURES');
    expect(future.body.new_orders[0]).toMatchObject({ symbol: 'ESZ6', instrument_type: 'FUTURES', side: 'SELL' });
    expect(future.body.new_orders[0]).not.toHaveProperty('support_trading_session');
    const crypto = await place(
      { symbol: 'BTCUSD', action: 'buy', quantity: 100, quantity_type: 'cash' },
      undefined,
      CRYPTO,
    );
    expect(crypto.body.new_orders[0]).toMatchObject({
      symbol: 'BTCUSD',
      entrust_type: 'AMOUNT',
      total_cash_amount: '100',
      time_in_force: 'IOC',
    });
    // A stock order on the crypto account is Webull's refusal, not ours.
    expect(await expectFailure(c.broker.placeOrder(c.ctx, c.session, input(BUY, undefined, CRYPTO)))).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Webull: This account does not trade EQUITY',
    });
  });

  it('stock and option prices go on the cent, futures on their contract’s tick, never past the trader’s', async () => {
    const limit = async (signal: Record<string, unknown>, accountId = STOCKS) =>
      (await place(signal, undefined, accountId)).body.new_orders[0];
    expect(await limit({ ...BUY, limit_price: 101 * 1.001 })).toMatchObject({ limit_price: '101.1' });
    expect(await limit({ symbol: 'AAPL', action: 'sell_short', quantity: 1, limit_price: 11.055 })).toMatchObject({
      side: 'SHORT',
      limit_price: '11.06',
    });
    expect(await limit({ ...BUY, type: 'stop', stop_price: 0.60135 })).toMatchObject({ stop_price: '0.6013' });
    const bracket = { symbol: 'F', action: 'buy', quantity: 1, limit_price: 9.004 };
    const { body } = await place({ ...bracket, take_profit_price: 12.005, stop_loss_price: 8.005 });
    // The exits sell: a take profit no lower than asked, a stop loss that triggers no lower.
    expect(body.new_orders.map((order) => order.limit_price ?? order.stop_price)).toEqual(['9', '12.01', '8.01']);
    const option = { symbol: 'AAPL261218C00200000', action: 'buy_to_open', quantity: 1, limit_price: 4.555 };
    expect(await limit(option)).toMatchObject({ limit_price: '4.55' });
    const future = { symbol: 'ESZ26', action: 'sell', quantity: 1, limit_price: 5100.25 };
    expect(await limit(future, FUTURES)).toMatchObject({ limit_price: '5100.25' });
    // ES ticks a quarter: a sell's limit and stop go up (5100.13 is no price of ESZ6).
    expect(await limit({ ...future, limit_price: 5100.13 }, FUTURES)).toMatchObject({ limit_price: '5100.25' });
    const stop = { symbol: 'ESZ26', action: 'sell', quantity: 1, type: 'stop', stop_price: 5000.1 };
    expect(await limit(stop, FUTURES)).toMatchObject({ order_type: 'STOP_LOSS', stop_price: '5000.25' });
  });

  it('the fake refuses a future’s price off its contract’s tick, as Webull does (417)', async () => {
    const order = {
      combo_type: 'NORMAL',
      client_order_id: 'sigOffTick1',
      symbol: 'ESZ6',
      instrument_type: 'FUTURES',
      market: 'US',
      order_type: 'LIMIT',
      limit_price: '5100.13',
      quantity: '1',
      side: 'SELL',
      time_in_force: 'DAY',
      entrust_type: 'QTY',
    };
    expect(() => checkOrder(order)).toThrow(
      expect.objectContaining({ status: 417, code: 'INVALID_PRICE' }) as unknown as Error,
    );
  });

  it('a bracket books the master and its exits, each with an id derived from ours', async () => {
    const { body } = await place(
      { symbol: 'F', action: 'buy', quantity: 3, limit_price: 9, take_profit_price: 12, stop_loss_price: 8 },
      'sigBracket1',
    );
    expect(body.new_orders.map((order) => [order.combo_type, order.client_order_id, order.side])).toEqual([
      ['MASTER', 'sigBracket1', 'BUY'],
      ['STOP_PROFIT', 'sigBracket1TP', 'SELL'],
      ['STOP_LOSS', 'sigBracket1SL', 'SELL'],
    ]);
    expect(c.fake.orders.filter((order) => order.client_order_id.startsWith('sigBracket1'))).toHaveLength(3);
  });

  it.each([
    [
      { symbol: 'ES1!', action: 'buy', quantity: 1 },
      'ES1! is a continuous contract; give the contract month, such as ESZ2026',
    ],
    [{ symbol: 'ETH/EUR', action: 'buy', quantity: 1 }, 'ETH/EUR: Webull trades crypto against USD'],
    [
      { symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'opg', limit_price: 180 },
      'opg and cls are market orders for stocks',
    ],
    [
      { symbol: 'AAPL261218C00200000', action: 'buy_to_open', quantity: 1, duration: 'ioc', limit_price: 4 },
      'options take day or gtc',
    ],
    [
      { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 180, extra: { session: 'LATE' } },
      'session is CORE, ALL or NIGHT',
    ],
    [{ symbol: 'ESZ26', action: 'buy', quantity: 1.5 }, 'futures trade whole contracts'],
    [
      {
        symbol: 'SPY_261218C00600000',
        action: 'buy_to_open',
        'symbol[2]': 'QQQ_261218C00500000',
        'action[2]': 'sell_to_open',
        quantity: 1,
        limit_price: 1,
      },
      'a strategy has up to 4 option legs on one underlying',
    ],
    [
      {
        symbol: 'SPY_261218C00600000',
        action: 'buy_to_open',
        'symbol[2]': 'SPY_261218C00610000',
        'action[2]': 'buy_to_open',
        quantity: 1,
        limit_price: 1,
      },
      'these legs are not a strategy Webull takes',
    ],
    [
      { symbol: 'AAPL261218C00200000', action: 'buy_to_open', quantity: 1, take_profit_price: 9 },
      'take_profit_price and stop_loss_price are for stock orders',
    ],
  ])('refuses %j before sending', async (signal, message) => {
    const before = c.fake.requests.length;
    const error = await expectFailure(c.broker.placeOrder(c.ctx, c.session, input(signal)));
    expect(error.kind).toBe('InvalidOrder');
    expect(error.message).toMatch(/^Webull: /);
    expect(error.message).toContain(message);
    expect(c.fake.requests.length).toBe(before);
  });
});

describe('exactly once', () => {
  it('a repeated client_order_id is refused by Webull and answered with the first order', async () => {
    const first = await place({ ...BUY, limit_price: 150 }, 'sigRepeat1');
    const before = c.fake.requests.length;
    const second = await c.broker.placeOrder(c.ctx, c.session, input({ ...BUY, limit_price: 150 }, 'sigRepeat1'));
    expect(second).toEqual({ id: first.answer.id, status: 'accepted', status_description: 'Webull order submitted' });
    expect(sentSince(c.fake, before).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /openapi/trade/order/place',
      'GET /openapi/trade/order/detail',
    ]);
    expect(c.fake.orders.filter((order) => order.client_order_id === 'sigRepeat1')).toHaveLength(1);
  });

  it('a timed-out placement is not resent; findOrder finds it by our id', async () => {
    const before = c.fake.submissions().length;
    // The deadline passes as the order reaches Webull, which places it 400 ms later.
    const deadline = new AbortController();
    c.fake.inject({
      method: 'POST',
      path: '/openapi/trade/order/place',
      delayMs: 400,
      onArrival: () => deadline.abort(),
    });
    const placing = input(BUY, 'sigLost1');
    const error = await expectFailure(c.broker.placeOrder({ ...c.ctx, signal: deadline.signal }, c.session, placing));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    await vi.waitFor(() => expect(c.fake.orders.some((order) => order.client_order_id === 'sigLost1')).toBe(true), {
      timeout: 4_000,
    });
    expect(c.fake.submissions().length).toBe(before + 1);
    expect(await findOrder(c.broker, c.ctx, c.session, { accountId: STOCKS, clientOrderId: 'sigLost1' })).toMatchObject(
      {
        match: 'exact',
        order: { status: 'filled' },
      },
    );
    expect(await findOrder(c.broker, c.ctx, c.session, { accountId: STOCKS, clientOrderId: 'sigNever9' })).toEqual({
      match: 'none',
    });
  });

  it.each([
    [500, { error_code: 'INTERNAL_ERROR', message: 'Internal error' }, 'BrokerUnavailable', true],
    [401, { error_code: 'UNAUTHORIZED', message: 'signature does not match' }, 'AuthenticationError', false],
    // Clocks that agree: a refusal naming the time is still one of the keys.
    [
      401,
      { error_code: 'UNAUTHORIZED', message: 'App Key disabled at server time 14:31' },
      'AuthenticationError',
      false,
    ],
    // A gateway's timeout or a closed client connection proves no refusal: the order may stand.
    [408, { message: 'Request Timeout' }, 'BrokerUnavailable', true],
    [499, { message: 'Client Closed Request' }, 'BrokerUnavailable', true],
    [417, { error_code: 'BUYING_POWER_NOT_ENOUGH', message: 'Insufficient buying power' }, 'InsufficientFunds', false],
    // No options permission: this order is refused, the keys are not (a 401 would say so).
    [403, { error_code: 'PERMISSION_DENIED', message: 'No permission to trade options' }, 'InvalidOrder', false],
    // …but a device never registered in the Webull app is the keys' setup.
    [403, { error_code: 'FORBIDDEN', message: 'Device is not registered' }, 'AuthenticationError', false],
  ] as const)('HTTP %i is %s, sent once', async (status, body, kind, outcomeUnknown) => {
    const before = c.fake.submissions().length;
    c.fake.inject({ method: 'POST', path: '/openapi/trade/order/place', status, body });
    const error = await expectFailure(c.broker.placeOrder(c.ctx, c.session, input(BUY)));
    expect(error).toMatchObject({ kind, outcomeUnknown });
    expect(error.message).toMatch(/^Webull: /);
    expect(c.fake.submissions().length).toBe(before + 1);
  });

  const TOO_MANY = {
    method: 'POST',
    path: '/openapi/trade/order/place',
    status: 429,
    body: { error_code: 'TOO_MANY_REQUESTS', message: 'Too many requests' },
  } as const;

  it('a placement refused with 429 is sent once more with the same client_order_id: one order', async () => {
    const before = c.fake.submissions().length;
    c.fake.inject(TOO_MANY);
    const answer = await c.broker.placeOrder(c.ctx, c.session, input(BUY, 'sigBusy1'));
    expect(answer).toMatchObject({ status: 'accepted' });
    const sent = c.fake.submissions().slice(before);
    expect(sent.map((request) => JSON.parse(request.body).new_orders[0].client_order_id)).toEqual([
      'sigBusy1',
      'sigBusy1',
    ]);
    expect(c.fake.orders.filter((order) => order.client_order_id === 'sigBusy1')).toHaveLength(1);
  });

  it('429 twice, or a deadline before the second try: RateLimited, not placed', async () => {
    let before = c.fake.submissions().length;
    c.fake.inject(TOO_MANY);
    c.fake.inject(TOO_MANY);
    const twice = await expectFailure(c.broker.placeOrder(c.ctx, c.session, input(BUY, 'sigBusy2')));
    expect(twice).toMatchObject({ kind: 'RateLimited', outcomeUnknown: false });
    expect(twice.message).toMatch(/^Webull: /);
    expect(c.fake.submissions().length).toBe(before + 2);
    before = c.fake.submissions().length;
    c.fake.inject(TOO_MANY);
    const signal = AbortSignal.timeout(700); // shorter than the second (the wait before the second try)
    const late = await expectFailure(c.broker.placeOrder({ ...c.ctx, signal }, c.session, input(BUY, 'sigBusy3')));
    // The deadline came before the second try: Webull's refusal is the answer.
    expect(late).toMatchObject({ kind: 'RateLimited', message: 'Webull: rate limit reached' });
    expect(c.fake.submissions().length).toBe(before + 1);
    expect(
      c.fake.orders.filter(
        (order) => order.client_order_id.startsWith('sigBusy') && order.client_order_id !== 'sigBusy1',
      ),
    ).toEqual([]);
  });

  it('a read refused with 429 is asked once more', async () => {
    await place(BUY, 'sigRead429');
    c.fake.inject({
      method: 'GET',
      path: '/openapi/trade/order/detail',
      status: 429,
      body: { error_code: 'TOO_MANY_REQUESTS', message: 'Too many requests' },
    });
    expect(
      await findOrder(c.broker, c.ctx, c.session, { accountId: STOCKS, clientOrderId: 'sigRead429' }),
    ).toMatchObject({ match: 'exact' });
  });
});

describe('cancel, close, holdings, preview', () => {
  it('cancels by our id, and by Webull’s id through the open orders', async () => {
    await place({ ...BUY, limit_price: 100 }, 'sigCancel1');
    await c.broker.cancelOrder(c.ctx, c.session, { accountId: STOCKS, clientOrderId: 'sigCancel1' });
    expect(sentSince(c.fake, c.fake.requests.length - 1)[0]).toMatchObject({
      path: '/openapi/trade/order/cancel',
      body: { account_id: STOCKS, client_order_id: 'sigCancel1' },
    });
    const open = await place({ ...BUY, limit_price: 101 }, 'sigCancel2');
    await c.broker.cancelOrder(c.ctx, c.session, { accountId: STOCKS, brokerOrderId: open.answer.id });
    expect(c.fake.orders.find((order) => order.client_order_id === 'sigCancel2')?.status).toBe('CANCELLED');
    expect(
      await expectFailure(c.broker.cancelOrder(c.ctx, c.session, { accountId: STOCKS, clientOrderId: 'sigCancel2' })),
    ).toMatchObject({
      kind: 'OrderNotFound',
      message: 'Webull: Order not found',
    });
  });

  it('a close of a percentage rounds the quantity down, never ordering more than that part', async () => {
    await place({ symbol: 'NVDA', action: 'buy', quantity: 0.00012345 }, 'sigNvdaOpen');
    const close = await place({ symbol: 'NVDA', action: 'close', quantity: 33, quantity_type: 'percent_of_position' });
    // 33 % of 0.00012345 is 0.0000407385: 0.00004073 at most, not 0.00004074.
    expect(close.body.new_orders[0]).toMatchObject({ side: 'SELL', quantity: '0.00004073' });
  });

  it('a close of a percentage of a futures position closes whole contracts, rounded down', async () => {
    await place({ symbol: 'NQZ26', action: 'sell', quantity: 3 }, 'sigNqShort', FUTURES);
    const close = await place(
      { symbol: 'NQZ26', action: 'close', quantity: 50, quantity_type: 'percent_of_position' },
      'sigNqHalf',
      FUTURES,
    );
    expect(close.body.new_orders[0]).toMatchObject({ symbol: 'NQZ6', side: 'BUY', quantity: '1' });
  });

  it('a close of part of the position keeps the stop-loss of the rest; a close of all of it cancels it', async () => {
    await place({ symbol: 'KO', action: 'buy', quantity: 10 }, 'sigKoOpen');
    await place({ symbol: 'KO', action: 'sell', quantity: 10, type: 'stop', stop_price: 50 }, 'sigKoStop');
    const stop = () => c.fake.orders.find((order) => order.client_order_id === 'sigKoStop')?.status;
    // …cut to what is left: a stop of 10 would sell more than is held, opening a short.
    const size = () => c.fake.orders.find((order) => order.client_order_id === 'sigKoStop')?.quantity;
    const part = await place({ symbol: 'KO', action: 'close', quantity: 4 }, 'sigKoPart');
    expect(part.body.new_orders[0]).toMatchObject({ side: 'SELL', quantity: '4', order_type: 'MARKET' });
    expect(stop()).toBe('SUBMITTED');
    expect(String(size())).toBe('6');
    expect(part.answer.status_description).toMatch(/exits cut to the 6 left/);
    const half = await place({ symbol: 'KO', action: 'close', quantity: 50, quantity_type: 'percent_of_position' });
    expect(half.body.new_orders[0]).toMatchObject({ side: 'SELL', quantity: '3' });
    expect(stop()).toBe('SUBMITTED');
    expect(String(size())).toBe('3');
    // A fixed quantity of all that is left closes the position: its exits go with it.
    const rest = await place({ symbol: 'KO', action: 'close', quantity: 3 }, 'sigKoRest');
    expect(rest.body.new_orders[0]).toMatchObject({ side: 'SELL', quantity: '3' });
    expect(stop()).toBe('CANCELLED');
  });

  it('a close of part of a crypto position places its exit again for the rest: Webull cannot change crypto orders', async () => {
    await place({ symbol: 'ETHUSD', action: 'buy', quantity: 0.5 }, 'sigEthOpen', CRYPTO);
    const stop = { symbol: 'ETHUSD', action: 'sell', quantity: 0.5, type: 'stop_limit', stop_price: 90 };
    const exit = await place({ ...stop, limit_price: 89.5, duration: 'gtc' }, 'sigEthStop', CRYPTO);
    const before = c.fake.requests.length;
    const part = await place({ symbol: 'ETHUSD', action: 'close', quantity: 0.2 }, 'sigEthPart', CRYPTO);
    expect(part.body.new_orders[0]).toMatchObject({ side: 'SELL', quantity: '0.2', order_type: 'MARKET' });
    // Canceled, then placed again for the 0.3 left with its terms: never replaced, never two exits at once.
    const calls = sentSince(c.fake, before).map((r) => r.path);
    expect(calls.filter((path) => /cancel|replace/.test(path))).toEqual(['/openapi/trade/order/cancel']);
    expect(c.fake.orders.find((order) => order.client_order_id === 'sigEthStop')?.status).toBe('CANCELLED');
    const again = c.fake.orders.at(-1);
    expect(again).toMatchObject({
      symbol: 'ETHUSD',
      instrument_type: 'CRYPTO',
      side: 'SELL',
      order_type: 'STOP_LOSS_LIMIT',
      stop_price: '90',
      limit_price: '89.5',
      time_in_force: 'GTC',
      quantity: '0.3',
      status: 'SUBMITTED',
    });
    expect(part.answer.status_description).toMatch(
      new RegExp(`exits cut to the 0\\.3 left: ${exit.answer.id} → ${again?.order_id}$`),
    );
  });

  it('a crypto exit canceled to be placed again and then refused is told: what is left has no exit', async () => {
    // The fourth placement (after the buy, the exit and the close) is refused: the exit placed again.
    let placements = 0;
    const refusing: typeof fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith('/openapi/trade/order/place') && ++placements === 4) {
        const body = { error_code: 'ORDER_REJECTED', message: 'Order rejected' };
        return Promise.resolve(Response.json(body, { status: 417 }));
      }
      return fetch(input, init);
    };
    const own = await connected({}, { fetch: refusing });
    try {
      const placeOwn = (signal: Record<string, unknown>, id: string) =>
        own.broker.placeOrder(own.ctx, own.session, input(signal, id, CRYPTO));
      await placeOwn({ symbol: 'ETHUSD', action: 'buy', quantity: 0.5 }, 'sigEthOpen');
      const stop = { symbol: 'ETHUSD', action: 'sell', quantity: 0.5, type: 'stop_limit', stop_price: 90 };
      const exit = await placeOwn({ ...stop, limit_price: 89.5, duration: 'gtc' }, 'sigEthStop');
      const part = await placeOwn({ symbol: 'ETHUSD', action: 'close', quantity: 0.2 }, 'sigEthPart');
      expect(part.status).toBe('accepted');
      expect(part.status_description).toMatch(
        new RegExp(
          `the open exits could not be cut to the 0\\.3 left \\(Order rejected; ${exit.id} was canceled to be placed again for the 0\\.3 left, and was not: check the exits at the broker\\)$`,
        ),
      );
    } finally {
      await own.fake.close();
    }
  });

  it('a close refused after the open orders were canceled for it says so: the position is still open, its exits gone', async () => {
    await place({ symbol: 'PEP', action: 'buy', quantity: 5 }, 'sigPepOpen');
    const stop = await place(
      { symbol: 'PEP', action: 'sell', quantity: 5, type: 'stop', stop_price: 50 },
      'sigPepStop',
    );
    const body = { error_code: 'BUYING_POWER_NOT_ENOUGH', message: 'Insufficient buying power' };
    c.fake.inject({ method: 'POST', path: '/openapi/trade/order/place', status: 417, body });
    const error = await expectFailure(c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'PEP', action: 'close' })));
    expect(error).toMatchObject({ kind: 'InsufficientFunds', outcomeUnknown: false });
    expect(error.message).toBe(
      `Webull: Insufficient buying power; the open orders of PEP were canceled before the close (${stop.answer.id}): check the position and its exits at the broker`,
    );
  });

  it('a cancel signal cancels the symbol’s open orders; close sells the position with our id', async () => {
    await place({ symbol: 'MSFT', action: 'sell', quantity: 1, limit_price: 999 }, 'sigMsftOpen');
    const close = await place({ symbol: 'MSFT', action: 'close' }, 'sigCloseMsft');
    expect(close.body.new_orders[0]).toMatchObject({
      client_order_id: 'sigCloseMsft',
      side: 'SELL',
      quantity: '10',
      order_type: 'MARKET',
    });
    expect(c.fake.orders.find((order) => order.client_order_id === 'sigMsftOpen')?.status).toBe('CANCELLED');
    expect(
      await expectFailure(c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'MSFT', action: 'close' }))),
    ).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Webull: no position in MSFT',
    });
    expect(
      await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'MSFT', action: 'cancel' }, 'sigNothing')),
    ).toEqual({
      id: 'sigNothing',
      status: 'canceled',
      status_description: 'Canceled 0 open order(s) of MSFT',
    });
  });

  it('a cancel signal that fails partway says which orders were canceled and which not', async () => {
    const one = await place({ symbol: 'ORCL', action: 'buy', quantity: 1, limit_price: 1 }, 'sigOrcl1');
    const two = await place({ symbol: 'ORCL', action: 'buy', quantity: 1, limit_price: 2 }, 'sigOrcl2');
    const path = '/openapi/trade/order/cancel';
    // The first cancel goes through; the second is refused.
    c.fake.inject({ method: 'POST', path, delayMs: 1 });
    const body = { error_code: 'ORDER_NOT_CANCELABLE', message: 'Order cannot be cancelled' };
    c.fake.inject({ method: 'POST', path, status: 400, body });
    const error = await expectFailure(
      c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'ORCL', action: 'cancel' })),
    );
    expect(error.outcomeUnknown).toBe(false);
    const status = (id: string) => c.fake.orders.find((order) => order.order_id === id)?.status;
    const [done, left] = status(one.answer.id) === 'CANCELLED' ? [one, two] : [two, one];
    expect([status(done.answer.id), status(left.answer.id)]).toEqual(['CANCELLED', 'SUBMITTED']);
    expect(error.message).toBe(
      `Webull: Order cannot be cancelled; of the open orders of ORCL, only some were canceled: ${done.answer.id}; not ${left.answer.id}: check them at the broker`,
    );
  });

  it('a cancel of a stock leaves the option orders on it (listed under the underlying)', async () => {
    await place(
      {
        limit_price: 1.2,
        legs: [
          { symbol: 'AMD261218C00200000', action: 'buy_to_open', quantity: 1 },
          { symbol: 'AMD261218C00210000', action: 'sell_to_open', quantity: 1 },
        ],
      },
      'sigAmdSpread',
    );
    await place({ symbol: 'AMD', action: 'buy', quantity: 1, limit_price: 1 }, 'sigAmdStock');
    const status = (id: string) => c.fake.orders.find((order) => order.client_order_id === id)?.status;
    const answer = await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'AMD', action: 'cancel' }));
    expect(answer.status_description).toBe('Canceled 1 open order(s) of AMD');
    expect(status('sigAmdStock')).toBe('CANCELLED');
    expect(status('sigAmdSpread')).toBe('SUBMITTED');
  });

  it('a cancel signal whose answer was lost is unknown, not none: the cancels carry no id of ours', async () => {
    await place({ symbol: 'NVDA', action: 'buy', quantity: 1, limit_price: 1 }, 'sigNvdaRest');
    // The deadline passes while the cancel is at Webull (held there), whatever the open-orders
    // query before it took: the call is ended as the cancel arrives.
    const deadline = new AbortController();
    c.fake.inject({
      method: 'POST',
      path: '/openapi/trade/order/cancel',
      delayMs: 400,
      onArrival: () => deadline.abort(),
    });
    const cancel = input({ symbol: 'NVDA', action: 'cancel' }, 'sigLostCancel');
    const sentAt = Date.now();
    const error = await expectFailure(c.broker.placeOrder({ ...c.ctx, signal: deadline.signal }, c.session, cancel));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    await vi.waitFor(
      () => expect(c.fake.orders.find((order) => order.client_order_id === 'sigNvdaRest')?.status).toBe('CANCELLED'),
      { timeout: 4_000 },
    );
    const found = await findOrder(c.broker, c.ctx, c.session, {
      accountId: STOCKS,
      clientOrderId: 'sigLostCancel',
      order: cancel.order,
      sentAt,
    });
    expect(found).toMatchObject({ match: 'unknown' });
  });

  it('holdings of an account: cash, equity, buying power, positions', async () => {
    await place(BUY, 'sigHoldAapl');
    const holdings = await c.broker.getHoldings(c.ctx, c.session, STOCKS);
    expect(holdings).toMatchObject({
      currency: 'USD',
      cash: expect.any(Number),
      equity: expect.any(Number),
      buyingPower: expect.any(Number),
    });
    expect(holdings.positions).toContainEqual({
      symbol: 'AAPL',
      quantity: expect.any(Number),
      averagePrice: 190,
      marketValue: expect.any(Number),
    });
    expect(await expectFailure(c.broker.getHoldings(c.ctx, c.session, 'SOMEONE'))).toMatchObject({
      kind: 'InvalidOrder',
    });
  });

  it('a 403 on an account’s assets refuses that read, not the keys (a 401 would say so)', async () => {
    const forbidden = { error_code: 'PERMISSION_DENIED', message: 'No permission for this account' };
    c.fake.inject({ method: 'GET', path: '/openapi/assets/positions', status: 403, body: forbidden });
    expect(await expectFailure(c.broker.getHoldings(c.ctx, c.session, STOCKS))).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Webull: No permission for this account',
    });
  });

  it('preview asks Webull to check the order and places nothing', async () => {
    const before = c.fake.orders.length;
    const answer = await c.broker.previewOrder(c.ctx, c.session, input({ ...BUY, limit_price: 150 }, 'sigPreview1'));
    expect(answer).toEqual({
      id: 'sigPreview1',
      status: 'draft',
      status_description: 'Webull accepted the preview (estimated cost 190 USD); nothing was placed',
    });
    expect(c.fake.orders.length).toBe(before);
    expect(
      await expectFailure(c.broker.previewOrder(c.ctx, c.session, input({ ...BUY, quantity: 1_000_000 }))),
    ).toMatchObject({
      kind: 'InsufficientFunds',
    });
  });
});
