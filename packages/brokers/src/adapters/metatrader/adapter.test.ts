// Contract: orders at MetaTrader through MetaApi against the protocol fake. Each order form the
// descriptor offers, refusals before anything is sent (MT4 limits, symbols the server lacks, a
// stopped account), trade return codes and HTTP errors mapped and titled, what is resent and
// what never is, and the symbol names of a server with suffixes.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrokerSession } from '../../core/broker.ts';
import { brokerFailure } from '../../core/expect-failure.ts';
import { findOrder } from '../../core/find-order.ts';
import { createMetatraderBroker } from './adapter.ts';
import { callsSince, DEMO, DEMO_ID, FAST, input, type MetaApiWorld, startWorld, tradesSince } from './test-support.ts';

let world: MetaApiWorld;
let session: BrokerSession;
let accountId: string;
beforeAll(async () => {
  world = await startWorld();
  session = await world.broker.connect(world.ctx, { credentials: DEMO });
  accountId = session.accounts[0]?.id ?? '';
});
afterAll(() => world.close());

const place = (signal: Record<string, unknown>, clientOrderId?: string) =>
  world.broker.placeOrder(world.ctx, session, input(session, signal, clientOrderId));
const terminal = () => world.fake.terminals.get(DEMO_ID);

describe('order forms', () => {
  it('a market order is one trade with our signal id as clientId, filled, its position carrying the id', async () => {
    const before = world.fake.trades().length;
    const answer = await place({ symbol: 'EURUSD', action: 'buy', quantity: 0.1 }, 'Sig0000000000000001AB');
    expect(tradesSince(world.fake, before)).toEqual([
      { actionType: 'ORDER_TYPE_BUY', symbol: 'EURUSD', volume: 0.1, clientId: 'Sig0000000000000001AB' },
    ]);
    expect(answer).toEqual({
      id: answer.id,
      status: 'filled',
      status_description: `Request completed (TRADE_RETCODE_DONE), position ${answer.id}`,
    });
    expect(terminal()?.positions.get(answer.id)).toMatchObject({
      type: 'POSITION_TYPE_BUY',
      volume: 0.1,
      openPrice: 1.0852,
      clientId: 'Sig0000000000000001AB',
    });
  });

  it.each([
    ['limit', { limit_price: 1.07 }, 'ORDER_TYPE_BUY_LIMIT', { openPrice: 1.07 }],
    ['stop', { stop_price: 1.1 }, 'ORDER_TYPE_BUY_STOP', { openPrice: 1.1 }],
    [
      'stop_limit',
      { stop_price: 1.1, limit_price: 1.095 },
      'ORDER_TYPE_BUY_STOP_LIMIT',
      { openPrice: 1.1, stopLimitPrice: 1.095 },
    ],
  ])('a %s order rests as a pending order (gtc)', async (_type, prices, actionType, fields) => {
    const before = world.fake.trades().length;
    const answer = await place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01, ...prices });
    expect(tradesSince(world.fake, before)[0]).toMatchObject({
      actionType,
      ...fields,
      expiration: { type: 'ORDER_TIME_GTC' },
    });
    expect(answer.status).toBe('accepted');
    expect(terminal()?.orders.get(answer.id)).toMatchObject({ type: actionType, state: 'ORDER_STATE_PLACED' });
  });

  it('attaches stop loss and take profit (the bracket), sells short, and a comment from client_id', async () => {
    const before = world.fake.trades().length;
    await place({
      symbol: 'GBPUSD',
      action: 'sell_short',
      quantity: 0.3,
      stop_loss_price: 1.29,
      take_profit_price: 1.25,
      client_id: 'tv_2',
    });
    expect(tradesSince(world.fake, before)[0]).toMatchObject({
      actionType: 'ORDER_TYPE_SELL',
      stopLoss: 1.29,
      takeProfit: 1.25,
      comment: 'tv_2',
    });
    const position = [...(terminal()?.positions.values() ?? [])].find((p) => p.symbol === 'GBPUSD');
    expect(position).toMatchObject({ type: 'POSITION_TYPE_SELL', stopLoss: 1.29, takeProfit: 1.25, comment: 'tv_2' });
  });

  it('sends what the signal names under the server’s own symbol name', async () => {
    const before = world.fake.trades().length;
    await place({ symbol: 'EUR/USD', action: 'buy', quantity: 0.01 });
    await place({ symbol: 'aapl', action: 'buy', quantity: 1 });
    expect(tradesSince(world.fake, before).map((trade) => trade.symbol)).toEqual(['EURUSD', 'AAPL.NAS']);
  });

  it('refuses before sending: a symbol the server lacks, a long comment, a duration the order cannot have', async () => {
    const before = world.fake.trades().length;
    expect((await brokerFailure(place({ symbol: 'NZDCAD', action: 'buy', quantity: 1 }))).message).toBe(
      'MetaTrader: Symbol not found: NZDCAD (not on ICMarketsSC-Demo)',
    );
    expect((await brokerFailure(place({ symbol: 'US300', action: 'buy', quantity: 1 }))).message).toBe(
      'MetaTrader: Symbol not found: US300 (not on ICMarketsSC-Demo)',
    );
    // normalizeOrder refuses it first (the descriptor's client_id pattern); the mapper still does on its own.
    const long = { ...input(session, { symbol: 'EURUSD', action: 'buy', quantity: 1 }), clientOrderId: 'sigLong' };
    long.order = { ...long.order, client_id: 'elevenchars' };
    expect((await brokerFailure(world.broker.placeOrder(world.ctx, session, long))).message).toBe(
      'MetaTrader: client_id: up to 10 letters, digits or _ (it becomes the order comment)',
    );
    expect(
      (await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 1, duration: 'gtc' }))).message,
    ).toBe('MetaTrader: duration: market orders take day, ioc or fok, not gtc');
    expect(
      (await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 1, limit_price: 1, duration: 'gtd' })))
        .message,
    ).toBe('MetaTrader: extra.expiration: the time a gtd order expires (ISO 8601)');
    expect(world.fake.trades().length).toBe(before);
  });

  it('an order whose id and comment do not fit 26 characters goes out with a hash of the id, found again by it', async () => {
    const signalId = 'Sig0000000000000002AB';
    const sentAt = Date.now();
    const answer = await place({ symbol: 'EURUSD', action: 'sell', quantity: 0.02, client_id: 'breakout9' }, signalId);
    const [sent] = tradesSince(world.fake, world.fake.trades().length - 1);
    expect(sent?.clientId).toMatch(/^[0-9a-f]{17}$/);
    expect(
      await findOrder(world.broker, world.ctx, session, { accountId, clientOrderId: signalId, sentAt }),
    ).toMatchObject({
      match: 'exact',
      order: { id: answer.id, status: 'filled' },
    });
  });
});

