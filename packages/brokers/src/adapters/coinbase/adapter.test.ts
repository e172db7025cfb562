// Contract tests: the Coinbase adapter against its protocol fake. Wire requests are checked
// against the shape recorded in broker-specs/ccxt/createOrder-fixtures.json (JSON body with
// client_order_id, product_id, side and one order_configuration).
import type { Order } from '@router/orders';
import { beforeEach, describe, expect, it } from 'vitest';
import { context, expectBrokerError, lookUp, order, quoteOf } from '../../ccxt/test-support.ts';
import type { BrokerSession } from '../../core/broker.ts';
import { createCoinbaseBroker } from './adapter.ts';
import { COINBASE_KEY_NAME, type CoinbaseFake, createCoinbaseFake } from './fake.ts';

const broker = createCoinbaseBroker();
let fake: CoinbaseFake;
let baseUrl: string;
let session: BrokerSession;

beforeEach(async () => {
  fake = createCoinbaseFake();
  baseUrl = await fake.start();
  session = await broker.connect(context(baseUrl), {
    credentials: { apiKeyName: COINBASE_KEY_NAME, privateKey: fake.privateKeyPem },
  });
  return () => fake.close();
});

const place = (fields: Partial<Order>, clientOrderId = 'sig-1') =>
  broker.placeOrder(context(baseUrl), session, { accountId: 'default', order: order(fields), clientOrderId });
const posted = () => fake.calls('POST', '/api/v3/brokerage/orders');
const bodyOf = (index = 0) => JSON.parse(posted()[index]?.rawBody ?? '{}') as Record<string, unknown>;

describe('coinbase connect', () => {
  it('verifies the key with a JWT-signed accounts call', () => {
    expect(session.accounts).toEqual([
      {
        id: 'default',
        name: 'Coinbase account',
        dataTitle: 'Coinbase',
        dataType: 'cash',
        dataCurrency: 'USD',
        demo: false,
      },
    ]);
    expect(fake.calls('GET', '/api/v3/brokerage/accounts')[0]?.headers.authorization).toMatch(
      /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/,
    );
  });

  it('a JWT signed by another key is an authentication error', async () => {
    const other = createCoinbaseFake();
    const credentials = { apiKeyName: COINBASE_KEY_NAME, privateKey: other.privateKeyPem };
    await expectBrokerError(
      broker.connect(context(baseUrl), { credentials }),
      'AuthenticationError',
      /^Coinbase: 401 /,
    );
  });
});

