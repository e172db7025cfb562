// Contract tests of the Schwab adapter against its protocol fake: sign-in, every order the
// descriptor claims, errors as typed BrokerErrors, no order resent, tokens expiring on the clock.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { findOrder } from '../../core/find-order.ts';
import { createSchwabBroker } from './adapter.ts';
import { type SchwabFake, startSchwabFake } from './fake.ts';
import { SIGNAL_CASES, toOrder } from './fixtures/signals.ts';
import type { SchwabOrder } from './mapper.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const HASH = 'E5B1D0C3A9F84D2B';
let time = Date.parse('2025-03-03T15:00:00Z');
let fake: SchwabFake;
let ctx: BrokerContext;
const broker = createSchwabBroker();

beforeAll(async () => {
  fake = await startSchwabFake({
    now: () => time,
    quotes: { AAPL: 180, TSLA: 200 },
    accounts: [{ accountNumber: '12345678', hashValue: HASH, cash: 50_000 }],
  });
  ctx = {
    baseUrl: fake.baseUrl,
    clientId: 'fake-app-key',
    clientSecret: 'fake-app-secret',
    redirectUrl: 'http://127.0.0.1:3000/callback/schwab',
    now: () => time,
  };
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

const connect = () => broker.connect(ctx, { credentials: { code: fake.issueCode(ctx.redirectUrl ?? '') } });
const place = (session: BrokerSession, signal: Record<string, unknown>) =>
  broker.placeOrder(ctx, session, { accountId: HASH, order: toOrder(signal), clientOrderId: 'sig-1' });
async function failure(promise: Promise<unknown>): Promise<BrokerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BrokerError)) throw new Error(`expected a BrokerError, got ${String(error)}`);
  return error;
}
const tokenCalls = () => fake.requests.filter((r) => r.url === '/v1/oauth/token');

describe('sign-in', () => {
  it('sends the user to the consent page and connects with the code it returns', async () => {
    const { requestUrl } = broker.authorizationUrl?.(ctx, 'state-123') ?? { requestUrl: '' };
    const url = new URL(requestUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.baseUrl}/v1/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'fake-app-key',
      redirect_uri: 'http://127.0.0.1:3000/callback/schwab',
      state: 'state-123',
    });
    const consent = await fetch(requestUrl, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') ?? '');
    expect(back.searchParams.get('state')).toBe('state-123');
    const session = await broker.connect(ctx, { credentials: { code: back.searchParams.get('code') ?? '' } });
    expect(session.accounts).toEqual([
      {
        id: HASH,
        name: 'Schwab margin …5678',
        dataTitle: '…5678',
        dataType: 'margin',
        dataCurrency: 'USD',
        demo: false,
      },
    ]);
    expect(session.expiresAt).toBe(time + 7 * DAY);
    expect(session.refreshAt).toBe(time + 25 * MINUTE);
    const [tokenCall] = tokenCalls();
    expect(tokenCall?.headers.authorization).toBe(
      `Basic ${Buffer.from('fake-app-key:fake-app-secret').toString('base64')}`,
    );
    expect(tokenCall?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(tokenCall?.body).toMatchObject({ grant_type: 'authorization_code', redirect_uri: ctx.redirectUrl });
  });

  it("refuses a used code as AuthenticationError; this server's wrong app credentials are its misconfiguration", async () => {
    const code = fake.issueCode(ctx.redirectUrl ?? '');
    await broker.connect(ctx, { credentials: { code } });
    const reused = await failure(broker.connect(ctx, { credentials: { code } }));
    expect(reused.kind).toBe('AuthenticationError');
    expect(reused.message).toMatch(/^Schwab: sign-in refused/);
    const wrongSecret = await failure(
      broker.connect(
        { ...ctx, clientSecret: 'nope' },
        { credentials: { code: fake.issueCode(ctx.redirectUrl ?? '') } },
      ),
    );
    // Not the user's sign-in: connecting again cannot help, the operator must correct the secret.
    expect([wrongSecret.kind, wrongSecret.message]).toEqual([
      'BrokerUnavailable',
      "Schwab: the broker connection is misconfigured on this server's side: its app credentials were refused (invalid_client). Please contact support.",
    ]);
  });
});

