// Contract tests: the BitMEX adapter against its protocol fake; every order it sends is also
// replayed to Prism serving broker-specs/validating/bitmex.json (JSON bodies), which must accept it.
import type { Order } from '@router/orders';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { context, expectBrokerError, lookUp, order, quoteOf, verdictOf } from '../../ccxt/test-support.ts';
import type { BrokerSession } from '../../core/broker.ts';
import { type PrismMock, startPrismMock, validatingSpec } from '../../core/prism-mock.ts';
import { createBitmexBroker } from './adapter.ts';
import { BITMEX_FAKE_KEY, BITMEX_FAKE_SECRET, type BitmexFake, createBitmexFake } from './fake.ts';

const broker = createBitmexBroker();
const credentials = { apiKey: BITMEX_FAKE_KEY, apiSecret: BITMEX_FAKE_SECRET };
let fake: BitmexFake;
let prism: PrismMock;
let baseUrl: string;
let session: BrokerSession;

beforeAll(async () => {
  prism = await startPrismMock(validatingSpec('bitmex.json'));
}, 30_000);
afterAll(() => prism?.close());

beforeEach(async () => {
  fake = createBitmexFake();
  baseUrl = await fake.start();
  session = await broker.connect(context(baseUrl), { credentials });
  return () => fake.close();
});

const place = (fields: Partial<Order>, clientOrderId = 'sig-1') =>
  broker.placeOrder(context(baseUrl), session, {
    accountId: 'default',
    // A close signal carries a quantity only when it says one (ccxt/test-support.ts).
    order: order(fields.action === 'close' ? fields : { quantity: 100, ...fields }),
    clientOrderId,
  });
const posted = () => fake.calls('POST', '/api/v1/order');
const bodyOf = (index = 0) => JSON.parse(posted()[index]?.rawBody ?? '{}') as Record<string, unknown>;

