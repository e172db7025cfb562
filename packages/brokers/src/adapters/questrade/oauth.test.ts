// Contract: Questrade's sign-in. The consent page's code becomes tokens and an API host; every
// refresh returns a new refresh token and API host (both kept in the session the server stores),
// a spent refresh token is refused as a reconnect, and API hosts that could leak the token are
// not used.
import { normalizeOrderOrThrow } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerContext } from '../../core/broker.ts';
import { brokerFailure as failure } from '../../core/expect-failure.ts';
import { createQuestradeBroker } from './adapter.ts';
import { questradeDescriptor } from './descriptor.ts';
import { type QuestradeFake, startQuestradeFake } from './fake.ts';
import { apiServerOf, REFRESH_TOKEN_LIFETIME_MS } from './oauth.ts';

let clock = Date.parse('2026-11-02T15:00:00Z');
const broker = createQuestradeBroker({ now: () => clock });
let fake: QuestradeFake;
let ctx: BrokerContext;

beforeAll(async () => {
  fake = await startQuestradeFake({ now: () => clock });
  ctx = { baseUrl: fake.url, clientId: fake.clientId, redirectUrl: 'https://router.example/callback/questrade' };
});
afterAll(() => fake.close());

const form = (index: number) => Object.fromEntries(new URLSearchParams(fake.requests.at(index)?.body ?? ''));

describe('connect', () => {
  it('the authorization URL carries the app, the callback and the state', () => {
    const { requestUrl } = broker.authorizationUrl(ctx, 'state-1');
    const url = new URL(requestUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: fake.clientId,
      response_type: 'code',
      redirect_uri: ctx.redirectUrl,
      state: 'state-1',
    });
  });

  it('redeems the code, keeps the API host of the answer and lists the accounts', async () => {
    const before = fake.requests.length;
    const session = await broker.connect(ctx, { credentials: { code: fake.issueCode(ctx.redirectUrl ?? '') } });
    // One account's reads are left out: a holdings read refused in another test answers at its
    // first failure, and its other read (balances) may reach the fake during this one.
    const made = fake.requests.slice(before).filter((r) => !r.url.startsWith('/v1/accounts/'));
    expect(made.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /oauth2/token', 'GET /v1/accounts']);
    expect(Object.fromEntries(new URLSearchParams(made[0]?.body ?? ''))).toEqual({
      grant_type: 'authorization_code',
      code: expect.any(String),
      client_id: fake.clientId,
      redirect_uri: ctx.redirectUrl,
    });
    expect(session.accounts).toEqual([
      {
        id: '26598145',
        name: 'Questrade Margin 26598145',
        dataTitle: '26598145',
        dataType: 'margin',
        dataCurrency: 'CAD',
        demo: false,
      },
    ]);
    expect(session.secrets.apiServer).toBe(`${fake.url}/`);
    expect(session.refreshAt).toBe(clock + 25 * 60_000);
    expect(session.expiresAt).toBe(clock + REFRESH_TOKEN_LIFETIME_MS);
  });

  it('a used or wrong code is refused as a sign-in to do again', async () => {
    const code = fake.issueCode(ctx.redirectUrl ?? '');
    await broker.connect(ctx, { credentials: { code } });
    const error = await failure(broker.connect(ctx, { credentials: { code } }));
    expect(error).toMatchObject({
      kind: 'AuthenticationError',
      message: 'Questrade: sign-in refused (Bad Request); reconnect',
    });
  });
});

