// Contract tests of the cTrader adapter against its protocol fake: OAuth connect and refresh,
// each order form over real WebSocket + protobuf frames, refusals before sending, each error
// class, lookup routes through findOrder, cancel, close, holdings, live and demo endpoints.
import { normalizeOrderOrThrow } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { resolveBrokerContext } from '../../core/context.ts';
import { findOrder } from '../../core/find-order.ts';
import { toProvider } from '../../core/registry.ts';
import { type CtraderBroker, createCtraderBroker } from './adapter.ts';
import { ctraderDescriptor } from './descriptor.ts';
import { type CtraderFake, FAKE_APP, startCtraderFake } from './fake.ts';

const DEMO = '44533070';
const LIVE = '44533071';
const provider = toProvider(ctraderDescriptor);
const order = (signal: Record<string, unknown>) => normalizeOrderOrThrow(signal, { provider });

let fake: CtraderFake;
let broker: CtraderBroker;
let ctx: BrokerContext;
let session: BrokerSession;

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { kind?: string; message: string; outcomeUnknown?: boolean };
  }
  throw new Error('expected a refusal');
}

const sent = (name: string, since = 0) =>
  fake.records
    .slice(since)
    .filter((record) => record.path === name)
    .map((record) => record.body);

beforeAll(async () => {
  fake = await startCtraderFake();
  broker = createCtraderBroker({ endpoints: fake.endpoints });
  ctx = resolveBrokerContext(ctraderDescriptor, {
    config: { baseUrl: fake.baseUrl, ...FAKE_APP },
    publicUrl: 'http://127.0.0.1:9',
  });
  session = await broker.connect(ctx, { credentials: { code: fake.issueCode(ctx.redirectUrl ?? '') } });
});
afterAll(async () => {
  broker?.close();
  await fake?.close();
});

const place = (signal: Record<string, unknown>, clientOrderId: string, accountId = DEMO, on = session) =>
  broker.placeOrder(ctx, on, { accountId, order: order(signal), clientOrderId });

