// Contract: the Rithmic adapter against its R | Protocol fake. Connecting (system name, login,
// wrong credentials, an unreachable gateway), heartbeats at the login answer's interval, every
// order form the descriptor claims with user_tag, AUTO and the exchange's trade route, what is
// refused before sending, notifications read as filled/accepted/rejected, a lost answer never
// resent and found again by its user_tag, lookup by basket_id, cancel. The kept session: pool.test.ts.
import { normalizeOrderOrThrow } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BrokerContext, BrokerSession, PlaceOrderInput } from '../../core/broker.ts';
import { brokerFailure as failure } from '../../core/expect-failure.ts';
import { findOrder } from '../../core/find-order.ts';
import { WRITTEN_AT } from '../../core/test-clock.ts';
import { createRithmicBroker } from './adapter.ts';
import { forgetFrontMonths } from './contracts.ts';
import { rithmicDescriptor } from './descriptor.ts';
import { FAKE_CREDENTIALS, frontMonthCode, type RithmicFake, startRithmicFake } from './fake.ts';
import { FAKE_ACCOUNT, type FakeOrder, rithmicNotification } from './fake-book.ts';
import { laterState, responseOf } from './mapper.ts';

const broker = createRithmicBroker();
let fake: RithmicFake;
let ctx: BrokerContext;
let session: BrokerSession;
const accountId = FAKE_ACCOUNT;

beforeAll(async () => {
  fake = await startRithmicFake();
  ctx = { baseUrl: fake.baseUrl };
  session = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
});
afterAll(async () => {
  await broker.close();
  await fake.close();
});

let sequence = 0;
function input(signal: Record<string, unknown>, clientOrderId = `sig${++sequence}`): PlaceOrderInput {
  return {
    accountId,
    clientOrderId,
    order: normalizeOrderOrThrow(signal, { provider: rithmicDescriptor, now: WRITTEN_AT }),
  };
}
const since = (before: number) => fake.requests.slice(before).map((request) => request.path.slice(1));
const sent = (name: string) => fake.requests.filter((request) => request.path === `/${name}`);
const lastOrder = () =>
  fake.requests.filter((r) => /^\/Request(NewOrder|BracketOrder)$/.test(r.path)).at(-1)?.body as Record<
    string,
    unknown
  >;
const ES = { symbol: 'ESH2027', action: 'buy', quantity: 1 };

describe('connect', () => {
  it('checks the system name, logs in to the order plant, lists the accounts and logs out', async () => {
    const before = fake.requests.length;
    const connected = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
    expect(since(before)).toEqual([
      'RequestRithmicSystemInfo',
      'RequestLogin',
      'RequestHeartbeat',
      'RequestLoginInfo',
      'RequestAccountList',
      'RequestLogout',
    ]);
    expect(fake.requests[before + 1]?.body).toMatchObject({
      infra_type: 2,
      app_name: 'signal-router',
      system_name: 'Rithmic Test',
    });
    expect(connected).toEqual({
      secrets: { ...FAKE_CREDENTIALS },
      accounts: [{ id: FAKE_ACCOUNT, name: FAKE_ACCOUNT, dataCurrency: 'USD', demo: true }],
      branch: 'Rithmic Test',
    });
  });

  it('reads the published account list (one 303 per account, then the closing 303)', async () => {
    const published = {
      template_id: 303,
      rq_handler_rp_code: ['0'],
      fcm_id: 'DemoFCM',
      ib_id: 'DemoIB',
      account_id: 'DEMO-12345-02',
      account_name: 'Second',
      account_currency: 'EUR',
    };
    fake.answerNext({
      method: 'SEND',
      path: '/RequestAccountList',
      status: 200,
      body: [published, { template_id: 303, rp_code: ['0'] }],
    });
    const connected = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
    expect(connected.accounts).toEqual([{ id: 'DEMO-12345-02', name: 'Second', dataCurrency: 'EUR', demo: true }]);
  });

  it('refuses a wrong password with Rithmic’s text, never echoing it', async () => {
    const error = await failure(
      broker.connect(ctx, { credentials: { ...FAKE_CREDENTIALS, password: 'not-the-password' } }),
    );
    expect(error).toMatchObject({ kind: 'AuthenticationError', message: 'Rithmic: permission denied' });
    expect(error.message).not.toContain('not-the-password');
  });

  it('a login refused for too many attempts is RateLimited, not a wrong password', async () => {
    fake.answerNext({
      method: 'SEND',
      path: '/RequestLogin',
      status: 200,
      body: { template_id: 11, rp_code: ['3', 'too many login attempts'] },
    });
    expect(await failure(broker.connect(ctx, { credentials: FAKE_CREDENTIALS }))).toMatchObject({
      kind: 'RateLimited',
      message: 'Rithmic: too many login attempts',
    });
  });

  it('refuses a system the gateway does not offer, naming those it does, before logging in', async () => {
    const before = fake.requests.length;
    const error = await failure(broker.connect(ctx, { credentials: { ...FAKE_CREDENTIALS, systemName: 'Apex' } }));
    expect(error).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Rithmic: system "Apex" is not offered by this gateway (it offers Rithmic Test, Rithmic Paper Trading)',
    });
    expect(since(before)).toEqual(['RequestRithmicSystemInfo']);
  });

  it('refuses missing credentials without connecting, and an unreachable gateway as unavailable', async () => {
    const before = fake.requests.length;
    const missing = await failure(broker.connect(ctx, { credentials: { user: 'trader01', password: '' } }));
    expect(missing).toMatchObject({ kind: 'AuthenticationError' });
    expect(fake.requests.length).toBe(before);
    const closed = await failure(broker.connect({ baseUrl: 'ws://127.0.0.1:9' }, { credentials: FAKE_CREDENTIALS }));
    expect(closed).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: false });
  });
});

