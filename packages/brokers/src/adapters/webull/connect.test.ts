// Contract: Webull's signed App Keys. Connecting reads the accounts (stock/option, futures,
// crypto); every request carries a signature the fake recomputes; a wrong secret, a replayed
// nonce or a skewed clock is refused. With 2FA, the token is approved in the app (polled), sent as
// x-access-token, renewed before it runs out, and its expiry is the connection's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebullBroker } from './adapter.ts';
import { startWebullFake, type WebullFake } from './fake.ts';
import { type Connected, connected, expectFailure, input, STOCKS, sentSince } from './test-support.ts';

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };
let c: Connected;
/** What connecting sent, taken before any test adds its own requests (tests run in any order). */
let connecting: string[];
beforeAll(async () => {
  c = await connected();
  connecting = sentSince(c.fake, 0).map((r) => `${r.method} ${r.path}`);
});
afterAll(() => c.fake.close());

describe('connect', () => {
  it('reads the accounts; the keys and environment are the secrets', async () => {
    expect(c.session.accounts).toEqual([
      {
        id: 'DEMOACCT0001',
        name: 'Webull Individual Margin 5MV12345',
        dataTitle: '5MV12345',
        dataType: 'margin',
        dataCurrency: 'USD',
        demo: false,
      },
      {
        id: 'DEMOFUT00001',
        name: 'Webull Futures 5MF12345',
        dataTitle: '5MF12345',
        dataType: 'margin',
        dataCurrency: 'USD',
        demo: false,
      },
      {
        id: 'DEMOCRY00001',
        name: 'Webull Crypto 5MC12345',
        dataTitle: '5MC12345',
        dataType: 'cash',
        dataCurrency: 'USD',
        demo: false,
      },
    ]);
    expect(c.session.secrets).toEqual({ ...c.fake.keys, environment: 'live' });
    expect(c.session.expiresAt).toBeUndefined();
    expect(connecting).toEqual(['GET /openapi/config', 'GET /openapi/account/list']);
  });

  it('signs every request: loopback hosts with HMAC-SHA256, x-version v2', () => {
    const [request] = c.fake.requests;
    expect(request?.headers).toMatchObject({
      'x-app-key': 'fakewebullappkey',
      'x-timestamp': '2026-06-09T14:31:02Z',
      'x-signature-version': '1.0',
      'x-signature-algorithm': 'HMAC-SHA256',
      'x-signature-nonce': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'x-signature': expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
      'x-version': 'v2',
    });
  });

  it('refuses a wrong secret with the broker’s answer, and nothing is kept', async () => {
    const error = await expectFailure(c.broker.connect(c.ctx, { credentials: { ...c.fake.keys, appSecret: 'wrong' } }));
    expect(error).toMatchObject({ kind: 'AuthenticationError', message: 'Webull: signature does not match' });
    expect(await expectFailure(c.broker.connect(c.ctx, { credentials: { appKey: 'x' } }))).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Webull: App Key and App Secret are required',
    });
  });

  it('refuses a clock more than 5 minutes off and a replayed request', async () => {
    const skewed = createWebullBroker({ now: () => c.clock.now + 6 * 60_000 });
    // This server's clock, not the user's keys: an outage that keeps the connection, no order sent.
    // Told by Webull's clock (its answer's Date), not by its words, which are those of bad keys.
    const refused = {
      kind: 'BrokerUnavailable',
      outcomeUnknown: false,
      message: "Webull: signature or token invalid (this server's clock is 360 s off Webull's; nothing was done)",
    };
    expect(await expectFailure(skewed.getHoldings(c.ctx, c.session, STOCKS))).toMatchObject(refused);
    const placing = input({ symbol: 'AAPL', action: 'buy', quantity: 1, class: 'stock', type: 'market' });
    expect(await expectFailure(skewed.placeOrder(c.ctx, c.session, placing))).toMatchObject(refused);
    const [first] = c.fake.requests;
    const replay = await fetch(`${c.fake.baseUrl}${first?.url}`, { headers: first?.headers as Record<string, string> });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({
      error_code: 'UNAUTHORIZED',
      message: 'x-signature-nonce is missing or was used before',
    });
  });
});

