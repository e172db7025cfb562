// Protocol fake of Webull's OpenAPI (US) on 127.0.0.1, for contract tests and WEBULL_BASE_URL end
// to end. Every request is signed and checked as Webull checks it (fake-auth.ts; a loopback host
// signs with HMAC-SHA256, as the SDK does for any host it has not listed), `x-version: v2` is
// required, orders follow Webull's rules (fake-rules.ts) and its answer shapes (fake-orders.ts).
import { createFakeServer, type Injection } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { registerAuth, webullRefusal } from './fake-auth.ts';
import { type FakeAccount, registerOrders } from './fake-orders.ts';
import { isOrderQuery, ORDER_QUERY_LIMIT, ORDER_QUERY_WINDOW_MS } from './query-pacing.ts';

export interface WebullFakeOptions {
  appKey?: string;
  appSecret?: string;
  now?: () => number;
  /** 2FA on: the user approves the token in the app after this many checks. */
  twoFactor?: { approveAfterChecks: number };
  cash?: number;
  /** Positions of the margin account: symbol → quantity (bought at the quote). */
  positions?: Record<string, number>;
  /** Order queries' window, Webull's 2 s (tests shorten it). */
  orderQueryWindowMs?: number;
}

export type WebullFake = Awaited<ReturnType<typeof startWebullFake>>;

const USER = '1234567890';

function account(id: string, number: string, type: string, label: string, trades: string[], cash: number): FakeAccount {
  const base = { account_id: id, account_number: number, account_type: type, account_class: 'INDIVIDUAL' };
  return { ...base, account_label: label, user_id: USER, trades, cash, positions: new Map() };
}

export async function startWebullFake(options: WebullFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const keys = {
    appKey: options.appKey ?? 'fakewebullappkey',
    appSecret: options.appSecret ?? 'fake-webull-app-secret',
  };
  const cash = options.cash ?? 100_000;
  const margin = account('DEMOACCT0001', '5MV12345', 'MARGIN', 'Individual Margin', ['EQUITY', 'OPTION'], cash);
  for (const [symbol, quantity] of Object.entries(options.positions ?? {}))
    margin.positions.set(symbol, { quantity, cost: 100, instrumentType: 'EQUITY' });
  const accounts = new Map<string, FakeAccount>(
    [
      margin,
      account('DEMOFUT00001', '5MF12345', 'MARGIN', 'Futures', ['FUTURES'], cash),
      account('DEMOCRY00001', '5MC12345', 'CASH', 'Crypto', ['CRYPTO'], cash),
    ].map((item) => [item.account_id, item]),
  );
  let auth: ReturnType<typeof registerAuth> | undefined;
  const server = createFakeServer({
    authenticate(request, reply, body) {
      if (request.headers['x-version'] !== 'v2') {
        webullRefusal(reply, 400, 'INVALID_VERSION', 'x-version must be v2');
        return false;
      }
      return auth?.authenticate(request, reply, body) ?? false;
    },
  });
  const { app } = server;
  // Order queries beyond 2 per 2 s of an app key are refused 429 (WIRE.md §9); the error_code is
  // ours (Webull publishes none). Counted on the monotonic clock, as the adapter paces them.
  const windowMs = options.orderQueryWindowMs ?? ORDER_QUERY_WINDOW_MS;
  const queried = new Map<string, number[]>();
  app.addHook('onRequest', async (request, reply) => {
    if (!isOrderQuery(request.method, request.url.split('?')[0] ?? '')) return;
    const key = String(request.headers['x-app-key'] ?? '');
    const at = performance.now();
    const recent = (queried.get(key) ?? []).filter((sent) => sent > at - windowMs);
    queried.set(key, recent);
    if (recent.length >= ORDER_QUERY_LIMIT)
      return webullRefusal(reply, 429, 'TOO_MANY_REQUESTS', 'Too many requests, please try again later');
    recent.push(at);
  });
  // Webull's clock, as every HTTP server tells it (the adapter compares it with its x-timestamp).
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('date', new Date(now()).toUTCString());
    return payload;
  });
  auth = registerAuth(app, { ...keys, now, ...(options.twoFactor ? { twoFactor: options.twoFactor } : {}) });
  const { orders } = registerOrders(app, accounts, now);

  const baseUrl = (await server.listen()).replace('localhost', '127.0.0.1');
  return {
    baseUrl,
    keys,
    accounts,
    orders,
    requests: server.requests,
    revokeTokens: auth.revokeTokens,
    /** POSTs that could have placed an order (a resend shows up here). */
    submissions: () => server.requests.filter((r) => r.method === 'POST' && r.url === '/openapi/trade/order/place'),
    inject: (injection: Injection) => server.inject(injection),
    clearInjections: server.clearInjections,
    close: () => app.close(),
  };
}

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startWebullFake();
  return {
    config: { baseUrl: fake.baseUrl },
    credentials: () => fake.keys,
    signal: { symbol: 'AAPL', action: 'buy', quantity: 1 },
    orderCount: () => fake.orders.length,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.inject(answer),
    close: fake.close,
  };
};