describe('bitmex connect', () => {
  it('verifies the keys with a signed margin call', () => {
    expect(session.accounts).toEqual([
      {
        id: 'default',
        name: 'BitMEX account',
        dataTitle: 'BitMEX',
        dataType: 'margin',
        dataCurrency: 'BTC',
        demo: false,
      },
    ]);
    expect(fake.calls('GET', '/api/v1/user/margin')[0]?.headers['api-signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a bad signature is an authentication error', async () => {
    const wrong = { ...credentials, apiSecret: 'wrong' };
    await expectBrokerError(
      broker.connect(context(baseUrl), { credentials: wrong }),
      'AuthenticationError',
      'BitMEX: Signature not valid.',
    );
  });
});

describe('bitmex orders on the wire', () => {
  const table: Array<[string, Partial<Order>, Record<string, unknown>]> = [
    [
      'market buy gtc',
      {},
      { symbol: 'XBTUSD', side: 'Buy', orderQty: 100, ordType: 'Market', timeInForce: 'GoodTillCancel' },
    ],
    [
      'limit sell day',
      { action: 'sell', type: 'limit', limit_price: 70000, duration: 'day' },
      { side: 'Sell', ordType: 'Limit', price: 70000, timeInForce: 'Day' },
    ],
    [
      'limit buy ioc',
      { type: 'limit', limit_price: 60000, duration: 'ioc' },
      { ordType: 'Limit', price: 60000, timeInForce: 'ImmediateOrCancel' },
    ],
    [
      'limit buy fok',
      { type: 'limit', limit_price: 60000, duration: 'fok' },
      { ordType: 'Limit', timeInForce: 'FillOrKill' },
    ],
    ['stop sell', { action: 'sell', type: 'stop', stop_price: 60000 }, { ordType: 'Stop', stopPx: 60000 }],
    [
      'stop limit buy',
      { type: 'stop_limit', stop_price: 66000, limit_price: 66500 },
      { ordType: 'StopLimit', stopPx: 66000, price: 66500 },
    ],
  ];

  it.each(table)('%s: sent as BitMEX expects and accepted by the validating mock', async (_name, fields, expected) => {
    const response = await place(fields);
    expect(response.id).toMatch(/^[0-9a-f-]{36}$/);
    const [request] = posted();
    expect(request?.contentType).toBe('application/json');
    expect(bodyOf()).toMatchObject({ symbol: 'XBTUSD', clOrdID: 'sig-1', text: 'signal-router', ...expected });
    const verdict = await verdictOf(prism, request!);
    expect(verdict.violations).toEqual([]);
    expect(verdict.accepted).toBe(true);
  });

  it('the validating mock refuses a wrong request (sanity check)', async () => {
    await place({});
    const [request] = posted();
    const wrong = { ...request!, rawBody: request!.rawBody.replace('"Market"', '"Bogus"') };
    expect((await verdictOf(prism, wrong)).accepted).toBe(false);
  });

  it("a limit price off the 0.5 tick is moved to the trader's side: a buy down, a sell up", async () => {
    await place({ type: 'limit', limit_price: 60000.3 }, 'sig-buy');
    await place({ action: 'sell', type: 'limit', limit_price: 60000.2 }, 'sig-sell');
    await place({ type: 'stop_limit', stop_price: 60000, limit_price: 60000.3 }, 'sig-stop-limit');
    expect([bodyOf(0).price, bodyOf(1).price, bodyOf(2).price]).toEqual([60000, 60000.5, 60000]);
  });

  it.each([
    ['BTCUSD', 'XBTUSD'],
    ['XBT/USD', 'XBTUSD'],
    ['BTC/USDT', 'XBTUSDT'],
    ['ETH-USD', 'ETHUSD'],
  ])('maps %s to %s', async (symbol, id) => {
    await place({ symbol, quantity: 1000 });
    expect(bodyOf().symbol).toBe(id);
  });
});

describe('bitmex errors', () => {
  it('insufficient balance, sent once', async () => {
    fake.availableXBt = 10;
    await expectBrokerError(
      place({}),
      'InsufficientFunds',
      'BitMEX: Account has insufficient Available Balance, 1538 XBt required',
    );
    expect(posted()).toHaveLength(1);
  });

  it('a buy price under one 0.5 tick is refused, never sent as 0', async () => {
    await expectBrokerError(
      place({ type: 'limit', limit_price: 0.3 }),
      'InvalidOrder',
      'BitMEX: price 0.3 is less than one tick (0.5): it would be 0',
    );
    expect(posted()).toHaveLength(0);
  });

  it('a quantity off the lot size is an invalid order', async () => {
    await expectBrokerError(
      place({ quantity: 150 }),
      'InvalidOrder',
      'BitMEX: quantity 150 does not fit the lot size of XBTUSD',
    );
    expect(posted()).toHaveLength(0);
  });

  it('a 503 leaves the outcome unknown and is not retried', async () => {
    fake.failNextOrder = { status: 503, message: 'The system is currently overloaded. Please try again later.' };
    const error = await expectBrokerError(
      place({}),
      'BrokerUnavailable',
      'BitMEX: The system is currently overloaded. Please try again later.',
    );
    expect(error.outcomeUnknown).toBe(true);
    expect(posted()).toHaveLength(1);
  });

  it('a 403 refusing the order (Access Denied, account restricted) refuses that order, not the keys', async () => {
    fake.failNextOrder = { status: 403, message: 'Access Denied' };
    await expectBrokerError(place({}), 'InvalidOrder', 'BitMEX: Access Denied');
    fake.failNextOrder = { status: 403, message: 'Account is restricted' };
    await expectBrokerError(place({}, 'sig-2'), 'InvalidOrder', 'BitMEX: Account is restricted');
    expect(posted()).toHaveLength(2);
  });

  it('a disabled or wrong key on an order stays an authentication failure', async () => {
    fake.failNextOrder = { status: 403, message: 'This key is disabled.' };
    await expectBrokerError(place({}), 'AuthenticationError', 'BitMEX: This key is disabled.');
    fake.failNextOrder = { status: 401, message: 'Invalid API Key.' };
    await expectBrokerError(place({}, 'sig-2'), 'AuthenticationError', 'BitMEX: Invalid API Key.');
  });

  it('a 401/403 page or empty answer (a CDN’s, a firewall’s) is an outage, not a refused key', async () => {
    const page = { status: 403, body: '<html><h1>403 Forbidden</h1></html>', headers: { 'content-type': 'text/html' } };
    fake.inject({ method: 'POST', path: '/api/v1/order', ...page });
    const order = await expectBrokerError(place({}), 'BrokerUnavailable', /^BitMEX: /);
    expect(order.outcomeUnknown).toBe(true);
    fake.inject({ method: 'GET', status: 401 });
    const read = await expectBrokerError(
      broker.getHoldings(context(baseUrl), session, 'default'),
      'BrokerUnavailable',
      'BitMEX: HTTP 401',
    );
    expect(read.outcomeUnknown).toBe(false);
  });

  it('429 is rate limited', async () => {
    fake.failNextOrder = { status: 429, message: 'Rate limit exceeded, retry in 1 seconds.' };
    await expectBrokerError(place({}), 'RateLimited', /^BitMEX: Rate limit exceeded/);
    expect(posted()).toHaveLength(1);
  });

  it('a repeated clOrdID returns the existing order', async () => {
    const first = await place({ type: 'limit', limit_price: 60000 }, 'sig-dup');
    const again = await place({ type: 'limit', limit_price: 60000 }, 'sig-dup');
    expect(again).toMatchObject({ id: first.id, status: 'accepted' });
    expect(fake.orders).toHaveLength(1);
  });
});

describe('bitmex lookups, cancel, close and holdings', () => {
  it('finds by client order id and cancels', async () => {
    const placed = await place({ type: 'limit', limit_price: 60000 }, 'sig-find');
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'sig-find' })).toMatchObject({
      match: 'exact',
      order: { id: placed.id },
    });
    await broker.cancelOrder(context(baseUrl), session, { accountId: 'default', brokerOrderId: placed.id });
    expect(fake.orders[0]?.ordStatus).toBe('Canceled');
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'nothing' })).toEqual({ match: 'none' });
    expect(await broker.findByBrokerId(context(baseUrl), session, 'default', placed.id)).toMatchObject({
      id: placed.id,
      status: 'canceled',
    });
    expect(await broker.findByBrokerId(context(baseUrl), session, 'default', 'no-such-order')).toBeNull();
  });

  it('a 403 refusing a cancel (Access Denied) refuses that cancel, not the keys; a disabled key stays one', async () => {
    const placed = await place({ type: 'limit', limit_price: 60000 }, 'sig-cancel-403');
    const cancel = () =>
      broker.cancelOrder(context(baseUrl), session, { accountId: 'default', brokerOrderId: placed.id });
    fake.failNextCancel = { status: 403, message: 'Access Denied' };
    await expectBrokerError(cancel(), 'InvalidOrder', 'BitMEX: Access Denied');
    fake.failNextCancel = { status: 403, message: 'This key is disabled.' };
    await expectBrokerError(cancel(), 'AuthenticationError', 'BitMEX: This key is disabled.');
    expect(fake.orders[0]?.ordStatus).toBe('New');
  });

  it('a cancel of a filled order is refused, and the order stays filled', async () => {
    // BitMEX answers 200 with the order and "Unable to cancel order due to existing state: Filled".
    const filled = await place({}, 'sig-filled');
    const cancel = broker.cancelOrder(context(baseUrl), session, { accountId: 'default', brokerOrderId: filled.id });
    await expectBrokerError(cancel, 'OrderNotFound', /Unable to cancel order due to existing state: Filled/);
    expect(fake.orders.find((o) => o.orderID === filled.id)?.ordStatus).toBe('Filled');
  });

  it('a cancel of an order BitMEX does not know is refused, not reported done', async () => {
    // DELETE /order answers 200 with one entry per order; one it could not cancel carries `error`.
    const cancel = broker.cancelOrder(context(baseUrl), session, {
      accountId: 'default',
      brokerOrderId: 'no-such-order',
    });
    await expectBrokerError(cancel, 'OrderNotFound', 'BitMEX: Not Found');
  });

  it('close sends a reduce-only market order against the position', async () => {
    const closed = await place({ action: 'close' }, 'sig-close');
    expect(closed.status).toBe('filled');
    expect(bodyOf()).toMatchObject({
      symbol: 'XBTUSD',
      side: 'Sell',
      orderQty: 200,
      ordType: 'Market',
      execInst: 'ReduceOnly',
    });
    expect((await verdictOf(prism, posted()[0]!)).accepted).toBe(true);
  });

  it.each([
    [100, 100],
    [1000, 200],
  ])(
    'close with quantity %i sends %i contracts, reduce-only (never more than the position)',
    async (quantity, sent) => {
      await place({ action: 'close', quantity }, 'sig-close');
      expect(bodyOf()).toMatchObject({ symbol: 'XBTUSD', side: 'Sell', orderQty: sent, execInst: 'ReduceOnly' });
    },
  );

  it('a close whose answer was lost is found by its clOrdID, not left unknown', async () => {
    const closed = await place({ action: 'close', quantity: 100 }, 'sig-close-lost');
    expect(bodyOf()).toMatchObject({ clOrdID: 'sig-close-lost', execInst: 'ReduceOnly' });
    expect((await verdictOf(prism, posted()[0]!)).accepted).toBe(true);
    expect(
      await lookUp(broker, baseUrl, session, { clientOrderId: 'sig-close-lost', order: order({ action: 'close' }) }),
    ).toMatchObject({ match: 'exact', order: { id: closed.id } });
  });

  it('a close of part of the position keeps the open orders (the exits of the rest); a close of all cancels them', async () => {
    const exit = await place({ action: 'sell', type: 'limit', limit_price: 70000, quantity: 200 }, 'sig-exit');
    const canceled = () => fake.calls('DELETE', '/api/v1/order');
    await place({ action: 'close', quantity: 100 }, 'sig-part');
    expect(canceled()).toHaveLength(0);
    expect(fake.orders.find((o) => o.orderID === exit.id)?.ordStatus).toBe('New');
    await place({ action: 'close', quantity: 1000 }, 'sig-all');
    expect(canceled()).toHaveLength(1);
    expect(fake.orders.find((o) => o.orderID === exit.id)?.ordStatus).toBe('Canceled');
  });

  it('a close of part of the position cuts the exits larger than the rest to it; others stay as they are', async () => {
    const stop = await place({ action: 'sell', type: 'stop', stop_price: 55000, quantity: 200 }, 'sig-stop');
    const small = await place({ action: 'sell', type: 'limit', limit_price: 70000, quantity: 100 }, 'sig-small');
    const entry = await place({ action: 'buy', type: 'limit', limit_price: 50000, quantity: 300 }, 'sig-entry');
    const partial = await place({ action: 'close', quantity: 100 }, 'sig-part');
    // Sized for the 200 held, the stop would sell 200 of the 100 left: a short of 100 opened.
    const size = (id: string) => fake.orders.find((o) => o.orderID === id)?.leavesQty;
    expect([size(stop.id), size(small.id), size(entry.id)]).toEqual([100, 100, 300]);
    const amended = fake.calls('PUT', '/api/v1/order');
    expect(amended.map((c) => JSON.parse(c.rawBody ?? '{}'))).toMatchObject([{ orderID: stop.id, orderQty: 100 }]);
    expect((await verdictOf(prism, amended[0]!)).accepted).toBe(true);
    expect(partial.status_description).toMatch(/exits cut to the 100 left/);
    expect(fake.calls('DELETE', '/api/v1/order')).toHaveLength(0);
  });

  it('holdings list the margin balance and positions', async () => {
    const holdings = await broker.getHoldings(context(baseUrl), session, 'default');
    expect(holdings).toMatchObject({ currency: 'BTC', cash: 0.5 });
    expect(holdings.positions).toContainEqual(
      expect.objectContaining({ symbol: 'BTC/USD:BTC', quantity: 200, averagePrice: 60000 }),
    );
  });
});

describe('bitmex lastPrice', () => {
  const lastPrice = (symbol: string, accountId?: string) => quoteOf(broker, baseUrl, session, symbol, accountId);

  it.each([
    ['BTCUSD', 'XBTUSD', 65000],
    ['BTC/USDT', 'XBTUSDT', 65000],
    ['ETH-USD', 'ETHUSD', 3000],
  ])('quotes %s from the %s instrument’s lastPrice', async (symbol, id, price) => {
    expect(await lastPrice(symbol)).toBe(price);
    expect(fake.calls('GET', '/api/v1/instrument').at(-1)?.url).toBe(`/api/v1/instrument?symbol=${id}`);
  });

  it('refuses a contract BitMEX does not list, and an account not of this connection', async () => {
    await expectBrokerError(lastPrice('DOGE/EUR'), 'InvalidOrder', 'BitMEX: unknown symbol DOGE/EUR');
    await expectBrokerError(lastPrice('BTCUSD', 'other'), 'InvalidOrder', /^BitMEX: account other/);
  });
});
