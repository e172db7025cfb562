// Contract tests of the Robinhood adapter against its protocol fake: connecting with signed keys
// (v1 and v2 accounts), every order the descriptor claims as its wire body, what is refused before
// sending (stocks, options, other quotes), close, cancel and holdings.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { createRobinhoodBroker } from './adapter.ts';
import { robinhoodClientOrderId } from './client-order-id.ts';
import { type RobinhoodFake, startRobinhoodFake } from './fake.ts';
import { failure, toOrder } from './test-support.ts';

let fake: RobinhoodFake;
let ctx: BrokerContext;
let session: BrokerSession;
const broker = createRobinhoodBroker();
const V1 = '987654321';
const V2 = 'v2:987654321';

beforeAll(async () => {
  fake = await startRobinhoodFake({ holdings: { BTC: 0.5, ETH: 2, SOL: 10, DOGE: 1000 } });
  ctx = { baseUrl: fake.url };
  session = await broker.connect(ctx, { credentials: fake.credentials });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

const place = (accountId: string, signal: Record<string, unknown>, clientOrderId = `sig-${Math.random()}`) =>
  broker.placeOrder(ctx, session, { accountId, order: toOrder(signal), clientOrderId });
const posted = () => fake.requests.filter((r) => r.method === 'POST' && /\/orders\/(\?|$)/.test(r.url));

describe('connect', () => {
  it('lists the crypto account once per API version, and keeps the keys as entered', () => {
    expect(session.accounts.map((account) => [account.id, account.name])).toEqual([
      [V1, 'Robinhood Crypto 987654321'],
      [V2, 'Robinhood Crypto 987654321 (v2, fee tiers)'],
    ]);
    expect(session.secrets).toEqual(fake.credentials);
    expect(session.expiresAt).toBeUndefined();
  });

  it('connects v1 only where v2 does not answer', async () => {
    const v1Only = await startRobinhoodFake({ v2: false });
    try {
      const only = await broker.connect({ baseUrl: v1Only.url }, { credentials: v1Only.credentials });
      expect(only.accounts.map((account) => account.id)).toEqual([V1]);
    } finally {
      await v1Only.close();
    }
  });

  it('signs every request; a key Robinhood does not know is refused as AuthenticationError', async () => {
    await broker.getHoldings(ctx, session, V1);
    const [first] = fake.requests;
    expect(first?.headers).toMatchObject({
      'x-api-key': fake.credentials.apiKey,
      'x-timestamp': expect.stringMatching(/^\d+$/),
    });
    const otherKey = Buffer.alloc(32, 7).toString('base64');
    const refused = await failure(
      broker.connect(ctx, { credentials: { apiKey: fake.credentials.apiKey, privateKey: otherKey } }),
    );
    expect([refused.kind, refused.message]).toEqual(['AuthenticationError', 'Robinhood: Invalid signature.']);
  });

  it('refuses a malformed private key before sending anything', async () => {
    fake.requests.length = 0;
    const refused = await failure(broker.connect(ctx, { credentials: { apiKey: 'rh-api-x', privateKey: 'abc' } }));
    expect(refused.message).toMatch(/^Robinhood: the private key must be the base64 Ed25519 private key/);
    expect(fake.requests).toHaveLength(0);
  });

  it('signs with the injected clock, and Robinhood refuses a timestamp older than 30 s', async () => {
    const late = { ...ctx, now: () => Date.now() - 31_000 };
    const refused = await failure(broker.getHoldings(late, session, V1));
    expect(refused.message).toBe('Robinhood: Timestamp is invalid or expired.');
  });
});

describe('orders the descriptor claims', () => {
  const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    [
      'market buy',
      { symbol: 'BTC-USD', action: 'buy', quantity: 0.001 },
      { type: 'market', market_order_config: { asset_quantity: '0.001' } },
    ],
    [
      'limit sell, gtc',
      { symbol: 'ETH/USD', action: 'sell', quantity: 0.25, limit_price: 3500 },
      { type: 'limit', limit_order_config: { asset_quantity: '0.25', limit_price: '3500.00', time_in_force: 'gtc' } },
    ],
    [
      'limit buy for a USD amount, good for the week',
      { symbol: 'SOLUSD', action: 'buy', quantity: 100, quantity_type: 'cash', limit_price: 140, duration: 'gtw' },
      { type: 'limit', limit_order_config: { quote_amount: '100.00', limit_price: '140.00', time_in_force: 'gfw' } },
    ],
    [
      'stop sell, good for the day',
      { symbol: 'BTC', action: 'sell', quantity: 0.01, stop_price: 58000, duration: 'day' },
      {
        type: 'stop_loss',
        stop_loss_order_config: { asset_quantity: '0.01', stop_price: '58000.00', time_in_force: 'gfd' },
      },
    ],
    [
      // A buy's limit is rounded down to the tick, never above the trader's price.
      'stop-limit buy, good for the month',
      { symbol: 'ETH-USD', action: 'buy', quantity: 1, stop_price: 3600, limit_price: 3610.559, duration: 'gtm' },
      {
        type: 'stop_limit',
        stop_limit_order_config: {
          asset_quantity: '1',
          stop_price: '3600.00',
          limit_price: '3610.55',
          time_in_force: 'gfm',
        },
      },
    ],
    [
      // Between ticks a sell's stop goes up like its limit: rounded to the nearest, the stop
      // (3500.00) fell below the limit (3500.01), a stop-loss whose limit cannot fill as it falls.
      'stop-limit sell between two ticks',
      { symbol: 'ETH-USD', action: 'sell', quantity: 0.1, stop_price: 3500.004, limit_price: 3500.001 },
      {
        type: 'stop_limit',
        stop_limit_order_config: {
          asset_quantity: '0.1',
          stop_price: '3500.01',
          limit_price: '3500.01',
          time_in_force: 'gtc',
        },
      },
    ],
    [
      // On the increment already: 1.23456789 BTC is 123456789 satoshis, not cut to 123456788
      // (1.23456789 / 0.00000001 is 123456788.99999999 in binary floating point).
      'limit buy of a quantity on the increment',
      { symbol: 'BTC-USD', action: 'buy', quantity: 1.23456789, limit_price: 100 },
      {
        type: 'limit',
        limit_order_config: { asset_quantity: '1.23456789', limit_price: '100.00', time_in_force: 'gtc' },
      },
    ],
    [
      // A sell's limit is rounded up to the tick, never below the trader's price.
      'limit sell between two ticks',
      { symbol: 'ETH-USD', action: 'sell', quantity: 0.5, limit_price: 3500.001 },
      { type: 'limit', limit_order_config: { asset_quantity: '0.5', limit_price: '3500.01', time_in_force: 'gtc' } },
    ],
  ];
  for (const [name, signal, wire] of cases) {
    it.each([V1, V2])(`places a ${name} (%s)`, async (accountId) => {
      const response = await place(accountId, signal, 'sig-wire');
      const [sent] = posted();
      expect(sent?.url).toBe(
        accountId === V2 ? '/api/v2/crypto/trading/orders/?account_number=987654321' : '/api/v1/crypto/trading/orders/',
      );
      expect(JSON.parse(sent?.body ?? '{}')).toEqual({
        client_order_id: robinhoodClientOrderId('sig-wire'),
        side: signal.action,
        symbol: (signal.symbol as string).startsWith('SOL')
          ? 'SOL-USD'
          : (signal.symbol as string).startsWith('BTC')
            ? 'BTC-USD'
            : 'ETH-USD',
        ...wire,
      });
      expect(response).toMatchObject({ status: 'accepted', status_description: 'Robinhood order open' });
      expect(fake.orders.find((order) => order.id === response.id)).toBeDefined();
      // The same signal id twice is one order (client_order_id repeated): answered with the first.
      const again = await place(accountId, signal, 'sig-wire');
      expect(again.id).toBe(response.id);
      fake.orders.splice(0, fake.orders.length, ...fake.orders.filter((order) => order.id !== response.id));
    });
  }

  it('sells a percentage of the coins held, and closes the rest at market', async () => {
    await place(V1, { symbol: 'SOL-USD', action: 'sell', quantity: 25, quantity_type: 'percent_of_position' });
    await place(V1, { symbol: 'SOL-USD', action: 'close' });
    const bodies = posted().map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies.map((body) => [body.side, body.type, body.market_order_config])).toEqual([
      ['sell', 'market', { asset_quantity: '2.5' }],
      ['sell', 'market', { asset_quantity: '7.5' }],
    ]);
    const none = await failure(place(V1, { symbol: 'SOL-USD', action: 'close' }));
    expect(none.message).toBe('Robinhood: no SOL to sell');
    // A direct close sells every coin: on a fake of its own, so the BTC the other tests sell stays held.
    const own = await startRobinhoodFake({ holdings: { BTC: 0.5 } });
    try {
      const ownCtx = { baseUrl: own.url };
      const ownSession = await broker.connect(ownCtx, { credentials: own.credentials });
      const direct = await broker.closePosition(ownCtx, ownSession, V2, 'BTC-USD');
      expect(direct.status).toBe('accepted');
    } finally {
      await own.close();
    }
  });

  it('a close with every coin held for an open sell says so, and how to free them', async () => {
    const own = await startRobinhoodFake({ holdings: { BTC: 0.5 } });
    try {
      const ownCtx = { baseUrl: own.url };
      const ownSession = await broker.connect(ownCtx, { credentials: own.credentials });
      const signal = { symbol: 'BTC-USD', action: 'sell', quantity: 0.5, limit_price: 200_000 };
      await broker.placeOrder(ownCtx, ownSession, { accountId: V2, order: toOrder(signal), clientOrderId: 'sig-tp' });
      const close = toOrder({ symbol: 'BTC-USD', action: 'close' });
      const error = await failure(
        broker.placeOrder(ownCtx, ownSession, { accountId: V2, order: close, clientOrderId: 'sig-close' }),
      );
      expect(error).toMatchObject({ kind: 'InvalidOrder' });
      expect(error.message).toBe(
        'Robinhood: no BTC available to sell: the 0.5 BTC held are in open orders (the cancel action frees them)',
      );
    } finally {
      await own.close();
    }
  });

  it('a close with a quantity sells that many coins, never more than are held', async () => {
    await place(V1, { symbol: 'DOGE-USD', action: 'close', quantity: 400 });
    await place(V1, { symbol: 'DOGE-USD', action: 'close', quantity: 5000 });
    const bodies = posted().map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies.map((body) => [body.side, body.type, body.market_order_config])).toEqual([
      ['sell', 'market', { asset_quantity: '400' }],
      ['sell', 'market', { asset_quantity: '600' }],
    ]);
  });

  it('cancels every open order of a pair with the cancel action; none open is an answer', async () => {
    const first = await place(V2, { symbol: 'ETH-USD', action: 'buy', quantity: 0.1, limit_price: 3000 });
    const second = await place(V2, { symbol: 'ETH-USD', action: 'buy', quantity: 0.2, limit_price: 3001 });
    const answer = await place(V2, { symbol: 'ETHUSD', action: 'cancel' });
    expect(answer).toMatchObject({ status: 'canceled', status_description: 'Canceled 2 open order(s) of ETH-USD' });
    expect(answer.id.split(',').sort()).toEqual([first.id, second.id].sort());
    const cancels = fake.requests.filter((r) => r.url.includes('/cancel/'));
    expect(cancels.map((r) => [r.body, r.url.endsWith('?account_number=987654321')])).toEqual([
      ['', true],
      ['', true],
    ]);
    expect(await place(V2, { symbol: 'ETH-USD', action: 'cancel' })).toMatchObject({
      status_description: 'No open orders of ETH-USD',
    });
  });

  it('a cancel signal that fails partway says which orders were canceled and which not', async () => {
    const mine: string[] = [];
    for (const price of [2900, 2901, 2902])
      mine.push((await place(V1, { symbol: 'ETH-USD', action: 'buy', quantity: 0.1, limit_price: price })).id);
    const body = { type: 'client_error', errors: [{ detail: 'Request was throttled.', attr: null }] };
    // The first cancel goes through, the second is throttled.
    fake.inject({ method: 'POST', path: /\/cancel\/$/, delayMs: 1 });
    fake.inject({ method: 'POST', path: /\/cancel\/$/, status: 429, body });
    const error = await failure(place(V1, { symbol: 'ETH-USD', action: 'cancel' }));
    const stateOf = (id: string) => fake.orders.find((order) => order.id === id)?.state;
    const canceled = mine.filter((id) => stateOf(id) === 'canceled');
    const open = mine.filter((id) => stateOf(id) !== 'canceled');
    expect([canceled.length, open.length]).toEqual([1, 2]);
    expect(error.kind).toBe('RateLimited');
    const told =
      /; of the open orders of ETH-USD, only some were canceled: (.+); not (.+): check them at the broker$/.exec(
        error.message,
      );
    expect([told?.[1], told?.[2]?.split(', ').sort()]).toEqual([canceled[0], open.sort()]);
    expect(await place(V1, { symbol: 'ETH-USD', action: 'cancel' })).toMatchObject({
      status_description: 'Canceled 2 open order(s) of ETH-USD',
    });
  });

  it('previews an order as it would be sent, sending nothing that places', async () => {
    const order = toOrder({ symbol: 'BTC-USD', action: 'buy', quantity: 0.002 });
    const preview = await broker.previewOrder(ctx, session, { accountId: V1, order, clientOrderId: 'p-1' });
    expect(preview).toMatchObject({ id: 'p-1', status: 'draft' });
    expect(preview.status_description).toContain('"market_order_config":{"asset_quantity":"0.002"}');
    expect(posted()).toHaveLength(0);
  });

  it('reads holdings and buying power', async () => {
    const holdings = await broker.getHoldings(ctx, session, V2);
    expect(holdings.currency).toBe('USD');
    expect(holdings.cash).toBe(Number(fake.cash().toFixed(2)));
    expect(holdings.positions.find((p) => p.symbol === 'ETH-USD')?.quantity).toBe(2);
  });
});

