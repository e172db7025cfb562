import { expect, it } from 'vitest';
import type { BrokerSession } from './broker.ts';
import { BrokerError } from './errors.ts';
import { type AccessTokens, createTokenKeeper, requestTokens } from './oauth-tokens.ts';

const ctx = { baseUrl: '' };

function keeper() {
  let now = 1_000_000;
  const renewals: string[] = [];
  const tokens = createTokenKeeper<AccessTokens>({
    now: () => now,
    read: (session) => ({
      accessToken: session.secrets.accessToken ?? '',
      refreshToken: session.secrets.refreshToken ?? '',
      accessExpiresAt: Number(session.secrets.accessExpiresAt),
    }),
    renew: async (_ctx, current) => {
      renewals.push(current.refreshToken);
      return { ...current, accessToken: `fresh-${renewals.length}`, accessExpiresAt: now + 900_000 };
    },
    marginMs: 60_000,
  });
  const session: BrokerSession = {
    secrets: { accessToken: 'stored', refreshToken: 'rt', accessExpiresAt: String(now + 900_000) },
    accounts: [],
  };
  return { tokens, session, renewals, advance: (ms: number) => (now += ms) };
}

it('sends with the stored token until it is due, then renews once for concurrent calls and keeps it', async () => {
  const { tokens, session, renewals, advance } = keeper();
  const used: string[] = [];
  const send = async (fresh: AccessTokens) => used.push(fresh.accessToken);
  await tokens.authorized(ctx, session, 'order', send);
  advance(841_000);
  await Promise.all([tokens.authorized(ctx, session, 'read', send), tokens.authorized(ctx, session, 'order', send)]);
  await tokens.authorized(ctx, session, 'read', send);
  expect(used).toEqual(['stored', 'fresh-1', 'fresh-1', 'fresh-1']);
  expect(renewals).toEqual(['rt']);
});

it('retries a read once after a refusal of its token, never an order', async () => {
  const { tokens, session, renewals } = keeper();
  const refused = new BrokerError('AuthenticationError', 'Acme', 'token revoked');
  const used: string[] = [];
  const flaky = async (fresh: AccessTokens) => {
    used.push(fresh.accessToken);
    if (fresh.accessToken === 'stored') throw refused;
    return fresh.accessToken;
  };
  expect(await tokens.authorized(ctx, session, 'read', flaky)).toBe('fresh-1');
  const other = { ...session, secrets: { ...session.secrets, refreshToken: 'rt-2' } };
  await expect(tokens.authorized(ctx, other, 'order', flaky)).rejects.toBe(refused);
  expect(used).toEqual(['stored', 'fresh-1', 'stored']);
  expect(renewals).toEqual(['rt']);
});

it('sends an order refused for its token once more only when the stored session holds another token', async () => {
  const { tokens, session, renewals } = keeper();
  const refused = new BrokerError('AuthenticationError', 'Acme', 'access token refused');
  const used: string[] = [];
  const placing = async (fresh: AccessTokens) => {
    used.push(fresh.accessToken);
    if (fresh.accessToken === 'stored') throw refused;
    return fresh.accessToken;
  };
  // Another instance refreshed the connection: the stored session holds its token.
  const replaced = { ...session, secrets: { ...session.secrets, accessToken: 'replaced', refreshToken: 'rt-2' } };
  const reading = { ...ctx, storedSession: async () => replaced };
  expect(await tokens.authorized(reading, session, 'order', placing)).toBe('replaced');
  // Nothing newer stored, or the store unreadable: the refusal stands, the order is not sent again.
  await expect(
    tokens.authorized({ ...ctx, storedSession: async () => session }, session, 'order', placing),
  ).rejects.toBe(refused);
  const unreadable = { ...ctx, storedSession: () => Promise.reject(new Error('database unavailable')) };
  await expect(tokens.authorized(unreadable, session, 'order', placing)).rejects.toBe(refused);
  // A refusal that may have left an order behind is never sent again.
  const behind = new BrokerError('AuthenticationError', 'Acme', 'Access is denied', { brokerOrderId: '42' });
  const left = async (fresh: AccessTokens) => {
    used.push(fresh.accessToken);
    throw behind;
  };
  await expect(tokens.authorized(reading, session, 'order', left)).rejects.toBe(behind);
  expect(used).toEqual(['stored', 'replaced', 'stored', 'stored', 'stored']);
  expect(renewals).toEqual([]);
});