describe('MetaTrader 4 and suffixed servers', () => {
  it('MT4: stop_limit and day orders are refused before sending; Exness symbols get their suffix', async () => {
    const mt4 = await world.broker.connect(world.ctx, {
      credentials: { login: '7654321', password: 'mt4-pass', server: 'ICMarketsSC-Demo02' },
    });
    const before = world.fake.trades().length;
    const on = (s: BrokerSession, signal: Record<string, unknown>) =>
      world.broker.placeOrder(world.ctx, s, input(s, signal));
    expect(
      (
        await brokerFailure(
          on(mt4, { symbol: 'EURUSD', action: 'buy', quantity: 1, stop_price: 1.1, limit_price: 1.09 }),
        )
      ).message,
    ).toBe('MetaTrader: stop_limit orders need MetaTrader 5 (this is a MetaTrader 4 account)');
    expect(
      (await brokerFailure(on(mt4, { symbol: 'EURUSD', action: 'buy', quantity: 1, limit_price: 1, duration: 'day' })))
        .message,
    ).toBe('MetaTrader: duration: MetaTrader 4 has no day orders; use gtc or gtd');
    expect(world.fake.trades().length).toBe(before);
    const exness = await world.broker.connect(world.ctx, {
      credentials: { login: '5550001', password: 'exness-pass', server: 'Exness-MT5Trial7' },
    });
    await on(exness, { symbol: 'XAUUSD', action: 'buy', quantity: 0.01 });
    expect(tradesSince(world.fake, before)[0]?.symbol).toBe('XAUUSDm');
  });
});

describe('MetaTrader 4 pending orders', () => {
  it('MT4: a gtc limit goes without an expiration (MT4 takes a set time only) and rests; gtd sends its time', async () => {
    const mt4 = await world.broker.connect(world.ctx, {
      credentials: { login: '7654321', password: 'mt4-pass', server: 'ICMarketsSC-Demo02' },
    });
    const before = world.fake.trades().length;
    const on = (signal: Record<string, unknown>) => world.broker.placeOrder(world.ctx, mt4, input(mt4, signal));
    const gtc = await on({ symbol: 'EURUSD', action: 'buy', quantity: 0.01, limit_price: 1.07 });
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const gtd = await on({
      symbol: 'EURUSD',
      action: 'buy',
      quantity: 0.01,
      limit_price: 1.07,
      duration: 'gtd',
      extra: { expiration: at },
    });
    const [first, second] = tradesSince(world.fake, before);
    expect(first).toMatchObject({ actionType: 'ORDER_TYPE_BUY_LIMIT', openPrice: 1.07 });
    expect(first?.expiration).toBeUndefined();
    expect(second?.expiration).toEqual({ type: 'ORDER_TIME_SPECIFIED', time: at });
    expect([gtc.status, gtd.status]).toEqual(['accepted', 'accepted']);
  });
});