describe('a server without its Schwab app', () => {
  it('refreshes to BrokerUnavailable, not AuthenticationError (which would deactivate every connection)', async () => {
    const session = await connect();
    const unset = await failure(broker.refresh?.({ ...ctx, clientSecret: undefined }, session) ?? Promise.resolve());
    expect([unset.kind, unset.message]).toEqual([
      'BrokerUnavailable',
      'Schwab: this server is not set up for Schwab yet (no app credentials)',
    ]);
  });

  it('refreshes with app credentials Schwab refuses (invalid_client) to BrokerUnavailable: the grant still works', async () => {
    const session = await connect();
    const wrong = await failure(broker.refresh?.({ ...ctx, clientSecret: 'rotated' }, session) ?? Promise.resolve());
    expect(wrong.kind).toBe('BrokerUnavailable');
    expect(wrong.message).toMatch(/app credentials/);
    // The operator fixes the secret: the same refresh token renews the connection.
    const renewed = await broker.refresh?.(ctx, session);
    expect(renewed?.secrets.accessToken).not.toBe(session.secrets.accessToken);
  });
});

describe('orders the descriptor claims', () => {
  for (const { name, signal, wire } of SIGNAL_CASES) {
    it(`places ${name}`, async () => {
      const session = await connect();
      const response = await place(session, signal);
      const posted = fake.requests.filter((r) => r.method === 'POST' && r.url === `/trader/v1/accounts/${HASH}/orders`);
      expect(posted.map((r) => r.body)).toEqual([wire]);
      expect(posted[0]?.headers.authorization).toMatch(/^Bearer I0\./);
      expect(response).toMatchObject({ status: 'accepted' });
      expect(fake.orders.has(Number(response.id))).toBe(true);
    });
  }
});

