// Protocol fake of IBKR's Web API on 127.0.0.1 under /v1/api, for contract tests and IBKR_BASE_URL
// in end-to-end runs. As hosted (OAuth 1.0a: live session token by Diffie-Hellman, every request
// HMAC-signed, fake-oauth.ts) or as a Client Portal Gateway (no credentials; it may be logged
// out: 401). The brokerage session must be opened (ssodh/init, else 400 "no bridge"), closes when
// idle, and /iserver/accounts must be read in it before orders are listed or canceled.
import { randomBytes } from 'node:crypto';
import { createFakeServer } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import type { FakeAccount } from './fake-book.ts';
import type { FakeLedger } from './fake-fills.ts';
import { createFakeMarket } from './fake-market.ts';
import { createFakeConsumer } from './fake-oauth.ts';
import { type FakeQuestion, registerOrderRoutes } from './fake-orders.ts';
import { registerPortfolio } from './fake-portfolio.ts';
import { registerSecDef } from './fake-secdef.ts';

export interface FakeIbkrOptions {
  mode?: 'oauth' | 'gateway';
  /** Default DU123456 (paper, as in broker-specs' fixtures) and U1234567. */
  accounts?: string[];
  cash?: number;
  marketData?: boolean;
  /** The brokerage session closes after this long without a request (IBKR: a few minutes). */
  idleTimeoutMs?: number;
  lstLifetimeMs?: number;
  now?: () => number;
  /** The first live orders list of each brokerage session answers empty (the subscription warming up, WIRE.md §6). */
  coldLiveOrders?: boolean;
}

const SERVER_INFO = { serverName: 'JifN19053', serverVersion: 'Build 10.25.0p, Dec 5, 2023 5:48:12 PM' };
/** IBKR's suppressible message ids (openapi.json, /iserver/questions/suppress). */
const SUPPRESSIBLE = new Set(
  'o163 o354 o382 o383 o403 o451 o2136 o2137 o2165 o10082 o10138 o10151 o10152 o10153 o10164 o10223 o10288 o10331 o10332 o10333 o10334 o10335 o10336 p6 p12'.split(
    ' ',
  ),
);
/** Calls that need /iserver/accounts read first in the session ("must be called before modifying an order or querying open orders"). */
const NEEDS_ACCOUNTS = /^\/v1\/api\/iserver\/account\/(orders$|[^/]+\/order\/)/;