it('an order due for a renewal the broker cannot make now goes with the token still valid; never once expired', async () => {
  let now = 1_000_000;
  let failure = new BrokerError('BrokerUnavailable', 'Acme', 'no answer within 10000 ms');
  const tokens = createTokenKeeper<AccessTokens>({
    now: () => now,
    read: (session) => ({
      accessToken: session.secrets.accessToken ?? '',
      refreshToken: session.secrets.refreshToken ?? '',
      accessExpiresAt: Number(session.secrets.accessExpiresAt),
    }),
    renew: async () => {
      throw failure;
    },
    marginMs: 60_000,
  });
  const session: BrokerSession = {
    secrets: { accessToken: 'stored', refreshToken: 'rt', accessExpiresAt: String(now + 900_000) },
    accounts: [],
  };
  const sent: string[] = [];
  const send = async (fresh: AccessTokens) => {
    sent.push(fresh.accessToken);
    return fresh.accessToken;
  };
  // Due (30 s before expiry), the token service down: the order goes once, with the valid token.
  now += 870_000;
  expect(await tokens.authorized(ctx, session, 'order', send)).toBe('stored');
  failure = new BrokerError('RateLimited', 'Acme', 'rate limit reached');
  expect(await tokens.authorized(ctx, session, 'order', send)).toBe('stored');
  // A refused renewal stands, and so does the outage once the token has expired: nothing is sent.
  failure = new BrokerError('AuthenticationError', 'Acme', 'sign-in refused (invalid_grant); reconnect');
  await expect(tokens.authorized(ctx, session, 'order', send)).rejects.toBe(failure);
  failure = new BrokerError('BrokerUnavailable', 'Acme', 'HTTP 503');
  now += 30_000;
  await expect(tokens.authorized(ctx, session, 'order', send)).rejects.toBe(failure);
  expect(sent).toEqual(['stored', 'stored']);
});

it('asks with a GET query where the broker takes one, reads camel-case fields and a refusal in a 200 body', async () => {
  const asked: Array<{ method: string; url: string }> = [];
  const answers = [
    { accessToken: 'at', tokenType: 'bearer', expiresIn: 2_628_000, refreshToken: 'rt' },
    { errorCode: 'ACCESS_DENIED', description: 'Authorization code is invalid' },
  ];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    asked.push({ method: init?.method ?? 'GET', url: String(input) });
    return new Response(JSON.stringify(answers.shift()), { headers: { 'content-type': 'application/json' } });
  };
  const request = {
    brokerTitle: 'Acme',
    ctx: { baseUrl: 'https://auth.example' },
    path: '/apps/token',
    query: { grant_type: 'authorization_code', code: 'c' },
    defaultLifetimeMs: 1,
    fetch,
  };
  expect(await requestTokens(request)).toMatchObject({
    accessToken: 'at',
    refreshToken: 'rt',
    expiresInMs: 2_628_000_000,
  });
  expect(asked).toEqual([
    { method: 'GET', url: 'https://auth.example/apps/token?grant_type=authorization_code&code=c' },
  ]);
  await expect(requestTokens(request)).rejects.toMatchObject({
    kind: 'AuthenticationError',
    message: 'Acme: sign-in refused (Authorization code is invalid); reconnect',
  });
});

/** A refresh of the token endpoint answered, one call after another, by `answers` (then a bare 500). */
function refreshAnswered(answers: Array<[number, string, string]>) {
  const fetch: typeof globalThis.fetch = async () => {
    const [status, body, type] = answers.shift() ?? [500, '', 'text/plain'];
    return new Response(body, { status, headers: { 'content-type': type } });
  };
  return {
    brokerTitle: 'Acme',
    ctx: { baseUrl: 'https://auth.example' },
    path: '/token',
    form: { grant_type: 'refresh_token', refresh_token: 'rt' },
    defaultLifetimeMs: 1,
    fetch,
  };
}

it('reads only a 400, 401 or 403 of the token endpoint as a refusal; a 404 or 408 of a gateway is an outage', async () => {
  const answers: Array<[number, string]> = [
    [408, '{"message":"Request Timeout"}'],
    [404, '{"message":"Not Found"}'],
    [400, '{"error":"invalid_grant"}'],
  ];
  const request = refreshAnswered(answers.map(([status, body]) => [status, body, 'application/json']));
  await expect(requestTokens(request)).rejects.toMatchObject({ kind: 'BrokerUnavailable' });
  await expect(requestTokens(request)).rejects.toMatchObject({ kind: 'BrokerUnavailable' });
  await expect(requestTokens(request)).rejects.toMatchObject({
    kind: 'AuthenticationError',
    message: 'Acme: sign-in refused (invalid_grant); reconnect',
  });
});

