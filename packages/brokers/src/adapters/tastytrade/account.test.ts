// Contract tests of the tastytrade adapter's account side against its protocol fake: close and
// cancel, every lookup path through findOrder, holdings, the dry-run preview, and errors (the
// preflight envelope, funds, rate limits, outages and timeouts; no order ever sent twice).
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrokerSession } from '../../core/broker.ts';
import { findOrder } from '../../core/find-order.ts';
import { ACCOUNT, failure, MINUTE, useTastytradeFake } from './fixtures/harness.ts';
import { toOrder } from './fixtures/signals.ts';

const t = useTastytradeFake();
const { broker, place, calls } = t;
let session: BrokerSession;
beforeAll(async () => {
  session = await t.connect();
});
const postedBodies = () => t.fake.submissions().map((r) => JSON.parse(r.body) as Record<string, unknown>);

describe('close and cancel', () => {
  it('closes a long with a market Sell to Close carrying our id, a short with Buy to Close', async () => {
    await place(session, { symbol: 'AMD', action: 'buy', quantity: 7 }, 'open-1');
    await place(session, { symbol: 'INTC', action: 'sell_short', quantity: 3 }, 'open-2');
    t.fake.requests.length = 0;
    const closed = await place(session, { symbol: 'AMD', action: 'close' }, 'close-1');
    await broker.closePosition(t.ctx, session, ACCOUNT, 'INTC');
    expect(calls()[0]).toBe(`GET /accounts/${ACCOUNT}/positions`);
    expect(decodeURIComponent(t.fake.requests[0]?.url ?? '')).toBe(`/accounts/${ACCOUNT}/positions?symbol=AMD`);
    expect(postedBodies()).toEqual([
      {
        'time-in-force': 'Day',
        'order-type': 'Market',
        source: 'signal-router',
        'external-identifier': 'close-1',
        legs: [{ 'instrument-type': 'Equity', symbol: 'AMD', quantity: 7, action: 'Sell to Close' }],
      },
      {
        'time-in-force': 'Day',
        'order-type': 'Market',
        source: 'signal-router',
        legs: [{ 'instrument-type': 'Equity', symbol: 'INTC', quantity: 3, action: 'Buy to Close' }],
      },
    ]);
    expect(closed.status).toBe('accepted');
    expect(t.fake.accounts.get(ACCOUNT)?.positions.has('AMD')).toBe(false);
    const none = await failure(place(session, { symbol: 'NVDA', action: 'close' }));
    expect([none.kind, none.message]).toEqual(['InvalidOrder', 'tastytrade: no open position in NVDA']);
  });

  it('a close with a quantity closes that many, never more than is held', async () => {
    await place(session, { symbol: 'CSCO', action: 'buy', quantity: 10 }, 'csco');
    t.fake.requests.length = 0;
    await place(session, { symbol: 'CSCO', action: 'close', quantity: 4 }, 'csco-part');
    await place(session, { symbol: 'CSCO', action: 'close', quantity: 50 }, 'csco-rest');
    expect(postedBodies().map((body) => body.legs)).toEqual([
      [{ 'instrument-type': 'Equity', symbol: 'CSCO', quantity: 4, action: 'Sell to Close' }],
      [{ 'instrument-type': 'Equity', symbol: 'CSCO', quantity: 6, action: 'Sell to Close' }],
    ]);
  });

  it('a close of the whole position cancels the symbol’s live orders first; a close of part keeps them', async () => {
    await place(session, { symbol: 'TXN', action: 'buy', quantity: 10 }, 'txn');
    const stop = await place(
      session,
      { symbol: 'TXN', action: 'sell', quantity: 10, type: 'stop', stop_price: 50 },
      'txn-stop',
    );
    const deletes = () => calls().filter((call) => call.startsWith('DELETE'));
    const before = deletes().length;
    await place(session, { symbol: 'TXN', action: 'close', quantity: 4 }, 'txn-part');
    // Kept, for what is left (canceled and sent again).
    const kept = t.fake.orders.at(-1);
    expect(deletes().slice(before)).toEqual([`DELETE /accounts/${ACCOUNT}/orders/${stop.id}`]);
    expect(kept).toMatchObject({ status: 'Live', body: { 'order-type': 'Stop', legs: [{ quantity: '6' }] } });
    // Left working after the close, the stop would sell shares no longer held.
    await place(session, { symbol: 'TXN', action: 'close' }, 'txn-all');
    expect(deletes().slice(before)).toEqual([
      `DELETE /accounts/${ACCOUNT}/orders/${stop.id}`,
      `DELETE /accounts/${ACCOUNT}/orders/${kept?.id}`,
    ]);
  });

  it('a close whose cancels fail partway says which exits were canceled and which not, and closes nothing', async () => {
    await place(session, { symbol: 'LRCX', action: 'buy', quantity: 2 }, 'lrcx');
    const stop = await place(
      session,
      { symbol: 'LRCX', action: 'sell', quantity: 2, type: 'stop', stop_price: 50 },
      'lrcx-stop',
    );
    const profit = await place(session, { symbol: 'LRCX', action: 'sell', quantity: 2, limit_price: 900 }, 'lrcx-tp');
    const path = new RegExp(`^/accounts/${ACCOUNT}/orders/\\d+$`);
    t.fake.failNext({ method: 'DELETE', path, delayMs: 1 });
    const body = { error: { code: 'order_not_cancellable', message: 'Order is not cancellable' } };
    t.fake.failNext({ method: 'DELETE', path, status: 422, body });
    const before = postedBodies().length;
    const error = await failure(place(session, { symbol: 'LRCX', action: 'close' }, 'lrcx-close'));
    const told =
      /^tastytrade: Order is not cancellable; of the open orders of LRCX, only some were canceled: (\d+); not (\d+): check them at the broker$/.exec(
        error.message,
      );
    expect([told?.[1], told?.[2]].sort()).toEqual([stop.id, profit.id].sort());
    expect(postedBodies().length).toBe(before);
  });

  it('a close refused after the live orders were canceled for it says so: the position is still open, its exits gone', async () => {
    await place(session, { symbol: 'MU', action: 'buy', quantity: 2 }, 'mu');
    const stop = await place(
      session,
      { symbol: 'MU', action: 'sell', quantity: 2, type: 'stop', stop_price: 50 },
      'mu-stop',
    );
    t.fake.failNext({
      method: 'POST',
      path: `/accounts/${ACCOUNT}/orders`,
      status: 422,
      body: { error: { code: 'market_closed', message: 'Market is closed' } },
    });
    const error = await failure(place(session, { symbol: 'MU', action: 'close' }, 'mu-close'));
    expect(error).toMatchObject({ kind: 'InvalidOrder', outcomeUnknown: false });
    expect(error.message).toBe(
      `tastytrade: Market is closed; the open orders of MU were canceled before the close (${stop.id}): check the position and its exits at the broker`,
    );
  });

  it('a close of part sends the exits larger than what is left again for what is left, a bracket’s pair as an OCO', async () => {
    const bracket = { symbol: 'ORCL', action: 'buy', quantity: 10, take_profit_price: 200, stop_loss_price: 90 };
    await place(session, bracket, 'orcl');
    const small = await place(session, { symbol: 'ORCL', action: 'sell', quantity: 3, limit_price: 150 }, 'orcl-tp');
    const pair = t.fake.orders.filter((order) => order.complexOrderId && order.status === 'Live');
    const complexId = pair[0]?.complexOrderId;
    const before = calls().length;
    const answer = await place(session, { symbol: 'ORCL', action: 'close', quantity: 4 }, 'orcl-part');
    expect(calls().slice(before)).toContain(`DELETE /accounts/${ACCOUNT}/complex-orders/${complexId}`);
    // Left at 10, the stop would sell 4 shares more than the 6 held once triggered (a short).
    const sent = postedBodies().at(-1);
    const leg = { 'instrument-type': 'Equity', symbol: 'ORCL', quantity: 6, action: 'Sell to Close' };
    expect(sent).toEqual({
      type: 'OCO',
      source: 'signal-router',
      orders: [
        {
          'time-in-force': 'GTC',
          'order-type': 'Limit',
          price: '200.00',
          'price-effect': 'Credit',
          source: 'signal-router',
          legs: [leg],
        },
        { 'time-in-force': 'GTC', 'order-type': 'Stop', 'stop-trigger': '90.00', source: 'signal-router', legs: [leg] },
      ],
    });
    const live = t.fake.orders.filter(
      (order) => order.status === 'Live' && JSON.stringify(order.body).includes('ORCL'),
    );
    expect(live.map((order) => order.id)).toEqual([Number(small.id), ...live.slice(1).map((order) => order.id)]);
    expect(live).toHaveLength(3);
    const [, one, other] = live;
    expect(one?.complexOrderId).toBe(other?.complexOrderId);
    expect(answer.status_description).toMatch(
      new RegExp(`; exits cut to the 6 left: ${pair[0]?.id} and ${pair[1]?.id} → ${one?.id} and ${other?.id}$`),
    );
    await place(session, { symbol: 'ORCL', action: 'close' }, 'orcl-all');
  });

  it('closes crypto with an immediate-or-cancel market order, futures with Sell', async () => {
    await place(session, { symbol: 'ETH/USD', action: 'buy', quantity: 2 }, 'eth');
    await place(session, { symbol: 'NQZ2026', action: 'buy', quantity: 1 }, 'nq');
    t.fake.requests.length = 0;
    await place(session, { symbol: 'ETHUSD', action: 'close' });
    await place(session, { symbol: '/NQZ6', action: 'close' });
    expect(postedBodies().map((body) => [body['time-in-force'], body.legs])).toEqual([
      ['IOC', [{ 'instrument-type': 'Cryptocurrency', symbol: 'ETH/USD', quantity: 2, action: 'Sell to Close' }]],
      ['Day', [{ 'instrument-type': 'Future', symbol: '/NQZ6', quantity: 1, action: 'Sell' }]],
    ]);
  });

  it('finds a working order past the first page of the day’s orders (100), for a cancel by our id and the cancel action', async () => {
    // A busy day: /orders/live lists every order of the day, of every status, a page at a time.
    for (let n = 0; n < 120; n++) await place(session, { symbol: 'WMT', action: 'buy', quantity: 1 }, `wmt-${n}`);
    const late = await place(session, { symbol: 'PEP', action: 'buy', quantity: 1, limit_price: 10 }, 'pep-1');
    const later = await place(session, { symbol: 'PEP', action: 'buy', quantity: 1, limit_price: 11 }, 'pep-2');
    await broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, clientOrderId: 'pep-1' });
    expect(calls().at(-1)).toBe(`DELETE /accounts/${ACCOUNT}/orders/${late.id}`);
    expect(await place(session, { symbol: 'PEP', action: 'cancel' })).toEqual({
      id: later.id,
      status: 'canceled',
      status_description: 'Canceled 1 live order(s) of PEP',
    });
  });

  it('cancels by the broker id or by ours, and every live order of a symbol with the cancel action', async () => {
    const first = await place(session, { symbol: 'ORCL', action: 'buy', quantity: 1, limit_price: 10 }, 'orcl-1');
    await broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: first.id });
    expect(calls().at(-1)).toBe(`DELETE /accounts/${ACCOUNT}/orders/${first.id}`);
    const byOurs = await place(session, { symbol: 'ORCL', action: 'buy', quantity: 1, limit_price: 11 }, 'orcl-2');
    await broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, clientOrderId: 'orcl-2' });
    expect(calls().slice(-2)).toEqual([
      `GET /accounts/${ACCOUNT}/orders/live`,
      `DELETE /accounts/${ACCOUNT}/orders/${byOurs.id}`,
    ]);
    const third = await place(session, { symbol: 'ORCL', action: 'buy', quantity: 1, limit_price: 12 }, 'orcl-3');
    const fourth = await place(
      session,
      { symbol: 'ORCL', action: 'sell_short', quantity: 1, limit_price: 900 },
      'orcl-4',
    );
    const answer = await place(session, { symbol: 'ORCL', action: 'cancel' });
    expect(answer).toEqual({
      id: `${third.id},${fourth.id}`,
      status: 'canceled',
      status_description: 'Canceled 2 live order(s) of ORCL',
    });
    const statuses = (await findOrder(broker, t.ctx, session, {
      accountId: ACCOUNT,
      clientOrderId: 'x',
      brokerOrderId: third.id,
    })) as {
      order: { status: string };
    };
    expect(statuses.order.status).toBe('canceled');
    expect(await place(session, { symbol: 'ORCL', action: 'cancel' })).toMatchObject({
      id: '',
      status_description: 'No live orders of ORCL',
    });
    const again = await failure(broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: first.id }));
    expect([again.kind, again.message]).toEqual([
      'InvalidOrder',
      'tastytrade: Order is Cancelled and cannot be cancelled',
    ]);
    const unknown = await failure(
      broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, clientOrderId: 'never-sent' }),
    );
    expect(unknown.kind).toBe('OrderNotFound');
  });

  it('cancels a bracket’s exits with its entry', async () => {
    const signal = {
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      limit_price: 100,
      take_profit_price: 200,
      stop_loss_price: 90,
    };
    const entry = await place(session, signal, 'bracket-1');
    const exits = t.fake.orders.filter((order) => order.complexOrderId && order.id !== Number(entry.id));
    expect(exits.slice(-2).map((order) => order.status)).toEqual(['Contingent', 'Contingent']);
    await broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: entry.id });
    expect(exits.slice(-2).map((order) => order.status)).toEqual(['Cancelled', 'Cancelled']);
  });
});

