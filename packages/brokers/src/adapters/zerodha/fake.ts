// Protocol fake of Kite Connect v3 on 127.0.0.1 (contract tests; ZERODHA_BASE_URL end to end).
// Checked as Kite checks: `X-Kite-Version: 3` and `Authorization: token api_key:access_token` on
// every call (403 TokenException otherwise, also once the token passed 6 AM IST on the fake's
// clock), form-encoded orders by Kite's rules (fake-book.ts). Answers in Kite's envelope
// {"status":"success","data":…} (LTP quotes: fake-quotes.ts), errors {"status":"error","message","data":null,"error_type"}.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createFakeServer, type Injection } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { createFakeAccount, type FakeHolding } from './fake-account.ts';
import { type FakeUser, kiteRefusal, registerLogin } from './fake-login.ts';
import { registerOrders } from './fake-orders.ts';
import { registerQuotes } from './fake-quotes.ts';

export interface ZerodhaFakeOptions {
  apiKey?: string;
  apiSecret?: string;
  user?: FakeUser;
  now?: () => number;
  cash?: number;
  holdings?: FakeHolding[];
}

export type ZerodhaFake = Awaited<ReturnType<typeof startZerodhaFake>>;

const PUBLIC = new Set(['GET /connect/login']);

export async function startZerodhaFake(options: ZerodhaFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const apiKey = options.apiKey ?? 'kitefakeapikey';
  const apiSecret = options.apiSecret ?? 'kitefakeapisecret';
  const user = options.user ?? { userId: 'ZR1234', userName: 'Kite Trader', email: 'trader@example.com' };
  const account = createFakeAccount({
    cash: options.cash ?? 500_000,
    holdings: options.holdings ?? [
      {
        exchange: 'NSE',
        tradingsymbol: 'INFY',
        token: 408065,
        quantity: 10,
        t1Quantity: 0,
        usedQuantity: 0,
        averagePrice: 1400,
        lastPrice: 1520,
      },
    ],
  });
  let login: ReturnType<typeof registerLogin> | undefined;
  const server = createFakeServer({
    authenticate(request: FastifyRequest, reply: FastifyReply) {
      const route = `${request.method} ${request.url.split('?')[0]}`;
      if (PUBLIC.has(route)) return true;
      if (request.headers['x-kite-version'] !== '3') {
        kiteRefusal(reply, 400, 'InputException', 'Invalid or missing `X-Kite-Version` header.');
        return false;
      }
      if (route === 'POST /session/token' || login?.isAuthorized(request.headers.authorization)) return true;
      kiteRefusal(reply, 403, 'TokenException', 'Incorrect `api_key` or `access_token`.');
      return false;
    },
  });
  const { app } = server;
  login = registerLogin(app, { apiKey, apiSecret, user, now });
  const book = registerOrders(app, { userId: user.userId, account, now });
  const ok = (data: unknown) => ({ status: 'success', data });

  app.get('/user/profile', async () =>
    ok({
      user_id: user.userId,
      user_type: 'individual',
      email: user.email,
      user_name: user.userName,
      user_shortname: user.userName.split(' ')[0],
      broker: 'ZERODHA',
      exchanges: ['BFO', 'MCX', 'NSE', 'CDS', 'BSE', 'BCD', 'MF', 'NFO'],
      products: ['CNC', 'NRML', 'MIS', 'BO', 'CO'],
      order_types: ['MARKET', 'LIMIT', 'SL', 'SL-M'],
      avatar_url: null,
      meta: { demat_consent: 'physical' },
    }),
  );
  app.get('/user/margins', async () => ok(account.margins()));
  app.get('/portfolio/positions', async () => ok(account.positions()));
  app.get('/portfolio/holdings', async () => ok(account.holdings()));
  registerQuotes(app);

  const baseUrl = (await server.listen()).replace('localhost', '127.0.0.1');
  return {
    baseUrl,
    app: { clientId: apiKey, clientSecret: apiSecret },
    user,
    requests: server.requests,
    orders: book.orders,
    trades: book.trades,
    placed: book.placed,
    issueRequestToken: login.issueRequestToken,
    registerCallback: login.registerCallback,
    endSessions: login.endSessions,
    /** Requests that could have placed an order (a resend shows up here). */
    submissions: () =>
      server.requests.filter((r) => r.method === 'POST' && /^\/orders\/[a-z]+$/.test(r.url.split('?')[0] ?? '')),
    inject: (injection: Injection) => server.inject(injection),
    clearInjections: server.clearInjections,
    close: () => app.close(),
  };
}

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startZerodhaFake();
  return {
    config: { baseUrl: fake.baseUrl, ...fake.app },
    credentials: (redirectUrl) => {
      fake.registerCallback(redirectUrl);
      return { request_token: fake.issueRequestToken() };
    },
    registerCallback: fake.registerCallback,
    signal: { symbol: 'NSE:INFY', action: 'buy', quantity: 1 },
    orderCount: () => fake.placed().length,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.inject(answer),
    close: fake.close,
  };
};
