// Contract tests of Saxo orders against the protocol fake: instruments resolved once, every order
// form the descriptor claims, the 15-second duplicate rule answered with the first order, related
// orders placed in part, refusals typed and titled, rate limits, precheck.
import { describe, expect, it } from 'vitest';
import { brokerFailure } from '../../core/expect-failure.ts';
import { findOrder } from '../../core/find-order.ts';
import { SIGNAL_CASES } from './fixtures/signals.ts';
import { ACCOUNT, ORDERS, toOrder, useSaxoFake } from './test-support.ts';

const t = useSaxoFake();
const buy = { symbol: 'AAPL', action: 'buy', quantity: 1 };

describe('orders the descriptor claims', () => {
  for (const { name, signal, clientOrderId, wire } of SIGNAL_CASES) {
    it(`places ${name}`, async () => {
      const session = await t.connect();
      t.fake.requests.length = 0;
      const response = await t.place(session, signal, clientOrderId);
      const [posted] = t.fake.placements();
      expect(t.posted()).toEqual([wire]);
      expect(posted?.headers['x-request-id']).toBe(clientOrderId);
      expect(posted?.headers.authorization).toMatch(/^Bearer eyJ/);
      expect(response).toMatchObject({ id: expect.stringMatching(/^\d+$/), status: 'accepted' });
    });
  }

  it('looks an instrument up once, and chooses the primary listing or the one named', async () => {
    const session = await t.connect();
    await t.place(session, buy, 'sig-cache-1');
    t.fake.requests.length = 0;
    await t.place(session, buy, 'sig-cache-2');
    expect(t.calls()).toEqual([`POST ${ORDERS}`]);
    const twice = await brokerFailure(t.place(session, { symbol: 'SAP', action: 'buy', quantity: 1 }, 'sig-sap-1'));
    expect([twice.kind, twice.message]).toEqual([
      'InvalidOrder',
      'Saxo: SAP is listed on several exchanges (XETR, NYSE); give extra.exchange',
    ]);
    await t.place(session, { symbol: 'SAP', action: 'buy', quantity: 1, extra: { exchange: 'NYSE' } }, 'sig-sap-2');
    expect(t.posted().at(-1)).toMatchObject({ Uic: 9002, AssetType: 'Stock' });
    const unknown = await brokerFailure(t.place(session, { symbol: 'ZZZZ', action: 'buy', quantity: 1 }, 'sig-zz'));
    expect(unknown.message).toBe('Saxo: no instrument ZZZZ at Saxo');
    const continuous = await brokerFailure(t.place(session, { symbol: 'ES1!', action: 'buy', quantity: 1 }, 'sig-es'));
    expect(continuous.message).toBe('Saxo: ES1! is a continuous contract; give the contract month');
  });

  it('puts US stock, option and known futures prices on the tick, never past the trader’s; others as given', async () => {
    const session = await t.connect();
    t.fake.requests.length = 0;
    // A buy's limit rounds down; its exits sell, so they round up.
    const bracket = { ...buy, limit_price: 170.257, take_profit_price: 180.003, stop_loss_price: 160.004 };
    expect((await t.place(session, bracket, 'sig-tick-1')).status).toBe('accepted');
    expect(t.posted().at(-1)).toMatchObject({
      OrderPrice: 170.25,
      Orders: [
        { OrderType: 'Limit', OrderPrice: 180.01 },
        { OrderType: 'StopIfTraded', OrderPrice: 160.01 },
      ],
    });
    const stopLimit = { ...buy, action: 'sell', type: 'stop_limit', stop_price: 150.005, limit_price: 149.991 };
    await t.place(session, stopLimit, 'sig-tick-2');
    expect(t.posted().at(-1)).toMatchObject({ OrderPrice: 150.01, StopLimitPrice: 150 });
    const option = { symbol: 'AAPL  261218C00200000', action: 'sell_to_open', quantity: 1, limit_price: 2.555 };
    await t.place(session, option, 'sig-tick-3');
    expect(t.posted().at(-1)).toMatchObject({ AssetType: 'StockOption', OrderPrice: 2.56 });
    // A future on its root's tick (ES: a quarter point), a sell's stop rounded up.
    const future = { symbol: 'ESZ2026', action: 'buy', quantity: 1, limit_price: 5400.3, stop_loss_price: 5380.1 };
    await t.place(session, future, 'sig-tick-6');
    expect(t.posted().at(-1)).toMatchObject({
      AssetType: 'ContractFutures',
      OrderPrice: 5400.25,
      Orders: [{ OrderType: 'StopIfTraded', OrderPrice: 5380.25 }],
    });
    // Copenhagen and FX prices are Saxo's to judge: sent as given.
    await t.place(session, { symbol: 'NOVOB', action: 'buy', quantity: 1, limit_price: 699.123 }, 'sig-tick-4');
    expect(t.posted().at(-1)).toMatchObject({ Uic: 112809, OrderPrice: 699.123 });
    const sent = t.fake.placements().length;
    const tiny = await brokerFailure(t.place(session, { ...buy, limit_price: 0.00001 }, 'sig-tick-5'));
    expect([tiny.kind, tiny.message]).toEqual([
      'InvalidOrder',
      'Saxo: price 0.00001 is less than one tick (0.0001): it would be 0',
    ]);
    expect(t.fake.placements()).toHaveLength(sent);
  });

  it('refuses before sending what Saxo cannot take here', async () => {
    const session = await t.connect();
    t.fake.requests.length = 0;
    const gtd = await brokerFailure(t.place(session, { ...buy, limit_price: 170, duration: 'gtd' }, 'sig-gtd'));
    expect(gtd.message).toBe('Saxo: a gtd order needs extra.expiration as YYYY-MM-DD or YYYY-MM-DDTHH:MM');
    expect(() => toOrder({ ...buy, symbol: 'US500', class: 'cfd' })).toThrow(/Saxo/);
    const combo = [
      { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 170 },
      { symbol: 'MSFT', action: 'sell', quantity: 1, limit_price: 420 },
    ];
    // Legs are a combo unless grouped otherwise: Saxo takes them only as one-cancels-other.
    expect(() => toOrder({ legs: combo })).toThrow('Saxo: group: combo is not supported; use bracket, oco');
    expect(t.fake.placements()).toEqual([]);
  });
});

