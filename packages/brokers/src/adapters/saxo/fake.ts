// Protocol fake of Saxo's OpenAPI on 127.0.0.1, for contract tests and SAXO_BASE_URL in
// end-to-end runs. The REST API is served under /sim/openapi (the published examples' paths),
// the authorization server at the origin (/authorize, /token), as SIM splits them across hosts.
// Bearer tokens checked on the injected clock (401, empty body); bodies as Saxo checks them
// (fake-book.ts); the instruments of fake-ref.ts; the published account (accounts.response.json).
import { createFakeServer } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { registerOAuth } from './fake-oauth.ts';
import { registerOrderRoutes } from './fake-orders.ts';
import { registerPortfolioRoutes } from './fake-portfolio.ts';
import { registerReferenceRoutes } from './fake-ref.ts';
import { createState, type FakeAccount } from './fake-state.ts';

export const API_PREFIX = '/sim/openapi';
export const FAKE_APP = { appKey: 'fake-saxo-app-key', appSecret: 'fake-saxo-app-secret' };
/** The account of broker-specs/saxo/fixtures/accounts.response.json. */
export const FAKE_ACCOUNT_KEY = 'Cf4xZWiYL6W1nMKpygBLLA==';

export interface SaxoFakeOptions {
  now?: () => number;
  cash?: number;
}

export type SaxoFake = Awaited<ReturnType<typeof startSaxoFake>>;

export async function startSaxoFake(options: SaxoFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const account: FakeAccount = {
    AccountKey: FAKE_ACCOUNT_KEY,
    AccountId: '9226397',
    ClientKey: FAKE_ACCOUNT_KEY,
    Currency: 'EUR',
    cash: options.cash ?? 1_000_000,
    positions: new Map(),
  };
  const state = createState(now, [account]);
  let oauth: ReturnType<typeof registerOAuth> | undefined;
  const server = createFakeServer({
    authenticate(request, reply) {
      if (!request.url.startsWith(API_PREFIX)) return true;
      const valid = oauth?.bearerValid(request.headers.authorization) ?? false;
      if (!valid) reply.code(401).send();
      return valid;
    },
  });
  const { app } = server;
  oauth = registerOAuth(app, { ...FAKE_APP, now });
  registerReferenceRoutes(app, API_PREFIX);
  registerOrderRoutes(app, state, API_PREFIX);
  registerPortfolioRoutes(app, state, API_PREFIX);

  const origin = await server.listen();
  return {
    origin,
    baseUrl: `${origin}${API_PREFIX}`,
    requests: server.requests,
    state,
    account,
    oauth,
    /** Requests that reached POST /trade/v2/orders (retries show up here). */
    placements: () => server.requests.filter((r) => r.method === 'POST' && r.url === `${API_PREFIX}/trade/v2/orders`),
    inject: server.inject,
    close: () => app.close(),
  };
}

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startSaxoFake();
  return {
    config: { baseUrl: fake.baseUrl, clientId: FAKE_APP.appKey, clientSecret: FAKE_APP.appSecret },
    credentials: (redirectUrl) => ({ code: fake.oauth.issueCode(redirectUrl) }),
    signal: { symbol: 'AAPL', action: 'buy', quantity: 1 },
    orderCount: () => fake.state.placedCount,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.inject(answer),
    close: fake.close,
  };
};
