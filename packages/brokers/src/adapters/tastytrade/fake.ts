// Protocol fake of tastytrade's Open API on 127.0.0.1, for contract tests and TASTYTRADE_BASE_URL
// in end-to-end runs. Checked as tastytrade checks: a `User-Agent: product/version` on every call
// (401 without), Bearer access tokens living 15 minutes on the injected clock, bodies against the
// order schema (fake-schema.ts) and tastytrade's preflight checks (fake-book.ts). Answers wrapped
// as {"data": …, "context": "/path"}; errors as {"error":{"code","message","errors"?}}.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createFakeServer, type Injection } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { type FakeAccount, type FakePosition, multiplierOf, quoteOf } from './fake-book.ts';
import type { FakeOrder } from './fake-ledger.ts';
import { registerOAuth } from './fake-oauth.ts';
import { registerOrderRoutes } from './fake-orders.ts';

export interface TastytradeFakeOptions {
  clientId?: string;
  clientSecret?: string;
  now?: () => number;
  accounts?: Array<{ number: string; nickname?: string; cash?: number; positions?: Record<string, FakePosition> }>;
  /** Prices by tastytrade symbol (defaults per instrument type: stock 100, option 2.5, …). */
  quotes?: Record<string, number>;
}

export type TastytradeFake = Awaited<ReturnType<typeof startTastytradeFake>>;

const USER_AGENT = /^[^\s/]+\/\S+/;
const unauthorized = (reply: FastifyReply, message: string) =>
  reply.code(401).send({ error: { code: 'unauthorized', message } });

export async function startTastytradeFake(options: TastytradeFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const quotes = options.quotes ?? {};
  const accounts = new Map<string, FakeAccount>(
    (options.accounts ?? [{ number: '5WT00001' }]).map((account) => [
      account.number,
      {
        number: account.number,
        nickname: account.nickname ?? 'Individual',
        marginOrCash: 'Margin',
        cash: account.cash ?? 100_000,
        positions: new Map(Object.entries(account.positions ?? {})),
      },
    ]),
  );
  const orders: FakeOrder[] = [];
  let oauth: ReturnType<typeof registerOAuth> | undefined;
  const server = createFakeServer({
    authenticate(request: FastifyRequest, reply: FastifyReply) {
      const path = request.url.split('?')[0];
      if (path === '/auth.html') return true;
      if (!USER_AGENT.test(String(request.headers['user-agent'] ?? ''))) {
        unauthorized(reply, 'A User-Agent header (product/version) is required');
        return false;
      }
      if (path === '/oauth/token') return true;
      const problem = oauth?.checkBearer(request.headers.authorization);
      if (problem) unauthorized(reply, problem);
      return !problem;
    },
  });
  const { app } = server;
  oauth = registerOAuth(app, {
    clientId: options.clientId ?? 'fake-tasty-client',
    clientSecret: options.clientSecret ?? 'fake-tasty-secret',
    now,
  });
  const context = (request: FastifyRequest) => request.url.split('?')[0];
  const accountOf = (request: FastifyRequest, reply: FastifyReply) => {
    const account = accounts.get((request.params as { account: string }).account);
    if (!account) reply.code(404).send({ error: { code: 'record_not_found', message: 'Account not found' } });
    return account;
  };

  app.get('/customers/:customer/accounts', async (request, reply) => {
    if ((request.params as { customer: string }).customer !== 'me') {
      return reply.code(403).send({ error: { code: 'forbidden', message: 'Only me is a valid customer id' } });
    }
    const items = [...accounts.values()].map((account) => ({
      account: {
        'account-number': account.number,
        nickname: account.nickname,
        'account-type-name': 'Individual',
        'margin-or-cash': account.marginOrCash,
        'is-closed': false,
        'is-test-drive': false,
        'is-futures-approved': true,
      },
      'authority-level': 'owner',
    }));
    return { data: { items }, context: context(request) };
  });
  app.get('/accounts/:account/positions', async (request, reply) => {
    const account = accountOf(request, reply);
    if (!account) return reply;
    const { symbol } = request.query as { symbol?: string };
    const items = [...account.positions]
      .filter(([held]) => symbol === undefined || held === symbol)
      .map(([held, position]) => ({
        'account-number': account.number,
        symbol: held,
        'instrument-type': position.instrumentType,
        quantity: String(Math.abs(position.quantity)),
        'quantity-direction': position.quantity > 0 ? 'Long' : 'Short',
        'average-open-price': String(position.averagePrice),
        'close-price': String(quoteOf(quotes, held, position.instrumentType)),
        multiplier: multiplierOf(position.instrumentType),
      }));
    return { data: { items }, context: context(request) };
  });
  app.get('/accounts/:account/balances/:currency', async (request, reply) => {
    const account = accountOf(request, reply);
    if (!account) return reply;
    const value = [...account.positions].reduce(
      (sum, [held, p]) => sum + p.quantity * quoteOf(quotes, held, p.instrumentType) * multiplierOf(p.instrumentType),
      0,
    );
    return {
      data: {
        'account-number': account.number,
        currency: (request.params as { currency: string }).currency,
        'cash-balance': String(account.cash),
        'net-liquidating-value': String(account.cash + value),
        'equity-buying-power': String(account.cash),
        'derivative-buying-power': String(account.cash),
      },
      context: context(request),
    };
  });
  registerOrderRoutes(app, { accounts, orders, quotes, now });

  const baseUrl = (await server.listen()).replace('localhost', '127.0.0.1');
  return {
    baseUrl,
    requests: server.requests,
    orders,
    accounts,
    issueCode: oauth.issueCode,
    issueGrant: oauth.issueGrant,
    revokeAccessTokens: oauth.revokeAccessTokens,
    revokeGrant: oauth.revokeGrant,
    /** POSTs that could have placed an order (a resend shows up here). */
    submissions: () =>
      server.requests.filter((r) => r.method === 'POST' && /\/(complex-)?orders$/.test(r.url.split('?')[0] ?? '')),
    failNext: (injection: Injection) => server.inject(injection),
    close: () => server.app.close(),
  };
}

const APP = { clientId: 'fake-tasty-client', clientSecret: 'fake-tasty-secret' };

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startTastytradeFake(APP);
  return {
    config: { baseUrl: fake.baseUrl, ...APP },
    credentials: (redirectUrl) => ({ code: fake.issueCode(redirectUrl) }),
    signal: { symbol: 'AAPL', action: 'buy', quantity: 1 },
    orderCount: () => fake.orders.length,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.failNext(answer),
    close: fake.close,
  };
};
