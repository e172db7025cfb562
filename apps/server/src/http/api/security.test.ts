// Who may call what: every /api/v1 route refuses a missing, unknown or non-API credential (401),
// a token without the route's scope (403), and another user's account or order (404, leaving it
// untouched); rate limits per token answer 429 with Retry-After, and every counted answer tells
// the allowance left (RateLimit-*); no token reaches a log line.
import { Writable } from 'node:stream';
import type { ApiScope } from '@router/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiTrader, oauthAccessToken } from '../../../test/api.ts';
import { startTestApp, stoppedClock } from '../../../test/app.ts';
import { bearer, confirmedUser, gql } from '../../../test/identity.ts';
import { type OAuthServer, professionalWithApp, startOAuthServer } from '../../../test/oauth.ts';
import { paperOrders } from '../../../test/signal-fixtures.ts';
import { loggerOptions } from '../../logger.ts';
import { verifyBearer } from '../../modules/oauth/verify-bearer.ts';
import { FAILED_AUTH_PER_ADDRESS, TOO_MANY_FAILURES } from './guard.ts';

let server: OAuthServer;
let alice: Awaited<ReturnType<typeof apiTrader>>;
let bob: Awaited<ReturnType<typeof apiTrader>>;
let aliceAccount = '';
let bobAccount = '';
const scoped = new Map<ApiScope, string>();

interface Route {
  method: string;
  path: (ids: { account: string; order: string }) => string;
  scope: ApiScope;
  body?: unknown;
  /** The answer when allowed. */
  ok: number;
  /** Names an account or an order (404 for another user's). */
  lookup: boolean;
}

const ORDER = { symbol: 'MSFT', action: 'buy', quantity: 1, type: 'limit', limit_price: 1 };
const ROUTES: Route[] = [
  { method: 'GET', path: () => '/api/v1/accounts', scope: 'accounts:read', ok: 200, lookup: false },
  { method: 'GET', path: (i) => `/api/v1/accounts/${i.account}/orders`, scope: 'orders:read', ok: 200, lookup: true },
  { method: 'GET', path: (i) => `/api/v1/orders/${i.order}`, scope: 'orders:read', ok: 200, lookup: true },
  {
    method: 'GET',
    path: (i) => `/api/v1/accounts/${i.account}/positions`,
    scope: 'holdings:read',
    ok: 200,
    lookup: true,
  },
  {
    method: 'GET',
    path: (i) => `/api/v1/accounts/${i.account}/balances`,
    scope: 'holdings:read',
    ok: 200,
    lookup: true,
  },
  {
    method: 'POST',
    path: (i) => `/api/v1/accounts/${i.account}/orders`,
    scope: 'orders:write',
    body: ORDER,
    ok: 201,
    lookup: true,
  },
  { method: 'DELETE', path: (i) => `/api/v1/orders/${i.order}`, scope: 'orders:write', ok: 200, lookup: true },
];
const name = (r: Route) => `${r.method} ${r.path({ account: '{id}', order: '{orderId}' })}`;

let placedCount = 0;
/** A new resting order (its own client_id: an identical body within the dedupe window is one order). */
async function restingOrder(token: string, account: string): Promise<string> {
  placedCount += 1;
  const body = { ...ORDER, client_id: `resting-${placedCount}` };
  const placed = await api(server, token, 'POST', `/api/v1/accounts/${account}/orders`, body);
  expect(placed.status).toBe(201);
  return (placed.body as { id: string }).id;
}

beforeAll(async () => {
  server = await startOAuthServer();
  [alice, bob] = [await apiTrader(server, 'alice@example.test'), await apiTrader(server, 'bob@example.test')];
  const first = async (token: string) =>
    ((await api(server, token, 'GET', '/api/v1/accounts')).body as { data: Array<{ id: string }> }).data[0]?.id ?? '';
  [aliceAccount, bobAccount] = [await first(alice.apiToken), await first(bob.apiToken)];
  // One application per scope: each token carries exactly the one scope its user granted.
  for (const scope of ['accounts:read', 'orders:read', 'orders:write', 'holdings:read'] as const) {
    const { app } = await professionalWithApp(server, `dev-${scope.replace(':', '-')}@example.test`);
    scoped.set(scope, await oauthAccessToken(server, app, alice.token, scope));
  }
});
afterAll(() => server.close());