describe('finding an order again (findOrder)', () => {
  it('by the broker id: exact with the average fill price; unknown when tastytrade denies it', async () => {
    const placed = await place(session, { symbol: 'AAPL', action: 'buy', quantity: 2 }, 'find-1');
    const lookup = { accountId: ACCOUNT, clientOrderId: 'find-1', brokerOrderId: placed.id };
    expect(await findOrder(broker, t.ctx, session, lookup)).toEqual({
      match: 'exact',
      order: { id: placed.id, status: 'filled', status_description: 'Filled', price: 175 },
    });
    expect(await findOrder(broker, t.ctx, session, { ...lookup, brokerOrderId: '999' })).toEqual({
      match: 'unknown',
      reason: 'tastytrade does not know its own order 999',
    });
  });

  it('by our external-identifier among the orders entered around the send time', async () => {
    t.clock.time += 10 * MINUTE;
    const sentAt = t.clock.time;
    const placed = await place(session, { symbol: 'AAPL', action: 'buy', quantity: 3, limit_price: 1 }, 'find-2');
    const lookup = { accountId: ACCOUNT, clientOrderId: 'find-2', sentAt };
    expect(await findOrder(broker, t.ctx, session, lookup)).toEqual({
      match: 'exact',
      order: { id: placed.id, status: 'accepted', status_description: 'Live' },
    });
    expect(decodeURIComponent(t.fake.requests.at(-1)?.url ?? '')).toBe(
      `/accounts/${ACCOUNT}/orders?start-at=${new Date(sentAt - MINUTE).toISOString()}` +
        `&end-at=${new Date(sentAt + 5 * MINUTE).toISOString()}&per-page=200&page-offset=0`,
    );
    expect(await findOrder(broker, t.ctx, session, { ...lookup, clientOrderId: 'not-sent' })).toEqual({
      match: 'none',
    });
    expect(await findOrder(broker, t.ctx, session, { accountId: ACCOUNT, clientOrderId: 'find-2' })).toEqual({
      match: 'unknown',
      reason: 'tastytrade lists recent orders only, and the send time is not known',
    });
  });

  it('by our external-identifier long after the send: the orders are read up to now, not to the window end', async () => {
    t.clock.time += 10 * MINUTE;
    const sentAt = t.clock.time;
    const placed = await place(session, { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 1 }, 'find-late');
    // Canceled 20 minutes on: should tastytrade list by updated-at, only a listing up to now has it.
    t.clock.time += 20 * MINUTE;
    await broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: placed.id });
    const found = await findOrder(broker, t.ctx, session, { accountId: ACCOUNT, clientOrderId: 'find-late', sentAt });
    expect(found).toMatchObject({ match: 'exact', order: { id: placed.id, status: 'canceled' } });
    expect(decodeURIComponent(t.fake.requests.at(-1)?.url ?? '')).toBe(
      `/accounts/${ACCOUNT}/orders?start-at=${new Date(sentAt - MINUTE).toISOString()}` +
        `&end-at=${new Date(t.clock.time).toISOString()}&per-page=200&page-offset=0`,
    );
  });

  it('reads every page of a busy window, and proves nothing past the last page it reads', async () => {
    const copied = await place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'busy-template');
    t.clock.time += 10 * MINUTE;
    const sentAt = t.clock.time;
    const template = t.fake.orders.find((order) => order.id === Number(copied.id));
    if (!template) throw new Error('no order to copy');
    const before = t.fake.orders.length;
    const busy = Array.from({ length: 450 }, (_, index) => ({
      ...template,
      id: 5_000_000 + index,
      receivedAt: sentAt,
      body: { ...template.body, 'external-identifier': `busy-${index}` },
    }));
    // The copies leave the fake afterwards, so no other test finds them.
    try {
      t.fake.orders.push(...busy);
      const found = await findOrder(broker, t.ctx, session, { accountId: ACCOUNT, clientOrderId: 'busy-0', sentAt });
      expect(found).toMatchObject({ match: 'exact', order: { id: '5000000' } });
      expect(t.fake.requests.filter((r) => r.url.includes('page-offset'))).toHaveLength(3);
      t.fake.orders.push(
        ...Array.from({ length: 1600 }, (_, index) => ({ ...busy[0], id: 6_000_000 + index }) as typeof template),
      );
      expect(await findOrder(broker, t.ctx, session, { accountId: ACCOUNT, clientOrderId: 'nowhere', sentAt })).toEqual(
        {
          match: 'unknown',
          reason: 'tastytrade no longer lists the orders of that time',
        },
      );
    } finally {
      t.fake.orders.splice(before);
    }
  });
});