describe('coinbase orders on the wire', () => {
  const table: Array<[string, Partial<Order>, Record<string, unknown>]> = [
    ['market buy', {}, { side: 'BUY', order_configuration: { market_market_ioc: { base_size: '0.01' } } }],
    [
      'market sell',
      { action: 'sell' },
      { side: 'SELL', order_configuration: { market_market_ioc: { base_size: '0.01' } } },
    ],
    [
      'market buy for cash',
      { quantity: 250, quantity_type: 'cash' },
      { order_configuration: { market_market_ioc: { quote_size: '250' } } },
    ],
    [
      'limit gtc',
      { type: 'limit', limit_price: 60000 },
      { order_configuration: { limit_limit_gtc: { base_size: '0.01', limit_price: '60000', post_only: false } } },
    ],
    [
      'limit ioc',
      { type: 'limit', limit_price: 60000, duration: 'ioc' },
      { order_configuration: { sor_limit_ioc: { base_size: '0.01', limit_price: '60000' } } },
    ],
    [
      'limit fok',
      { type: 'limit', limit_price: 60000, duration: 'fok' },
      { order_configuration: { limit_limit_fok: { base_size: '0.01', limit_price: '60000' } } },
    ],
    [
      'stop limit sell',
      { action: 'sell', type: 'stop_limit', stop_price: 60000, limit_price: 59500 },
      {
        side: 'SELL',
        order_configuration: {
          stop_limit_stop_limit_gtc: {
            base_size: '0.01',
            limit_price: '59500',
            stop_price: '60000',
            stop_direction: 'STOP_DIRECTION_STOP_DOWN',
          },
        },
      },
    ],
  ];

  it.each(table)('%s', async (_name, fields, expected) => {
    const response = await place(fields);
    expect(response.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(posted()[0]?.contentType).toBe('application/json');
    const body = bodyOf();
    expect(body).toEqual({
      client_order_id: 'sig-1',
      product_id: 'BTC-USD',
      ...expected,
      side: expected.side ?? (fields.action === 'sell' ? 'SELL' : 'BUY'),
    });
  });

  it.each(['BTCUSD', 'XBTUSD', 'BTC/USD', 'BTC-USD'])('maps %s to BTC-USD', async (symbol) => {
    await place({ symbol });
    expect(bodyOf().product_id).toBe('BTC-USD');
  });
});

describe('coinbase errors', () => {
  it('insufficient funds (a 200 with success false), sent once', async () => {
    await expectBrokerError(
      place({ quantity: 5 }),
      'InsufficientFunds',
      'Coinbase: Insufficient balance in source account',
    );
    expect(posted()).toHaveLength(1);
  });

  it('a 503 leaves the outcome unknown and is not retried', async () => {
    fake.failNextOrder = { status: 503, body: { error: 'unavailable', message: 'service unavailable' } };
    const error = await expectBrokerError(place({}), 'BrokerUnavailable', 'Coinbase: service unavailable');
    expect(error.outcomeUnknown).toBe(true);
    expect(posted()).toHaveLength(1);
  });

  it('PERMISSION_DENIED on an order refuses that order, not the key', async () => {
    fake.failNextOrder = {
      status: 403,
      body: {
        error: 'PERMISSION_DENIED',
        error_details: 'Missing required scopes',
        message: 'Missing required scopes',
      },
    };
    await expectBrokerError(place({}), 'InvalidOrder', 'Coinbase: Missing required scopes');
    expect(posted()).toHaveLength(1);
  });

  it('429 is rate limited', async () => {
    fake.failNextOrder = { status: 429, body: { error: 'rate_limit_exceeded', message: 'Too many requests' } };
    await expectBrokerError(place({}), 'RateLimited', /^Coinbase: /);
  });

  it('a cash market buy is an amount of the quote currency, not held to the base lot size', async () => {
    // SHIB trades in whole coins: $25.50 of it is a fine quote_size, not "25.5 SHIB" truncated to 25.
    await place({ symbol: 'SHIB-USD', quantity: 25.5, quantity_type: 'cash' });
    expect(bodyOf()).toMatchObject({
      product_id: 'SHIB-USD',
      side: 'BUY',
      order_configuration: { market_market_ioc: { quote_size: '25.5' } },
    });
  });

  it('a market buy of coins is cut to the lot size, as a sell is, not refused as too precise', async () => {
    // SHIB trades in whole coins: 1000.4 SHIB (within the lot check's tolerance) is 1000 either way.
    fake.available.SHIB = 5000;
    await place({ symbol: 'SHIB-USD', quantity: 1000.4 });
    await place({ symbol: 'SHIB-USD', quantity: 1000.4, action: 'sell' }, 'sig-2');
    for (const index of [0, 1])
      expect(bodyOf(index).order_configuration).toEqual({ market_market_ioc: { base_size: '1000' } });
  });

  it('a repeated client_order_id answers with the existing order', async () => {
    const first = await place({ type: 'limit', limit_price: 60000 }, 'sig-dup');
    const again = await place({ type: 'limit', limit_price: 60000 }, 'sig-dup');
    expect(again.id).toBe(first.id);
    expect(fake.orders).toHaveLength(1);
  });
});

describe('coinbase lookups, cancel, close and holdings', () => {
  it('finds by client order id and cancels', async () => {
    const placed = await place({ type: 'limit', limit_price: 60000 }, 'sig-find');
    // Coinbase lists orders with their client_order_id: the listing route, matched by echoed id.
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'sig-find' })).toMatchObject({
      match: 'exact',
      order: { id: placed.id, status: 'accepted' },
    });
    expect(fake.calls('GET', '/api/v3/brokerage/orders/historical/batch').length).toBeGreaterThan(0);
    await broker.cancelOrder(context(baseUrl), session, { accountId: 'default', brokerOrderId: placed.id });
    expect(fake.orders[0]?.status).toBe('CANCELLED');
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'nothing' })).toEqual({ match: 'none' });
    expect(
      await lookUp(broker, baseUrl, session, { clientOrderId: 'sig-find', brokerOrderId: placed.id }),
    ).toMatchObject({
      match: 'exact',
      order: { id: placed.id, status: 'canceled' },
    });
    expect(fake.requests.at(-1)?.path).toBe(`/api/v3/brokerage/orders/historical/${placed.id}`);
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'x', brokerOrderId: 'no-such-order' })).toEqual({
      match: 'unknown',
      reason: 'Coinbase does not know its own order no-such-order',
    });
  });

  it('a lost order is looked for on every page of the orders since it was sent, not on the first one only', async () => {
    fake.pageSize = 2;
    const placed = await place({ type: 'limit', limit_price: 60000 }, 'sig-early');
    await place({ type: 'limit', limit_price: 60001 }, 'sig-2');
    await place({ type: 'limit', limit_price: 60002 }, 'sig-3');
    await place({ action: 'sell', quantity: 0.01 }, 'sig-4');
    await place({ action: 'sell', quantity: 0.01 }, 'sig-5');
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'sig-early' })).toMatchObject({
      match: 'exact',
      order: { id: placed.id, status: 'accepted' },
    });
  });

  it('a lost order that was canceled since is still found by its client order id, not proved absent', async () => {
    // Coinbase lists orders of every status (OPEN, FILLED, CANCELLED, EXPIRED, FAILED); ccxt's
    // fetchClosedOrders asks for FILLED only, so a canceled (or expired, failed) order is elsewhere.
    const placed = await place({ type: 'limit', limit_price: 60000 }, 'sig-gone');
    await broker.cancelOrder(context(baseUrl), session, { accountId: 'default', brokerOrderId: placed.id });
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'sig-gone' })).toMatchObject({
      match: 'exact',
      order: { id: placed.id, status: 'canceled' },
    });
  });

  it('an order Coinbase reports FAILED was rejected (never worked), not canceled', async () => {
    const placed = await place({ type: 'limit', limit_price: 60000 }, 'sig-failed');
    const order = fake.orders.find((o) => o.order_id === placed.id);
    if (order) order.status = 'FAILED';
    expect(await broker.findByBrokerId(context(baseUrl), session, 'default', placed.id)).toMatchObject({
      id: placed.id,
      status: 'rejected',
    });
  });

  it('close sells the available base currency', async () => {
    await place({ action: 'close' }, 'sig-close');
    expect(bodyOf()).toMatchObject({
      product_id: 'BTC-USD',
      side: 'SELL',
      order_configuration: { market_market_ioc: { base_size: '0.5' } },
    });
  });

  it('a close whose answer was lost is found by its client order id, not proved absent', async () => {
    const placed = await place({ action: 'close', quantity: 0.2 }, 'sig-close-lost');
    expect(bodyOf()).toMatchObject({ client_order_id: 'sig-close-lost' });
    expect(
      await lookUp(broker, baseUrl, session, { clientOrderId: 'sig-close-lost', order: order({ action: 'close' }) }),
    ).toMatchObject({ match: 'exact', order: { id: placed.id } });
  });

  it('close with a quantity sells that much of the base currency, not all of it', async () => {
    await place({ action: 'close', quantity: 0.2 }, 'sig-close');
    expect(bodyOf()).toMatchObject({
      side: 'SELL',
      order_configuration: { market_market_ioc: { base_size: '0.2' } },
    });
  });

  it('holdings', async () => {
    expect(await broker.getHoldings(context(baseUrl), session, 'default')).toMatchObject({
      currency: 'USD',
      cash: 100000,
      positions: [{ symbol: 'BTC', quantity: 0.5 }],
    });
  });
});

