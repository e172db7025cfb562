// Protocol fake of E*TRADE's API v1 on 127.0.0.1, for contract tests and ETRADE_BASE_URL in
// end-to-end runs: OAuth 1.0a checked as E*TRADE checks it (fake-oauth.ts), the accounts of
// broker-specs/etrade/fixtures, preview and place (fake-orders.ts), portfolio and balance, quotes
// (fake-quotes.ts).
// Started for replay with the published orders (95 open, 96 executed) in its book.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createFakeServer } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { type FakeAccount, type FakeOrder, FakeRefusal, fillOrder, productKey } from './fake-book.ts';
import { type FakeApp, registerOAuth } from './fake-oauth.ts';
import { registerOrderRoutes } from './fake-orders.ts';
import { registerQuoteRoutes } from './fake-quotes.ts';
import { accountView, balanceView, portfolioView } from './fake-views.ts';

type Json = Record<string, unknown>;

export interface EtradeFakeOptions {
  apps?: FakeApp[];
  now?: () => number;
  accounts?: Array<{ accountId: string; accountIdKey: string; cash?: number; accountMode?: 'CASH' | 'MARGIN' }>;
  /** Prices by symbol, options by productKey (stocks 100, options 2.5 when not given). */
  quotes?: Record<string, number>;
  /** Orders already in the book. */
  orders?: FakeOrder[];
}

export const FAKE_APP: FakeApp = { consumerKey: 'fake-consumer-key', consumerSecret: 'fake-consumer-secret' };
/** The account of broker-specs/etrade/fixtures/accounts.response.json. */
export const FAKE_ACCOUNT = { accountId: '84345821', accountIdKey: 'dBZOKt9xDrtRSAOl4MSiiA' };

export type EtradeFake = Awaited<ReturnType<typeof startEtradeFake>>;

export async function startEtradeFake(options: EtradeFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const apps = options.apps ?? [FAKE_APP];
  const accounts = new Map<string, FakeAccount>(
    (options.accounts ?? [FAKE_ACCOUNT]).map((account) => [
      account.accountIdKey,
      { accountMode: 'MARGIN', cash: 100_000, ...account, positions: new Map() },
    ]),
  );
  const orders: FakeOrder[] = [...(options.orders ?? [])];
  const quote = (product: Json | undefined) =>
    product?.securityType === 'OPTN'
      ? (options.quotes?.[productKey(product)] ?? 2.5)
      : (options.quotes?.[String(product?.symbol)] ?? 100);
  let oauth: ReturnType<typeof registerOAuth> | undefined;
  const server = createFakeServer({
    authenticate: (request, reply) => oauth?.authenticate(request, reply) ?? false,
  });
  const { app } = server;
  oauth = registerOAuth(app, { apps, now });

  const refuse = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof FakeRefusal)) throw error;
    return reply.code(error.status).send({ Error: { code: error.code, message: error.message } });
  };
  const accountOf = (request: FastifyRequest) => {
    const account = accounts.get((request.params as { key?: string }).key ?? '');
    if (!account) throw new FakeRefusal(400, 100, 'Account key does not belong to user');
    return account;
  };
  const withAccount =
    (view: (account: FakeAccount) => Json) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return view(accountOf(request));
      } catch (error) {
        return refuse(reply, error);
      }
    };

  app.get('/v1/accounts/list.json', async () => ({
    AccountListResponse: { Accounts: { Account: [...accounts.values()].map(accountView) } },
  }));
  app.get('/v1/accounts/:key/portfolio.json', async (request, reply) => {
    try {
      return portfolioView(accountOf(request), quote, request.query as { count?: string; pageNumber?: string });
    } catch (error) {
      return refuse(reply, error);
    }
  });
  app.get(
    '/v1/accounts/:key/balance.json',
    withAccount((account) => balanceView(account, quote)),
  );
  registerOrderRoutes(app, { orders, now, quote, accountOf, refuse });
  registerQuoteRoutes(app, { now, quote, refuse });

  const baseUrl = await server.listen();
  return {
    baseUrl,
    requests: server.requests,
    orders,
    accounts,
    oauth,
    /** Orders placed through the API. */
    placed: () => orders.filter((order) => order.placed),
    /** Requests that reached place.json (retries show up here). */
    placements: () => server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/orders/place.json')),
    /** The market reaches a working order: `quantity` of it executes, the rest works on (INDIVIDUAL_FILLS). */
    fillPart(orderId: number, quantity: number) {
      const order = orders.find((item) => item.orderId === orderId);
      const account = [...accounts.values()].find((item) => item.accountIdKey === order?.accountIdKey);
      if (!order || !account) throw new Error(`no order ${orderId}`);
      order.fills = fillOrder(account, order.order, quote, quantity);
      order.filled = (order.filled ?? 0) + quantity;
      order.status = 'INDIVIDUAL_FILLS';
    },
    inject: server.inject,
    close: () => app.close(),
  };
}

/** The published orders of broker-specs/etrade/fixtures/orders.response.json: 95 open, 96 executed. */
export function publishedOrders(): FakeOrder[] {
  const aapl = {
    allOrNone: false,
    priceType: 'LIMIT',
    orderTerm: 'GOOD_FOR_DAY',
    marketSession: 'REGULAR',
    limitPrice: 175.25,
    Instrument: [
      { Product: { symbol: 'AAPL', securityType: 'EQ' }, orderAction: 'BUY', quantityType: 'QUANTITY', quantity: 100 },
    ],
  };
  const common = { accountIdKey: FAKE_ACCOUNT.accountIdKey, orderType: 'EQ', order: aapl, placed: false };
  return [
    { ...common, orderId: 95, clientOrderId: 'published95', placedTime: 1781015300000, status: 'OPEN' },
    {
      ...common,
      orderId: 96,
      clientOrderId: 'published96',
      placedTime: 1781015470301,
      executedTime: 1781015471022,
      status: 'EXECUTED',
      fills: [175.24],
    },
  ];
}

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startEtradeFake({ orders: publishedOrders() });
  return {
    config: { baseUrl: fake.baseUrl, clientId: FAKE_APP.consumerKey, clientSecret: FAKE_APP.consumerSecret },
    // The user approving the request token the adapter asked for last.
    credentials: () => ({ oauth_verifier: fake.oauth.approveLatest(FAKE_APP.consumerKey)?.verifier ?? '' }),
    registerCallback: (redirectUrl) => fake.oauth.registerCallback(FAKE_APP.consumerKey, redirectUrl),
    signal: { symbol: 'AAPL', action: 'buy', quantity: 1 },
    orderCount: () => fake.placed().length,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.inject(answer),
    close: fake.close,
  };
};