describe('heartbeats', () => {
  it('beats right after login and then at the interval the login answer gives', async () => {
    const quick = await startRithmicFake({ heartbeatInterval: 0.05 });
    try {
      const quickCtx = { baseUrl: quick.baseUrl };
      const quickSession = await broker.connect(quickCtx, { credentials: FAKE_CREDENTIALS });
      expect(quick.counts.heartbeats).toBe(1);
      // Answered only once two more heartbeats came: without them the lookup would time out.
      quick.holdNext('/RequestShowOrders', 2);
      const found = await findOrder(broker, quickCtx, quickSession, {
        accountId,
        clientOrderId: 'sig-none',
        brokerOrderId: '1',
      });
      expect(found).toMatchObject({ match: 'unknown' });
      expect(quick.counts.heartbeats).toBeGreaterThanOrEqual(3);
    } finally {
      await quick.close();
    }
  });
});

describe('orders', () => {
  it('a market order: user_tag is our id, AUTO, the exchange’s trade route; filled per its notifications', async () => {
    const answer = await broker.placeOrder(ctx, session, input(ES, 'sig-market-1'));
    expect(lastOrder()).toMatchObject({
      template_id: 312,
      user_tag: 'sig-market-1',
      manual_or_auto: 2,
      trade_route: 'simulator',
      exchange: 'CME',
      symbol: 'ESH7',
      price_type: 2,
    });
    expect(answer).toMatchObject({ status: 'filled', price: 6050.25 });
    expect(answer.id).toMatch(/^\d+$/);
  });

  it.each([
    [
      { type: 'limit', limit_price: 6000.5 },
      { price_type: 1, price: 6000.5, duration: 2 },
    ],
    [
      { type: 'stop', stop_price: 6100, duration: 'day' },
      { price_type: 4, trigger_price: 6100, duration: 1 },
    ],
    [
      { type: 'stop_limit', stop_price: 6100, limit_price: 6101, duration: 'ioc' },
      { price_type: 3, trigger_price: 6100, price: 6101, duration: 3 },
    ],
    [
      { type: 'limit', limit_price: 6000, duration: 'fok' },
      { price_type: 1, duration: 4 },
    ],
  ])('%o is sent as %o and answered open (accepted)', async (form, wire) => {
    const answer = await broker.placeOrder(ctx, session, input({ ...ES, ...form }));
    expect(lastOrder()).toMatchObject({ template_id: 312, ...wire });
    expect(answer).toMatchObject({ status: 'accepted', status_description: 'Rithmic order open' });
  });

  it('brackets: exit prices become whole ticks from the entry; extra ticks work on a market entry', async () => {
    await broker.placeOrder(
      ctx,
      session,
      input({ ...ES, action: 'sell', type: 'limit', limit_price: 6050, take_profit_price: 6040 }),
    );
    expect(lastOrder()).toMatchObject({ template_id: 330, bracket_type: 2, target_ticks: 40, target_quantity: 1 });
    const answer = await broker.placeOrder(ctx, session, input({ ...ES, extra: { target_ticks: 16, stop_ticks: 8 } }));
    expect(lastOrder()).toMatchObject({ template_id: 330, price_type: 2, bracket_type: 3, user_type: 3 });
    expect(answer.status).toBe('filled');
  });

  it("puts an entry's prices on a known tick, never past the trader's; an unknown root's as given", async () => {
    // A buy at most 6000.1 is a buy at most 6000 (ES ticks 0.25), and its exits count from there.
    await broker.placeOrder(
      ctx,
      session,
      input({ ...ES, type: 'limit', limit_price: 6000.1, take_profit_price: 6010 }),
    );
    expect(lastOrder()).toMatchObject({ template_id: 330, price: 6000, target_ticks: 40 });
    const sell = { ...ES, action: 'sell', type: 'stop_limit', stop_price: 5990.1, limit_price: 5990.05 };
    await broker.placeOrder(ctx, session, input(sell));
    expect(lastOrder()).toMatchObject({ template_id: 312, trigger_price: 5990.25, price: 5990.25 });
    // SR3 (3-month SOFR) is left out of the tick table: its tick differs between contract months.
    await broker.placeOrder(
      ctx,
      session,
      input({ ...ES, symbol: 'CME:SR3H2027', type: 'limit', limit_price: 96.1234 }),
    );
    expect(lastOrder()).toMatchObject({ price: 96.1234 });
    await broker.placeOrder(ctx, session, input({ ...ES, symbol: 'CME:6BH2027', type: 'limit', limit_price: 1.26543 }));
    expect(lastOrder()).toMatchObject({ price: 1.2654 });
  });

  it.each([
    [{ type: 'limit', limit_price: 0.1 }, 'Rithmic: limit_price 0.1 is less than one tick (0.25): it would be 0'],
    [{ symbol: 'ES2!' }, 'Rithmic: only the front month (ES1!) is resolved; name the month of ES2!'],
    [
      { symbol: 'FDAXH2027' },
      'Rithmic: the exchange of FDAX is not known; prefix the exchange as Rithmic names it, as in <exchange>:FDAXH2027',
    ],
    [
      { take_profit_price: 6100 },
      "Rithmic: a bracket's exits are ticks from the entry price: give a limit, stop or stop_limit entry, or extra.target_ticks/stop_ticks",
    ],
    [
      { type: 'limit', limit_price: 6000, take_profit_price: 6000.1 },
      'Rithmic: take_profit_price 6000.1 is not a whole number of ticks (0.25) from the entry 6000',
    ],
    [
      // (A limit entry's stop loss on the wrong side is refused by the order language already.)
      { type: 'stop', stop_price: 6000, stop_loss_price: 6010 },
      'Rithmic: stop_loss_price 6010 must be below the entry 6000',
    ],
    [
      { symbol: 'CME:SR3H2027', type: 'limit', limit_price: 96.25, stop_loss_price: 96 },
      "Rithmic: a bracket's exits are ticks from the entry, and the tick of SR3 is not known",
    ],
    [{ extra: { stop_ticks: 2.5 } }, 'Rithmic: extra.stop_ticks must be a whole number of ticks, not 2.5'],
  ])('refuses %o before sending anything', async (change, message) => {
    const before = fake.requests.length;
    const error = await failure(broker.placeOrder(ctx, session, input({ ...ES, ...change })));
    expect(error).toMatchObject({ kind: 'InvalidOrder', message });
    expect(fake.requests.length).toBe(before);
  });

  it('ES1! is the front month the ticker plant names, asked once an hour', async () => {
    forgetFrontMonths();
    const before = fake.requests.length;
    await broker.placeOrder(ctx, session, input({ ...ES, symbol: 'ES1!' }));
    const front = `ES${frontMonthCode(Date.now())}`;
    expect(lastOrder()).toMatchObject({ symbol: front, exchange: 'CME' });
    const asked = fake.requests.slice(before);
    // The ticker plant is logged in to for the call (the order plant's session is kept).
    const plants = asked
      .filter((r) => r.path === '/RequestLogin')
      .map((r) => (r.body as { infra_type: number }).infra_type);
    expect(plants.filter((plant) => plant === 1)).toHaveLength(1);
    expect(asked.find((r) => r.path === '/RequestFrontMonthContract')?.body).toMatchObject({
      symbol: 'ES',
      exchange: 'CME',
    });
    const again = fake.requests.length;
    await broker.placeOrder(ctx, session, input({ ...ES, symbol: 'ES1!' }));
    expect(since(again)).not.toContain('RequestFrontMonthContract');
    expect(lastOrder().symbol).toBe(front);
  });

  it('a root the ticker plant has no front month for is refused before any order', async () => {
    forgetFrontMonths();
    const before = sent('RequestNewOrder').length;
    const error = await failure(broker.placeOrder(ctx, session, input({ ...ES, symbol: 'EUREX:FDAX1!' })));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Rithmic: no front month of FDAX on EUREX (no data)',
    });
    expect(sent('RequestNewOrder').length).toBe(before);
  });

  // TradingView's {{exchange}}:{{ticker}} names the E-minis' exchange CME_MINI (CBOT_MINI for YM):
  // sent as the exchange, it had no trade route, and every such alert was refused.
  it.each([
    ['CME_MINI:ESH2027', 'CME', 'ESH7'],
    ['cbot_mini:YMH2027', 'CBOT', 'YMH7'],
    ['CME_MINI:ES1!', 'CME', undefined],
  ])('places %s on the exchange Rithmic names (%s)', async (symbol, exchange, contract) => {
    await broker.placeOrder(ctx, session, input({ ...ES, symbol }));
    expect(lastOrder()).toMatchObject({
      exchange,
      trade_route: 'simulator',
      ...(contract ? { symbol: contract } : {}),
    });
  });

  it('refuses an exchange without a trade route before placing, naming the routes', async () => {
    const before = sent('RequestNewOrder').length;
    const error = await failure(broker.placeOrder(ctx, session, input({ ...ES, symbol: 'EUREX:FDAXH2027' })));
    expect(error.message).toBe('Rithmic: no trade route for EUREX (routes: CME, CBOT, NYMEX, COMEX)');
    expect(sent('RequestNewOrder').length).toBe(before);
  });

  it('a risk rejection (exchange REJECT) is InsufficientFunds; a plant refusal InvalidOrder', async () => {
    const margin = await failure(broker.placeOrder(ctx, session, input({ ...ES, quantity: 60 })));
    expect(margin).toMatchObject({
      kind: 'InsufficientFunds',
      message: 'Rithmic: Insufficient margin: order would exceed the account margin',
      outcomeUnknown: false,
    });
    fake.answerNext({
      method: 'SEND',
      path: '/RequestNewOrder',
      status: 200,
      body: { template_id: 313, rp_code: ['3', 'invalid trade route'] },
    });
    expect(await failure(broker.placeOrder(ctx, session, input(ES)))).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Rithmic: invalid trade route',
    });
  });

  it('a permission refused on an order refuses that order, not the login (no deactivation)', async () => {
    // Not permissioned for this exchange or product: the user's login is good (a bad one fails at login).
    fake.answerNext({
      method: 'SEND',
      path: '/RequestNewOrder',
      status: 200,
      body: { template_id: 313, rp_code: ['13', 'permission denied'] },
    });
    expect(await failure(broker.placeOrder(ctx, session, input(ES)))).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Rithmic: permission denied',
    });
  });

  it('the same signal id is always the same user_tag (hashed when longer than 36)', async () => {
    const long = 'x'.repeat(50);
    await broker.placeOrder(ctx, session, input({ ...ES, type: 'limit', limit_price: 6000 }, long));
    const first = lastOrder().user_tag;
    await broker.placeOrder(ctx, session, input({ ...ES, type: 'limit', limit_price: 6000 }, long));
    expect(lastOrder().user_tag).toBe(first);
    expect(String(first)).toMatch(/^[0-9a-f]{36}$/);
  });
});

