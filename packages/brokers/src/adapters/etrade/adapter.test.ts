// Contract tests of E*TRADE's sign-in against the protocol fake: the three OAuth 1.0a legs, the
// signatures the fake recomputes, the 2-hour idle renewal and the end at midnight US Eastern.
import { beforeEach, describe, expect, it } from 'vitest';
import { brokerFailure } from '../../core/expect-failure.ts';
import { ALREADY_AUTHORIZED } from './fake-oauth.ts';
import { ACCOUNT, CALLBACK, MINUTE, useEtradeFake } from './test-support.ts';

const HOUR = 60 * MINUTE;
const t = useEtradeFake();
// Cases move the clock (to midnight and past it): each starts at 10:31 in New York again.
const opening = t.clock.time;
beforeEach(() => {
  t.clock.time = opening;
});

describe('sign-in', () => {
  it('asks for a request token, sends the user to the consent page and connects with the verifier', async () => {
    const { requestUrl, pending } = await t.broker.startAuthorization(t.ctx, 'state-1');
    const url = new URL(requestUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${t.fake.baseUrl}/e/t/etws/authorize`);
    expect(url.searchParams.get('key')).toBe('fake-consumer-key');
    expect(url.searchParams.get('token')).toBe(pending?.requestToken);
    expect(pending?.requestTokenSecret).toBeTruthy();
    const [tokenCall] = t.fake.requests;
    expect(tokenCall?.headers.authorization).toMatch(/^OAuth realm="",oauth_consumer_key="fake-consumer-key",/);
    expect(tokenCall?.headers.authorization).toContain('oauth_callback="oob"');
    expect(tokenCall?.headers.authorization).not.toContain('oauth_token=');

    const consent = await fetch(requestUrl, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
    expect(back.searchParams.get('oauth_token')).toBe(pending?.requestToken);
    const verifier = back.searchParams.get('oauth_verifier') ?? '';
    expect(verifier).toMatch(/^[A-Z0-9]{5}$/);

    const session = await t.broker.connect(t.ctx, {
      credentials: { oauth_verifier: verifier },
      ...(pending ? { pending } : {}),
    });
    expect(session.accounts).toEqual([
      {
        id: ACCOUNT,
        name: 'E*TRADE individual …5821',
        dataTitle: '…5821',
        dataType: 'margin',
        dataCurrency: 'USD',
        demo: false,
      },
    ]);
    // Midnight in New York (EDT, UTC-4) after 10:31 on June 9, 2026; renewed before 2 idle hours.
    expect(session.expiresAt).toBe(Date.parse('2026-06-10T04:00:00Z'));
    expect(session.refreshAt).toBe(t.clock.time + 2 * HOUR - 10 * MINUTE);
    expect(Object.keys(session.secrets).sort()).toEqual(['accessExpiresAt', 'accessToken', 'expiresAt', 'tokenSecret']);
    const access = t.fake.requests.find((r) => r.url === '/oauth/access_token');
    expect(access?.headers.authorization).toContain(`oauth_verifier="${verifier}"`);
    expect(access?.headers.authorization).toContain(`oauth_token="${encodeURIComponent(pending?.requestToken ?? '')}"`);
  });

  it("answers a second approval with E*TRADE's 'already been Authorized' verifier, which does not connect", async () => {
    const { requestUrl, pending } = await t.broker.startAuthorization(t.ctx, 'state-2');
    await fetch(requestUrl, { redirect: 'manual' });
    const again = await fetch(requestUrl, { redirect: 'manual' });
    const verifier = new URL(again.headers.get('location') ?? '').searchParams.get('oauth_verifier') ?? '';
    expect(verifier).toBe(ALREADY_AUTHORIZED);
    const refused = await brokerFailure(
      t.broker.connect(t.ctx, { credentials: { oauth_verifier: verifier }, ...(pending ? { pending } : {}) }),
    );
    expect(refused.kind).toBe('AuthenticationError');
    expect(refused.message).toBe('E*TRADE: sign-in refused (oauth_problem=verifier_invalid); connect again');
  });

  it('a sign-in refused with a JSON body says its message, not "[object Object]"', async () => {
    const { requestUrl, pending } = await t.broker.startAuthorization(t.ctx, 'state-json');
    const back = new URL((await fetch(requestUrl, { redirect: 'manual' })).headers.get('location') ?? '');
    const body = { Error: { code: 10033, message: 'The consumer key is not authorized' } };
    t.fake.inject({ method: 'GET', path: '/oauth/access_token', status: 401, body });
    const refused = await brokerFailure(
      t.broker.connect(t.ctx, {
        credentials: { oauth_verifier: back.searchParams.get('oauth_verifier') ?? '' },
        ...(pending ? { pending } : {}),
      }),
    );
    expect(refused.message).toBe('E*TRADE: sign-in refused (The consumer key is not authorized); connect again');
  });

  it("refuses a wrong consumer secret as this server's setup, a request token past 5 minutes and a missing one", async () => {
    // Only the operator's consumer key and secret sign the request token: connecting again cannot help.
    const wrong = await brokerFailure(t.broker.startAuthorization({ ...t.ctx, clientSecret: 'nope' }, 's'));
    expect([wrong.kind, wrong.message]).toEqual([
      'BrokerUnavailable',
      "E*TRADE: the broker connection is misconfigured on this server's side: its consumer key was refused (oauth_problem=signature_invalid). Please contact support.",
    ]);
    const { requestUrl, pending } = await t.broker.startAuthorization(t.ctx, 's');
    const back = new URL((await fetch(requestUrl, { redirect: 'manual' })).headers.get('location') ?? '');
    t.clock.time += 6 * MINUTE;
    const late = await brokerFailure(
      t.broker.connect(t.ctx, {
        credentials: { oauth_verifier: back.searchParams.get('oauth_verifier') ?? '' },
        ...(pending ? { pending } : {}),
      }),
    );
    expect(late.message).toBe('E*TRADE: sign-in refused (oauth_problem=token_expired); connect again');
    const bare = await brokerFailure(t.broker.connect(t.ctx, { credentials: { oauth_verifier: 'ABCDE' } }));
    expect(bare.message).toBe('E*TRADE: no verification code; connect again');
    const unset = await brokerFailure(t.broker.startAuthorization({ ...t.ctx, clientId: undefined }, 's'));
    // This server's setup, not the user's tokens: nothing a call meeting it would deactivate.
    expect([unset.kind, unset.message]).toEqual([
      'BrokerUnavailable',
      'E*TRADE: ETRADE_CLIENT_ID and ETRADE_CLIENT_SECRET are not set',
    ]);
  });
});

describe('signatures as the fake checks them', () => {
  it('refuses a tampered signature, a replayed nonce and a stale timestamp', async () => {
    const session = await t.connect();
    await t.broker.getHoldings(t.ctx, session, ACCOUNT);
    const signed = t.fake.requests.find((r) => r.url.startsWith(`/v1/accounts/${ACCOUNT}/portfolio.json`));
    const authorization = String(signed?.headers.authorization);
    const url = `${t.fake.baseUrl}/v1/accounts/${ACCOUNT}/portfolio.json`;
    const replayed = await fetch(url, { headers: { authorization } });
    expect([replayed.status, await replayed.json()]).toEqual([401, { Error: { message: 'oauth_problem=nonce_used' } }]);
    const tampered = authorization.replace(/oauth_nonce="[^"]+"/, 'oauth_nonce="another"');
    expect(await (await fetch(url, { headers: { authorization: tampered } })).json()).toEqual({
      Error: { message: 'oauth_problem=signature_invalid' },
    });
    t.clock.time += 6 * MINUTE;
    const stale = authorization.replace(/oauth_nonce="[^"]+"/, 'oauth_nonce="third"');
    expect(await (await fetch(url, { headers: { authorization: stale } })).json()).toEqual({
      Error: { message: 'oauth_problem=timestamp_refused' },
    });
  });
});

describe('tokens on the clock', () => {
  it('renews before the token turns idle, before an order too, keeping the midnight end', async () => {
    const session = await t.connect();
    t.clock.time += 2 * HOUR - 5 * MINUTE;
    const refreshed = await t.broker.refresh(t.ctx, session);
    expect(t.calls()).toContain('GET /oauth/renew_access_token');
    expect(refreshed.expiresAt).toBe(session.expiresAt);
    expect(refreshed.refreshAt).toBe(t.clock.time + 2 * HOUR - 10 * MINUTE);
    expect(refreshed.secrets.accessToken).toBe(session.secrets.accessToken);
    t.fake.requests.length = 0;
    t.clock.time += 2 * HOUR - 5 * MINUTE;
    // Due again: the order waits for a renewal instead of meeting an idle token.
    await t.place(refreshed, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'sigRenewedFirst1');
    expect(t.calls()).toEqual([
      'GET /oauth/renew_access_token',
      `POST /v1/accounts/${ACCOUNT}/orders/preview.json`,
      `POST /v1/accounts/${ACCOUNT}/orders/place.json`,
    ]);
  });

  it('renews once in the last two hours before midnight Eastern, then not again until the end', async () => {
    const session = await t.connect();
    // 22:25 EDT: the idle end (00:25) is past midnight.
    t.clock.time = (session.expiresAt ?? 0) - 95 * MINUTE;
    const renewed = await t.broker.refresh(t.ctx, session);
    expect(t.calls()).toContain('GET /oauth/renew_access_token');
    expect(renewed.expiresAt).toBe(session.expiresAt);
    // Active until midnight: not due again before it (10 minutes before, every use would renew).
    expect(renewed.refreshAt).toBe(session.expiresAt);
    expect(renewed.refreshAt).toBeGreaterThan(t.clock.time + 60 * MINUTE);
    // Its uses in the last 10 minutes renew nothing either: each of them used to renew again.
    t.fake.requests.length = 0;
    t.clock.time = (session.expiresAt ?? 0) - 8 * MINUTE;
    await t.broker.getHoldings(t.ctx, renewed, ACCOUNT);
    await t.place(renewed, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'sigLastMinutes1');
    expect(t.calls().filter((call) => call.includes('/oauth/'))).toEqual([]);
  });

  it('renews and reads again when a read finds the token idle; an order is not sent twice', async () => {
    const session = await t.connect();
    t.fake.oauth.idleAll();
    await t.broker.getHoldings(t.ctx, session, ACCOUNT);
    expect(t.calls().filter((call) => call.includes('/oauth/'))).toContain('GET /oauth/renew_access_token');
    t.fake.requests.length = 0;
    t.fake.inject({
      method: 'POST',
      path: /place\.json$/,
      status: 401,
      body: { Error: { message: 'oauth_problem=token_rejected' } },
    });
    const refused = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect([refused.kind, refused.message]).toEqual(['AuthenticationError', 'E*TRADE: oauth_problem=token_rejected']);
    expect(t.fake.placements()).toHaveLength(1);
  });

  it('words the table names on a 500 to a placement name the kind, not a decision: the outcome is unknown', async () => {
    const session = await t.connect();
    const before = t.fake.placements().length;
    t.fake.inject({
      method: 'POST',
      path: /place\.json$/,
      status: 500,
      body: { Error: { code: 9999, message: 'Insufficient resources to process the request; try again later' } },
    });
    const failed = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect([failed.kind, failed.outcomeUnknown]).toEqual(['InsufficientFunds', true]);
    expect(t.fake.placements()).toHaveLength(before + 1);
  });

  it("a refusal of this server's request, not of the user's token, is an outage: no reconnect is asked", async () => {
    const session = await t.connect();
    // The server's clock off (timestamp_refused), the operator's consumer key unknown at E*TRADE.
    const skewed = { ...t.ctx, now: () => t.clock.time + 10 * MINUTE };
    const read = await brokerFailure(t.broker.getHoldings(skewed, session, ACCOUNT));
    expect([read.kind, read.message]).toEqual(['BrokerUnavailable', 'E*TRADE: oauth_problem=timestamp_refused']);
    t.clock.time += 2 * HOUR - 5 * MINUTE;
    for (const ctx of [skewed, { ...t.ctx, clientId: 'retired-consumer-key' }]) {
      const renewal = await brokerFailure(t.broker.refresh(ctx, session));
      expect(renewal.kind).toBe('BrokerUnavailable');
    }
    // E*TRADE's rate limit is a 400 (WIRE.md §8), no refused sign-in either.
    t.fake.inject({
      path: '/oauth/renew_access_token',
      status: 400,
      body: 'Number of requests exceeded the rate limit set',
    });
    expect((await brokerFailure(t.broker.refresh(t.ctx, session))).kind).toBe('RateLimited');
    // Fixed by the operator: the same token renews.
    const renewed = await t.broker.refresh(t.ctx, session);
    expect(renewed.secrets.accessToken).toBe(session.secrets.accessToken);
  });

  it("a proxy's or a CDN's error page (or nothing) instead of E*TRADE's answer is an outage, no refused token", async () => {
    const session = await t.connect();
    t.clock.time += 2 * HOUR - 5 * MINUTE;
    const pages: Array<[number, string]> = [
      [401, '<html><body><h1>401 Authorization Required</h1></body></html>'],
      [400, '<!DOCTYPE html><html><body>Bad Request</body></html>'],
      [401, ''],
    ];
    for (const [status, body] of pages) {
      t.fake.inject({ path: '/oauth/renew_access_token', status, body, headers: { 'content-type': 'text/html' } });
      const renewal = await brokerFailure(t.broker.refresh(t.ctx, session));
      expect([renewal.kind, renewal.message]).toEqual(['BrokerUnavailable', `E*TRADE: HTTP ${status}`]);
    }
    // E*TRADE's own refusal still asks for a new sign-in.
    t.fake.inject({ path: '/oauth/renew_access_token', status: 401, body: 'oauth_problem=token_rejected' });
    expect((await brokerFailure(t.broker.refresh(t.ctx, session))).kind).toBe('AuthenticationError');
    const renewed = await t.broker.refresh(t.ctx, session);
    expect(renewed.secrets.accessToken).toBe(session.secrets.accessToken);
  });

  it('ends at midnight US Eastern: no renewal, no call, a new sign-in', async () => {
    const session = await t.connect();
    t.clock.time = (session.expiresAt ?? 0) + MINUTE;
    const expired = await brokerFailure(t.broker.refresh(t.ctx, session));
    expect(expired.message).toBe('E*TRADE: the connection ended at midnight US Eastern time; connect again');
    const read = await brokerFailure(t.broker.getHoldings(t.ctx, session, ACCOUNT));
    expect(read.kind).toBe('AuthenticationError');
  });
});
