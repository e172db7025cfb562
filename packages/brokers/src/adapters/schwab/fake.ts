// Protocol fake of Schwab (OAuth and Trader API) on 127.0.0.1, for contract tests and for
// SCHWAB_BASE_URL in end-to-end runs. Auth as Schwab checks it: the app's Basic credentials on
// /v1/oauth/token, Bearer access tokens that expire 30 minutes after issue and refresh tokens
// 7 days after sign-in (on the injected clock). Errors in Schwab's shapes:
//   401/400 {"message":"...","errors":["..."]}; token endpoint {"error":"...","error_description":"..."}

import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { type Injection, playInjection, takeInjection } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { type FakeAccount, type FakeOrder, FakeRejection } from './fake-book.ts';
import { registerOAuth } from './fake-oauth.ts';
import { registerOrderRoutes } from './fake-orders.ts';

export interface SchwabFakeOptions {
  clientId?: string;
  clientSecret?: string;
  now?: () => number;
  accounts?: Array<{ accountNumber: string; hashValue: string; type?: 'CASH' | 'MARGIN'; cash?: number }>;
  /** Fill prices by symbol (default 100). */
  quotes?: Record<string, number>;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export type SchwabFake = Awaited<ReturnType<typeof startSchwabFake>>;

type Json = Record<string, unknown>;

export async function startSchwabFake(options: SchwabFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const app = Fastify();
  const requests: RecordedRequest[] = [];
  const failures: Injection[] = [];
  const orders = new Map<number, FakeOrder>();
  let nextOrderId = 1_000_000_001;
  const accounts = new Map<string, FakeAccount>(
    (options.accounts ?? [{ accountNumber: '12345678', hashValue: 'E5B1D0C3A9F84D2B' }]).map((account) => [
      account.hashValue,
      { type: 'MARGIN', cash: 100_000, ...account, positions: new Map() },
    ]),
  );
  const quote = (symbol: string) => options.quotes?.[symbol.trim()] ?? 100;
  const oauth = registerOAuth(app, {
    clientId: options.clientId ?? 'fake-app-key',
    clientSecret: options.clientSecret ?? 'fake-app-secret',
    now,
  });

  app.addHook('preHandler', async (request, reply) => {
    requests.push({ method: request.method, url: request.url, headers: request.headers, body: request.body });
    const failure = takeInjection(failures, request.method, request.url);
    if (failure && (await playInjection(failure, request, reply))) return reply;
    if (!request.url.startsWith('/trader/')) return;
    const problem = oauth.checkBearer(request.headers.authorization);
    if (problem) return reply.code(401).send({ message: 'Client not authorized', errors: [problem] });
  });
  const reject = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof FakeRejection)) throw error;
    return reply.code(error.status).send({ message: error.message, errors: error.errors });
  };
  const accountOf = (request: FastifyRequest) => {
    const { hash } = request.params as { hash: string };
    const account = accounts.get(hash);
    if (!account) throw new FakeRejection(404, 'Account not found', [`no account with hash ${hash}`]);
    return account;
  };
  const securitiesAccount = (account: FakeAccount, withPositions: boolean) => ({
    securitiesAccount: {
      type: account.type,
      accountNumber: account.accountNumber,
      ...(withPositions
        ? {
            positions: [...account.positions].map(([symbol, position]) => ({
              longQuantity: Math.max(position.quantity, 0),
              shortQuantity: Math.max(-position.quantity, 0),
              averagePrice: position.averagePrice,
              marketValue: position.quantity * quote(symbol) * (position.assetType === 'OPTION' ? 100 : 1),
              instrument: { assetType: position.assetType, symbol },
            })),
          }
        : {}),
      currentBalances: { cashBalance: account.cash, buyingPower: account.cash, liquidationValue: account.cash },
    },
  });
  app.get('/trader/v1/accounts/accountNumbers', async () =>
    [...accounts.values()].map(({ accountNumber, hashValue }) => ({ accountNumber, hashValue })),
  );
  app.get('/trader/v1/accounts', async (request) => {
    const fields = (request.query as Json).fields === 'positions';
    return [...accounts.values()].map((account) => securitiesAccount(account, fields));
  });
  app.get('/trader/v1/accounts/:hash', async (request, reply) => {
    try {
      return securitiesAccount(accountOf(request), (request.query as Json).fields === 'positions');
    } catch (error) {
      return reject(reply, error);
    }
  });
  registerOrderRoutes(app, {
    accounts,
    orders,
    quote,
    now,
    nextOrderId: () => nextOrderId++,
    accountOf,
    reject,
  });

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = address.replace('localhost', '127.0.0.1');
  return {
    baseUrl,
    requests,
    orders,
    accounts,
    issueCode: oauth.issueCode,
    revokeAccessTokens: oauth.revokeAccessTokens,
    /** POSTs that could have placed an order (retries show up here). */
    submissions: () => requests.filter((r) => r.method === 'POST' && /\/orders$/.test(r.url)).length,
    failNext(failure: Injection) {
      failures.push(failure);
    },
    close: () => app.close(),
  };
}

const APP = { clientId: 'fake-app-key', clientSecret: 'fake-app-secret' };

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startSchwabFake(APP);
  return {
    config: { baseUrl: fake.baseUrl, ...APP },
    credentials: (redirectUrl) => ({ code: fake.issueCode(redirectUrl) }),
    signal: { symbol: 'AAPL', action: 'buy', quantity: 1 },
    orderCount: () => fake.orders.size,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.failNext(answer),
    close: fake.close,
  };
};