describe.each(ROUTES)('$method route', (route) => {
  it(`${name(route)}: 401 without a valid API credential`, async () => {
    const ids = { account: aliceAccount, order: 'any' };
    for (const token of [null, '', 'x'.repeat(43), alice.token]) {
      const answer = await api(server, token, route.method, route.path(ids), route.body);
      expect(answer.status, String(token)).toBe(401);
      expect(answer.body).toMatchObject({ status: 'AuthenticationError' });
    }
  });

  it(`${name(route)}: 403 without ${route.scope}, served with it`, async () => {
    const token = scoped.get(route.scope) ?? '';
    expect([...((await verifyBearer(server.services, token))?.scopes ?? [])]).toEqual([route.scope]);
    const order = await restingOrder(alice.apiToken, aliceAccount);
    const ids = { account: aliceAccount, order };
    for (const [scope, other] of scoped) {
      if (scope === route.scope) continue;
      const refused = await api(server, other, route.method, route.path(ids), route.body);
      expect(refused.status, scope).toBe(403);
      expect(refused.body).toEqual({ status: 'ForbiddenError', message: `This token lacks the scope ${route.scope}` });
    }
    const served = await api(server, token, route.method, route.path(ids), route.body);
    expect(served.status).toBe(route.ok);
    // The user's data: no shared proxy or browser cache may keep it.
    expect(served.headers.get('cache-control')).toBe('no-store');
  });

  it(`${name(route)}: another user's account or order is not found, and stays as it was`, async () => {
    const order = await restingOrder(alice.apiToken, aliceAccount);
    const before = await paperOrders(server, alice.brokerAccountId);
    const answer = await api(
      server,
      bob.apiToken,
      route.method,
      route.path({ account: aliceAccount, order }),
      route.body,
    );
    if (!route.lookup) {
      expect(answer.body).toEqual({ data: [expect.objectContaining({ id: bobAccount })], next: null });
      return;
    }
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({
      status: 'Error',
      message: expect.stringMatching(/^(Account|Order) not found$/),
    });
    expect(await paperOrders(server, alice.brokerAccountId)).toEqual(before);
    const still = await api(server, alice.apiToken, 'GET', `/api/v1/orders/${order}`);
    expect(still.body).toMatchObject({ id: order, status: 'accepted' });
    // Bob's own resources answer him.
    const own = await restingOrder(bob.apiToken, bobAccount);
    const mine = await api(
      server,
      bob.apiToken,
      route.method,
      route.path({ account: bobAccount, order: own }),
      route.body,
    );
    expect(mine.status).toBe(route.ok);
  });
});

describe('the Bearer challenge (RFC 6750 §3)', () => {
  it('answers 401 and 403 with WWW-Authenticate: the scheme, an invalid token, the missing scope', async () => {
    const none = await api(server, null, 'GET', '/api/v1/accounts');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    const forged = await api(server, 'x'.repeat(43), 'GET', '/api/v1/accounts');
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
    const refused = await api(server, scoped.get('orders:read') ?? '', 'GET', '/api/v1/accounts');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      'Bearer realm="api", error="insufficient_scope", scope="accounts:read"',
    );
    const served = await api(server, scoped.get('accounts:read') ?? '', 'GET', '/api/v1/accounts');
    expect(served.headers.get('www-authenticate')).toBeNull();
  });
});

describe('ids no row can hold', () => {
  it('refuses an id holding \\u0000 as bad input (400), never an internal error', async () => {
    const route = `/api/v1/accounts/${aliceAccount}/orders`;
    // An account id decoding to a connection key with \u0000 in it, an order id, a cursor.
    const nulAccount = Buffer.from(`a\u0000b\n${alice.brokerAccountId}`).toString('base64url');
    for (const [method, path] of [
      ['GET', `/api/v1/accounts/${nulAccount}/orders`],
      ['GET', `/api/v1/accounts/${nulAccount}/balances`],
      ['GET', '/api/v1/orders/a%00b'],
      ['DELETE', '/api/v1/orders/a%00b'],
      ['GET', `${route}?cursor=a%00b`],
    ] as const) {
      const answer = await api(server, alice.apiToken, method, path);
      expect({ path, status: answer.status, body: answer.body }).toEqual({
        path,
        status: 400,
        body: { status: 'ValidationError', message: expect.stringMatching(/\\u0000/) },
      });
    }
  });
});

describe("another user's broker account under the caller's own connection", () => {
  it('is not found on every account route, as a missing one, and nothing is placed', async () => {
    const mixed = Buffer.from(`${bob.connector.key}\n${alice.brokerAccountId}`).toString('base64url');
    const absent = Buffer.from(`${bob.connector.key}\nPA-MISSING`).toString('base64url');
    const before = await paperOrders(server, alice.brokerAccountId);
    for (const route of ROUTES.filter((r) => r.lookup && r.path({ account: '', order: '' }).includes('accounts'))) {
      const call = (account: string) =>
        api(server, bob.apiToken, route.method, route.path({ account, order: '' }), route.body);
      const foreign = await call(mixed);
      const missing = await call(absent);
      expect({ route: name(route), status: foreign.status, body: foreign.body }).toEqual({
        route: name(route),
        status: 404,
        body: { status: 'Error', message: 'Account not found' },
      });
      expect(foreign.body).toEqual(missing.body);
    }
    expect(await paperOrders(server, alice.brokerAccountId)).toEqual(before);
  });
});