describe('refresh', () => {
  it('rotates the refresh token and the API host; the spent token is refused', async () => {
    const session = await broker.connect(ctx, { credentials: { code: fake.issueCode(ctx.redirectUrl ?? '') } });
    clock += 26 * 60_000;
    const before = fake.requests.length;
    const renewed = await broker.refresh(ctx, session);
    expect(form(before)).toEqual({ grant_type: 'refresh_token', refresh_token: session.secrets.refreshToken });
    expect(renewed.secrets.refreshToken).not.toBe(session.secrets.refreshToken);
    expect(renewed.secrets.accessToken).not.toBe(session.secrets.accessToken);
    // The answer named another API host: kept, and the token works only there.
    expect(renewed.secrets.apiServer).not.toBe(session.secrets.apiServer);
    expect(renewed.secrets.apiServer).toMatch(new RegExp(`^${fake.url}/api\\d+/$`));
    expect(renewed.refreshAt).toBe(clock + 25 * 60_000);
    expect(renewed.expiresAt).toBe(clock + REFRESH_TOKEN_LIFETIME_MS);
    // The old session's refresh token worked once.
    const spent = await failure(broker.refresh(ctx, session));
    expect(spent.kind).toBe('AuthenticationError');
    expect(spent.message).toMatch(/^Questrade: the refresh token was refused \(each works once/);
    // The renewed one works, and calls go where the last answer said.
    const holdings = await broker.getHoldings(ctx, renewed, '26598145');
    expect(holdings.currency).toBe('CAD');
    expect(fake.requests.at(-1)?.url).toMatch(/^\/api\d+\/v1\/accounts\/26598145\//);
    const stale = { ...renewed, secrets: { ...renewed.secrets, apiServer: session.secrets.apiServer ?? '' } };
    expect((await failure(broker.getHoldings(ctx, stale, '26598145'))).kind).toBe('AuthenticationError');
  });

  it('an expired access token is an authentication failure, not refreshed behind the server’s back', async () => {
    const session = await broker.connect(ctx, { credentials: { code: fake.issueCode(ctx.redirectUrl ?? '') } });
    clock += 31 * 60_000;
    const before = fake.requests.length;
    const error = await failure(broker.getHoldings(ctx, session, '26598145'));
    expect(error).toMatchObject({ kind: 'AuthenticationError', message: 'Questrade: Access token is invalid' });
    expect(fake.requests.slice(before).some((r) => r.url === '/oauth2/token')).toBe(false);
  });
});

describe("a token another instance's refresh replaced", () => {
  it('an order meeting it (401) goes on with the stored session, only when that holds another token: placed once', async () => {
    const held = await broker.connect(ctx, { credentials: { code: fake.issueCode(ctx.redirectUrl ?? '') } });
    // Renewed elsewhere (on another API host); the token held here is ended.
    fake.revokeAccessTokens();
    const stored = await broker.refresh(ctx, held);
    const accountId = held.accounts[0]?.id ?? '';
    const order = normalizeOrderOrThrow(
      { symbol: 'MSFT', action: 'buy', quantity: 1 },
      { provider: questradeDescriptor },
    );
    const [placed, tried] = [fake.placed(), fake.submissions().length];
    const answer = await broker.placeOrder({ ...ctx, storedSession: async () => stored }, held, {
      accountId,
      order,
      clientOrderId: 'sig-replaced',
    });
    expect(answer).toMatchObject({ status: 'accepted' });
    // Refused (401) at its first request (the symbol's lookup), then sent on the stored session's
    // host: placed once.
    expect(fake.submissions().length - tried).toBe(1);
    expect(fake.placed() - placed).toBe(1);
    expect(fake.submissions().at(-1)?.url).toMatch(/^\/api02\/v1\//);
    // Nothing other stored: the refusal stands, sent once.
    const again = fake.submissions().length;
    const refused = await failure(
      broker.placeOrder({ ...ctx, storedSession: async () => held }, held, {
        accountId,
        order,
        clientOrderId: 'sig-2',
      }),
    );
    expect(refused.kind).toBe('AuthenticationError');
    expect(fake.submissions().length - again).toBe(1);
    expect(fake.placed() - placed).toBe(1);
  });
});

describe('API host', () => {
  it('takes https hosts, or the sign-in origin itself when that is local', () => {
    const real = { baseUrl: 'https://login.questrade.com' };
    expect(apiServerOf(real, 'https://api05.iq.questrade.com')).toBe('https://api05.iq.questrade.com/');
    expect(() => apiServerOf(real, 'http://api05.iq.questrade.com/')).toThrow(/no usable API server/);
    expect(() => apiServerOf(real, 'https://user:pw@api05.iq.questrade.com/')).toThrow(/no usable API server/);
    expect(() => apiServerOf(real, undefined)).toThrow(/no usable API server/);
    expect(apiServerOf(ctx, `${fake.url}/`)).toBe(`${fake.url}/`);
    expect(() => apiServerOf(ctx, 'http://127.0.0.2:1/')).toThrow(/no usable API server/);
  });
});