describe('close, cancel, lookups and holdings', () => {
  it('closes a long position with a market sell and a short one with a buy to cover', async () => {
    const session = await connect();
    await place(session, { symbol: 'AMD', action: 'buy', quantity: 7 });
    await place(session, { symbol: 'INTC', action: 'sell_short', quantity: 3 });
    fake.requests.length = 0;
    await broker.closePosition(ctx, session, HASH, 'AMD');
    await place(session, { symbol: 'INTC', action: 'close' });
    const bodies = fake.requests.filter((r) => r.method === 'POST').map((r) => r.body);
    expect(bodies).toEqual([
      {
        orderStrategyType: 'SINGLE',
        session: 'NORMAL',
        duration: 'DAY',
        orderType: 'MARKET',
        orderLegCollection: [{ instruction: 'SELL', quantity: 7, instrument: { symbol: 'AMD', assetType: 'EQUITY' } }],
      },
      {
        orderStrategyType: 'SINGLE',
        session: 'NORMAL',
        duration: 'DAY',
        orderType: 'MARKET',
        orderLegCollection: [
          { instruction: 'BUY_TO_COVER', quantity: 3, instrument: { symbol: 'INTC', assetType: 'EQUITY' } },
        ],
      },
    ]);
    const none = await failure(place(session, { symbol: 'NVDA', action: 'close' }));
    expect(none.message).toBe('Schwab: no open position in NVDA');
  });

  it('a close with a quantity closes that many, never more than is held', async () => {
    const session = await connect();
    await place(session, { symbol: 'CSCO', action: 'buy', quantity: 10 });
    fake.requests.length = 0;
    await place(session, { symbol: 'CSCO', action: 'close', quantity: 4 });
    await place(session, { symbol: 'CSCO', action: 'close', quantity: 50 });
    const legs = fake.requests
      .filter((r) => r.method === 'POST')
      .map(
        (r) => (r.body as { orderLegCollection: Array<{ instruction: string; quantity: number }> }).orderLegCollection,
      );
    expect(legs.map(([leg]) => [leg?.instruction, leg?.quantity])).toEqual([
      ['SELL', 4],
      ['SELL', 6],
    ]);
  });

  it('a close of the whole position cancels the symbol’s open orders first; a close of part keeps them', async () => {
    const session = await connect();
    await place(session, { symbol: 'IBM', action: 'buy', quantity: 10 });
    const stop = await place(session, { symbol: 'IBM', action: 'sell', quantity: 10, type: 'stop', stop_price: 100 });
    const other = await place(session, { symbol: 'TXN', action: 'buy', quantity: 1, limit_price: 150 });
    const status = (id: string) => fake.orders.get(Number(id))?.status;
    await place(session, { symbol: 'IBM', action: 'close', quantity: 4 });
    // Kept, for what is left (replaced).
    const kept = [...fake.orders.values()].at(-1);
    expect([status(stop.id), kept?.status]).toEqual(['REPLACED', 'WORKING']);
    // Left working after the close, the stop would sell shares no longer held.
    await place(session, { symbol: 'IBM', action: 'close' });
    expect([status(String(kept?.orderId)), status(other.id)]).toEqual(['CANCELED', 'WORKING']);
    const last = fake.requests.filter((r) => r.method === 'POST').at(-1)?.body as SchwabOrder;
    expect(last.orderLegCollection?.[0]).toMatchObject({ instruction: 'SELL', quantity: 6 });
  });

  it('a close of the whole position cancels an exit Schwab has not acknowledged yet: it is live too', async () => {
    const session = await connect();
    await place(session, { symbol: 'ADBE', action: 'buy', quantity: 4 });
    const stop = await place(session, { symbol: 'ADBE', action: 'sell', quantity: 4, type: 'stop', stop_price: 90 });
    const listed = fake.orders.get(Number(stop.id));
    if (listed) listed.status = 'PENDING_ACKNOWLEDGEMENT';
    await place(session, { symbol: 'ADBE', action: 'close' });
    // Left working, the stop would sell 4 shares no longer held once triggered (a short).
    expect(listed?.status).toBe('CANCELED');
  });

  it('a close refused after the open orders were canceled for it says so: the position is still open, its exits gone', async () => {
    const session = await connect();
    await place(session, { symbol: 'CRM', action: 'buy', quantity: 2 });
    const stop = await place(session, { symbol: 'CRM', action: 'sell', quantity: 2, type: 'stop', stop_price: 90 });
    fake.failNext({
      method: 'POST',
      path: /\/orders$/,
      status: 400,
      body: { message: 'Order rejected', errors: ['market is closed'] },
    });
    const error = await failure(place(session, { symbol: 'CRM', action: 'close' }));
    expect(error).toMatchObject({ kind: 'InvalidOrder', outcomeUnknown: false });
    expect(error.message).toBe(
      `Schwab: Order rejected: market is closed; the open orders of CRM were canceled before the close (${stop.id}): check the position and its exits at the broker`,
    );
  });

  it('a close of part replaces the exits larger than what is left with ones for what is left', async () => {
    const session = await connect();
    await place(session, { symbol: 'QCOM', action: 'buy', quantity: 10 });
    const stop = await place(session, { symbol: 'QCOM', action: 'sell', quantity: 10, type: 'stop', stop_price: 90 });
    const small = await place(session, { symbol: 'QCOM', action: 'sell', quantity: 3, limit_price: 120 });
    const entry = await place(session, { symbol: 'QCOM', action: 'buy', quantity: 5, limit_price: 80 });
    const answer = await place(session, { symbol: 'QCOM', action: 'close', quantity: 4 });
    const status = (id: string) => fake.orders.get(Number(id))?.status;
    // Left at 10, the stop would sell 4 shares more than the 6 held once triggered (a short).
    expect([status(stop.id), status(small.id), status(entry.id)]).toEqual(['REPLACED', 'WORKING', 'WORKING']);
    const replacing = [...fake.orders.values()].at(-1);
    expect(replacing?.status).toBe('WORKING');
    expect(replacing?.body).toEqual({
      session: 'NORMAL',
      duration: 'GOOD_TILL_CANCEL',
      orderType: 'STOP',
      stopPrice: '90',
      orderStrategyType: 'SINGLE',
      orderLegCollection: [{ instruction: 'SELL', quantity: 6, instrument: { symbol: 'QCOM', assetType: 'EQUITY' } }],
    });
    expect(answer.status_description).toBe(
      `Order placed at Schwab; exits cut to the 6 left: ${stop.id} → ${replacing?.orderId}`,
    );
  });

  it('a close of all of it cancels a bracket’s exits, listed inside its filled entry', async () => {
    const session = await connect();
    const bracket = { symbol: 'INTU', action: 'buy', quantity: 5, take_profit_price: 120, stop_loss_price: 90 };
    const entry = await place(session, bracket);
    const oco = fake.orders.get(Number(entry.id))?.children?.[0];
    await place(session, { symbol: 'INTU', action: 'close' });
    // Left working, the stop or the take profit would sell 5 shares no longer held (a short).
    expect([oco?.status, ...(oco?.children ?? []).map((child) => child.status)]).toEqual([
      'CANCELED',
      'CANCELED',
      'CANCELED',
    ]);
  });

  it('a bracket’s exits, listed inside its filled entry, are cut by a close of part and canceled by a close of all', async () => {
    const session = await connect();
    const bracket = { symbol: 'ADBE', action: 'buy', quantity: 10, take_profit_price: 120, stop_loss_price: 90 };
    const entry = await place(session, bracket);
    const oco = fake.orders.get(Number(entry.id))?.children?.[0];
    expect([fake.orders.get(Number(entry.id))?.status, oco?.status]).toEqual(['FILLED', 'WORKING']);
    const answer = await place(session, { symbol: 'ADBE', action: 'close', quantity: 4 });
    // Left at 10, the stop would sell 4 shares more than the 6 held once triggered (a short).
    expect(oco?.status).toBe('REPLACED');
    const replacing = [...fake.orders.values()].at(-1);
    const leg = { instruction: 'SELL', quantity: 6, instrument: { symbol: 'ADBE', assetType: 'EQUITY' } };
    expect(replacing?.body).toEqual({
      orderStrategyType: 'OCO',
      childOrderStrategies: [
        { ...oco?.children?.[0]?.body, orderLegCollection: [leg] },
        { ...oco?.children?.[1]?.body, orderLegCollection: [leg] },
      ],
    });
    expect(answer.status_description).toBe(
      `Order placed at Schwab; exits cut to the 6 left: ${oco?.orderId} → ${replacing?.orderId}`,
    );
    await place(session, { symbol: 'ADBE', action: 'close' });
    // Left working after a close of all of it, they would sell shares no longer held.
    expect([replacing?.status, ...(replacing?.children ?? []).map((child) => child.status)]).toEqual([
      'CANCELED',
      'CANCELED',
      'CANCELED',
    ]);
  });

  it('cancels open orders by id and by the cancel action', async () => {
    const session = await connect();
    const first = await place(session, { symbol: 'ORCL', action: 'buy', quantity: 1, limit_price: 150 });
    await broker.cancelOrder(ctx, session, { accountId: HASH, brokerOrderId: first.id });
    expect(fake.orders.get(Number(first.id))?.status).toBe('CANCELED');
    const second = await place(session, { symbol: 'ORCL', action: 'buy', quantity: 1, limit_price: 151 });
    const answer = await place(session, { symbol: 'ORCL', action: 'cancel' });
    expect(answer).toMatchObject({ id: second.id, status: 'canceled' });
    expect(fake.orders.get(Number(second.id))?.status).toBe('CANCELED');
    const again = await failure(broker.cancelOrder(ctx, session, { accountId: HASH, brokerOrderId: second.id }));
    expect(again.message).toBe('Schwab: Order is CANCELED and cannot be canceled');
  });

  it('a cancel signal that fails partway says which orders were canceled and which not', async () => {
    const session = await connect();
    const first = await place(session, { symbol: 'ADBE', action: 'buy', quantity: 1, limit_price: 300 });
    const second = await place(session, { symbol: 'ADBE', action: 'buy', quantity: 1, limit_price: 301 });
    const body = { message: 'Order cannot be canceled now' };
    fake.failNext({ method: 'DELETE', path: new RegExp(`/orders/${second.id}$`), status: 400, body });
    const error = await failure(place(session, { symbol: 'ADBE', action: 'cancel' }));
    expect(error).toMatchObject({ kind: 'InvalidOrder', outcomeUnknown: false });
    expect(error.message).toBe(
      `Schwab: Order cannot be canceled now; of the open orders of ADBE, only some were canceled: ${first.id}; not ${second.id}: check them at the broker`,
    );
    expect([fake.orders.get(Number(first.id))?.status, fake.orders.get(Number(second.id))?.status]).toEqual([
      'CANCELED',
      'WORKING',
    ]);
  });

  it('findOrder: by broker id when known, else by terms around the send time, never by our id alone', async () => {
    const session = await connect();
    time += MINUTE;
    const signal = { symbol: 'AAPL', action: 'buy', quantity: 2 };
    const sentAt = time;
    const placed = await place(session, signal);
    const lookup = { accountId: HASH, clientOrderId: 'sig-1' };
    expect(await findOrder(broker, ctx, session, lookup)).toEqual({
      match: 'unknown',
      reason: 'Schwab lists recent orders only, and the send time is not known',
    });
    const byId = await findOrder(broker, ctx, session, { ...lookup, brokerOrderId: placed.id });
    expect(byId).toMatchObject({ match: 'exact', order: { id: placed.id, status: 'filled', price: 180 } });
    const bySent = await findOrder(broker, ctx, session, { ...lookup, order: toOrder(signal), sentAt });
    expect(bySent).toMatchObject({ match: 'probable', order: { id: placed.id } });
    const listed = fake.requests.at(-1)?.url ?? '';
    expect(decodeURIComponent(listed)).toBe(
      `/trader/v1/accounts/${HASH}/orders?fromEnteredTime=${new Date(sentAt - 60_000).toISOString()}` +
        `&toEnteredTime=${new Date(sentAt + 300_000).toISOString()}`,
    );
    const other = { symbol: 'AAPL', action: 'buy', quantity: 3 };
    expect(await findOrder(broker, ctx, session, { ...lookup, order: toOrder(other), sentAt })).toEqual({
      match: 'none',
    });
    const closing = toOrder({ symbol: 'AAPL', action: 'close' });
    expect(await findOrder(broker, ctx, session, { ...lookup, order: closing, sentAt })).toMatchObject({
      match: 'unknown',
    });
    const second = await place(session, signal);
    expect(await findOrder(broker, ctx, session, { ...lookup, order: toOrder(signal), sentAt })).toEqual({
      match: 'unknown',
      reason: `2 orders at Schwab match (${placed.id}, ${second.id})`,
    });
    expect(await findOrder(broker, ctx, session, { ...lookup, brokerOrderId: '999' })).toEqual({
      match: 'unknown',
      reason: 'Schwab does not know its own order 999',
    });
  });

  it('reads holdings from positions and balances', async () => {
    const session = await connect();
    // Its own position, whatever ran before (the fake's book is shared by the file's tests).
    await place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 });
    const holdings = await broker.getHoldings(ctx, session, HASH);
    expect(holdings.currency).toBe('USD');
    expect(holdings.cash).toBeGreaterThan(0);
    expect(holdings.positions.find((p) => p.symbol === 'AAPL')?.quantity).toBeGreaterThan(0);
  });

  it('previews without placing, and reports what Schwab would reject', async () => {
    const session = await connect();
    const input = {
      accountId: HASH,
      order: toOrder({ symbol: 'AAPL', action: 'buy', quantity: 1 }),
      clientOrderId: 'p1',
    };
    const preview = await broker.previewOrder?.(ctx, session, input);
    expect(preview).toMatchObject({ id: 'p1', status: 'draft' });
    expect(fake.submissions()).toBe(0);
    const big = { ...input, order: toOrder({ symbol: 'AAPL', action: 'buy', quantity: 100_000 }) };
    const refused = await failure(broker.previewOrder?.(ctx, session, big) ?? Promise.resolve());
    expect(refused.kind).toBe('InsufficientFunds');
  });
});