describe('a user without the customer group bit (SPEC §6)', () => {
  it('is refused 403 on every route, with a personal token or an application token, and nothing is placed', async () => {
    const carol = await apiTrader(server, 'carol@example.test');
    const { app } = await professionalWithApp(server, 'dev-carol@example.test');
    const oauth = await oauthAccessToken(server, app, carol.token, 'orders:write');
    const account = Buffer.from(`${carol.connector.key}\n${carol.brokerAccountId}`).toString('base64url');
    // Tokens are resolved for the first time after the change (no cached resolution).
    await server.services.db.$client.query('update users set "group" = "group" & ~4 where id = $1', [carol.id]);
    for (const token of [carol.apiToken, oauth]) {
      const listed = await api(server, token, 'GET', '/api/v1/accounts');
      expect(listed.status).toBe(403);
      expect(listed.body).toEqual({ status: 'ForbiddenError', message: 'You are not allowed to do this' });
      const placed = await api(server, token, 'POST', `/api/v1/accounts/${account}/orders`, ORDER);
      expect(placed.status).toBe(403);
    }
    expect(await paperOrders(server, carol.brokerAccountId)).toEqual([]);
  });
});

describe('a revoked application', () => {
  it('gets 401 at once', async () => {
    const { app } = await professionalWithApp(server, 'dev-revoked@example.test');
    const token = await oauthAccessToken(server, app, alice.token, 'accounts:read');
    expect((await api(server, token, 'GET', '/api/v1/accounts')).status).toBe(200);
    const LIST = '{ userTokens(isUserApp: true) { key userApp { key } } }';
    const grants = await gql<{ userTokens: Array<{ key: string; userApp: { key: string } }> }>(
      server.app,
      LIST,
      {},
      bearer(alice.token),
    );
    const grant = grants.data?.userTokens.find((g) => g.userApp.key === app.key)?.key ?? '';
    await gql(server.app, 'mutation($k: String!) { userTokenDelete(key: $k) }', { k: grant }, bearer(alice.token));
    expect((await api(server, token, 'GET', '/api/v1/accounts')).status).toBe(401);
  });
});

describe('rate limits and logs', () => {
  it('answers 429 with Retry-After per token, and logs no token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await startTestApp({
      env: { API_RATE_PER_TOKEN: '1/2', LOG_LEVEL: 'trace' },
      log: pino(loggerOptions('trace'), sink),
      // One a second refills: a stopped clock keeps the allowance told exact however slow the run.
      now: stoppedClock(),
    });
    try {
      const user = await confirmedUser(t, 'limited@example.test');
      const tokens: string[] = [];
      for (const label of ['one', 'two']) {
        const created = await gql<{ userTokenCreate: { secret: string } }>(
          t.app,
          `mutation { userTokenCreate(metadata: {name: "${label}"}) { secret } }`,
          {},
          bearer(user.token),
        );
        tokens.push(created.data?.userTokenCreate.secret ?? '');
      }
      const get = (token: string) =>
        t.app.inject({ method: 'GET', url: '/api/v1/accounts', headers: { authorization: `Bearer ${token}` } });
      // Each answer tells the client its allowance (RateLimit-*), so it can pace itself before a 429.
      const allowance = (answer: { headers: Record<string, unknown> }) =>
        ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'].map((name) => answer.headers[name]);
      const first = await get(tokens[0] ?? '');
      expect(first.statusCode).toBe(200);
      expect(allowance(first)).toEqual(['2', '1', '1']);
      const second = await get(tokens[0] ?? '');
      expect(second.statusCode).toBe(200);
      expect(allowance(second)).toEqual(['2', '0', '2']);
      const limited = await get(tokens[0] ?? '');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ status: 'Error', message: 'Too many requests for this token, slow down' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(allowance(limited)).toEqual(['2', '0', '2']);
      // Another token of the same user has its own allowance.
      expect((await get(tokens[1] ?? '')).statusCode).toBe(200);
      const wrong = `${tokens[1]}x`;
      expect((await get(wrong)).statusCode).toBe(401);

      const log = lines.join('');
      expect(log).toContain('/api/v1/accounts');
      for (const secret of [...tokens, wrong, user.token]) expect(log).not.toContain(secret);
    } finally {
      await t.close();
    }
  });
});