describe('lost answers and lookup', () => {
  it('a dropped connection after the order is outcome-unknown, not resent, and found again by its user_tag', async () => {
    const before = fake.book.orders.length;
    fake.answerNext({ method: 'SEND', path: '/RequestNewOrder', status: 0 });
    const sentAt = Date.now();
    const lost = await failure(broker.placeOrder(ctx, session, input(ES, 'sig-lost')));
    expect(lost).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    expect(fake.book.orders.length).toBe(before + 1);
    const found = await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-lost', sentAt });
    expect(found).toMatchObject({ match: 'exact', order: { status: 'filled', id: fake.book.orders.at(-1)?.basketId } });
  });

  it.each([
    ['a basket_id beside a refusing rp_code', ['1', 'order not routed'], true, 'order not routed'],
    [
      'a refusal saying it timed out',
      ['11', 'timed out waiting for the exchange'],
      false,
      'timed out waiting for the exchange',
    ],
  ])('%s is outcome-unknown, not resent, the order found by its user_tag', async (_case, rpCode, basket, text) => {
    const before = fake.book.orders.length;
    fake.bookNextOrderAnswering(rpCode, basket);
    const sentAt = Date.now();
    const clientOrderId = `sig-undecided-${rpCode[0]}`;
    const lost = await failure(broker.placeOrder(ctx, session, input(ES, clientOrderId)));
    expect(lost).toMatchObject({
      kind: 'BrokerUnavailable',
      message: `Rithmic: ${text} (outcome unknown)`,
      outcomeUnknown: true,
    });
    expect(fake.book.orders.length).toBe(before + 1);
    const found = await findOrder(broker, ctx, session, { accountId, clientOrderId, sentAt });
    expect(found).toMatchObject({ match: 'exact', order: { id: fake.book.orders.at(-1)?.basketId } });
  });

  it('no answer before the deadline is outcome-unknown; a forced logout too', async () => {
    fake.answerNext({ method: 'SEND', path: '/RequestNewOrder', status: 200, body: [] });
    // The deadline passes once the order is at Rithmic (never answered), whatever came before it.
    const orders = sent('RequestNewOrder').length;
    const deadline = new AbortController();
    const placing = failure(broker.placeOrder({ ...ctx, signal: deadline.signal }, session, input(ES, 'sig-late')));
    await vi.waitFor(() => expect(sent('RequestNewOrder')).toHaveLength(orders + 1), { timeout: 4_000 });
    deadline.abort();
    const late = await placing;
    expect(late).toMatchObject({
      kind: 'BrokerUnavailable',
      message: 'Rithmic: no answer from Rithmic before the deadline',
      outcomeUnknown: true,
    });
    fake.answerNext({ method: 'SEND', path: '/RequestNewOrder', status: 200, body: { template_id: 77 } });
    expect(await failure(broker.placeOrder(ctx, session, input(ES)))).toMatchObject({
      kind: 'BrokerUnavailable',
      outcomeUnknown: true,
    });
  });

  it('by user_tag: none when the window’s history has no such tag, unknown when the window is too old', async () => {
    expect(
      await findOrder(broker, ctx, session, { accountId, clientOrderId: 'never-sent', sentAt: Date.now() }),
    ).toEqual({ match: 'none' });
    const old = await findOrder(broker, ctx, session, {
      accountId,
      clientOrderId: 'sig-lost',
      sentAt: Date.parse('2024-11-24T14:20:00Z'),
    });
    expect(old).toEqual({ match: 'unknown', reason: 'Rithmic no longer lists the orders of that time' });
  });

  // Around a midnight the window's dates include one without orders, which Rithmic's history
  // dates do not list; it must not read as "older than the history".
  it.each([
    // The two calendars name different days: the Chicago one has no orders yet.
    ['between midnight UTC and midnight in Chicago, an order of the new UTC day', '2026-11-26T00:30:00Z', 'utc'],
    // The window opens a minute before the order, on the Chicago day before (CI met this at
    // 06:00 UTC); earlier than every other order of the book, as in a fresh account's first day.
    [
      "within a minute after Chicago's midnight, an order whose window starts the day before",
      '2026-01-15T06:00:20Z',
      'chicago',
    ],
  ])('%s is found, not unknown', async (_name, instant, tag) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(instant));
      const sentAt = Date.now();
      await broker.placeOrder(ctx, session, input(ES, `sig-after-${tag}-midnight`));
      expect(
        await findOrder(broker, ctx, session, { accountId, clientOrderId: `sig-after-${tag}-midnight`, sentAt }),
      ).toMatchObject({ match: 'exact', order: { status: 'filled' } });
      expect(
        await findOrder(broker, ctx, session, { accountId, clientOrderId: `never-sent-at-${tag}-midnight`, sentAt }),
      ).toEqual({ match: 'none' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a filled order of today is found by basket_id and by user_tag, though the history dates do not list today', async () => {
    const sentAt = Date.now();
    const placed = await broker.placeOrder(ctx, session, input(ES, 'sig-filled-today'));
    expect(placed.status).toBe('filled');
    const before = fake.requests.length;
    const byBasket = await findOrder(broker, ctx, session, { accountId, clientOrderId: 'x', brokerOrderId: placed.id });
    expect(byBasket).toMatchObject({ match: 'exact', order: { id: placed.id, status: 'filled' } });
    // Not open (320 replays open orders only), and 318 did not name today: today's 324 found it.
    expect(since(before)).toContain('RequestShowOrderHistorySummary');
    const byTag = await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-filled-today', sentAt });
    expect(byTag).toMatchObject({ match: 'exact', order: { id: placed.id, status: 'filled' } });
  });

  // 318 lists past days only (the day in progress may be missing): a refusal of today's 324 with
  // a code other than "7 no data" says nothing about that day, and asking again would not either.
  it('a day the history dates did not list, refused by 324: unknown, not an error asked again every pass', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2025-06-10T15:00:00Z'));
      const refused = { template_id: 325, rp_code: ['3', 'no order history for this date'] };
      const refuse = () =>
        fake.answerNext({ method: 'SEND', path: '/RequestShowOrderHistorySummary', status: 200, body: refused });
      refuse();
      const byTag = await findOrder(broker, ctx, session, {
        accountId,
        clientOrderId: 'refused-day',
        sentAt: Date.now(),
      });
      expect(byTag).toEqual({ match: 'unknown', reason: 'Rithmic no longer lists the orders of that time' });
      refuse();
      const byBasket = await findOrder(broker, ctx, session, { accountId, clientOrderId: 'x', brokerOrderId: '999' });
      expect(byBasket).toMatchObject({ match: 'unknown' });
    } finally {
      vi.useRealTimers();
    }
  });

  // A refusal of 318 itself: which days Rithmic keeps is unknown; today and yesterday are still
  // asked (324), an older window is unknown, neither an error asked again every pass.
  it('the history dates refused (318): today still found, an older window unknown, no error', async () => {
    const refused = { template_id: 319, rp_code: ['3', 'request not permitted'] };
    const refuse = () =>
      fake.answerNext({ method: 'SEND', path: '/RequestShowOrderHistoryDates', status: 200, body: refused });
    const sentAt = Date.now();
    const placed = await broker.placeOrder(ctx, session, input(ES, 'sig-dates-refused'));
    refuse();
    const today = await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-dates-refused', sentAt });
    expect(today).toMatchObject({ match: 'exact', order: { id: placed.id, status: 'filled' } });
    refuse();
    const older = await findOrder(broker, ctx, session, {
      accountId,
      clientOrderId: 'sig-dates-refused',
      sentAt: sentAt - 5 * 24 * 3_600_000,
    });
    expect(older).toMatchObject({ match: 'unknown' });
    refuse();
    const byBasket = await findOrder(broker, ctx, session, { accountId, clientOrderId: 'x', brokerOrderId: placed.id });
    expect(byBasket).toMatchObject({ match: 'exact', order: { id: placed.id, status: 'filled' } });
  });

  it('by basket_id: exact with its state, unknown when Rithmic has no such order', async () => {
    const placed = await broker.placeOrder(ctx, session, input({ ...ES, type: 'limit', limit_price: 5900 }));
    expect(
      await findOrder(broker, ctx, session, { accountId, clientOrderId: 'x', brokerOrderId: placed.id }),
    ).toMatchObject({ match: 'exact', order: { id: placed.id, status: 'accepted' } });
    expect(await findOrder(broker, ctx, session, { accountId, clientOrderId: 'x', brokerOrderId: '1' })).toMatchObject({
      match: 'unknown',
    });
  });
});