describe('holdings and preview', () => {
  it('reads cash, equity, buying power and positions', async () => {
    await place(session, { symbol: 'AAPL', action: 'buy', quantity: 2 }, 'hold-aapl');
    await place(session, { symbol: 'ETH/USD', action: 'buy', quantity: 1 }, 'hold-eth');
    await place(session, { symbol: 'ETH/USD', action: 'close' }, 'hold-eth-close');
    t.fake.requests.length = 0;
    const holdings = await broker.getHoldings(t.ctx, session, ACCOUNT);
    expect(calls().sort()).toEqual([`GET /accounts/${ACCOUNT}/balances/USD`, `GET /accounts/${ACCOUNT}/positions`]);
    expect(holdings).toMatchObject({ currency: 'USD', cash: expect.any(Number), buyingPower: expect.any(Number) });
    expect(holdings.positions.find((p) => p.symbol === 'ETH/USD')).toBeUndefined();
    expect(holdings.positions.find((p) => p.symbol === 'AAPL')).toMatchObject({
      quantity: expect.any(Number),
      averagePrice: 175,
    });
  });

  it('previews through dry-run without placing, and reports what tastytrade would refuse', async () => {
    const before = t.fake.orders.length;
    const input = {
      accountId: ACCOUNT,
      order: toOrder({ symbol: 'AAPL', action: 'buy', quantity: 1 }),
      clientOrderId: 'p1',
    };
    const preview = await broker.previewOrder(t.ctx, session, input);
    expect(preview).toEqual({
      id: 'p1',
      status: 'draft',
      status_description: 'Preview, nothing placed. Buying power change 175 (Debit). Fees 0.',
    });
    expect(calls()).toEqual([`POST /accounts/${ACCOUNT}/orders/dry-run`]);
    const bracket = toOrder({ symbol: 'AAPL', action: 'buy', quantity: 1, take_profit_price: 200 });
    await broker.previewOrder(t.ctx, session, { ...input, order: bracket });
    expect(calls().at(-1)).toBe(`POST /accounts/${ACCOUNT}/complex-orders/dry-run`);
    expect(t.fake.orders).toHaveLength(before);
    const big = { ...input, order: toOrder({ symbol: 'AAPL', action: 'buy', quantity: 100_000 }) };
    const refused = await failure(broker.previewOrder(t.ctx, session, big));
    expect([refused.kind, refused.message]).toEqual([
      'InsufficientFunds',
      'tastytrade: One or more preflight checks failed: This order exceeds your available buying power.',
    ]);
  });
});