describe('answers', () => {
  it('on a server whose site token is missing: BrokerUnavailable, not the login refused (no deactivation)', async () => {
    const before = world.fake.trades().length;
    const error = await brokerFailure(
      world.broker.placeOrder(
        { ...world.ctx, clientSecret: undefined },
        session,
        input(session, { symbol: 'EURUSD', action: 'buy', quantity: 0.1 }),
      ),
    );
    expect([error.kind, error.message]).toEqual([
      'BrokerUnavailable',
      'MetaTrader: this site has no MetaApi token (METATRADER_CLIENT_SECRET) set',
    ]);
    expect(world.fake.trades().length).toBe(before);
  });

  it('maps a refusal inside HTTP 200 to its kind with MetaApi’s message and code, sent once', async () => {
    const before = world.fake.trades().length;
    const poor = await brokerFailure(place({ symbol: 'XAUUSD', action: 'buy', quantity: 50 }));
    expect(poor).toMatchObject({
      kind: 'InsufficientFunds',
      outcomeUnknown: false,
      message: 'MetaTrader: Not enough money to complete the request (TRADE_RETCODE_NO_MONEY)',
    });
    const price = await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01, limit_price: 1.2 }));
    expect(price).toMatchObject({
      kind: 'InvalidOrder',
      message: 'MetaTrader: Invalid price in the request (TRADE_RETCODE_INVALID_PRICE)',
    });
    const stops = await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01, stop_loss_price: 1.2 }));
    expect(stops.message).toBe('MetaTrader: Invalid stops in the request (TRADE_RETCODE_INVALID_STOPS)');
    const volume = await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 0.015 }));
    expect(volume.message).toBe('MetaTrader: Invalid volume in the request (TRADE_RETCODE_INVALID_VOLUME)');
    expect(world.fake.trades().length).toBe(before + 4);
  });

  it('-11 (disconnected during the trade) is an unknown outcome and is not resent', async () => {
    const before = world.fake.trades().length;
    world.fake.inject({
      method: 'POST',
      path: `/users/current/accounts/${DEMO_ID}/trade`,
      status: 200,
      body: {
        numericCode: -11,
        stringCode: 'TRADE_RETCODE_DISCONNECTED_DURING_TRADE',
        message: 'Disconnected during trade',
      },
    });
    const error = await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01 }));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    expect(world.fake.trades().length).toBe(before + 1);
  });

  it.each([
    [10012, 'TRADE_RETCODE_TIMEOUT', 'Request canceled by timeout'],
    [10011, 'TRADE_RETCODE_ERROR', 'Request processing error'],
    [128, 'ERR_TRADE_TIMEOUT', 'Trade timeout'],
    [1, 'ERR_NO_RESULT', 'No error returned, but the result is unknown'],
  ])('%i %s proves no refusal: an unknown outcome, not resent, the order found by its id', async (code, name, text) => {
    const before = world.fake.trades().length;
    const [clientOrderId, sentAt] = [`Lost${code}Answer0000001`, Date.now()];
    world.fake.loseNextTradeAnswer(code, name, text);
    const error = await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01 }, clientOrderId));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    expect(error.message).toBe(`MetaTrader: ${text} (${name})`);
    expect(world.fake.trades().length).toBe(before + 1);
    expect(await findOrder(world.broker, world.ctx, session, { accountId, clientOrderId, sentAt })).toMatchObject({
      match: 'exact',
      order: { status: 'filled' },
    });
  });

  it('-10 (disconnected before the trade) never reached the broker: sent once more', async () => {
    const before = world.fake.trades().length;
    world.fake.inject({
      method: 'POST',
      path: `/users/current/accounts/${DEMO_ID}/trade`,
      status: 200,
      body: {
        numericCode: -10,
        stringCode: 'TRADE_RETCODE_DISCONNECTED_BEFORE_TRADE',
        message: 'Disconnected before trade',
      },
    });
    const answer = await place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01 });
    expect(answer.status).toBe('filled');
    expect(world.fake.trades().length).toBe(before + 2);
  });

  it('429: resent after a short wait MetaApi asks for; a longer one is reported, not waited for', async () => {
    const trade = `/users/current/accounts/${DEMO_ID}/trade`;
    const body = { id: 1, error: 'TooManyRequestsError', message: 'The trade API allows 10 cpu credits per 1s' };
    let before = world.fake.trades().length;
    world.fake.inject({ method: 'POST', path: trade, status: 429, headers: { 'retry-after': '0.2' }, body });
    expect((await place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01 })).status).toBe('filled');
    expect(world.fake.trades().length).toBe(before + 2);
    before = world.fake.trades().length;
    world.fake.inject({ method: 'POST', path: trade, status: 429, headers: { 'retry-after': '3' }, body });
    const limited = await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01 }));
    expect(limited).toMatchObject({
      kind: 'RateLimited',
      message: "MetaTrader: MetaApi's rate limit was reached; retry after 3 s",
      retryAfter: '3',
    });
    expect(world.fake.trades().length).toBe(before + 1);
  });

  it('429: the wait MetaApi recommends travels as Retry-After; none said, none made up', async () => {
    const trade = `/users/current/accounts/${DEMO_ID}/trade`;
    const error = { id: 1, error: 'TooManyRequestsError', message: 'The trade API allows 10 cpu credits per 1s' };
    const recommendedRetryTime = new Date(Date.now() + 7_900).toISOString();
    world.fake.inject({
      method: 'POST',
      path: trade,
      status: 429,
      body: { ...error, metadata: { recommendedRetryTime } },
    });
    const recommended = await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01 }));
    expect([recommended.kind, recommended.retryAfter]).toEqual(['RateLimited', '8']);
    world.fake.inject({ method: 'POST', path: trade, status: 429, body: error });
    const unsaid = await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01 }));
    expect(unsaid).toMatchObject({
      kind: 'RateLimited',
      message: "MetaTrader: MetaApi's rate limit was reached",
      retryAfter: undefined,
    });
  });

  it('a timed-out trade is not resent; its outcome is unknown and reconciliation finds the order by our id', async () => {
    const before = world.fake.trades().length;
    // The deadline passes as the trade reaches MetaApi, which trades 300 ms later.
    const deadline = new AbortController();
    world.fake.inject({
      method: 'POST',
      path: `/users/current/accounts/${DEMO_ID}/trade`,
      delayMs: 300,
      onArrival: () => deadline.abort(),
    });
    const sentAt = Date.now();
    const placing = input(session, { symbol: 'EURUSD', action: 'buy', quantity: 0.01 }, 'Sig0000000000000003AB');
    const error = await brokerFailure(
      world.broker.placeOrder({ ...world.ctx, signal: deadline.signal }, session, placing),
    );
    expect(error).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
      message: 'MetaTrader: no answer before the deadline',
    });
    const lookUp = () =>
      findOrder(world.broker, world.ctx, session, { accountId, clientOrderId: placing.clientOrderId, sentAt });
    await vi.waitFor(async () => expect(await lookUp()).not.toEqual({ match: 'none' }), { timeout: 4_000 });
    expect(world.fake.trades().length).toBe(before + 1);
    expect(await lookUp()).toMatchObject({
      match: 'exact',
      order: { status: 'filled', price: 1.0852 },
    });
  });

  it("HTTP errors: the site's token revoked, MetaApi failing, a body that is not a trade answer", async () => {
    const trade = `/users/current/accounts/${DEMO_ID}/trade`;
    const cases = [
      // The site's token (the account was added with it): the operator's to correct, no refused
      // sign-in that would deactivate every such connection.
      [401, { id: 1, error: 'UnauthorizedError', message: 'Authorization token invalid' }, 'BrokerUnavailable', false],
      // 403: the token is good (a bad one is 401) but this trade is not allowed: refused alone.
      [
        403,
        { id: 1, error: 'ForbiddenError', message: 'Trading is not allowed for this account' },
        'InvalidOrder',
        false,
      ],
      [500, { id: 1, error: 'InternalError', message: 'Internal server error' }, 'BrokerUnavailable', true],
      [200, { ok: true }, 'BrokerUnavailable', true],
    ] as const;
    for (const [status, body, kind, outcomeUnknown] of cases) {
      world.fake.inject({ method: 'POST', path: trade, status, body });
      const error = await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01 }));
      expect(error).toMatchObject({ kind, outcomeUnknown });
      expect(error.message).toMatch(/^MetaTrader: /);
      if (status === 401)
        expect(error.message).toBe(
          "MetaTrader: the broker connection is misconfigured on this server's side: its MetaApi token was refused (Authorization token invalid). Please contact support.",
        );
    }
  });

  it('names MetaApi gives on a 5xx or inconclusive 4xx keep their kind but decide nothing: no refusal, no deactivation', async () => {
    const trade = `/users/current/accounts/${DEMO_ID}/trade`;
    const cases = [
      [
        502,
        { id: 1, error: 'InternalError', message: 'bad gateway', details: 'TRADE_RETCODE_NO_MONEY' },
        'InsufficientFunds',
      ],
      [504, { id: 1, error: 'UnauthorizedError', message: 'upstream refused' }, 'BrokerUnavailable'],
      [409, { id: 1, error: 'ValidationError', message: 'in progress', details: 'E_AUTH' }, 'BrokerUnavailable'],
    ] as const;
    for (const [status, body, kind] of cases) {
      world.fake.inject({ method: 'POST', path: trade, status, body });
      const error = await brokerFailure(place({ symbol: 'EURUSD', action: 'buy', quantity: 0.01 }));
      expect(error).toMatchObject({ kind, outcomeUnknown: true });
    }
  });

  it('refuses an account that is not part of the connection', async () => {
    const error = await brokerFailure(world.broker.getHoldings(world.ctx, session, '1234567@Elsewhere'));
    expect(error.kind).toBe('InvalidOrder');
  });

  it('a stopped account: nothing sent, the account started for the next signal', async () => {
    const fresh = createMetatraderBroker({ limits: FAST });
    const account = world.fake.accounts.get(DEMO_ID);
    if (account) Object.assign(account, { state: 'UNDEPLOYED', connectionStatus: 'DISCONNECTED' });
    const from = world.fake.requests.length;
    const error = await brokerFailure(
      fresh.placeOrder(world.ctx, session, input(session, { symbol: 'EURUSD', action: 'buy', quantity: 0.01 })),
    );
    expect(error).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: false,
      message: 'MetaTrader: the account was stopped at MetaApi and is starting now; send the signal again in a minute',
    });
    expect(callsSince(world.fake, from)).toEqual([
      `GET /users/current/accounts/${DEMO_ID}`,
      `POST /users/current/accounts/${DEMO_ID}/deploy`,
    ]);
    if (account) Object.assign(account, { state: 'DEPLOYED', connectionStatus: 'CONNECTED' });
  });

  it('a stopped account whose start meets a 5xx: nothing sent, the outcome known', async () => {
    const fresh = createMetatraderBroker({ limits: FAST });
    const account = world.fake.accounts.get(DEMO_ID);
    if (account) Object.assign(account, { state: 'UNDEPLOYED', connectionStatus: 'DISCONNECTED' });
    try {
      world.fake.inject({
        method: 'POST',
        path: `/users/current/accounts/${DEMO_ID}/deploy`,
        status: 502,
        body: '<html>bad gateway</html>',
      });
      const error = await brokerFailure(
        fresh.placeOrder(world.ctx, session, input(session, { symbol: 'EURUSD', action: 'buy', quantity: 0.01 })),
      );
      expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: false });
    } finally {
      world.fake.clearInjections();
      if (account) Object.assign(account, { state: 'DEPLOYED', connectionStatus: 'CONNECTED' });
    }
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  it.each([
    [
      { symbol: 'NZDCAD', action: 'buy', quantity: 1, duration: 'gtc' },
      'MetaTrader: duration: market orders take day, ioc or fok, not gtc',
    ],
    [
      { symbol: 'EURUSD', action: 'buy', quantity: 1, limit_price: 1, duration: 'gtd' },
      'MetaTrader: extra.expiration: the time a gtd order expires (ISO 8601)',
    ],
    [
      { symbol: 'EURUSD', action: 'close', quantity: 1 },
      'MetaTrader: close takes no quantity, or quantity_type percent_of_position',
    ],
  ])('refuses %j as placing does, with its error, sending nothing', async (signal, message) => {
    const order = input(session, signal);
    const from = world.fake.requests.length;
    const live = await brokerFailure(world.broker.placeOrder(world.ctx, session, order));
    expect(live).toMatchObject({ kind: 'InvalidOrder', message });
    expect(callsSince(world.fake, from)).toEqual([]);
    expect(() => world.broker.checkOrder(order)).toThrow(live);
  });

  it('passes an order placing takes', () => {
    const check = (signal: Record<string, unknown>) => world.broker.checkOrder(input(session, signal));
    expect(() => check({ symbol: 'EURUSD', action: 'buy', quantity: 0.1, limit_price: 1.07 })).not.toThrow();
    expect(() =>
      check({ symbol: 'EURUSD', action: 'close', quantity: 50, quantity_type: 'percent_of_position' }),
    ).not.toThrow();
    expect(() => check({ symbol: 'EURUSD', action: 'cancel' })).not.toThrow();
  });
});