describe('partly filled, then canceled', () => {
  it('a lookup says canceled (1 of 3 filled), not filled: the remainder was never bought', async () => {
    const placed = await broker.placeOrder(
      ctx,
      session,
      input({ ...ES, quantity: 3, type: 'limit', limit_price: 5900 }, 'sig-part-cancel'),
    );
    const booked = fake.book.orders.find((order) => order.basketId === placed.id);
    if (booked) booked.filled = 1;
    await broker.cancelOrder(ctx, session, { accountId, brokerOrderId: placed.id });
    for (const lookup of [{ brokerOrderId: placed.id }, { sentAt: Date.now() }]) {
      expect(
        await findOrder(broker, ctx, session, { accountId, clientOrderId: 'sig-part-cancel', ...lookup }),
      ).toMatchObject({ match: 'exact', order: { id: placed.id, status: 'canceled' } });
    }
  });

  it('the COMPLETE notification (351) of the cancel: canceled, though nothing is left unfilled', async () => {
    // Rithmic's COMPLETE of a canceled order names the reason; its unfilled size is 0 (nothing
    // works any more), so the sizes alone would read 1 filled, 0 unfilled as a complete fill.
    const order: FakeOrder = {
      basketId: '7',
      fields: { template_id: 312, quantity: 3, user_tag: 'sig-7' },
      createdAt: 0,
      exchangeState: 3,
      filled: 1,
    };
    const complete = rithmicNotification(order, 15, 0);
    expect(complete).toMatchObject({ completion_reason: 'Cancel', total_fill_size: 1, total_unfilled_size: 0 });
    expect(responseOf(complete)).toMatchObject({ id: '7', status: 'canceled' });
    // After the exchange's CANCEL (352) the later COMPLETE keeps the order canceled.
    const cancel = { template_id: 352, notify_type: 3, basket_id: '7', total_fill_size: 1, total_unfilled_size: 0 };
    expect(responseOf(laterState(cancel, complete)).status).toBe('canceled');
  });
});