describe('errors', () => {
  it('maps validation and funds refusals, prefixed with Schwab', async () => {
    const session = await connect();
    const fractional = await failure(place(session, { symbol: 'AAPL', action: 'buy', quantity: 1.5 }));
    expect(fractional.kind).toBe('InvalidOrder');
    expect(fractional.message).toBe(
      'Schwab: A validation error occurred while processing the request.: quantity must be a whole number greater than 0',
    );
    const poor = await failure(place(session, { symbol: 'AAPL', action: 'buy', quantity: 10_000 }));
    expect(poor.kind).toBe('InsufficientFunds');
    expect(poor.message).toBe(
      'Schwab: Order rejected: insufficient buying power: The order exceeds your available funds',
    );
  });

  it('refuses a take profit or stop loss on a multi-leg order, which Schwab would not carry, sending nothing', async () => {
    const session = await connect();
    const legs = [
      { symbol: 'SPY250321C580', action: 'buy_to_open', quantity: 1 },
      { symbol: 'SPY250321C590', action: 'sell_to_open', quantity: 1 },
    ];
    const before = fake.submissions();
    for (const [field, value] of [
      ['take_profit_price', 5],
      ['stop_loss_price', 1],
    ] as const) {
      const refused = await failure((async () => place(session, { legs, limit_price: 3.1, [field]: value }))());
      expect(refused.kind).toBe('InvalidOrder');
      expect(refused.message).toBe(`Schwab: ${field} is not supported on a multi-leg order`);
    }
    expect(fake.submissions()).toBe(before);
  });

  it('a 403 on an order refuses that order (InvalidOrder), not the connection (a 401 does: next case)', async () => {
    const session = await connect();
    fake.requests.length = 0;
    // Schwab refuses the token with 401 (NotAuthorized); 403 is this order not being allowed.
    fake.failNext({
      method: 'POST',
      path: /\/orders$/,
      status: 403,
      body: { message: 'Forbidden', errors: ['This account is not approved for options trading'] },
    });
    const refused = await failure(place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect([refused.kind, refused.message, refused.outcomeUnknown]).toEqual([
      'InvalidOrder',
      'Schwab: Forbidden: This account is not approved for options trading',
      false,
    ]);
    expect(fake.submissions()).toBe(1);
  });

  it('a 403 on an account’s read (holdings) refuses that read, not the connection, and renews no token', async () => {
    const session = await connect();
    fake.requests.length = 0;
    const forbidden = { method: 'GET', path: `/trader/v1/accounts/${HASH}`, status: 403 } as const;
    const body = { message: 'Forbidden', errors: ['The caller is forbidden from accessing this account'] };
    // Twice: a read refused as an authentication failure would be asked again after a renewal.
    fake.failNext({ ...forbidden, body });
    fake.failNext({ ...forbidden, body });
    for (const _ of [1, 2]) {
      const refused = await failure(broker.getHoldings(ctx, session, HASH));
      expect([refused.kind, refused.message]).toEqual([
        'InvalidOrder',
        'Schwab: Forbidden: The caller is forbidden from accessing this account',
      ]);
    }
    expect(tokenCalls()).toHaveLength(0);
  });

  it('a 401 page (a CDN’s, a firewall’s) on a read or an order is an outage: no reconnect, no renewal, no resend', async () => {
    const session = await connect();
    fake.requests.length = 0;
    const page = {
      status: 401,
      body: '<html><body>Access denied</body></html>',
      headers: { 'content-type': 'text/html' },
    };
    fake.failNext({ method: 'GET', path: `/trader/v1/accounts/${HASH}`, ...page });
    const read = await failure(broker.getHoldings(ctx, session, HASH));
    expect([read.kind, read.outcomeUnknown]).toEqual(['BrokerUnavailable', false]);
    fake.failNext({ method: 'POST', path: /\/orders$/, ...page });
    const order = await failure(place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect([order.kind, order.outcomeUnknown]).toEqual(['BrokerUnavailable', true]);
    expect(fake.submissions()).toBe(1);
    expect(tokenCalls()).toHaveLength(0);
  });

  it('a 2xx to a placement without a Location header is an unknown outcome, not accepted without an id', async () => {
    const session = await connect();
    fake.requests.length = 0;
    fake.failNext({ method: 'POST', path: /\/orders$/, status: 201, body: '' });
    const error = await failure(place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect([error.kind, error.outcomeUnknown]).toEqual(['BrokerUnavailable', true]);
    expect(fake.submissions()).toBe(1);
  });

  it('never resends an order: not on 5xx, not on 401, not on 429', async () => {
    const session = await connect();
    const path = /\/orders$/;
    const cases = [
      { status: 500, body: { message: 'Internal error', errors: [] }, kind: 'BrokerUnavailable', unknown: true },
      {
        status: 401,
        body: { message: 'Client not authorized', errors: [] },
        kind: 'AuthenticationError',
        unknown: false,
      },
      { status: 429, body: { message: 'Too many requests' }, kind: 'RateLimited', unknown: false },
    ];
    for (const { status, body, kind, unknown } of cases) {
      fake.requests.length = 0;
      fake.failNext({ method: 'POST', path, status, body });
      const error = await failure(place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
      expect([error.kind, error.outcomeUnknown]).toEqual([kind, unknown]);
      expect(fake.submissions()).toBe(1);
      expect(tokenCalls()).toHaveLength(0);
    }
  });
});

describe('tokens on the clock', () => {
  it('refreshes before an order once the access token is due, and retries reads once on a 401', async () => {
    const session = await connect();
    time += 26 * MINUTE;
    await place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 });
    expect(fake.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`).slice(-2)).toEqual([
      'POST /v1/oauth/token',
      `POST /trader/v1/accounts/${HASH}/orders`,
    ]);
    expect(tokenCalls().at(-1)?.body).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: session.secrets.refreshToken,
    });
    fake.requests.length = 0;
    fake.revokeAccessTokens();
    await broker.getHoldings(ctx, session, HASH);
    expect(fake.requests.map((r) => r.method + r.url.split('?')[0])).toEqual([
      `GET/trader/v1/accounts/${HASH}`,
      'POST/v1/oauth/token',
      `GET/trader/v1/accounts/${HASH}`,
    ]);
    fake.requests.length = 0;
    fake.revokeAccessTokens();
    const refused = await failure(place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect(refused.kind).toBe('AuthenticationError');
    expect(fake.submissions()).toBe(1);
  });

  it("an order refused (401) for a token another instance's refresh replaced goes once more with the stored one", async () => {
    const held = await connect();
    // The access token held here stops working; the stored session holds one renewed elsewhere.
    fake.revokeAccessTokens();
    const stored = await broker.refresh?.(ctx, held);
    if (!stored) throw new Error('no refresh');
    fake.requests.length = 0;
    const order = { accountId: HASH, order: toOrder({ symbol: 'AAPL', action: 'buy', quantity: 1 }) };
    await broker.placeOrder({ ...ctx, storedSession: async () => stored }, held, { ...order, clientOrderId: 'sig-r' });
    expect(fake.submissions()).toBe(2);
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${stored.secrets.accessToken}`);
    expect(tokenCalls()).toHaveLength(0);
    // Nothing other stored: refused, sent once.
    fake.requests.length = 0;
    const refused = await failure(
      broker.placeOrder({ ...ctx, storedSession: async () => held }, held, { ...order, clientOrderId: 'sig-r2' }),
    );
    expect(refused.kind).toBe('AuthenticationError');
    expect(fake.submissions()).toBe(1);
  });

  it('keeps the 7-day expiry on refresh, and asks for a new sign-in after it', async () => {
    const session = await connect();
    time += 3 * DAY;
    const refreshed = await broker.refresh?.(ctx, session);
    expect(refreshed?.expiresAt).toBe(session.expiresAt);
    expect(refreshed?.refreshAt).toBe(time + 25 * MINUTE);
    expect(refreshed?.secrets.accessToken).not.toBe(session.secrets.accessToken);
    time += 4 * DAY + MINUTE;
    const expired = await failure(broker.refresh?.(ctx, refreshed ?? session) ?? Promise.resolve());
    expect(expired.kind).toBe('AuthenticationError');
    // Schwab's words, not the gateway's wrapping of them (the reason the deactivation mail shows).
    expect(expired.message).toBe('Schwab: sign-in refused (Failed refresh token authentication); reconnect');
    const read = await failure(broker.getHoldings(ctx, refreshed ?? session, HASH));
    expect(read.kind).toBe('AuthenticationError');
  });
});

describe('checkOrder (a test hook: check without placing)', () => {
  it('refuses what placing refuses, with its error, sending nothing; passes an order placing takes', async () => {
    const session = await connect();
    fake.requests.length = 0;
    const signal = { symbol: 'AAPL', action: 'sell', quantity: 1, take_profit_price: 250 };
    const live = await failure(Promise.resolve().then(() => place(session, signal)));
    expect(live).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Schwab: take profit and stop loss need an opening action, not sell',
    });
    expect(fake.requests).toEqual([]);
    const check = (s: Record<string, unknown>) => () =>
      broker.checkOrder({ accountId: HASH, order: toOrder(s), clientOrderId: 'sig-1' });
    expect(check(signal)).toThrow(live);
    expect(check({ ...signal, action: 'buy' })).not.toThrow();
  });
});