export async function startFakeIbkr(options: FakeIbkrOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const mode = options.mode ?? 'oauth';
  const consumer = mode === 'oauth' ? createFakeConsumer(now, options.lstLifetimeMs ?? 24 * 60 * 60_000) : undefined;
  const market = createFakeMarket(now);
  const accounts = (options.accounts ?? ['DU123456', 'U1234567']).map((id): [string, FakeAccount] => [
    id,
    { id, cash: options.cash ?? 1_000_000, positions: new Map() },
  ]);
  const ledger: FakeLedger = { orders: [], executions: [], accounts: new Map(accounts), nextOrderId: 1_370_093_239 };
  const brokerage = {
    open: false,
    lastUsed: 0,
    id: randomBytes(16).toString('hex'),
    accountsRead: false,
    loggedIn: true,
    liveOrdersRead: false,
  };
  const suppressed = new Set<string>();
  const questions: FakeQuestion[] = [];
  const authFailures: string[] = [];
  const idleTimeoutMs = options.idleTimeoutMs ?? 6 * 60_000;
  const isOpen = () => brokerage.open && now() - brokerage.lastUsed < idleTimeoutMs;

  const server = createFakeServer({
    authenticate(request, reply) {
      const url = `http://${request.headers.host}${request.url}`;
      const path = request.url.split('?')[0] ?? '';
      const refuse = (status: number, error: string) => {
        reply.code(status).send({ error, statusCode: status });
        return false;
      };
      if (!consumer && !brokerage.loggedIn) return refuse(401, 'not authenticated');
      if (consumer && path !== '/v1/api/oauth/live_session_token') {
        const problem = consumer.verify(request.method, url, request.headers.authorization);
        if (problem) {
          authFailures.push(problem);
          return refuse(401, 'not authenticated');
        }
      }
      if (path.startsWith('/v1/api/iserver/') && !path.startsWith('/v1/api/iserver/auth/')) {
        if (!isOpen()) return refuse(400, 'no bridge');
        if (NEEDS_ACCOUNTS.test(path) && !brokerage.accountsRead)
          return refuse(400, 'accounts not read in this session: GET /iserver/accounts first');
        brokerage.lastUsed = now();
      }
      return true;
    },
  });
  const { app, requests } = server;

  if (consumer) {
    app.post('/v1/api/oauth/live_session_token', async (request, reply) => {
      const url = `http://${request.headers.host}${request.url.split('?')[0]}`;
      const result = consumer.liveSessionToken(request.method, url, request.headers.authorization);
      if ('problem' in result) {
        authFailures.push(result.problem);
        return reply.code(401).send({ error: 'invalid consumer', statusCode: 401 });
      }
      return result.body;
    });
  }

  const authStatus = () => ({
    authenticated: isOpen(),
    competing: false,
    connected: true,
    established: isOpen(),
    message: '',
    MAC: '98:F2:B3:23:BF:A0',
    serverInfo: SERVER_INFO,
  });
  app.post('/v1/api/tickle', async () => {
    if (isOpen()) brokerage.lastUsed = now();
    return {
      session: brokerage.id,
      ssoExpires: 460_311,
      collission: false,
      userId: 123_456_789,
      hmds: { error: 'no bridge' },
      iserver: { authStatus: authStatus() },
    };
  });
  app.post('/v1/api/iserver/auth/status', async () => ({
    ...authStatus(),
    fail: '',
    hardware_info: '21026956|06:8E:04:45:DA:8F',
  }));
  app.post('/v1/api/iserver/auth/ssodh/init', async (request, reply) => {
    const { publish, compete } = (request.body ?? {}) as { publish?: unknown; compete?: unknown };
    if (typeof publish !== 'boolean' || typeof compete !== 'boolean')
      return reply.code(400).send({ error: 'publish and compete are required', statusCode: 400 });
    Object.assign(brokerage, {
      open: true,
      lastUsed: now(),
      id: randomBytes(16).toString('hex'),
      accountsRead: false,
      liveOrdersRead: false,
    });
    return authStatus();
  });
  app.post('/v1/api/logout', async () => {
    brokerage.open = false;
    return { status: true };
  });
  app.post('/v1/api/iserver/questions/suppress', async (request, reply) => {
    const { messageIds } = (request.body ?? {}) as { messageIds?: unknown };
    if (!Array.isArray(messageIds) || messageIds.length > 51 || !messageIds.every((id) => SUPPRESSIBLE.has(String(id))))
      return reply.code(400).send({ error: 'messageIds: up to 51 of the suppressible message ids', statusCode: 400 });
    for (const id of messageIds) suppressed.add(String(id));
    return { status: 'submitted' };
  });

  registerSecDef(app, market, now);
  registerOrderRoutes(app, {
    ledger,
    market,
    now,
    marketData: options.marketData ?? true,
    questions,
    suppressed,
    coldList: () => {
      const cold = options.coldLiveOrders === true && !brokerage.liveOrdersRead;
      brokerage.liveOrdersRead = true;
      return cold;
    },
  });
  registerPortfolio(app, {
    ledger,
    market,
    now,
    isPaper: accounts.every(([id]) => id.startsWith('D')),
    onAccounts: () => {
      brokerage.accountsRead = true;
    },
  });

  const origin = await server.listen();
  return {
    url: `${origin}/v1/api`,
    /** The connect form's values: the consumer's, or a gateway's. */
    credentials: consumer?.credentials ?? {},
    consumer,
    requests,
    ledger,
    market,
    suppressed,
    authFailures,
    inject: server.inject,
    clearInjections: server.clearInjections,
    /** The next order asks these questions first. */
    ask: (...asked: FakeQuestion[]) => questions.push(...asked),
    /** The brokerage session ends (idle timeout, a login elsewhere). */
    closeBrokerage: () => {
      brokerage.open = false;
    },
    /** A gateway's login ends (its user logged out, the nightly reset). */
    setLoggedIn: (loggedIn: boolean) => {
      brokerage.loggedIn = loggedIn;
      if (!loggedIn) brokerage.open = false;
    },
    close: () => app.close(),
  };
}

export type FakeIbkr = Awaited<ReturnType<typeof startFakeIbkr>>;

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startFakeIbkr();
  return {
    config: { baseUrl: fake.url },
    credentials: () => fake.credentials,
    signal: { symbol: 'AAPL', action: 'buy', quantity: 1 },
    // A bracket is one order: its exits are not counted.
    orderCount: () => fake.ledger.orders.filter((order) => order.parentId === undefined).length,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.inject(answer),
    close: fake.close,
  };
};
