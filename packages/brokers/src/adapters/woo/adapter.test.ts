// Contract tests: the WOO X adapter against its protocol fake. Wire requests are checked against
// the shape recorded in broker-specs/ccxt/createOrder-fixtures.json (JSON body: symbol SPOT_…,
// side, type, quantity as strings).
import type { Order } from '@router/orders';
import { beforeEach, describe, expect, it } from 'vitest';
import { context, expectBrokerError, lookUp, order } from '../../ccxt/test-support.ts';
import type { BrokerSession } from '../../core/broker.ts';
import { createWooBroker, wooClientId } from './adapter.ts';
import { createWooFake, WOO_FAKE_KEY, WOO_FAKE_SECRET, type WooFake } from './fake.ts';

const broker = createWooBroker();
const credentials = { apiKey: WOO_FAKE_KEY, apiSecret: WOO_FAKE_SECRET };
let fake: WooFake;
let baseUrl: string;
let session: BrokerSession;

beforeEach(async () => {
  fake = createWooFake();
  baseUrl = await fake.start();
  session = await broker.connect(context(baseUrl), { credentials });
  return () => fake.close();
});

const place = (fields: Partial<Order>, clientOrderId = 'sig-1') =>
  broker.placeOrder(context(baseUrl), session, {
    accountId: 'default',
    order: order({ symbol: 'BTC/USDT', ...fields }),
    clientOrderId,
  });
const posted = () => fake.calls('POST', '/v3/trade/order');
const bodyOf = (index = 0) => JSON.parse(posted()[index]?.rawBody ?? '{}') as Record<string, unknown>;

describe('woo connect', () => {
  it('verifies the keys with a signed balance call', () => {
    expect(session.accounts).toEqual([
      {
        id: 'default',
        name: 'WOO X account',
        dataTitle: 'WOO X',
        dataType: 'margin',
        dataCurrency: 'USDT',
        demo: false,
      },
    ]);
    expect(fake.calls('GET', '/v3/asset/balances')[0]?.headers['x-api-signature']).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a wrong secret is an authentication error', async () => {
    await expectBrokerError(
      broker.connect(context(baseUrl), { credentials: { ...credentials, apiSecret: 'nope' } }),
      'AuthenticationError',
      /^WOO X: API key or secret is invalid/,
    );
  });
});

describe('woo orders on the wire', () => {
  const id = String(wooClientId('sig-1'));
  const table: Array<[string, Partial<Order>, Record<string, unknown>]> = [
    ['market buy', {}, { symbol: 'SPOT_BTC_USDT', side: 'BUY', type: 'MARKET', quantity: '0.01' }],
    ['market buy for cash', { quantity: 100, quantity_type: 'cash' }, { type: 'MARKET', amount: '100' }],
    [
      'limit sell gtc',
      { action: 'sell', type: 'limit', limit_price: 70000 },
      { side: 'SELL', type: 'LIMIT', price: '70000', quantity: '0.01' },
    ],
    ['limit ioc', { type: 'limit', limit_price: 60000, duration: 'ioc' }, { type: 'IOC', price: '60000' }],
    ['limit fok', { type: 'limit', limit_price: 60000, duration: 'fok' }, { type: 'FOK', price: '60000' }],
    [
      'perp market sell',
      { action: 'sell', extra: { market: 'perp' } },
      { symbol: 'PERP_BTC_USDT', side: 'SELL', type: 'MARKET', quantity: '0.01' },
    ],
  ];

  it.each(table)('%s', async (_name, fields, expected) => {
    const response = await place(fields);
    expect(response.id).toMatch(/^\d+$/);
    expect(posted()[0]?.contentType).toBe('application/json');
    expect(bodyOf()).toMatchObject({ symbol: 'SPOT_BTC_USDT', clientOrderId: id, ...expected });
  });

  it.each(['BTCUSDT', 'BTC-USDT', 'XBT/USDT', 'SPOT_BTC_USDT'])('maps %s to SPOT_BTC_USDT', async (symbol) => {
    await place({ symbol });
    expect(bodyOf().symbol).toBe('SPOT_BTC_USDT');
  });
});

describe('woo errors', () => {
  it('insufficient balance, sent once', async () => {
    await expectBrokerError(place({ quantity: 2 }), 'InsufficientFunds', 'WOO X: The balance isn’t enough.');
    expect(posted()).toHaveLength(1);
  });

  it('a 503 leaves the outcome unknown and is not retried', async () => {
    fake.failNextOrder = { status: 503, code: -1011, message: 'The system is under maintenance.' };
    const error = await expectBrokerError(place({}), 'BrokerUnavailable', /^WOO X: /);
    expect(error.outcomeUnknown).toBe(true);
    expect(posted()).toHaveLength(1);
  });

  it('a 5xx whose words the table names keeps its kind but leaves the outcome unknown', async () => {
    fake.failNextOrder = {
      status: 500,
      code: -1011,
      message: 'Internal error: order not found in the matching engine',
    };
    const error = await expectBrokerError(place({}), 'OrderNotFound', /^WOO X: /);
    expect(error.outcomeUnknown).toBe(true);
    expect(posted()).toHaveLength(1);
  });

  it('an order WOO failed to process (-1000, an unknown error) leaves the outcome unknown, not refused', async () => {
    fake.failNextOrder = {
      status: 400,
      code: -1000,
      message: 'An unknown error occurred while processing the request.',
    };
    const error = await expectBrokerError(place({}), 'BrokerUnavailable', /^WOO X: /);
    expect(error.outcomeUnknown).toBe(true);
    expect(posted()).toHaveLength(1);
  });

  it('rate limits are typed', async () => {
    fake.failNextOrder = { status: 429, code: -1003, message: 'Rate limit exceed.' };
    await expectBrokerError(place({}), 'RateLimited', 'WOO X: Rate limit exceed.');
  });

  it('a repeated client order id returns the existing order', async () => {
    const first = await place({ type: 'limit', limit_price: 60000 }, 'sig-dup');
    const again = await place({ type: 'limit', limit_price: 60000 }, 'sig-dup');
    expect(again).toMatchObject({ id: first.id, status: 'accepted' });
    expect(fake.orders).toHaveLength(1);
  });
});