describe('refused before anything is placed, with the reason', () => {
  it('refuses stocks and options in the validator, saying Robinhood has no public API for them', () => {
    for (const signal of [
      { symbol: 'AAPL', class: 'stock', action: 'buy', quantity: 1 },
      { symbol: 'AAPL281215C00150000', action: 'buy_to_open', quantity: 1 },
    ]) {
      expect(() => toOrder(signal)).toThrow(
        /^Robinhood: (class|symbol): (stock|option) is not supported \(Robinhood has no public order API for stocks and options; its only one, the Crypto Trading API, trades crypto\); use crypto$/,
      );
    }
  });

  it('refuses a stock ticker, another quote currency, sizes and forms Robinhood does not take', async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [
        { symbol: 'AAPL', action: 'buy', quantity: 1 },
        "Robinhood: AAPL is not a crypto asset it lists (no AAPL-USD). Robinhood's public API trades crypto only; it has no order API for stocks and options",
      ],
      [
        { symbol: 'BTC/USDT', action: 'buy', quantity: 1 },
        'Robinhood: only pairs against USD trade (BTC-USD), not BTC/USDT',
      ],
      [
        { symbol: 'BTC-USD', action: 'buy', quantity: 0.0000001 },
        'Robinhood: 0.0000001 BTC is below the minimum order size of 0.000001',
      ],
      [
        { symbol: 'BTC-USD', action: 'buy', quantity: 50, quantity_type: 'cash' },
        'Robinhood: a USD amount (quantity_type cash) goes with limit and stop orders; market orders take coins',
      ],
      [
        // Cut to the cent it is nothing: never sent as a quote_amount of 0.00.
        { symbol: 'BTC-USD', action: 'buy', quantity: 0.004, quantity_type: 'cash', limit_price: 60000 },
        'Robinhood: 0.004 USD is less than the quote increment of BTC-USD (0.01)',
      ],
      [
        // Cut to the cent a buy's limit is 0: never sent as a limit_price of 0.00.
        { symbol: 'BTC-USD', action: 'buy', quantity: 0.001, limit_price: 0.004 },
        'Robinhood: limit_price 0.004 is less than one tick (0.01): it would be 0',
      ],
    ];
    for (const [signal, message] of refusals) expect((await failure(place(V1, signal))).message).toBe(message);
    expect((await failure(place(V2, { symbol: 'PEPE-USD', action: 'buy', quantity: 1000 }))).message).toBe(
      'Robinhood: PEPE-USD cannot be ordered through the API (v2)',
    );
    expect(posted()).toHaveLength(0);
  });

  it('refuses an account that is not part of the connection', async () => {
    const refused = await failure(place('123', { symbol: 'BTC-USD', action: 'buy', quantity: 0.001 }));
    expect([refused.kind, refused.message]).toEqual([
      'InvalidOrder',
      'Robinhood: account 123 is not part of this connection',
    ]);
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  const input = (signal: Record<string, unknown>) => ({
    accountId: V1,
    order: toOrder(signal),
    clientOrderId: 'sig-1',
  });

  it.each([
    [
      { symbol: 'BTC/USDT', action: 'buy', quantity: 1 },
      'Robinhood: only pairs against USD trade (BTC-USD), not BTC/USDT',
    ],
    [
      { symbol: 'NOPE-USD', action: 'buy', quantity: 50, quantity_type: 'cash' },
      'Robinhood: a USD amount (quantity_type cash) goes with limit and stop orders; market orders take coins',
    ],
    [
      { symbol: 'NOPE-USD', action: 'close', quantity: 50, quantity_type: 'cash' },
      'Robinhood: close takes coins or percent_of_position',
    ],
  ])('refuses %j as placing does, with its error, sending nothing', async (signal, message) => {
    const order = input(signal);
    const live = await failure(broker.placeOrder(ctx, session, order));
    expect(live).toMatchObject({ kind: 'InvalidOrder', message });
    expect(fake.requests).toHaveLength(0);
    expect(() => broker.checkOrder(order)).toThrow(live);
  });

  it('passes an order placing takes', () => {
    expect(() => broker.checkOrder(input({ symbol: 'BTC-USD', action: 'buy', quantity: 0.001 }))).not.toThrow();
    expect(() =>
      broker.checkOrder(input({ symbol: 'ETH-USD', action: 'sell', quantity: 0.1, type: 'limit', limit_price: 3500 })),
    ).not.toThrow();
    expect(() => broker.checkOrder(input({ symbol: 'BTC-USD', action: 'close' }))).not.toThrow();
  });
});