describe('errors', () => {
  const buy = { symbol: 'AAPL', action: 'buy', quantity: 1 };

  it('reads the preflight envelope: the nested reasons, funds as InsufficientFunds', async () => {
    t.fake.failNext({
      method: 'POST',
      path: `/accounts/${ACCOUNT}/orders`,
      status: 422,
      body: {
        error: {
          code: 'preflight_check_failure',
          message: 'One or more preflight checks failed',
          errors: [{ code: 'cant_buy_for_credit', message: 'You cannot buy for a credit.' }],
        },
      },
    });
    const credit = await failure(place(session, buy));
    expect([credit.kind, credit.message]).toEqual([
      'InvalidOrder',
      'tastytrade: One or more preflight checks failed: You cannot buy for a credit.',
    ]);
    const closing = await failure(place(session, { symbol: 'KO', action: 'sell', quantity: 5 }));
    expect([closing.kind, closing.message]).toEqual([
      'InvalidOrder',
      'tastytrade: One or more preflight checks failed: Closing quantity exceeds the KO position',
    ]);
    const poor = await failure(place(session, { symbol: 'AAPL', action: 'buy', quantity: 100_000 }));
    expect(poor.kind).toBe('InsufficientFunds');
  });

  it('never sends an order twice: not on 5xx, 401 or 429, nor after a timeout', async () => {
    const cases = [
      {
        status: 500,
        body: { error: { code: 'internal', message: 'Internal error' } },
        kind: 'BrokerUnavailable',
        unknown: true,
      },
      { status: 502, body: '<html>Bad gateway</html>', kind: 'BrokerUnavailable', unknown: true },
      {
        status: 401,
        body: { error: { code: 'unauthorized', message: 'Token is invalid or expired' } },
        kind: 'AuthenticationError',
        unknown: false,
      },
      {
        status: 429,
        body: { error: { code: 'rate_limited', message: 'Too many requests' } },
        kind: 'RateLimited',
        unknown: false,
      },
    ];
    for (const { status, body, kind, unknown } of cases) {
      t.fake.requests.length = 0;
      t.fake.failNext({ method: 'POST', path: `/accounts/${ACCOUNT}/orders`, status, body });
      const error = await failure(place(session, buy));
      expect([status, error.kind, error.outcomeUnknown]).toEqual([status, kind, unknown]);
      expect(t.fake.submissions()).toHaveLength(1);
    }
    t.fake.requests.length = 0;
    t.clock.time += 10 * MINUTE;
    const before = t.fake.orders.length;
    // The deadline passes as the order reaches tastytrade, which places it 300 ms later.
    const deadline = new AbortController();
    t.fake.failNext({
      method: 'POST',
      path: `/accounts/${ACCOUNT}/orders`,
      delayMs: 300,
      onArrival: () => deadline.abort(),
    });
    const late = await failure(
      broker.placeOrder({ ...t.ctx, signal: deadline.signal }, session, {
        accountId: ACCOUNT,
        order: toOrder(buy),
        clientOrderId: 'late-1',
      }),
    );
    expect([late.kind, late.outcomeUnknown]).toEqual(['BrokerUnavailable', true]);
    expect(t.fake.submissions()).toHaveLength(1);
    // It reached tastytrade after all: reconciliation finds it by our id.
    await vi.waitFor(() => expect(t.fake.orders.length).toBe(before + 1), { timeout: 4_000 });
    const found = await findOrder(broker, t.ctx, session, {
      accountId: ACCOUNT,
      clientOrderId: 'late-1',
      sentAt: t.clock.time,
    });
    expect(found.match).toBe('exact');
  });

  it('a read told by Retry-After to wait past the cap is not asked again; the wait travels on the error', async () => {
    const before = calls().filter((call) => call.endsWith('/positions')).length;
    t.fake.failNext({
      method: 'GET',
      path: `/accounts/${ACCOUNT}/positions`,
      status: 429,
      headers: { 'retry-after': '600' },
      body: { error: { code: 'rate_limited', message: 'Slow down' } },
    });
    const limited = await failure(broker.getHoldings(t.ctx, session, ACCOUNT));
    expect([limited.kind, limited.retryAfter]).toEqual(['RateLimited', '600']);
    expect(calls().filter((call) => call.endsWith('/positions'))).toHaveLength(before + 1);
  });

  it('retries a read once after a 429, and reports a 404 as OrderNotFound', async () => {
    t.fake.failNext({
      method: 'GET',
      path: `/accounts/${ACCOUNT}/positions`,
      status: 429,
      body: { error: { code: 'rate_limited', message: 'Slow down' } },
    });
    await broker.getHoldings(t.ctx, session, ACCOUNT);
    expect(calls().filter((call) => call.endsWith('/positions'))).toHaveLength(2);
    const missing = await failure(broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: '12' }));
    expect([missing.kind, missing.message]).toEqual(['OrderNotFound', 'tastytrade: Order not found']);
    const foreign = await failure(place(session, buy).then(() => broker.getHoldings(t.ctx, session, 'OTHER')));
    expect([foreign.kind, foreign.message]).toEqual([
      'InvalidOrder',
      'tastytrade: account OTHER is not part of this connection',
    ]);
  });
});