describe('woo lookups, cancel, close and holdings', () => {
  it('finds by client order id and cancels by order id', async () => {
    const placed = await place({ type: 'limit', limit_price: 60000 }, 'sig-find');
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'sig-find' })).toMatchObject({
      match: 'exact',
      order: { id: placed.id, status: 'accepted' },
    });
    await broker.cancelOrder(context(baseUrl), session, { accountId: 'default', clientOrderId: 'sig-find' });
    expect(fake.orders[0]?.status).toBe('CANCELLED');
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'nothing' })).toEqual({ match: 'none' });
    expect(await broker.findByBrokerId(context(baseUrl), session, 'default', placed.id)).toMatchObject({
      id: placed.id,
    });
    expect(await broker.findByBrokerId(context(baseUrl), session, 'default', '999999')).toBeNull();
  });

  it('close buys back a short perpetual position, reduce-only', async () => {
    await place({ action: 'close', extra: { market: 'perp' } }, 'sig-close');
    expect(bodyOf()).toMatchObject({
      symbol: 'PERP_BTC_USDT',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.05',
      reduceOnly: true,
    });
  });

  it('holdings list balances and positions', async () => {
    const holdings = await broker.getHoldings(context(baseUrl), session, 'default');
    expect(holdings).toMatchObject({ currency: 'USDT', cash: 50000 });
    expect(holdings.positions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ symbol: 'BTC', quantity: 0.2 }),
        expect.objectContaining({ symbol: 'BTC/USDT:USDT', quantity: -0.05 }),
      ]),
    );
  });
});

describe('woo partial close of a perpetual', () => {
  it('cuts the open exit to what is left (a later fill never opens a position the other way)', async () => {
    // The fake holds 0.05 BTC short in PERP_BTC_USDT; its take profit buys all 0.05 back.
    const exit = await place(
      { symbol: 'BTC/USDT:USDT', action: 'buy', type: 'limit', quantity: 0.05, limit_price: 60000 },
      'sig-tp',
    );
    const part = await place({ symbol: 'BTC/USDT:USDT', action: 'close', quantity: 0.02 }, 'sig-part');
    expect(part.status_description).toContain(`exits cut to the 0.03 left: ${exit.id}`);
    const edited = fake.orders.find((o) => String(o.orderId) === exit.id);
    expect(edited?.quantity).toBe(0.03);
  });

  it('what is left is exact: 0.3 less 0.1 leaves the exit at 0.2, not truncated to 0.1999', async () => {
    fake.positions.splice(0, fake.positions.length, {
      symbol: 'PERP_BTC_USDT',
      holding: -0.3,
      averageOpenPrice: 66000,
    });
    const exit = await place(
      { symbol: 'BTC/USDT:USDT', action: 'buy', type: 'limit', quantity: 0.3, limit_price: 60000 },
      'sig-tp',
    );
    const part = await place({ symbol: 'BTC/USDT:USDT', action: 'close', quantity: 0.1 }, 'sig-part');
    expect(part.status_description).toContain(`exits cut to the 0.2 left: ${exit.id}`);
    expect(fake.orders.find((o) => String(o.orderId) === exit.id)?.quantity).toBe(0.2);
  });
});

describe('woo checkOrder (a test hook: check without placing)', () => {
  const input = (fields: Partial<Order>) => ({
    accountId: 'default',
    order: order({ symbol: 'BTC/USDT', ...fields }),
    clientOrderId: 'sig-1',
  });

  it.each([
    [{ duration: 'fok' }, 'WOO X: duration fok on market orders is not supported'],
    [
      { action: 'sell', quantity: 100, quantity_type: 'cash' },
      'WOO X: cash quantity except on spot market buys is not supported',
    ],
  ] as const)('refuses %j as placing does, with its error, sending nothing', async (fields, message) => {
    const live = await expectBrokerError(place(fields), 'InvalidOrder', message);
    expect(posted()).toHaveLength(0);
    expect(() => broker.checkOrder(input(fields))).toThrow(live);
  });

  it('passes an order placing takes; what only the market tells is left to placing', () => {
    expect(() => broker.checkOrder(input({ type: 'limit', limit_price: 60_000, duration: 'ioc' }))).not.toThrow();
    expect(() =>
      broker.checkOrder(input({ symbol: 'PERP_BTC_USDT', quantity: 100, quantity_type: 'cash' })),
    ).not.toThrow();
  });
});
