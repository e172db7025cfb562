// Protocol fake of Trading 212's public API v0 on 127.0.0.1, for contract tests and for
// TRADING212_BASE_URL in end-to-end runs. Authorization as Trading 212 checks it (Basic key:secret,
// or a legacy key alone); per-endpoint rate limits on the injected clock with x-ratelimit-* headers;
// market orders fill at once at the instrument's price, the others rest as NEW.

import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { type Injection, playInjection, takeInjection } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { authorizationOf } from './api.ts';
import {
  DEFAULT_INSTRUMENTS,
  type FakeInstrument,
  type FakeT212Order,
  newOrder,
  orderView,
  RATE_LIMITS,
  T212Refusal,
} from './fake-book.ts';
import { registerPortfolioRoutes } from './fake-portfolio.ts';

export interface Trading212FakeOptions {
  now?: () => number;
  /** Per-endpoint limits (default: Trading 212's own). */
  rateLimits?: typeof RATE_LIMITS;
  accounts?: Array<{ apiKey: string; apiSecret?: string; id: number; currency?: string; cash?: number }>;
  instruments?: FakeInstrument[];
}

export interface Account {
  id: number;
  currency: string;
  cash: number;
  positions: Map<string, { quantity: number; averagePrice: number }>;
  orders: Map<number, FakeT212Order>;
  calls: Map<RegExp, number[]>;
}

export type Trading212Fake = Awaited<ReturnType<typeof startTrading212Fake>>;

type Json = Record<string, unknown>;

export async function startTrading212Fake(options: Trading212FakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const instruments = options.instruments ?? DEFAULT_INSTRUMENTS;
  const app = Fastify();
  const requests: Array<{ method: string; url: string; headers: Json; body: unknown }> = [];
  const failures: Injection[] = [];
  const byAuthorization = new Map<string, Account>();
  for (const account of options.accounts ?? [{ apiKey: 'fake-key', apiSecret: 'fake-secret', id: 21_212_121 }]) {
    byAuthorization.set(authorizationOf(account.apiKey, account.apiSecret), {
      id: account.id,
      currency: account.currency ?? 'USD',
      cash: account.cash ?? 10_000,
      positions: new Map(),
      orders: new Map(),
      calls: new Map(),
    });
  }
  let nextId = 4_000_000_001;
  const priceOf = (ticker: string) => instruments.find((item) => item.ticker === ticker)?.price ?? 100;
  const accountOf = (request: FastifyRequest) =>
    byAuthorization.get(String(request.headers.authorization ?? '')) as Account;

  app.addHook('preHandler', async (request, reply) => {
    requests.push({ method: request.method, url: request.url, headers: request.headers, body: request.body });
    const path = request.url.split('?')[0] ?? '';
    const failure = takeInjection(failures, request.method, request.url);
    if (failure && (await playInjection(failure, request, reply))) return reply;
    const account = byAuthorization.get(String(request.headers.authorization ?? ''));
    if (!account) return reply.code(401).send();
    const limit = (options.rateLimits ?? RATE_LIMITS).find(
      (rule) => rule.method === request.method && rule.path.test(path),
    );
    if (!limit) return;
    const at = now();
    const recent = (account.calls.get(limit.path) ?? []).filter((time) => time > at - limit.periodMs);
    const reset = Math.ceil(((recent[0] ?? at) + limit.periodMs) / 1000);
    reply.headers({
      'x-ratelimit-limit': limit.count,
      'x-ratelimit-period': limit.periodMs / 1000,
      'x-ratelimit-reset': reset,
    });
    if (recent.length >= limit.count) return reply.code(429).send();
    account.calls.set(limit.path, [...recent, at]);
    reply.header('x-ratelimit-remaining', limit.count - recent.length - 1);
  });
  const refuse = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof T212Refusal)) throw error;
    return reply.code(error.status).send(error.body());
  };
  const fill = (account: Account, order: FakeT212Order) => {
    const price = priceOf(order.ticker);
    const held = account.positions.get(order.ticker) ?? { quantity: 0, averagePrice: price };
    if (order.quantity > 0 && order.quantity * price > account.cash) {
      throw new T212Refusal(400, 'InsufficientFreeForStocksException', 'Insufficient free funds');
    }
    if (order.quantity < 0 && -order.quantity > held.quantity + 1e-9) {
      throw new T212Refusal(400, 'SellingEquityNotOwned', 'Selling equity not owned');
    }
    const quantity = Math.round((held.quantity + order.quantity) * 1e8) / 1e8;
    if (quantity === 0) account.positions.delete(order.ticker);
    else
      account.positions.set(order.ticker, { quantity, averagePrice: order.quantity > 0 ? price : held.averagePrice });
    account.cash -= order.quantity * price;
    Object.assign(order, { status: 'FILLED', filledQuantity: order.quantity, fillPrice: price });
  };

  app.get('/api/v0/equity/metadata/instruments', async () =>
    instruments.map(({ price: _, ...item }) => ({ ...item, isin: 'XX0000000000', name: item.shortName })),
  );
  for (const kind of ['market', 'limit', 'stop', 'stop_limit'] as const) {
    app.post(`/api/v0/equity/orders/${kind}`, async (request, reply) => {
      try {
        const account = accountOf(request);
        const order = newOrder(kind, (request.body ?? {}) as Json, instruments, nextId, now());
        if (kind === 'market') fill(account, order);
        nextId += 1;
        account.orders.set(order.id, order);
        return orderView(order, instruments);
      } catch (error) {
        return refuse(reply, error);
      }
    });
  }
  // Active: not yet filled, cancelled or expired; one whose cancel is under way is listed as CANCELLING.
  const pending = (account: Account) =>
    [...account.orders.values()].filter((order) => order.status === 'NEW' || order.status === 'CANCELLING');
  app.get('/api/v0/equity/orders', async (request) =>
    pending(accountOf(request)).map((o) => orderView(o, instruments)),
  );
  app.get('/api/v0/equity/orders/:id', async (request, reply) => {
    const order = accountOf(request).orders.get(Number((request.params as Json).id));
    if (order?.status !== 'NEW') return reply.code(404).send();
    return orderView(order, instruments);
  });
  app.delete('/api/v0/equity/orders/:id', async (request, reply) => {
    const order = accountOf(request).orders.get(Number((request.params as Json).id));
    if (order?.status !== 'NEW') return reply.code(404).send();
    order.status = 'CANCELLED';
    return reply.code(200).send();
  });
  registerPortfolioRoutes(app, { accountOf, priceOf, now, instruments });

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    baseUrl: address.replace('localhost', '127.0.0.1'),
    requests,
    accounts: byAuthorization,
    /** POSTs that could have placed an order (retries show up here). */
    submissions: () => requests.filter((r) => r.method === 'POST' && r.url.startsWith('/api/v0/equity/orders/')).length,
    failNext(failure: Injection) {
      failures.push(failure);
    },
    close: () => app.close(),
  };
}

/** Without rate limits: the replay runs calls back to back (adapter.test.ts covers the limits). */
export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startTrading212Fake({ rateLimits: [] });
  return {
    config: { baseUrl: fake.baseUrl },
    credentials: () => ({ apiKey: 'fake-key', apiSecret: 'fake-secret' }),
    signal: { symbol: 'AAPL', action: 'buy', quantity: 1 },
    orderCount: () => [...fake.accounts.values()].reduce((sum, account) => sum + account.orders.size, 0),
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.failNext(answer),
    close: fake.close,
  };
};