it("reads an outage page (200 with text, a firewall's 403 with HTML) as an outage, a 403 with the broker's error body as a refusal", async () => {
  const answers: Array<[number, string, string]> = [
    [200, 'Service temporarily unavailable, back soon', 'text/plain'],
    [200, '<html><body>Maintenance</body></html>', 'text/html'],
    [403, '<html><body>Request blocked</body></html>', 'text/html'],
    [403, 'Forbidden', 'text/plain'],
    [403, '', 'text/plain'],
    // Kite's token endpoint refuses a request token with 403 TokenException (zerodha/WIRE.md §8).
    [
      403,
      '{"status":"error","message":"Token is invalid or has expired.","data":null,"error_type":"TokenException"}',
      'application/json',
    ],
  ];
  const request = refreshAnswered(answers);
  for (let i = 0; i < 5; i++) await expect(requestTokens(request)).rejects.toMatchObject({ kind: 'BrokerUnavailable' });
  await expect(requestTokens(request)).rejects.toMatchObject({
    kind: 'AuthenticationError',
    message: 'Acme: Token is invalid or has expired.',
  });
});

it("reads a 400 or 401 that is a proxy's or a CDN's page (or empty) as an outage; the broker's words as a refusal", async () => {
  const answers: Array<[number, string, string]> = [
    [401, '<html><body><h1>401 Authorization Required</h1></body></html>', 'text/html'],
    [400, '<!DOCTYPE html><html><body>Bad Request</body></html>', 'text/html'],
    [401, '', 'text/html'],
    [400, '{"error":"invalid_grant","error_description":"Refresh token expired"}', 'application/json'],
    // Questrade refuses a spent refresh token with a bare "Bad Request" (questrade/fake-oauth.ts).
    [400, 'Bad Request', 'text/plain'],
  ];
  const request = refreshAnswered(answers);
  await expect(requestTokens(request)).rejects.toMatchObject({ kind: 'BrokerUnavailable', message: 'Acme: HTTP 401' });
  await expect(requestTokens(request)).rejects.toMatchObject({ kind: 'BrokerUnavailable', message: 'Acme: HTTP 400' });
  await expect(requestTokens(request)).rejects.toMatchObject({ kind: 'BrokerUnavailable', message: 'Acme: HTTP 401' });
  await expect(requestTokens(request)).rejects.toMatchObject({
    kind: 'AuthenticationError',
    message: 'Acme: sign-in refused (Refresh token expired); reconnect',
  });
  await expect(requestTokens(request)).rejects.toMatchObject({
    kind: 'AuthenticationError',
    message: 'Acme: sign-in refused (Bad Request); reconnect',
  });
});

it("reads invalid_client (this server's app refused) as its misconfiguration, on a connect as on a refresh", async () => {
  const fetch: typeof globalThis.fetch = async () =>
    new Response('{"error":"invalid_client","error_description":"Client authentication failed"}', {
      status: 401,
      headers: { 'content-type': 'application/json' },
    });
  const base = {
    brokerTitle: 'Acme',
    ctx: { baseUrl: 'https://auth.example' },
    path: '/token',
    defaultLifetimeMs: 1,
    fetch,
  };
  const forms: Array<Record<string, string>> = [
    { grant_type: 'authorization_code', code: 'c', redirect_uri: 'https://router.example/callback/acme' },
    { grant_type: 'refresh_token', refresh_token: 'rt' },
  ];
  for (const form of forms) {
    await expect(requestTokens({ ...base, form })).rejects.toMatchObject({
      kind: 'BrokerUnavailable',
      message:
        "Acme: the broker connection is misconfigured on this server's side: its app credentials were refused (invalid_client). Please contact support.",
    });
  }
});

it('reads unauthorized_client and unsupported_grant_type (RFC 6749 §5.2: the app refused) as an outage, no refused grant', async () => {
  const answers = ['unauthorized_client', 'unsupported_grant_type'];
  const fetch: typeof globalThis.fetch = async () =>
    new Response(JSON.stringify({ error: answers.shift() ?? 'invalid_grant' }), {
      status: 400,
      headers: { 'content-type': 'application/json' },
    });
  const request = {
    brokerTitle: 'Acme',
    ctx: { baseUrl: 'https://auth.example' },
    path: '/token',
    form: { grant_type: 'refresh_token', refresh_token: 'rt' },
    defaultLifetimeMs: 1,
    fetch,
  };
  for (const error of ['unauthorized_client', 'unsupported_grant_type']) {
    await expect(requestTokens(request)).rejects.toMatchObject({
      kind: 'BrokerUnavailable',
      message: `Acme: the broker connection is misconfigured on this server's side: its app was refused (${error}). Please contact support.`,
    });
  }
  await expect(requestTokens(request)).rejects.toMatchObject({ kind: 'AuthenticationError' });
});