describe('2FA token', () => {
  let fake: WebullFake;
  const clock = { now: Date.parse('2026-06-09T14:31:02Z') };
  const broker = createWebullBroker({ now: () => clock.now, tokenPolling: { intervalMs: 10, maxWaitMs: 1_000 } });
  beforeAll(async () => {
    fake = await startWebullFake({ now: () => clock.now, twoFactor: { approveAfterChecks: 2 } });
  });
  afterAll(() => fake.close());

  it('is created, checked until approved in the app, then sent with every call', async () => {
    const before = fake.requests.length; // the other test of this fake may have run first
    const session = await broker.connect({ baseUrl: fake.baseUrl }, { credentials: fake.keys });
    expect(sentSince(fake, before).map((r) => r.path)).toEqual([
      '/openapi/config',
      '/openapi/auth/token/create',
      '/openapi/auth/token/check',
      '/openapi/auth/token/check',
      '/openapi/account/list',
    ]);
    expect(sentSince(fake, before)[1]?.body).toEqual({});
    const token = session.secrets.accessToken;
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(fake.requests.at(-1)?.headers['x-access-token']).toBe(token);
    expect(session.expiresAt).toBe(clock.now + 15 * 24 * 60 * 60_000);
    // Renewed before the 6 days' expiry warning: a user is not told to reconnect a connection the
    // server is about to renew.
    expect((session.expiresAt ?? 0) - (session.refreshAt ?? 0)).toBeGreaterThan(6 * 24 * 60 * 60_000);
    // Renewed before it runs out: a new token, a new expiry.
    clock.now += 14 * 24 * 60 * 60_000;
    const renewed = await broker.refresh({ baseUrl: fake.baseUrl }, session);
    expect(renewed.secrets.accessToken).not.toBe(token);
    expect(renewed.expiresAt).toBe(clock.now + 15 * 24 * 60 * 60_000);
    expect((await broker.getHoldings({ baseUrl: fake.baseUrl }, renewed, STOCKS)).currency).toBe('USD');
    expect(await expectFailure(broker.getHoldings({ baseUrl: fake.baseUrl }, session, STOCKS))).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Webull: x-access-token is invalid or expired',
    });
  });

  it("an order meeting a token another instance's renewal ended (401) goes once more with the stored one: placed once", async () => {
    const ctx = { baseUrl: fake.baseUrl };
    const held = await broker.connect(ctx, { credentials: fake.keys });
    const stored = await broker.refresh(ctx, held);
    const [placed, tried] = [fake.orders.length, fake.submissions().length];
    const answer = await broker.placeOrder({ ...ctx, storedSession: async () => stored }, held, input(BUY));
    expect(answer).toMatchObject({ status: 'accepted' });
    expect(fake.submissions().length - tried).toBe(2);
    expect(fake.orders.length - placed).toBe(1);
    expect(fake.submissions().at(-1)?.headers['x-access-token']).toBe(stored.secrets.accessToken);
    // Nothing other stored: the refusal stands, sent once.
    const refused = await expectFailure(
      broker.placeOrder({ ...ctx, storedSession: async () => held }, held, input(BUY)),
    );
    expect(refused.kind).toBe('AuthenticationError');
    expect(fake.submissions().length - tried).toBe(3);
    expect(fake.orders.length - placed).toBe(1);
  });

  it("a renewal meeting a proxy's or a CDN's 401 page (or an empty 401) is an outage, not a refused sign-in", async () => {
    const session = await broker.connect({ baseUrl: fake.baseUrl }, { credentials: fake.keys });
    for (const body of ['<html><body><h1>401 Unauthorized</h1></body></html>', '']) {
      fake.inject({ path: '/openapi/auth/token/refresh', status: 401, body, headers: { 'content-type': 'text/html' } });
      expect(await expectFailure(broker.refresh({ baseUrl: fake.baseUrl }, session))).toMatchObject({
        kind: 'BrokerUnavailable',
        message: 'Webull: HTTP 401',
      });
    }
    const renewed = await broker.refresh({ baseUrl: fake.baseUrl }, session);
    expect(renewed.secrets.accessToken).not.toBe(session.secrets.accessToken);
  });

  it('fails when the user does not approve in time, or revoked it', async () => {
    const slow = createWebullBroker({ now: () => clock.now, tokenPolling: { intervalMs: 10, maxWaitMs: 15 } });
    const never = await startWebullFake({ now: () => clock.now, twoFactor: { approveAfterChecks: 1_000 } });
    expect(await expectFailure(slow.connect({ baseUrl: never.baseUrl }, { credentials: never.keys }))).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Webull: the sign-in was not approved in the Webull app in time; connect again and approve it there',
    });
    await never.close();
    const session = await broker.connect({ baseUrl: fake.baseUrl }, { credentials: fake.keys });
    fake.revokeTokens();
    expect(await expectFailure(broker.refresh({ baseUrl: fake.baseUrl }, session))).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Webull: the Webull sign-in is invalid; reconnect',
    });
  });
});
