// Contract tests of finding, canceling and closing at Saxo against the protocol fake: by order id
// (open orders, then the audit's last activity), by ExternalReference among the window's orders,
// cancel by either id and the cancel action, close against the net position, holdings.
import { describe, expect, it } from 'vitest';
import { brokerFailure } from '../../core/expect-failure.ts';
import { findOrder } from '../../core/find-order.ts';
import { ACCOUNT, ORDERS, toOrder, useSaxoFake } from './test-support.ts';

const t = useSaxoFake();
const lookup = (clientOrderId: string) => ({ accountId: ACCOUNT, clientOrderId });

describe('findOrder', () => {
  it('by order id: working while open, then its final state from the order activities', async () => {
    const session = await t.connect();
    const resting = await t.place(
      session,
      { symbol: 'AAPL', action: 'buy', quantity: 2, limit_price: 150 },
      'sig-look-1',
    );
    expect(await findOrder(t.broker, t.ctx, session, { ...lookup('sig-look-1'), brokerOrderId: resting.id })).toEqual({
      match: 'exact',
      order: { id: resting.id, status: 'accepted', status_description: 'Working' },
    });
    const filled = await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 2 }, 'sig-look-2');
    t.fake.requests.length = 0;
    expect(await findOrder(t.broker, t.ctx, session, { ...lookup('sig-look-2'), brokerOrderId: filled.id })).toEqual({
      match: 'exact',
      order: { id: filled.id, status: 'filled', status_description: 'FinalFill', price: 175 },
    });
    expect(t.calls()).toEqual([
      `GET /sim/openapi/port/v1/orders/${ACCOUNT}/${filled.id}`,
      'GET /sim/openapi/cs/v1/audit/orderactivities',
    ]);
    expect(await findOrder(t.broker, t.ctx, session, { ...lookup('x'), brokerOrderId: '999' })).toEqual({
      match: 'unknown',
      reason: 'Saxo does not know its own order 999',
    });
  });

  it('by our ExternalReference among the orders of the window: exact, or none', async () => {
    const session = await t.connect();
    t.clock.time += 60_000;
    const sentAt = t.clock.time;
    const placed = await t.place(session, { symbol: 'EUR/USD', action: 'buy', quantity: 10000 }, 'sig-ref-1');
    const found = await findOrder(t.broker, t.ctx, session, {
      ...lookup('sig-ref-1'),
      sentAt,
      order: toOrder({ symbol: 'EUR/USD', action: 'buy', quantity: 10000 }),
    });
    expect(found).toEqual({
      match: 'exact',
      order: { id: placed.id, status: 'filled', status_description: 'FinalFill', price: 1.21 },
    });
    const query = new URL(t.fake.requests.at(-1)?.url ?? '', 'http://x').searchParams;
    expect(Object.fromEntries(query)).toMatchObject({
      AccountKey: ACCOUNT,
      FromDateTime: new Date(sentAt - 60_000).toISOString(),
      ToDateTime: new Date(sentAt + 300_000).toISOString(),
      EntryType: 'Last',
    });
    expect(await findOrder(t.broker, t.ctx, session, { ...lookup('sig-ref-never'), sentAt })).toEqual({
      match: 'none',
    });
    expect(await findOrder(t.broker, t.ctx, session, lookup('sig-ref-1'))).toMatchObject({ match: 'unknown' });
  });
  it('by our ExternalReference: activities past the pages read prove nothing (unknown, not none)', async () => {
    const session = await t.connect();
    const sentAt = t.clock.time;
    // Every page read links a next one: the order may be on a page not read.
    for (const _ of [1, 2, 3, 4, 5]) {
      t.fake.inject({
        method: 'GET',
        path: '/sim/openapi/cs/v1/audit/orderactivities',
        status: 200,
        body: { Data: [], __next: '/cs/v1/audit/orderactivities' },
      });
    }
    const found = await findOrder(t.broker, t.ctx, session, { ...lookup('sig-ref-paged'), sentAt });
    expect(found).toMatchObject({ match: 'unknown' });
  });

  it('by our ExternalReference: an order of the window canceled after it reads canceled, not working', async () => {
    const session = await t.connect();
    t.clock.time += 60_000;
    const sentAt = t.clock.time;
    const signal = { symbol: 'AAPL', action: 'buy', quantity: 3, limit_price: 140 };
    const resting = await t.place(session, signal, 'sig-ref-late');
    t.clock.time += 20 * 60_000; // past the window's end (sentAt + 5 min)
    await t.broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: resting.id });
    const found = await findOrder(t.broker, t.ctx, session, {
      ...lookup('sig-ref-late'),
      sentAt,
      order: toOrder(signal),
    });
    expect(found).toMatchObject({ match: 'exact', order: { id: resting.id, status: 'canceled' } });
  });
});