describe('connect and refresh', () => {
  it('sends the user to /apps/auth with trading scope and our callback', () => {
    const url = new URL(broker.authorizationUrl(ctx, 'st-1').requestUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.baseUrl}/apps/auth`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: FAKE_APP.clientId,
      redirect_uri: 'http://127.0.0.1:9/callback/ctrader',
      scope: 'trading',
      state: 'st-1',
    });
  });

  it('exchanges the code with a GET and lists live and demo accounts, with the access token expiry', () => {
    const exchange = fake.records.find((record) => record.path === '/apps/token');
    expect(exchange).toMatchObject({
      method: 'GET',
      query: { grant_type: 'authorization_code', ...{ client_id: FAKE_APP.clientId } },
    });
    expect(session.accounts).toEqual([
      { id: DEMO, name: 'DemoBroker 5021377', dataTitle: 'DemoBroker', demo: true },
      { id: LIVE, name: 'LiveBroker 3017755', dataTitle: 'LiveBroker', demo: false },
    ]);
    const expiresAt = session.expiresAt ?? 0;
    expect(expiresAt - Date.now()).toBeGreaterThan(2_627_000_000);
    expect(session.refreshAt).toBe(expiresAt - 7 * 24 * 60 * 60_000);
    expect(JSON.stringify(session.accounts)).not.toContain(session.secrets.accessToken ?? '-');
  });

  it('refuses a used or unknown code with the broker title', async () => {
    const error = await failure(broker.connect(ctx, { credentials: { code: 'not-a-code' } }));
    expect(error).toMatchObject({
      kind: 'AuthenticationError',
      message: 'cTrader: sign-in refused (Authorization code is invalid or expired); reconnect',
    });
  });

  it('refreshes: a new pair, the old access token and refresh token stop working', async () => {
    const own = await broker.connect(ctx, { credentials: { code: fake.issueCode(ctx.redirectUrl ?? '') } });
    await place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-before-refresh', DEMO, own);
    const renewed = await broker.refresh(ctx, own);
    expect(renewed.secrets.refreshToken).not.toBe(own.secrets.refreshToken);
    expect(renewed.secrets.accessToken).not.toBe(own.secrets.accessToken);
    expect(renewed.accounts).toEqual(own.accounts);
    const filled = await place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-after-refresh', DEMO, renewed);
    expect(filled.status).toBe('filled');
    const old = await failure(place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-old-token', DEMO, own));
    expect(old).toMatchObject({
      kind: 'AuthenticationError',
      message: 'cTrader: Invalid access token (CH_ACCESS_TOKEN_INVALID)',
    });
    const again = await failure(broker.refresh(ctx, own));
    expect(again.kind).toBe('AuthenticationError');
    expect(again.message).toMatch(/^cTrader: the refresh token was refused/);
  });
});

describe('orders', () => {
  it('market buy with relative stop loss and take profit: ACCEPTED then FILLED', async () => {
    const since = fake.records.length;
    const answer = await place(
      {
        symbol: 'EURUSD',
        action: 'buy',
        quantity: 1000,
        stop_loss_price_distance: 0.005,
        extra: { take_profit_distance: 0.01, label: 'signal-bot' },
      },
      'sig-20241124-0042',
    );
    expect(answer).toEqual({ id: expect.stringMatching(/^\d+$/), status: 'filled', price: 1.08512 });
    expect(sent('ProtoOANewOrderReq', since)).toEqual([
      {
        ctidTraderAccountId: 44533070,
        symbolId: 1,
        orderType: 1,
        tradeSide: 1,
        volume: 100000,
        relativeStopLoss: 500,
        relativeTakeProfit: 1000,
        label: 'signal-bot',
        clientOrderId: 'sig-20241124-0042',
      },
    ]);
  });

  it('limit sell, good till date, absolute bracket', async () => {
    const since = fake.records.length;
    const expiration = Date.now() + 86_400_000;
    const answer = await place(
      {
        symbol: 'EUR/USD',
        action: 'sell',
        quantity: 10000,
        type: 'limit',
        limit_price: 1.0855,
        duration: 'gtd',
        take_profit_price: 1.0755,
        stop_loss_price: 1.0905,
        extra: { expiration_time: new Date(expiration).toISOString() },
      },
      'sig-limit',
    );
    expect(answer).toEqual({ id: expect.stringMatching(/^\d+$/), status: 'accepted' });
    expect(sent('ProtoOANewOrderReq', since)).toEqual([
      expect.objectContaining({ orderType: 2, tradeSide: 2, volume: 1000000, limitPrice: 1.0855, timeInForce: 1 }),
    ]);
    expect(sent('ProtoOANewOrderReq', since)[0]).toMatchObject({
      expirationTimestamp: expiration,
      stopLoss: 1.0905,
      takeProfit: 1.0755,
    });
  });

  it('stop and stop-limit (limit as slippage in points), ioc and fok', async () => {
    const since = fake.records.length;
    await place({ symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'stop', stop_price: 1.092 }, 'sig-stop');
    await place(
      {
        symbol: 'EURUSD',
        action: 'buy',
        quantity: 1000,
        type: 'stop_limit',
        stop_price: 1.092,
        limit_price: 1.0922,
        stop_loss_price: 1.087,
      },
      'sig-stop-limit',
    );
    await place(
      { symbol: 'EURUSD', action: 'sell_short', quantity: 1000, type: 'limit', limit_price: 1.2, duration: 'ioc' },
      'sig-ioc',
    );
    await place({ symbol: 'XAUUSD', action: 'buy', quantity: 1, duration: 'fok' }, 'sig-fok');
    expect(sent('ProtoOANewOrderReq', since)).toEqual([
      expect.objectContaining({ orderType: 3, stopPrice: 1.092, timeInForce: 2 }),
      expect.objectContaining({
        orderType: 6,
        stopPrice: 1.092,
        slippageInPoints: 20,
        timeInForce: 2,
        stopLoss: 1.087,
      }),
      expect.objectContaining({ orderType: 2, tradeSide: 2, timeInForce: 3 }),
      expect.objectContaining({ orderType: 1, symbolId: 41, volume: 100, timeInForce: 4 }),
    ]);
  });

  it.each([
    [
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, take_profit_price: 1.2 },
      /market order takes its stop loss and take profit as distances/,
    ],
    [{ symbol: 'EURUSD', action: 'buy', quantity: 1000.001 }, /at most 2 decimals/],
    [{ symbol: 'EURUSD', action: 'buy', quantity: 500 }, /below EUR\/USD's minimum of 1000 units/],
    [{ symbol: 'EURUSD', action: 'buy', quantity: 1500 }, /not a multiple of EUR\/USD's step of 1000 units/],
    [{ symbol: 'GBPJPY', action: 'buy', quantity: 1000 }, /symbol GBP\/JPY is not offered on this account/],
    [
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1, duration: 'gtd' },
      /gtd order needs extra.expiration_time/,
    ],
    [
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'stop_limit', stop_price: 1.1, limit_price: 1.09 },
      /limit at or beyond its stop/,
    ],
  ])('refuses before sending: %j', async (signal, message) => {
    const since = fake.records.length;
    const error = await failure(place(signal, 'sig-refused'));
    expect(error.kind).toBe('InvalidOrder');
    expect(error.message).toMatch(/^cTrader: /);
    expect(error.message).toMatch(message);
    expect(sent('ProtoOANewOrderReq', since)).toEqual([]);
  });

  it('the validator refuses what cTrader lacks, naming it', () => {
    expect(() => order({ symbol: 'EURUSD', action: 'buy', quantity: 1, duration: 'day' })).toThrow(
      /^cTrader: duration/,
    );
    expect(() => order({ symbol: 'EURUSD', action: 'buy', quantity: 1, quantity_type: 'cash' })).toThrow(/^cTrader: /);
  });

  it('a signal id longer than 50 characters becomes its 50-character hash, the same each time', async () => {
    const long = `sig-${'x'.repeat(60)}`;
    const since = fake.records.length;
    await place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, long);
    const [request] = sent('ProtoOANewOrderReq', since) as Array<{ clientOrderId: string }>;
    expect(request?.clientOrderId).toMatch(/^[0-9a-f]{50}$/);
    const found = await findOrder(broker, ctx, session, { accountId: DEMO, clientOrderId: long, sentAt: Date.now() });
    expect(found.match).toBe('exact');
  });

  it('a live account trades on the live endpoint', async () => {
    const answer = await place({ symbol: 'BTCUSD', action: 'buy', quantity: 0.05 }, 'sig-live', LIVE);
    expect(answer.status).toBe('filled');
    const swapped = createCtraderBroker({ endpoints: { live: fake.endpoints.demo, demo: fake.endpoints.live } });
    try {
      const error = await failure(
        swapped.placeOrder(ctx, session, {
          accountId: LIVE,
          order: order({ symbol: 'BTCUSD', action: 'buy', quantity: 0.05 }),
          clientOrderId: 'sig-x',
        }),
      );
      expect(error.kind).toBe('AuthenticationError');
    } finally {
      swapped.close();
    }
  });

  it('refuses an account outside the connection before sending', async () => {
    const error = await failure(place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-other', '999'));
    expect(error).toMatchObject({
      kind: 'AuthenticationError',
      message: 'cTrader: account 999 is not part of this connection',
    });
  });
});

describe('errors', () => {
  it('not enough money (ProtoOAOrderErrorEvent) is InsufficientFunds', async () => {
    const error = await failure(place({ symbol: 'EURUSD', action: 'buy', quantity: 10_000_000 }, 'sig-money'));
    expect(error).toMatchObject({ kind: 'InsufficientFunds', message: 'cTrader: Not enough money (NOT_ENOUGH_MONEY)' });
  });

  it('a rate limit beyond the wait we may sit out is RateLimited, not resent', async () => {
    const since = fake.records.length;
    fake.answerNext({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      status: 2142,
      body: {
        ctidTraderAccountId: 44533070,
        errorCode: 'BLOCKED_PAYLOAD_TYPE',
        description: 'Rate limit reached',
        retryAfter: 30,
      },
    });
    const error = await failure(place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-rate'));
    expect(error).toMatchObject({
      kind: 'RateLimited',
      message: 'cTrader: Rate limit reached (BLOCKED_PAYLOAD_TYPE); retry after 30 s',
    });
    expect(sent('ProtoOANewOrderReq', since)).toHaveLength(1);
  });

  it('a rate limit of one second is sat out once: cTrader did nothing the first time', async () => {
    const since = fake.records.length;
    fake.answerNext({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      status: 2142,
      body: { ctidTraderAccountId: 44533070, errorCode: 'REQUEST_FREQUENCY_EXCEEDED', retryAfter: 1 },
    });
    const answer = await place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-rate-1');
    expect(answer.status).toBe('filled');
    expect(sent('ProtoOANewOrderReq', since)).toHaveLength(2);
  });

  it('an order rejected by execution event (ORDER_REJECTED) is refused with its code', async () => {
    fake.answerNext({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      status: 2126,
      body: {
        ctidTraderAccountId: 44533070,
        executionType: 7,
        errorCode: 'MARKET_CLOSED',
        order: { orderId: 1, tradeData: { symbolId: 1, volume: 100000, tradeSide: 1 }, orderType: 1, orderStatus: 3 },
      },
    });
    const error = await failure(place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-closed'));
    expect(error).toMatchObject({ kind: 'InvalidOrder', message: 'cTrader: MARKET_CLOSED' });
  });

  it('maintenance is BrokerUnavailable, a known outcome', async () => {
    fake.answerNext({
      method: 'WS',
      path: 'ProtoOANewOrderReq',
      status: 2142,
      body: { errorCode: 'SERVER_IS_UNDER_MAINTENANCE', description: 'Server is under maintenance' },
    });
    const error = await failure(place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-maint'));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: false });
  });

  it('no answer before the deadline: outcome unknown, sent once, found again by reconciliation', async () => {
    const since = fake.records.length;
    fake.answerNext({ method: 'WS', path: 'ProtoOANewOrderReq', delayMs: 1_500 });
    const hurried = { ...ctx, signal: AbortSignal.timeout(300) };
    const error = await failure(
      broker.placeOrder(hurried, session, {
        accountId: DEMO,
        order: order({ symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1.05 }),
        clientOrderId: 'sig-late',
      }),
    );
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    expect(sent('ProtoOANewOrderReq', since)).toHaveLength(1);
    const found = await findOrder(broker, ctx, session, {
      accountId: DEMO,
      clientOrderId: 'sig-late',
      sentAt: Date.now(),
    });
    expect(found).toMatchObject({ match: 'exact', order: { status: 'accepted' } });
  });

  it('a dropped connection after the send: outcome unknown; the next call connects again', async () => {
    fake.answerNext({ method: 'WS', path: 'ProtoOANewOrderReq', drop: true });
    const error = await failure(place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-drop'));
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    const found = await findOrder(broker, ctx, session, {
      accountId: DEMO,
      clientOrderId: 'sig-drop',
      sentAt: Date.now(),
    });
    expect(found).toMatchObject({ match: 'exact', order: { status: 'filled' } });
  });

  it('wrong application credentials are the operator’s problem: BrokerUnavailable', async () => {
    const wrong = { ...ctx, clientSecret: 'nope' };
    const other = createCtraderBroker({ endpoints: fake.endpoints });
    try {
      const error = await failure(other.getHoldings(wrong, session, DEMO));
      expect(error).toMatchObject({
        kind: 'BrokerUnavailable',
        message: 'cTrader: clientId or clientSecret is incorrect (CH_CLIENT_AUTH_FAILURE)',
      });
    } finally {
      other.close();
    }
  });
});

describe('lookup, cancel, close, holdings', () => {
  it('finds an order by cTrader id (exact), by our id in the history (exact), and proves absence (none)', async () => {
    const placed = await place({ symbol: 'EURUSD', action: 'buy', quantity: 2000 }, 'sig-find');
    const byId = await findOrder(broker, ctx, session, {
      accountId: DEMO,
      clientOrderId: 'sig-find',
      brokerOrderId: placed.id,
    });
    expect(byId).toEqual({ match: 'exact', order: { id: placed.id, status: 'filled', price: 1.08512 } });
    const byOurs = await findOrder(broker, ctx, session, {
      accountId: DEMO,
      clientOrderId: 'sig-find',
      sentAt: Date.now(),
    });
    expect(byOurs).toEqual({ match: 'exact', order: { id: placed.id, status: 'filled', price: 1.08512 } });
    const none = await findOrder(broker, ctx, session, {
      accountId: DEMO,
      clientOrderId: 'sig-never',
      sentAt: Date.now(),
    });
    expect(none).toEqual({ match: 'none' });
    const unknown = await findOrder(broker, ctx, session, {
      accountId: DEMO,
      clientOrderId: 'sig-never',
      brokerOrderId: '1',
    });
    expect(unknown.match).toBe('unknown');
  });

  it('cancels by cTrader id and by our id; a filled order cannot be canceled', async () => {
    const first = await place(
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1.01 },
      'sig-c1',
    );
    await broker.cancelOrder(ctx, session, { accountId: DEMO, brokerOrderId: first.id });
    expect(fake.book.orders.get(Number(first.id))?.orderStatus).toBe(5);
    const second = await place(
      { symbol: 'EURUSD', action: 'buy', quantity: 1000, type: 'limit', limit_price: 1.01 },
      'sig-c2',
    );
    await broker.cancelOrder(ctx, session, { accountId: DEMO, clientOrderId: 'sig-c2' });
    expect(fake.book.orders.get(Number(second.id))?.orderStatus).toBe(5);
    const filled = await place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }, 'sig-c3');
    const error = await failure(broker.cancelOrder(ctx, session, { accountId: DEMO, brokerOrderId: filled.id }));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'cTrader: Order is not pending (UNABLE_TO_CANCEL_ORDER)',
    });
    const missing = await failure(broker.cancelOrder(ctx, session, { accountId: DEMO, brokerOrderId: '5' }));
    expect(missing).toMatchObject({ kind: 'OrderNotFound' });
  });

  it('the cancel action cancels the pending orders of a symbol', async () => {
    await place({ symbol: 'XAUUSD', action: 'buy', quantity: 1, type: 'limit', limit_price: 2000 }, 'sig-x1');
    const answer = await place({ symbol: 'XAUUSD', action: 'cancel' }, 'sig-x2');
    expect(answer).toMatchObject({ status: 'canceled', status_description: 'Canceled 1 open order(s) of XAUUSD' });
  });

  it('holdings, then close: the positions of a symbol closed at market', async () => {
    await place({ symbol: 'XAUUSD', action: 'sell', quantity: 2 }, 'sig-gold');
    const holdings = await broker.getHoldings(ctx, session, DEMO);
    expect(holdings.cash).toBe(10_000);
    expect(holdings.positions).toContainEqual({ symbol: 'XAUUSD', quantity: -2, averagePrice: 2650.5 });
    const closed = await broker.closePosition(ctx, session, DEMO, 'XAUUSD');
    expect(closed).toMatchObject({ status: 'filled', price: 2650.5 });
    expect((await broker.getHoldings(ctx, session, DEMO)).positions.some((item) => item.symbol === 'XAUUSD')).toBe(
      false,
    );
    const none = await failure(place({ symbol: 'XAUUSD', action: 'close' }, 'sig-close-none'));
    expect(none).toMatchObject({ kind: 'InvalidOrder', message: 'cTrader: no open position in XAUUSD' });
  });
});
