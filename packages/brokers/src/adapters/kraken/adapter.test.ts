// Contract tests: the Kraken adapter against its protocol fake; every AddOrder it sends is also
// replayed to Prism serving broker-specs/validating/kraken.yaml, which must accept it.
import type { Order } from '@router/orders';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { context, expectBrokerError, formOf, lookUp, order, quoteOf, verdictOf } from '../../ccxt/test-support.ts';
import type { BrokerSession } from '../../core/broker.ts';
import { type PrismMock, startPrismMock, validatingSpec } from '../../core/prism-mock.ts';
import { createKrakenBroker, krakenClientId } from './adapter.ts';
import { createKrakenFake, KRAKEN_FAKE_KEY, KRAKEN_FAKE_SECRET, type KrakenFake } from './fake.ts';

const broker = createKrakenBroker();
const credentials = { apiKey: KRAKEN_FAKE_KEY, apiSecret: KRAKEN_FAKE_SECRET };
let fake: KrakenFake;
let prism: PrismMock;
let baseUrl: string;
let session: BrokerSession;

beforeAll(async () => {
  [prism] = await Promise.all([startPrismMock(validatingSpec('kraken.yaml'))]);
}, 30_000);
afterAll(() => prism?.close());

beforeEach(async () => {
  fake = createKrakenFake();
  baseUrl = await fake.start();
  session = await broker.connect(context(baseUrl), { credentials });
  return () => fake.close();
});

const place = (fields: Partial<Order>, clientOrderId = 'sig-1') =>
  broker.placeOrder(context(baseUrl), session, { accountId: 'default', order: order(fields), clientOrderId });
const addOrders = () => fake.calls('POST', '/0/private/AddOrder');

describe('kraken connect', () => {
  it('verifies the keys with a signed balance call', async () => {
    expect(session.accounts).toEqual([
      {
        id: 'default',
        name: 'Kraken account',
        dataTitle: 'Kraken',
        dataType: 'cash',
        dataCurrency: 'USD',
        demo: false,
      },
    ]);
    expect(fake.calls('POST', '/0/private/BalanceEx')).toHaveLength(1);
    expect(fake.calls('POST', '/0/private/BalanceEx')[0]?.headers['api-key']).toBe(KRAKEN_FAKE_KEY);
  });

  it('maps a bad signature to an authentication error', async () => {
    const wrong = { apiKey: KRAKEN_FAKE_KEY, apiSecret: Buffer.from('another secret').toString('base64') };
    await expectBrokerError(
      broker.connect(context(baseUrl), { credentials: wrong }),
      'AuthenticationError',
      'Kraken: invalid signature',
    );
  });
});

