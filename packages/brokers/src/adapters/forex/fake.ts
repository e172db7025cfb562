// Protocol fake of FOREX.com's CIAPI on 127.0.0.1 (broker-specs/forex/WIRE.md): logon sessions
// checked on every call (`UserName` and `Session` headers or query), expiring on the injected
// clock (401 ErrorCode 4011); each request checked against City Index's SMD route and DTO schema
// (ciapi-schema.ts: 400 with ErrorCode 4000-4004); markets searched by name; trades and stop/limit
// orders answered in HTTP 200 with their status and status reason (fake-trading.ts).
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createFakeServer } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { checkDto, checkQuery, matchRoute } from './ciapi-schema.ts';
import { FAKE_MARKETS, type FakeLogin } from './fake-market.ts';
import { registerFakeRoutes } from './fake-routes.ts';
import { createFakeTrading } from './fake-trading.ts';

export interface ForexFakeOptions {
  login?: Partial<FakeLogin>;
  cash?: number;
  now?: () => number;
  /** How long a session lasts (default a day). */
  sessionLifetimeMs?: number;
}

type Json = Record<string, unknown>;
const error = (reply: FastifyReply, status: number, code: number, message: string) =>
  reply.code(status).send({ HttpStatus: status, ErrorMessage: message, ErrorCode: code });

export async function startForexFake(options: ForexFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const lifetime = options.sessionLifetimeMs ?? 24 * 60 * 60_000;
  const login: FakeLogin = {
    UserName: 'DM123456',
    Password: 'fake-password',
    AppKey: 'myAppKey',
    ClientAccountId: 400123456,
    TradingAccountId: 400234567,
    currency: 'USD',
    ...options.login,
  };
  const sessions = new Map<string, { userName: string; expiresAt: number }>();
  const trading = createFakeTrading({
    cash: options.cash ?? 50_000,
    tradingAccountId: login.TradingAccountId,
    currency: login.currency,
    now,
  });

  const server = createFakeServer({
    authenticate(request, reply) {
      if (request.method === 'POST' && request.url.split('?')[0]?.replace(/\/$/, '') === '/session') return true;
      const query = new URLSearchParams(request.url.split('?')[1] ?? '');
      const header = (name: string) => {
        const value = request.headers[name.toLowerCase()];
        return typeof value === 'string' ? value : undefined;
      };
      const userName = header('UserName') ?? query.get('UserName');
      const token = header('Session') ?? query.get('Session') ?? query.get('session');
      const session = token ? sessions.get(token) : undefined;
      if (!session || session.userName !== userName || session.expiresAt <= now()) {
        error(reply, 401, 4011, 'Session is not valid');
        return false;
      }
      return true;
    },
  });
  const { app } = server;

  // City Index's own description of each route and body, before any handler.
  app.addHook('preHandler', async (request: FastifyRequest, reply) => {
    const [path = '', search = ''] = request.url.split('?');
    const route = matchRoute(request.method, path);
    if (!route) return;
    const problem =
      checkQuery(route, new URLSearchParams(search)) ??
      (route.body ? checkDto(route.body, request.body ?? null) : undefined);
    if (problem) return error(reply, 400, problem.code, problem.message);
  });

  app.post('/session', async (request, reply) => {
    const body = (request.body ?? {}) as Json;
    if (body.UserName !== login.UserName || body.Password !== login.Password)
      return error(reply, 401, 4010, 'Invalid Username or Password');
    if (body.AppKey !== login.AppKey) return error(reply, 401, 4010, 'Invalid AppKey');
    const token = randomUUID().toUpperCase();
    sessions.set(token, { userName: login.UserName, expiresAt: now() + lifetime });
    return { Session: token, PasswordChangeRequired: false, AllowedAccountOperator: true };
  });

  registerFakeRoutes(app, { login, trading });
  const url = await server.listen();
  return {
    url,
    credentials: { userName: login.UserName, password: login.Password, appKey: login.AppKey },
    login,
    trading,
    sessions,
    markets: FAKE_MARKETS,
    requests: server.requests,
    inject: server.inject,
    clearInjections: server.clearInjections,
    /** Every session ends now (FOREX.com's undocumented expiry). */
    expireSessions: () => sessions.clear(),
    /** Orders and trades the fake holds. */
    orderCount: () => trading.trades.length + trading.working.length + trading.stopLimitHistory.length,
    close: () => app.close(),
  };
}

export type ForexFake = Awaited<ReturnType<typeof startForexFake>>;

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startForexFake();
  return {
    config: { baseUrl: fake.url },
    credentials: () => fake.credentials,
    signal: { symbol: 'EUR/USD', action: 'buy', quantity: 10000 },
    orderCount: fake.orderCount,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.inject(answer),
    close: fake.close,
  };
};