// The failure allowance refills one a second: each server's clock is stopped, so a slow run
// earns none back between the burst and the refusal.
describe('failed authentications per address', () => {
  it('answers 429 to an address spraying invalid tokens (behind TRUST_PROXY), not to valid tokens or others', async () => {
    const t = await startTestApp({ env: { TRUST_PROXY: '1' }, now: stoppedClock() });
    try {
      const user = await confirmedUser(t, 'sprayed@example.test');
      const created = await gql<{ userTokenCreate: { secret: string } }>(
        t.app,
        'mutation { userTokenCreate(metadata: {name: "valid"}) { secret } }',
        {},
        bearer(user.token),
      );
      const valid = created.data?.userTokenCreate.secret ?? '';
      const get = (token: string, from: string) =>
        t.app.inject({
          method: 'GET',
          url: '/api/v1/accounts',
          headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': from },
        });
      const random = (i: number) => `spray-${i}-${'x'.repeat(40)}`;
      for (let i = 0; i < FAILED_AUTH_PER_ADDRESS.burst; i++) {
        expect((await get(random(i), '198.51.100.7')).statusCode).toBe(401);
        // Valid tokens from the same address spend none of the allowance.
        if (i % 10 === 0) expect((await get(valid, '198.51.100.7')).statusCode).toBe(200);
      }
      const limited = await get(random(-1), '198.51.100.7');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ status: 'Error', message: TOO_MANY_FAILURES });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // A token that authenticated lately still passes from there.
      expect((await get(valid, '198.51.100.7')).statusCode).toBe(200);
      // Another client behind the same proxy is not limited.
      expect((await get(random(-2), '198.51.100.8')).statusCode).toBe(401);
      expect((await get(valid, '198.51.100.8')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
  it("lets an application's just-issued access token past its address's failure limit, as a new personal token", async () => {
    // An application's server calls for all its users from one address: some of them revoked it
    // (their tokens now fail), and every hour it gets new access tokens for the others.
    const t = await startOAuthServer({ TRUST_PROXY: '1' }, { now: stoppedClock() });
    try {
      const user = await confirmedUser(t, 'hourly@example.test');
      const { app } = await professionalWithApp(t, 'dev-hourly@example.test');
      const from = { 'x-forwarded-for': '198.51.100.9' };
      for (let i = 0; i < FAILED_AUTH_PER_ADDRESS.burst; i++) {
        expect(
          (await api(t, `revoked-${i}-${'x'.repeat(40)}`, 'GET', '/api/v1/accounts', undefined, from)).status,
        ).toBe(401);
      }
      expect((await api(t, `revoked-${'x'.repeat(40)}`, 'GET', '/api/v1/accounts', undefined, from)).status).toBe(429);
      const fresh = await oauthAccessToken(t, app, user.token, 'accounts:read');
      const answer = await api(t, fresh, 'GET', '/api/v1/accounts', undefined, from);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ data: [], next: null });
    } finally {
      await t.close();
    }
  });

  it('counts an IPv6 /64 as one address: fresh addresses in it bring no fresh allowance', async () => {
    const t = await startTestApp({ env: { TRUST_PROXY: '1' }, now: stoppedClock() });
    try {
      const get = (i: number, from: string) =>
        t.app.inject({
          method: 'GET',
          url: '/api/v1/accounts',
          headers: { authorization: `Bearer spray6-${i}-${'x'.repeat(40)}`, 'x-forwarded-for': from },
        });
      for (let i = 0; i < FAILED_AUTH_PER_ADDRESS.burst; i++) {
        expect((await get(i, `2001:db8:7:7::${(i + 1).toString(16)}`)).statusCode).toBe(401);
      }
      const limited = await get(-1, '2001:db8:7:7:abcd::1');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({ status: 'Error', message: TOO_MANY_FAILURES });
      // Another /64 is another client.
      expect((await get(-2, '2001:db8:7:8::1')).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('rate limits per application', () => {
  it("gives an application's second access token for the same user no fresh allowance; another user has their own", async () => {
    const limited = await startOAuthServer({ API_RATE_PER_TOKEN: '0.001/2' });
    try {
      const user = await confirmedUser(limited, 'refreshing@example.test');
      const other = await confirmedUser(limited, 'other-user@example.test');
      const { app } = await professionalWithApp(limited, 'dev-refreshing@example.test');
      const first = await oauthAccessToken(limited, app, user.token, 'accounts:read');
      const second = await oauthAccessToken(limited, app, user.token, 'accounts:read');
      const theirs = await oauthAccessToken(limited, app, other.token, 'accounts:read');
      expect((await api(limited, first, 'GET', '/api/v1/accounts')).status).toBe(200);
      expect((await api(limited, first, 'GET', '/api/v1/accounts')).status).toBe(200);
      expect((await api(limited, first, 'GET', '/api/v1/accounts')).status).toBe(429);
      const again = await api(limited, second, 'GET', '/api/v1/accounts');
      expect(again.status).toBe(429);
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await api(limited, theirs, 'GET', '/api/v1/accounts')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