describe('cancel', () => {
  it('by basket_id or by our id (among the open orders), AUTO; a filled or unknown order is not found', async () => {
    const byId = await broker.placeOrder(ctx, session, input({ ...ES, type: 'limit', limit_price: 5900 }));
    await broker.cancelOrder(ctx, session, { accountId, brokerOrderId: byId.id });
    expect(sent('RequestCancelOrder').at(-1)?.body).toMatchObject({ basket_id: byId.id, manual_or_auto: 2 });
    expect(fake.book.orders.find((order) => order.basketId === byId.id)?.exchangeState).toBe(3);

    await broker.placeOrder(ctx, session, input({ ...ES, type: 'limit', limit_price: 5900 }, 'sig-cancel-me'));
    await broker.cancelOrder(ctx, session, { accountId, clientOrderId: 'sig-cancel-me' });
    expect(fake.book.orders.find((order) => order.fields.user_tag === 'sig-cancel-me')?.exchangeState).toBe(3);

    await broker.placeOrder(ctx, session, input(ES, 'sig-filled'));
    expect(await failure(broker.cancelOrder(ctx, session, { accountId, clientOrderId: 'sig-filled' }))).toMatchObject({
      kind: 'OrderNotFound',
      message: 'Rithmic: no open order with client order id sig-filled',
    });
    expect(await failure(broker.cancelOrder(ctx, session, { accountId, brokerOrderId: '42' }))).toMatchObject({
      kind: 'OrderNotFound',
      message: 'Rithmic: order not found',
    });
  });

  it('refuses an account outside the connection', async () => {
    const error = await failure(broker.cancelOrder(ctx, session, { accountId: 'OTHER', brokerOrderId: '1' }));
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Rithmic: account OTHER is not part of this connection',
    });
  });
});