describe('kraken orders on the wire', () => {
  const table: Array<[string, Partial<Order>, Record<string, string>]> = [
    ['market buy', {}, { pair: 'XXBTZUSD', type: 'buy', ordertype: 'market', volume: '0.01' }],
    [
      'market buy for cash',
      { quantity: 500, quantity_type: 'cash' },
      { ordertype: 'market', volume: '500', oflags: 'viqc' },
    ],
    [
      'limit sell gtc',
      { action: 'sell', type: 'limit', limit_price: 70000 },
      { type: 'sell', ordertype: 'limit', price: '70000' },
    ],
    [
      'limit buy ioc',
      { type: 'limit', limit_price: 60000, duration: 'ioc' },
      { ordertype: 'limit', price: '60000', timeinforce: 'IOC' },
    ],
    ['stop sell', { action: 'sell', type: 'stop', stop_price: 60000 }, { ordertype: 'stop-loss', price: '60000' }],
    [
      'stop limit buy',
      { type: 'stop_limit', stop_price: 66000, limit_price: 66500 },
      { ordertype: 'stop-loss-limit', price: '66000', price2: '66500' },
    ],
    [
      // Between ticks the stop goes the limit's way (a sell's up): to the nearest it was 60000.0,
      // under its limit of 60000.1, a stop-loss whose limit cannot fill as the price falls.
      'stop limit sell between ticks',
      { action: 'sell', type: 'stop_limit', stop_price: 60000.04, limit_price: 60000.01 },
      { type: 'sell', ordertype: 'stop-loss-limit', price: '60000.1', price2: '60000.1' },
    ],
  ];

  it.each(table)('%s: sent as Kraken expects and accepted by the validating mock', async (_name, fields, expected) => {
    const response = await place(fields);
    expect(response.id).toMatch(/^O\d+-FAKE-KRAKEN$/);
    const [request] = addOrders();
    expect(request?.contentType).toBe('application/x-www-form-urlencoded');
    const form = formOf(request?.rawBody ?? '');
    expect(form).toMatchObject({ pair: 'XXBTZUSD', cl_ord_id: 'sig-1', ...expected });
    expect(form.nonce).toMatch(/^\d+$/);
    const verdict = await verdictOf(prism, request!);
    expect(verdict.violations).toEqual([]);
    expect(verdict.accepted).toBe(true);
  });

  it('the validating mock refuses a wrong request (sanity check)', async () => {
    await place({});
    const [request] = addOrders();
    const wrong = { ...request!, rawBody: request!.rawBody.replace('ordertype=market', 'ordertype=stop') };
    expect((await verdictOf(prism, wrong)).accepted).toBe(false);
  });

  it.each(['BTCUSD', 'XBTUSD', 'BTC-USD', 'XBT/USD', 'XXBTZUSD'])('maps %s to XXBTZUSD', async (symbol) => {
    await place({ symbol });
    expect(formOf(addOrders()[0]?.rawBody ?? '').pair).toBe('XXBTZUSD');
  });

  it('hashes a long client order id into a UUID', async () => {
    const id = 'signal-0123456789-abcdefghij';
    await place({}, id);
    expect(formOf(addOrders()[0]?.rawBody ?? '').cl_ord_id).toBe(krakenClientId(id));
    expect(krakenClientId(id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('kraken errors', () => {
  it('insufficient funds, sent once', async () => {
    await expectBrokerError(place({ quantity: 5 }), 'InsufficientFunds', 'Kraken: insufficient funds');
    expect(addOrders()).toHaveLength(1);
  });

  it('an unknown pair is an invalid order, nothing sent', async () => {
    await expectBrokerError(place({ symbol: 'DOGE/EUR' }), 'InvalidOrder', 'Kraken: unknown symbol DOGE/EUR');
    expect(addOrders()).toHaveLength(0);
  });

  it('an order below the minimum is refused with the exchange message', async () => {
    await expectBrokerError(place({ quantity: 0.00001 }), 'InvalidOrder', /^Kraken: /);
    expect(addOrders()).toHaveLength(1);
  });

  it('a 503 leaves the outcome unknown and is not retried', async () => {
    fake.failNextOrder = 'HTTP 503';
    const error = await expectBrokerError(place({}), 'BrokerUnavailable', /^Kraken: /);
    expect(error.outcomeUnknown).toBe(true);
    expect(addOrders()).toHaveLength(1);
  });

  it('an answer that names no order leaves the outcome unknown, not accepted with no id', async () => {
    fake.inject({ method: 'POST', path: '/0/private/AddOrder', status: 200, body: { error: [], result: {} } });
    const error = await expectBrokerError(place({}), 'BrokerUnavailable', 'Kraken: the answer names no order');
    expect(error.outcomeUnknown).toBe(true);
    expect(addOrders()).toHaveLength(1);
  });

  it("a gateway's 408 or 499 to AddOrder is no refusal: the outcome is unknown", async () => {
    for (const [status, body] of [
      [408, 'Request Timeout'],
      [499, { error: ['EGeneral:Client closed request'] }],
    ] as const) {
      fake.inject({ method: 'POST', path: '/0/private/AddOrder', status, body });
      const error = await expectBrokerError(place({}), 'BrokerUnavailable', /^Kraken: /);
      expect(error.outcomeUnknown, String(status)).toBe(true);
    }
  });

  it('rate limits are typed', async () => {
    fake.failNextOrder = 'EAPI:Rate limit exceeded';
    await expectBrokerError(place({}), 'RateLimited', 'Kraken: rate limit exceeded');
    expect(addOrders()).toHaveLength(1);
  });

  it('permission denied refuses that order, not the keys (those are EAPI:Invalid key/signature)', async () => {
    // A key without "Create & modify orders", or a pair the account may not trade: the connection stays.
    fake.failNextOrder = 'EGeneral:Permission denied';
    await expectBrokerError(
      place({}),
      'InvalidOrder',
      'Kraken: permission denied: the API key needs the permission "Create & modify orders", or the account may not trade this pair',
    );
    expect(addOrders()).toHaveLength(1);
  });

  it('permission denied names the permission the key lacks for that call: connect, holdings, close', async () => {
    fake.denied = ['BalanceEx'];
    const needsFunds = 'Kraken: permission denied: the API key needs the permission "Query funds"';
    await expectBrokerError(broker.connect(context(baseUrl), { credentials }), 'InvalidOrder', needsFunds);
    await expectBrokerError(broker.getHoldings(context(baseUrl), session, 'default'), 'InvalidOrder', needsFunds);
    fake.denied = ['OpenOrders'];
    await expectBrokerError(
      place({ action: 'close' }),
      'InvalidOrder',
      'Kraken: permission denied: the API key needs the permission "Query open orders & trades"',
    );
    expect(addOrders()).toHaveLength(0);
  });

  it('an invalid nonce is a passing failure with nothing placed, not refused keys (the connection stays)', async () => {
    // Kraken refuses a nonce not above the last one it saw for the key (another program on the same
    // key, two requests crossing): the request was not processed, and the keys are good.
    fake.failNextOrder = 'EAPI:Invalid nonce';
    const error = await expectBrokerError(place({}), 'BrokerUnavailable', 'Kraken: invalid nonce');
    expect(error.outcomeUnknown).toBe(false);
    expect(addOrders()).toHaveLength(1);
  });

  it('a repeated client order id returns the existing order', async () => {
    const first = await place({ type: 'limit', limit_price: 60000 }, 'sig-dup');
    const again = await place({ type: 'limit', limit_price: 60000 }, 'sig-dup');
    expect(again.id).toBe(first.id);
    expect(again.status).toBe('accepted');
    expect(addOrders()).toHaveLength(2);
    expect(fake.orders).toHaveLength(1);
  });

  it('a repeated client order id whose order cannot be looked up is still a duplicate, not a refusal', async () => {
    // The first order exists; the lookup of it failing proves nothing: "nothing placed" would be wrong.
    await place({ type: 'limit', limit_price: 60000 }, 'sig-dup-lost');
    fake.inject({ method: 'POST', path: '/0/private/OpenOrders', status: 503, body: 'Service Unavailable' });
    await expectBrokerError(
      place({ type: 'limit', limit_price: 60000 }, 'sig-dup-lost'),
      'DuplicateOrder',
      /^Kraken: /,
    );
    expect(fake.orders).toHaveLength(1);
  });
});

describe('kraken lookups, cancel, close and holdings', () => {
  it('finds an order by client order id, cancels it, and finds none for an unknown id', async () => {
    const placed = await place({ type: 'limit', limit_price: 60000 }, 'sig-find');
    const found = await lookUp(broker, baseUrl, session, { clientOrderId: 'sig-find' });
    expect(found).toMatchObject({ match: 'exact', order: { id: placed.id, status: 'accepted' } });
    expect(formOf(fake.calls('POST', '/0/private/OpenOrders').at(-1)?.rawBody ?? '').cl_ord_id).toBe('sig-find');
    // By our client order id: the order is found first, then canceled by its txid.
    await broker.cancelOrder(context(baseUrl), session, { accountId: 'default', clientOrderId: 'sig-find' });
    expect(fake.orders[0]?.status).toBe('canceled');
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'sig-find' })).toMatchObject({
      match: 'exact',
      order: { status: 'canceled' },
    });
    expect(await lookUp(broker, baseUrl, session, { clientOrderId: 'nothing' })).toEqual({ match: 'none' });
    expect(await broker.findByBrokerId(context(baseUrl), session, 'default', placed.id)).toMatchObject({
      id: placed.id,
      status: 'canceled',
    });
    expect(await broker.findByBrokerId(context(baseUrl), session, 'default', 'OXXXXX-NONE')).toBeNull();
  });

  it('close sells the free base balance at market; cancel cancels open orders', async () => {
    await place({ type: 'limit', limit_price: 60000 }, 'sig-open');
    const closed = await place({ action: 'close' }, 'sig-close');
    expect(closed.status).toBe('accepted');
    const sent = formOf(addOrders()[1]?.rawBody ?? '');
    expect(sent).toMatchObject({ pair: 'XXBTZUSD', type: 'sell', ordertype: 'market', volume: '1.5' });
    expect(fake.orders[0]?.status).toBe('canceled');
    await place({ type: 'limit', limit_price: 60000 }, 'sig-open-2');
    expect(await place({ action: 'cancel' }, 'sig-cancel')).toMatchObject({ status: 'canceled' });
  });

  it('a close refused after the open orders were canceled for it says so: the position is still open, its exits gone', async () => {
    const open = await place({ type: 'limit', limit_price: 60000 }, 'sig-open');
    fake.failNextOrder = 'HTTP 503';
    const error = await expectBrokerError(place({ action: 'close' }, 'sig-close'), 'BrokerUnavailable', /^Kraken: /);
    expect(error.outcomeUnknown).toBe(true);
    expect(error.message).toMatch(
      new RegExp(
        `; the open orders of BTC/USD were canceled before the close \\(${open.id}\\): check the position and its exits at the broker$`,
      ),
    );
  });

  it('a cancel signal that fails partway says which orders were canceled and which not', async () => {
    const one = await place({ type: 'limit', limit_price: 60000 }, 'sig-open-1');
    const two = await place({ type: 'limit', limit_price: 60001 }, 'sig-open-2');
    // The first cancel goes through; the second is refused.
    fake.inject({ method: 'POST', path: '/0/private/CancelOrder', delayMs: 1 });
    fake.inject({
      method: 'POST',
      path: '/0/private/CancelOrder',
      status: 200,
      body: { error: ['EGeneral:Permission denied'] },
    });
    const error = await expectBrokerError(place({ action: 'cancel' }, 'sig-cancel'), 'InvalidOrder', /^Kraken: /);
    expect(error.outcomeUnknown).toBe(false);
    const canceled = fake.orders.filter((item) => item.status === 'canceled').map((item) => item.txid);
    expect(canceled).toHaveLength(1);
    const [done, left] = canceled[0] === one.id ? [one, two] : [two, one];
    expect(error.message).toMatch(
      new RegExp(
        `; of the open orders of BTC/USD, only some were canceled: ${done.id}; not ${left.id}: check them at the broker$`,
      ),
    );
  });

  it("a CDN's HTML error page is not shown: its status and reason are", async () => {
    const page =
      '<!DOCTYPE html><html><head><title>Access denied | kraken.com used Cloudflare to restrict access</title></head><body>Error 1015: You are being rate limited</body></html>';
    fake.inject({
      method: 'POST',
      path: '/0/private/BalanceEx',
      status: 429,
      body: page,
      headers: { 'content-type': 'text/html' },
    });
    await expectBrokerError(
      broker.getHoldings(context(baseUrl), session, 'default'),
      'RateLimited',
      'Kraken: 429 Too Many Requests',
    );
  });

  it('holdings come from BalanceEx', async () => {
    const holdings = await broker.getHoldings(context(baseUrl), session, 'default');
    expect(holdings).toMatchObject({ currency: 'USD', cash: 100000, positions: [{ symbol: 'BTC', quantity: 1.5 }] });
  });
});

describe('kraken lastPrice', () => {
  const lastPrice = (symbol: string, accountId?: string) => quoteOf(broker, baseUrl, session, symbol, accountId);

  it('quotes the last trade of the pair an order goes to (XBT/USD as XXBTZUSD)', async () => {
    expect(await lastPrice('BTC/USD')).toBe(65000);
    expect(fake.calls('GET', '/0/public/Ticker').at(-1)?.url).toBe('/0/public/Ticker?pair=XXBTZUSD');
    expect(await lastPrice('ETHUSD')).toBe(3000);
  });

  it('refuses a symbol Kraken does not list, and an account not of this connection', async () => {
    await expectBrokerError(lastPrice('DOGE/EUR'), 'InvalidOrder', 'Kraken: unknown symbol DOGE/EUR');
    await expectBrokerError(lastPrice('BTC/USD', 'other'), 'InvalidOrder', /^Kraken: account other/);
  });
});

describe('kraken checkOrder (a test hook: check without placing)', () => {
  const input = (fields: Partial<Order>) => ({ accountId: 'default', order: order(fields), clientOrderId: 'sig-1' });

  it('refuses what placing refuses, with its error, sending nothing; passes an order placing takes', async () => {
    const fields = { action: 'sell', quantity: 100, quantity_type: 'cash' } as const;
    const before = addOrders().length;
    const live = await expectBrokerError(
      place(fields),
      'InvalidOrder',
      'Kraken: cash quantity except on market buys is not supported',
    );
    expect(addOrders()).toHaveLength(before);
    expect(() => broker.checkOrder(input(fields))).toThrow(live);
    expect(() => broker.checkOrder(input({ ...fields, action: 'buy' }))).not.toThrow();
  });
});
