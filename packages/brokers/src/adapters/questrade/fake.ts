// Protocol fake of Questrade on 127.0.0.1 (QUESTRADE_BASE_URL=<url>): sign-in and rotating
// tokens (fake-oauth.ts) naming this same server as api_server, and the REST API v1: accounts,
// symbol search and option chains (fake-symbols.ts), orders (fake-book.ts), positions, balances.
// Bearer tokens are checked first: 401 {"code":1017,"message":"Access token is invalid"}. An app
// without trading access (tradingAccess: false) is refused every order call with a 403.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createFakeServer } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { createFakeBook, type FakeAccount } from './fake-book.ts';
import { registerOAuth } from './fake-oauth.ts';
import { FakeAnswer } from './fake-rules.ts';
import { createSymbols } from './fake-symbols.ts';

export interface QuestradeFakeOptions {
  clientId?: string;
  now?: () => number;
  accounts?: FakeAccount[];
  /** false: a personal app, whose order calls Questrade refuses (WIRE.md's access caveat). */
  tradingAccess?: boolean;
  /** Holds the order of Questrade's published samples (177106005). */
  seed?: boolean;
}

type Json = Record<string, unknown>;
export const FAKE_CLIENT_ID = 'fake-questrade-app';

export async function startQuestradeFake(options: QuestradeFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const clientId = options.clientId ?? FAKE_CLIENT_ID;
  const accounts = options.accounts ?? [{ number: '26598145', type: 'Margin', cash: 100_000 }];
  const symbols = createSymbols(now());
  const book = createFakeBook(symbols, accounts, now);
  if (options.seed && accounts[0]) book.seedPublished(accounts[0].number);
  const seeded = book.records.length;
  let url = '';
  // Token answers name these API hosts in turn (WIRE.md §1: the host comes with each token).
  const hosts = ['', '/api02'];
  const hostOf = (path: string) => hosts.find((host) => host && path.startsWith(`${host}/v1/`)) ?? '';
  const server = createFakeServer({
    authenticate(request, reply) {
      const host = hostOf(request.url);
      if (!request.url.startsWith(`${host}/v1/`) || oauth.checkBearer(request.headers.authorization, host)) return true;
      void reply.code(401).send({ code: 1017, message: 'Access token is invalid' });
      return false;
    },
  });
  const { app } = server;
  const oauth = registerOAuth(app, { clientId, now, hosts, origin: () => url });

  const params = (request: FastifyRequest) => request.params as { number: string; id?: string };
  const body = (request: FastifyRequest) => (request.body ?? {}) as Json;
  const answer =
    (handler: (request: FastifyRequest) => unknown, trading = false) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      if (trading && options.tradingAccess === false)
        return reply.code(403).send({ code: 1018, message: 'Forbidden. Access is denied' });
      try {
        return handler(request);
      } catch (error) {
        if (!(error instanceof FakeAnswer)) throw error;
        return reply.code(error.status).send(error.body);
      }
    };
  const placers = {
    orders: book.placeSingle,
    'orders/bracket': book.placeBracket,
    'orders/strategy': book.placeStrategy,
  };

  for (const host of hosts) {
    const v1 = `${host}/v1`;
    app.get(`${v1}/accounts`, async () => ({
      accounts: accounts.map((item, index) => ({
        type: item.type,
        number: item.number,
        status: 'Active',
        isPrimary: index === 0,
        isBilling: index === 0,
        clientAccountType: 'Individual',
      })),
      userId: 3_000_124,
    }));
    app.get(`${v1}/symbols/search`, async (request) => ({
      symbols: symbols.search((request.query as { prefix?: string }).prefix ?? ''),
    }));
    app.get(
      `${v1}/symbols/:id/options`,
      answer((request) => ({ optionChain: symbols.chainOf(Number(params(request).id)) })),
    );
    for (const [path, placer] of Object.entries(placers)) {
      app.post(
        `${v1}/accounts/:number/${path}`,
        answer((request) => placer(params(request).number, body(request), false), true),
      );
      app.post(
        `${v1}/accounts/:number/${path}/impact`,
        answer((request) => placer(params(request).number, body(request), true), true),
      );
    }
    app.get(
      `${v1}/accounts/:number/orders`,
      answer((request) => book.list(params(request).number, request.query as Record<string, string | undefined>)),
    );
    app.get(
      `${v1}/accounts/:number/orders/:id`,
      answer((request) => book.find(params(request).number, Number(params(request).id))),
    );
    app.post(
      `${v1}/accounts/:number/orders/:id`,
      answer((request) => book.replace(params(request).number, Number(params(request).id), body(request)), true),
    );
    app.delete(
      `${v1}/accounts/:number/orders/:id`,
      answer((request) => book.cancel(params(request).number, Number(params(request).id)), true),
    );
    app.get(
      `${v1}/accounts/:number/positions`,
      answer((request) => book.positionsOf(params(request).number)),
    );
    app.get(
      `${v1}/accounts/:number/balances`,
      answer((request) => book.balancesOf(params(request).number)),
    );
  }

  url = await server.listen();
  return {
    url,
    clientId,
    requests: server.requests,
    book,
    symbols,
    /** Orders placed through the API (a bracket's components count one by one). */
    placed: () => book.records.length - seeded,
    issueCode: oauth.issueCode,
    revokeAccessTokens: oauth.revokeAccessTokens,
    inject: server.inject,
    clearInjections: server.clearInjections,
    /** Requests that could have placed an order. */
    submissions: () =>
      server.requests.filter((r) => r.method === 'POST' && /\/orders(\/bracket|\/strategy)?$/.test(r.url)),
    close: () => app.close(),
  };
}

export type QuestradeFake = Awaited<ReturnType<typeof startQuestradeFake>>;

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startQuestradeFake({ seed: true });
  return {
    config: { baseUrl: fake.url, clientId: fake.clientId },
    credentials: (redirectUrl) => ({ code: fake.issueCode(redirectUrl) }),
    signal: { symbol: 'AAPL', action: 'buy', quantity: 1 },
    orderCount: fake.placed,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (recorded) => fake.inject(recorded),
    close: fake.close,
  };
};