describe("Saxo's answers", () => {
  it('answers a repeat within 15 seconds (409) with the order already placed', async () => {
    const session = await t.connect();
    const first = await t.place(session, { ...buy, limit_price: 150 }, 'sig-dup-1');
    const again = await t.place(session, { ...buy, limit_price: 150 }, 'sig-dup-1');
    expect(again).toEqual({ id: first.id, status: 'accepted', status_description: 'Placed' });
    expect([...t.fake.state.open.values()].filter((o) => o.body.ExternalReference === 'sig-dup-1')).toHaveLength(1);
    expect(t.fake.placements()).toHaveLength(2);
    t.clock.time += 16_000;
    const later = await t.place(session, { ...buy, limit_price: 150 }, 'sig-dup-1');
    expect(later.id).not.toBe(first.id);
  });

  it('reports a bracket whose exit Saxo refused as placed, naming the refusal', async () => {
    const session = await t.connect();
    const placed = await t.place(
      session,
      { ...buy, limit_price: 170, take_profit_price: 160, stop_loss_price: 150 },
      'sig-part-1',
    );
    expect(placed).toEqual({
      id: expect.any(String),
      status: 'accepted',
      status_description: `Order placed at Saxo with related orders ${Number(placed.id) + 1}. Saxo refused a related order: Price is on wrong side of market`,
    });
  });

  it('places a one-cancels-other pair as the published OCO, and reports a pair placed in part', async () => {
    const session = await t.connect();
    const legs = (sell: number) => ({
      group: 'oco',
      duration: 'gtc',
      legs: [
        { symbol: 'EUR/USD', action: 'buy', quantity: 100000, limit_price: 1.2 },
        { symbol: 'EUR/USD', action: 'sell', quantity: 100000, limit_price: sell },
      ],
    });
    t.fake.requests.length = 0;
    const pair = await t.place(session, legs(1.22), 'sig-oco-1');
    const leg = { AccountKey: ACCOUNT, Uic: 21, AssetType: 'FxSpot', Amount: 100000, OrderType: 'Limit' };
    const duration = { OrderDuration: { DurationType: 'GoodTillCancel' }, ExternalReference: 'sig-oco-1' };
    expect(t.posted()).toEqual([
      {
        Orders: [
          { ...leg, BuySell: 'Buy', OrderPrice: 1.2, ...duration, ManualOrder: false },
          { ...leg, BuySell: 'Sell', OrderPrice: 1.22, ...duration, ManualOrder: false },
        ],
      },
    ]);
    expect(pair).toEqual({
      id: expect.any(String),
      status: 'accepted',
      status_description: `Order placed at Saxo, one-cancels-other with order ${Number(pair.id) + 1}.`,
    });
    const part = await t.place(session, legs(1.19), 'sig-oco-2');
    expect(part.status_description).toBe(
      'Order placed at Saxo. Saxo refused one order of the pair: Price is on wrong side of market',
    );
    const found = await findOrder(t.broker, t.ctx, session, {
      accountId: ACCOUNT,
      clientOrderId: 'sig-oco-2',
      order: toOrder(legs(1.19)),
      sentAt: t.clock.time,
    });
    expect(found).toMatchObject({ match: 'exact', order: { id: part.id } });
    const three = await brokerFailure(
      t.place(session, { ...legs(1.22), legs: [...legs(1.22).legs, legs(1.22).legs[0]] }, 'sig-oco-3'),
    );
    expect(three.message).toBe('Saxo: legs are sent only as one-cancels-other: group oco with exactly two legs');
    expect(t.posted()).toHaveLength(2);
  });

  it('maps model-state, instrument and funds refusals, prefixed with Saxo', async () => {
    const session = await t.connect();
    const poor = await brokerFailure(
      t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1_000_000 }, 'sig-poor'),
    );
    expect([poor.kind, poor.message]).toEqual(['InsufficientFunds', 'Saxo: Insufficient cash available for the order']);
    t.fake.inject({
      method: 'POST',
      path: ORDERS,
      status: 400,
      body: {
        ErrorCode: 'InvalidModelState',
        Message: 'One or more properties of the request are invalid!',
        ModelState: { Amount: ['Amount must be greater than 0'] },
      },
    });
    const model = await brokerFailure(t.place(session, buy, 'sig-model'));
    expect([model.kind, model.message]).toEqual([
      'InvalidOrder',
      'Saxo: One or more properties of the request are invalid!: Amount must be greater than 0',
    ]);
    t.fake.inject({ method: 'POST', path: ORDERS, status: 403, body: '' });
    const forbidden = await brokerFailure(t.place(session, buy, 'sig-403'));
    expect([forbidden.kind, forbidden.message]).toEqual([
      'InvalidOrder',
      'Saxo: not allowed (HTTP 403): the app must be enabled for trading',
    ]);
  });

  it('places again after a 429 once the limit resets, and reports a longer wait; never twice on 5xx or a timeout', async () => {
    const session = await t.connect();
    await t.place(session, buy, 'sig-warm');
    t.fake.requests.length = 0;
    t.fake.inject({
      method: 'POST',
      path: ORDERS,
      status: 429,
      headers: { 'x-ratelimit-sessionorders-reset': '1' },
      body: '',
    });
    const retried = await t.place(session, buy, 'sig-429-1');
    expect(retried.status).toBe('accepted');
    expect(t.fake.placements()).toHaveLength(2);
    t.fake.inject({
      method: 'POST',
      path: ORDERS,
      status: 429,
      headers: { 'x-ratelimit-session-reset': '30' },
      body: '',
    });
    const limited = await brokerFailure(t.place(session, buy, 'sig-429-2'));
    expect([limited.kind, limited.outcomeUnknown]).toEqual(['RateLimited', false]);
    // The wait Saxo names is handed back as the rate limit's Retry-After.
    expect(limited.retryAfter).toBe('30');
    expect(t.fake.placements()).toHaveLength(3);
    t.fake.inject({ method: 'POST', path: ORDERS, status: 503, body: { Message: 'Service unavailable' } });
    const down = await brokerFailure(t.place(session, buy, 'sig-503'));
    expect([down.kind, down.outcomeUnknown]).toEqual(['BrokerUnavailable', true]);
    // Words the table names ("not enough") on a 500 name the kind, not a decision.
    t.fake.inject({
      method: 'POST',
      path: ORDERS,
      status: 500,
      body: { ErrorInfo: { ErrorCode: 'InternalServerError', Message: 'Not enough resources to process the request' } },
    });
    const worded = await brokerFailure(t.place(session, buy, 'sig-500'));
    expect([worded.kind, worded.outcomeUnknown]).toEqual(['InsufficientFunds', true]);
    // The deadline passes as the order (after its instrument's look-up) reaches Saxo.
    const deadline = new AbortController();
    t.fake.inject({ method: 'POST', path: ORDERS, delayMs: 400, onArrival: () => deadline.abort() });
    const late = await brokerFailure(
      t.broker.placeOrder({ ...t.ctx, signal: deadline.signal }, session, {
        accountId: ACCOUNT,
        order: toOrder(buy),
        clientOrderId: 'sig-late',
      }),
    );
    expect([late.kind, late.outcomeUnknown]).toEqual(['BrokerUnavailable', true]);
    expect(t.fake.placements()).toHaveLength(6);
  });

  it('prechecks without placing: the estimate, or the refusal placing would meet', async () => {
    const session = await t.connect();
    const input = { accountId: ACCOUNT, order: toOrder({ ...buy, quantity: 10 }), clientOrderId: 'sig-pre-1' };
    expect(await t.broker.previewOrder(t.ctx, session, input)).toEqual({
      id: 'sig-pre-1',
      status: 'draft',
      status_description: 'Preview, nothing placed. Estimated cash required 1750 EUR.',
    });
    const big = { ...input, order: toOrder({ ...buy, quantity: 100_000 }) };
    const refused = await brokerFailure(t.broker.previewOrder(t.ctx, session, big));
    expect([refused.kind, refused.message]).toEqual([
      'InsufficientFunds',
      'Saxo: Insufficient cash available for the order',
    ]);
    expect(t.fake.placements()).toHaveLength(0);
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  const input = (signal: Record<string, unknown>) => ({
    accountId: ACCOUNT,
    order: toOrder(signal),
    clientOrderId: 'sig-check',
  });

  it.each([
    [
      { symbol: 'ZZZZ', action: 'buy', quantity: 1, duration: 'gtd' },
      'Saxo: a gtd order needs extra.expiration as YYYY-MM-DD or YYYY-MM-DDTHH:MM',
    ],
    [{ symbol: 'ES1!', action: 'buy', quantity: 1 }, 'Saxo: ES1! is a continuous contract; give the contract month'],
    [{ symbol: 'ES1!', action: 'close' }, 'Saxo: ES1! is a continuous contract; give the contract month'],
    [
      {
        legs: [
          { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 150 },
          { symbol: 'AAPL', action: 'sell', quantity: 1, limit_price: 250 },
        ],
        group: 'oco',
        duration: 'gtd',
      },
      'Saxo: a gtd order needs extra.expiration as YYYY-MM-DD or YYYY-MM-DDTHH:MM',
    ],
  ])('refuses %j as placing does, with its error, sending nothing', async (signal, message) => {
    const session = await t.connect();
    const from = t.fake.requests.length;
    const live = await brokerFailure(t.place(session, signal, 'sig-check'));
    expect(live).toMatchObject({ kind: 'InvalidOrder', message });
    expect(t.fake.requests.slice(from)).toEqual([]);
    expect(() => t.broker.checkOrder(input(signal))).toThrow(live);
  });

  it('passes an order placing takes', () => {
    expect(() =>
      t.broker.checkOrder(input({ ...buy, type: 'limit', limit_price: 150, take_profit_price: 200 })),
    ).not.toThrow();
    expect(() => t.broker.checkOrder(input({ symbol: 'AAPL', action: 'close' }))).not.toThrow();
  });
});