describe('coinbase lastPrice', () => {
  const lastPrice = (symbol: string, accountId?: string) => quoteOf(broker, baseUrl, session, symbol, accountId);

  it.each([
    ['XBTUSD', 'BTC-USD', 65000],
    ['ETH/USD', 'ETH-USD', 3000],
  ])('quotes %s from the %s ticker’s last trade', async (symbol, id, price) => {
    expect(await lastPrice(symbol)).toBe(price);
    const [request] = fake.calls('GET', `/api/v3/brokerage/market/products/${id}/ticker`);
    expect(request?.url).toBe(`/api/v3/brokerage/market/products/${id}/ticker?limit=1`);
  });

  it('refuses a product Coinbase does not list, and an account not of this connection', async () => {
    await expectBrokerError(lastPrice('DOGE/EUR'), 'InvalidOrder', 'Coinbase: unknown symbol DOGE/EUR');
    await expectBrokerError(lastPrice('BTC-USD', 'other'), 'InvalidOrder', /^Coinbase: account other/);
  });
});

describe('coinbase checkOrder (a test hook: check without placing)', () => {
  const input = (fields: Partial<Order>) => ({ accountId: 'default', order: order(fields), clientOrderId: 'sig-1' });

  it('refuses what placing refuses, with its error, sending nothing; passes an order placing takes', async () => {
    const fields = { action: 'sell', quantity: 100, quantity_type: 'cash' } as const;
    const live = await expectBrokerError(
      place(fields),
      'InvalidOrder',
      'Coinbase: cash quantity except on market buys is not supported',
    );
    expect(posted()).toHaveLength(0);
    expect(() => broker.checkOrder(input(fields))).toThrow(live);
    expect(() => broker.checkOrder(input({ ...fields, action: 'buy' }))).not.toThrow();
    expect(() =>
      broker.checkOrder(input({ action: 'close', quantity: 50, quantity_type: 'percent_of_position' })),
    ).toThrow('Coinbase: close takes a fixed quantity');
  });
});
