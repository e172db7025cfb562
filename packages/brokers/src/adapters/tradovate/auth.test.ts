// Contract: signing in the way Tradovate does (credentials grant, HTTP 200 refusals, penalty
// tickets on sign-in), accounts, and renewal before the token runs out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerContext } from '../../core/broker.ts';
import { brokerFailure as failure } from '../../core/expect-failure.ts';
import { createTradovateBroker } from './adapter.ts';
import { FAKE_CREDENTIALS, FAKE_USER, startTradovateFake, type TradovateFake } from './fake.ts';

const broker = createTradovateBroker();
let fake: TradovateFake;
let ctx: BrokerContext;

beforeAll(async () => {
  fake = await startTradovateFake();
  ctx = { baseUrl: fake.baseUrl };
});
afterAll(() => fake.close());

const bodyOf = (index: number) => JSON.parse(fake.requests.at(index)?.body ?? '{}') as Record<string, unknown>;

describe('connect', () => {
  it('signs in with the credentials grant and lists the accounts', async () => {
    const before = fake.requests.length;
    const session = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
    const sent = fake.requests.slice(before);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /v1/auth/accesstokenrequest',
      'GET /v1/account/list',
    ]);
    const grant = JSON.parse(sent[0]?.body ?? '{}') as Record<string, unknown>;
    expect(grant).toEqual({
      name: 'trader1',
      password: 'correct horse',
      appId: 'signal-router',
      appVersion: '1.0',
      deviceId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      cid: 1234,
      sec: FAKE_USER.sec,
    });
    expect(sent[1]?.headers.authorization).toMatch(/^Bearer /);
    expect(session.accounts).toEqual([
      {
        id: '987654',
        name: 'Tradovate live DEMO123456',
        dataTitle: 'DEMO123456',
        dataType: 'speculator',
        dataCurrency: 'USD',
        demo: false,
      },
    ]);
    // Renewal 15 minutes before the token's expirationTime; the connection lasts as the password.
    const tokenExpiresAt = Number(session.secrets.tokenExpiresAt);
    expect(session.refreshAt).toBe(tokenExpiresAt - 15 * 60_000);
    expect(session.expiresAt).toBe(Date.parse(FAKE_USER.passwordExpiration));
    // The same device every time the same user connects.
    const again = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
    expect(again.secrets.deviceId).toBe(session.secrets.deviceId);
  });

  it('reads the HTTP 200 refusal as wrong credentials', async () => {
    const error = await failure(broker.connect(ctx, { credentials: { ...FAKE_CREDENTIALS, password: 'wrong' } }));
    expect(error).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Tradovate: Incorrect username or password. Please try again.',
    });
  });

  it('refuses incomplete credentials and a cid that is no number before calling', async () => {
    const before = fake.requests.length;
    expect(await failure(broker.connect(ctx, { credentials: { ...FAKE_CREDENTIALS, cid: 'abc' } }))).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Tradovate: the API key cid is a number',
    });
    expect((await failure(broker.connect(ctx, { credentials: { username: 'x' } }))).kind).toBe('AuthenticationError');
    expect(fake.requests.length).toBe(before);
  });

  it('waits out a penalty ticket on sign-in and sends the same body with the ticket', async () => {
    fake.auth.penalize('/v1/auth/accesstokenrequest', 1);
    const before = fake.requests.length;
    const session = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
    expect(session.accounts).toHaveLength(1);
    const grants = fake.requests.slice(before).filter((r) => r.url === '/v1/auth/accesstokenrequest');
    expect(grants).toHaveLength(2);
    const [first, second] = grants.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(second).toEqual({ ...first, 'p-ticket': expect.any(String) });
  });

  it('reports a penalty ticket that wants a captcha', async () => {
    fake.auth.penalize('/v1/auth/accesstokenrequest', 30, true);
    const error = await failure(broker.connect(ctx, { credentials: FAKE_CREDENTIALS }));
    expect(error.kind).toBe('RateLimited');
    expect(error.message).toMatch(/^Tradovate: too many requests: Tradovate wants a captcha solved/);
  });

  it('finds live and demo accounts on their own origins with one sign-in', async () => {
    const live = await startTradovateFake({ accounts: [{ id: 111, name: 'LIVE111', userId: FAKE_USER.userId }] });
    const demo = await startTradovateFake({
      accounts: [{ id: 222, name: 'DEMO222', userId: FAKE_USER.userId }],
      auth: live.auth,
    });
    try {
      const both = createTradovateBroker({ environments: { live: live.baseUrl, demo: demo.baseUrl } });
      const session = await both.connect({ baseUrl: live.baseUrl }, { credentials: FAKE_CREDENTIALS });
      expect(session.accounts.map((a) => [a.id, a.demo])).toEqual([
        ['111', false],
        ['222', true],
      ]);
      // The demo origin takes the token issued on live.
      expect(demo.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/account/list']);
    } finally {
      await Promise.all([live.close(), demo.close()]);
    }
  });
});

