// Contract: Kite's daily login. The login page sends the request token back to our callback
// with our state; the exchange carries Kite's checksum; the session ends at 6 AM IST (expiresAt),
// a new login ends the earlier one, and Kite's refusals read as sign-in failures.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BrokerContext } from '../../core/broker.ts';
import { resolveBrokerContext } from '../../core/context.ts';
import { wireRecord } from '../../core/protocol-fake.ts';
import { createZerodhaBroker, type ZerodhaBroker } from './adapter.ts';
import { zerodhaDescriptor } from './descriptor.ts';
import { startZerodhaFake, type ZerodhaFake } from './fake.ts';
import { sessionExpiry } from './kite-time.ts';
import { expectFailure } from './test-support.ts';

const MORNING = Date.parse('2026-06-09T04:00:00Z'); // 09:30 IST
const REDIRECT = 'https://router.example/callback/zerodha';
let clock: number;
let broker: ZerodhaBroker;
let fake: ZerodhaFake;
let ctx: BrokerContext;

// Each case signs in at 09:30 IST on a fake and adapter of its own: the expiry case moves the
// clock past 6 AM, and every login ends the user's earlier session.
beforeEach(async () => {
  clock = MORNING;
  broker = createZerodhaBroker();
  fake = await startZerodhaFake({ now: () => clock });
  ctx = {
    ...resolveBrokerContext(zerodhaDescriptor, {
      config: { baseUrl: fake.baseUrl, ...fake.app },
      publicUrl: 'https://router.example',
    }),
    now: () => clock,
  };
  fake.registerCallback(REDIRECT);
});
afterEach(() => fake.close());

/** The login page as a user's browser meets it: a redirect back to our callback. */
async function signIn(state: string) {
  const { requestUrl } = broker.authorizationUrl(ctx, state);
  const answer = await fetch(requestUrl, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}

describe('login', () => {
  it('sends the user to Kite with the api key and our state in redirect_params', () => {
    const url = new URL(
      createZerodhaBroker().authorizationUrl({ ...ctx, baseUrl: 'https://api.kite.trade' }, 'st8').requestUrl,
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://kite.zerodha.com/connect/login');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      v: '3',
      api_key: 'kitefakeapikey',
      redirect_params: 'state=st8',
    });
    expect(ctx.redirectUrl).toBe(REDIRECT);
  });

  it('gets the request token back on the callback, with the state', async () => {
    const back = await signIn('abc123');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('abc123');
    expect(back.searchParams.get('status')).toBe('success');
    expect(back.searchParams.get('request_token')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('exchanges it with the checksum; the session lasts until 6 AM IST', async () => {
    const back = await signIn('s1');
    const requestToken = back.searchParams.get('request_token') ?? '';
    const before = fake.requests.length;
    const session = await broker.connect(ctx, { credentials: { request_token: requestToken, code: requestToken } });
    const [sent] = fake.requests.slice(before).map((r) => wireRecord(r.method, r.url, r.body));
    const checksum = createHash('sha256').update(`kitefakeapikey${requestToken}kitefakeapisecret`).digest('hex');
    expect(sent).toEqual({
      method: 'POST',
      path: '/session/token',
      query: {},
      body: { api_key: 'kitefakeapikey', request_token: requestToken, checksum },
    });
    expect(fake.requests[before]?.headers['x-kite-version']).toBe('3');
    expect(session.accounts).toEqual([
      {
        id: 'ZR1234',
        name: 'Zerodha ZR1234',
        dataTitle: 'Kite Trader',
        dataType: 'individual',
        dataCurrency: 'INR',
        demo: false,
      },
    ]);
    expect(session.secrets).toEqual({ apiKey: 'kitefakeapikey', accessToken: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(session.expiresAt).toBe(Date.parse('2026-06-10T00:30:00Z'));
    expect(session.refreshAt).toBeUndefined();
    expect((await broker.getHoldings(ctx, session, 'ZR1234')).currency).toBe('INR');
  });

  it('a request token works once; a wrong secret fails the checksum: the server’s misconfiguration, no reconnect', async () => {
    const token = fake.issueRequestToken();
    await broker.connect(ctx, { credentials: { request_token: token } });
    expect(await expectFailure(broker.connect(ctx, { credentials: { request_token: token } }))).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Zerodha: Token is invalid or has expired.',
    });
    const wrong = { ...ctx, clientSecret: 'not-the-secret' };
    expect(
      await expectFailure(broker.connect(wrong, { credentials: { request_token: fake.issueRequestToken() } })),
    ).toMatchObject({
      kind: 'BrokerUnavailable',
      message:
        "Zerodha: the broker connection is misconfigured on this server's side: its app credentials were refused (Invalid `checksum`.). Please contact support.",
    });
    const wrongKey = { ...ctx, clientId: 'not-the-key' };
    expect(
      await expectFailure(broker.connect(wrongKey, { credentials: { request_token: fake.issueRequestToken() } })),
    ).toMatchObject({ kind: 'BrokerUnavailable' });
    expect(await expectFailure(broker.connect(ctx, { credentials: {} }))).toMatchObject({
      kind: 'AuthenticationError',
    });
    const unset = { baseUrl: ctx.baseUrl };
    expect(() => broker.authorizationUrl(unset, 's')).toThrow(
      'ZERODHA_CLIENT_ID (api_key) and ZERODHA_CLIENT_SECRET are not set',
    );
  });

  it('a new login ends the earlier session (Kite keeps one per user and app)', async () => {
    const first = await broker.connect(ctx, { credentials: { request_token: fake.issueRequestToken() } });
    const second = await broker.connect(ctx, { credentials: { request_token: fake.issueRequestToken() } });
    expect(await expectFailure(broker.getHoldings(ctx, first, 'ZR1234'))).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Zerodha: Incorrect `api_key` or `access_token`.',
    });
    expect((await broker.getHoldings(ctx, second, 'ZR1234')).positions.length).toBeGreaterThan(0);
  });

  it('the session stops at 6 AM IST: calls are refused until the user signs in again', async () => {
    const session = await broker.connect(ctx, { credentials: { request_token: fake.issueRequestToken() } });
    clock = (session.expiresAt ?? 0) - 1_000;
    await broker.getHoldings(ctx, session, 'ZR1234');
    clock = session.expiresAt ?? 0;
    expect(await expectFailure(broker.getHoldings(ctx, session, 'ZR1234'))).toMatchObject({
      kind: 'AuthenticationError',
    });
    const next = await broker.connect(ctx, { credentials: { request_token: fake.issueRequestToken() } });
    expect(next.expiresAt).toBe((session.expiresAt ?? 0) + 24 * 60 * 60_000);
  });
});

describe('sessionExpiry', () => {
  it.each([
    ['2026-06-09T04:00:00Z', '2026-06-10T00:30:00Z'], // 09:30 IST
    ['2026-06-09T00:29:59Z', '2026-06-09T00:30:00Z'], // 05:59:59 IST
    ['2026-06-09T00:30:00Z', '2026-06-10T00:30:00Z'], // 06:00 IST
    ['2026-06-09T20:00:00Z', '2026-06-10T00:30:00Z'], // 01:30 IST the next day
  ])('a login at %s lasts until %s', (at, until) => {
    expect(sessionExpiry(Date.parse(at))).toBe(Date.parse(until));
  });
});