describe('cancel, close and holdings', () => {
  it('cancels by order id (with its related orders), by our id, and every open order of an instrument', async () => {
    const session = await t.connect();
    const bracket = await t.place(
      session,
      { symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 400, take_profit_price: 450, stop_loss_price: 380 },
      'sig-c-1',
    );
    await t.broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: bracket.id });
    expect(t.calls().at(-1)).toBe(`DELETE ${ORDERS}/${bracket.id}`);
    expect([...t.fake.state.open.values()].filter((o) => o.body.Uic === 261)).toEqual([]);
    const gone = await brokerFailure(
      t.broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: bracket.id }),
    );
    expect([gone.kind, gone.message]).toEqual([
      'OrderNotFound',
      `Saxo: no longer open (filled or canceled): ${bracket.id}`,
    ]);
    const resting = await t.place(session, { symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 401 }, 'sig-c-2');
    await t.broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, clientOrderId: 'sig-c-2' });
    expect(t.fake.state.open.has(resting.id)).toBe(false);
    const none = await brokerFailure(
      t.broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, clientOrderId: 'sig-c-2' }),
    );
    expect(none.message).toBe('Saxo: no open order with client order id sig-c-2');
    const a = await t.place(session, { symbol: 'MSFT', action: 'buy', quantity: 1, limit_price: 402 }, 'sig-c-3');
    const b = await t.place(session, { symbol: 'MSFT', action: 'sell', quantity: 1, limit_price: 500 }, 'sig-c-4');
    await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 100 }, 'sig-c-5');
    const answer = await t.place(session, { symbol: 'MSFT', action: 'cancel' }, 'sig-c-6');
    expect(answer).toEqual({
      id: `${a.id},${b.id}`,
      status: 'canceled',
      status_description: 'Canceled 2 open order(s) of MSFT',
    });
    expect(t.calls().at(-1)).toBe(`DELETE ${ORDERS}/${a.id},${b.id}`);
  });

  it('closes a long stock and a short FX position with market orders; holdings show them', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'SPY', action: 'buy', quantity: 3 }, 'sig-h-1');
    await t.place(session, { symbol: 'GBP/USD', action: 'sell', quantity: 20000 }, 'sig-h-2');
    const holdings = await t.broker.getHoldings(t.ctx, session, ACCOUNT);
    expect(holdings.currency).toBe('EUR');
    expect(holdings.positions).toEqual(
      expect.arrayContaining([
        { symbol: 'SPY:arcx', quantity: 3, averagePrice: 560, marketValue: 1680 },
        { symbol: 'GBPUSD', quantity: -20000, averagePrice: 1.27, marketValue: -25400 },
      ]),
    );
    t.fake.requests.length = 0;
    await t.place(session, { symbol: 'SPY', action: 'close' }, 'sig-h-3');
    await t.broker.closePosition(t.ctx, session, ACCOUNT, 'GBPUSD');
    expect(
      t.posted().map(({ Uic, BuySell, Amount, OrderType, OrderDuration }) => ({
        Uic,
        BuySell,
        Amount,
        OrderType,
        OrderDuration,
      })),
    ).toEqual([
      { Uic: 36590, BuySell: 'Sell', Amount: 3, OrderType: 'Market', OrderDuration: { DurationType: 'DayOrder' } },
      { Uic: 31, BuySell: 'Buy', Amount: 20000, OrderType: 'Market', OrderDuration: { DurationType: 'FillOrKill' } },
    ]);
    const none = await brokerFailure(t.place(session, { symbol: 'SPY', action: 'close' }, 'sig-h-4'));
    expect(none.message).toBe('Saxo: no open position in SPY:arcx');
  });

  it('a close of the whole position cancels the instrument’s open orders first', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'EUR/DKK', action: 'buy', quantity: 30000 }, 'sig-w-1');
    const target = await t.place(
      session,
      { symbol: 'EUR/DKK', action: 'sell', quantity: 30000, limit_price: 8 },
      'sig-w-2',
    );
    t.fake.requests.length = 0;
    await t.place(session, { symbol: 'EUR/DKK', action: 'close' }, 'sig-w-3');
    // Left working after the close, the take profit would sell 30000 no longer held (a short opened).
    expect(t.calls().filter((call) => call.startsWith('DELETE') || call === `POST ${ORDERS}`)).toEqual([
      `DELETE ${ORDERS}/${target.id}`,
      `POST ${ORDERS}`,
    ]);
    expect(t.fake.state.open.has(target.id)).toBe(false);
  });

  it('a close refused after the open orders were canceled for it says so: the position is still open, its exits gone', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'GBP/USD', action: 'buy', quantity: 30000 }, 'sig-g-1');
    const target = await t.place(
      session,
      { symbol: 'GBP/USD', action: 'sell', quantity: 30000, limit_price: 1.5 },
      'sig-g-2',
    );
    const body = { ErrorCode: 'InvalidModelState', Message: 'Market is closed' };
    t.fake.inject({ method: 'POST', path: ORDERS, status: 400, body });
    const error = await brokerFailure(t.place(session, { symbol: 'GBP/USD', action: 'close' }, 'sig-g-3'));
    expect([error.kind, error.outcomeUnknown]).toEqual(['InvalidOrder', false]);
    expect(error.message).toBe(
      `Saxo: Market is closed; the open orders of GBP/USD were canceled before the close (${target.id}): check the position and its exits at the broker`,
    );
  });

  it('a close of part keeps the instrument’s exits, cut to what is left', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'EUR/DKK', action: 'buy', quantity: 30000 }, 'sig-k-1');
    const target = await t.place(
      session,
      { symbol: 'EUR/DKK', action: 'sell', quantity: 30000, limit_price: 8, duration: 'gtc' },
      'sig-k-2',
    );
    const small = await t.place(
      session,
      { symbol: 'EUR/DKK', action: 'sell', quantity: 5000, limit_price: 9 },
      'sig-k-3',
    );
    t.fake.requests.length = 0;
    const answer = await t.place(session, { symbol: 'EUR/DKK', action: 'close', quantity: 10000 }, 'sig-k-4');
    expect(t.calls().filter((call) => !call.startsWith('GET'))).toEqual([`POST ${ORDERS}`, `PATCH ${ORDERS}`]);
    // Left at 30000, the take profit would sell 10000 more than the 20000 held once reached (a short).
    expect(JSON.parse(t.fake.requests.at(-1)?.body ?? '{}')).toEqual({
      AccountKey: ACCOUNT,
      OrderId: target.id,
      AssetType: 'FxSpot',
      OrderType: 'Limit',
      OrderPrice: 8,
      Amount: 20000,
      OrderDuration: { DurationType: 'GoodTillCancel' },
      ManualOrder: false,
    });
    expect([t.fake.state.open.get(target.id)?.amount, t.fake.state.open.get(small.id)?.amount]).toEqual([20000, 5000]);
    expect(answer.status_description).toMatch(new RegExp(`; exits cut to the 20000 left: ${target.id}$`));
    await t.place(session, { symbol: 'EUR/DKK', action: 'close' }, 'sig-k-5');
    expect(t.fake.state.open.has(target.id)).toBe(false);
  });

  it('a close with a quantity closes that much of the position, never more than is held', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'EUR/DKK', action: 'buy', quantity: 30000 }, 'sig-part-1');
    t.fake.requests.length = 0;
    await t.place(session, { symbol: 'EUR/DKK', action: 'close', quantity: 10000 }, 'sig-part-2');
    await t.place(session, { symbol: 'EUR/DKK', action: 'close', quantity: 50000 }, 'sig-part-3');
    expect(t.posted().map(({ BuySell, Amount }) => ({ BuySell, Amount }))).toEqual([
      { BuySell: 'Sell', Amount: 10000 },
      { BuySell: 'Sell', Amount: 20000 },
    ]);
    const holdings = await t.broker.getHoldings(t.ctx, session, ACCOUNT);
    expect(holdings.positions.find((p) => p.symbol === 'EURDKK')).toBeUndefined();
  });
});