describe('refresh', () => {
  it('renews the token in its session, without a new sign-in', async () => {
    const session = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
    const before = fake.requests.length;
    const renewed = await broker.refresh(ctx, session);
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/auth/renewaccesstoken']);
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${session.secrets.accessToken}`);
    expect(renewed.secrets.accessToken).not.toBe(session.secrets.accessToken);
    expect(renewed.accounts).toEqual(session.accounts);
    expect(renewed.refreshAt).toBe(Number(renewed.secrets.tokenExpiresAt) - 15 * 60_000);
  });

  it('signs in again when the token has run out', async () => {
    const session = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
    fake.auth.expireTokens();
    const before = fake.requests.length;
    const renewed = await broker.refresh(ctx, session);
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/auth/renewaccesstoken',
      'POST /v1/auth/accesstokenrequest',
    ]);
    expect(bodyOf(-1)).toMatchObject({ name: 'trader1', deviceId: session.secrets.deviceId });
    expect(renewed.secrets.accessToken).not.toBe(session.secrets.accessToken);
  });

  it("a proxy's or a CDN's 401 page (or an empty 401) at the renewal and sign-in is an outage, no refused sign-in", async () => {
    const session = await broker.connect(ctx, { credentials: FAKE_CREDENTIALS });
    for (const body of ['<html><body><h1>401 Authorization Required</h1></body></html>', '']) {
      for (const path of ['/v1/auth/renewaccesstoken', '/v1/auth/accesstokenrequest'])
        fake.inject({ path, status: 401, body, headers: { 'content-type': 'text/html' } });
      try {
        expect(await failure(broker.refresh(ctx, session))).toMatchObject({
          kind: 'BrokerUnavailable',
          message: 'Tradovate: HTTP 401',
        });
      } finally {
        fake.clearInjections();
      }
    }
    expect((await broker.refresh(ctx, session)).secrets.accessToken).not.toBe(session.secrets.accessToken);
  });

  it("a sign-in meeting a proxy's page or a 502 is an outage that sent no order: its outcome is known", async () => {
    for (const status of [401, 502]) {
      const page = { status, body: `<html>${status}</html>`, headers: { 'content-type': 'text/html' } };
      fake.inject({ path: '/v1/auth/accesstokenrequest', ...page });
      expect(await failure(broker.connect(ctx, { credentials: FAKE_CREDENTIALS }))).toMatchObject({
        kind: 'BrokerUnavailable',
        outcomeUnknown: false,
      });
    }
  });

  it('a session missing its token asks to reconnect', async () => {
    const error = await failure(broker.refresh(ctx, { secrets: {}, accounts: [] }));
    expect(error).toMatchObject({ kind: 'AuthenticationError', message: 'Tradovate: not signed in; reconnect' });
  });
});
