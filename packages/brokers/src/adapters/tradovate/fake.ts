// Protocol fake of Tradovate's REST API v1 on 127.0.0.1 (TRADOVATE_BASE_URL=<url>/v1): the
// credentials grant and renewal (fake-auth.ts), the contract library (fake-contracts.ts), and
// orders (fake-book.ts), answering as Tradovate answers, HTTP 200 failures and penalty tickets
// included. Bearer tokens are checked before anything else; refused ones get 401 "Access is denied".
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createFakeServer } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { createFakeAuth, type FakeAuth, type FakeUser } from './fake-auth.ts';
import { createFakeBook, type FakeAccount, FakeAnswer, PUBLISHED_ORDER_AT } from './fake-book.ts';
import { createContractLibrary } from './fake-contracts.ts';

type Json = Record<string, unknown>;

export interface TradovateFakeOptions {
  now?: () => number;
  users?: FakeUser[];
  accounts?: FakeAccount[];
  /** Holds the order of the published examples (fake-book.ts seedPublished); its ESU6 stays listed. */
  seed?: boolean;
  /** Lists contracts from the year before this day too (a test's ESZ6 on a later clock), not only around now. */
  listedSince?: number;
  /** Another fake's sign-in side: Tradovate's live and demo origins accept one token. */
  auth?: FakeAuth;
}

export const FAKE_USER: FakeUser = {
  name: 'trader1',
  password: 'correct horse',
  cid: 1234,
  sec: 'f03741b6-f634-48d6-9308-c8fb871150c2',
  userId: 123456,
  hasLive: true,
  passwordExpiration: '2027-12-01T00:00:00.000Z',
};
/** The form's values for FAKE_USER (connect's credentials). */
export const FAKE_CREDENTIALS = { username: 'trader1', password: 'correct horse', cid: '1234', secret: FAKE_USER.sec };

const OPEN = new Set(['/v1/auth/accesstokenrequest']);
const num = (value: unknown) => Number(value);

export async function startTradovateFake(options: TradovateFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const since = Math.min(options.listedSince ?? now(), options.seed ? Date.parse(PUBLISHED_ORDER_AT) : now());
  const library = createContractLibrary(now(), since);
  const users = options.users ?? [FAKE_USER];
  const accounts = options.accounts ?? [{ id: 987654, name: 'DEMO123456', userId: FAKE_USER.userId }];
  const auth = options.auth ?? createFakeAuth(users, now);
  const book = createFakeBook(library, accounts, now);
  const [first] = accounts;
  if (options.seed && first) book.seedPublished(first);
  const seeded = book.orders.length;
  const server = createFakeServer({
    authenticate(request, reply) {
      const path = request.url.split('?')[0] ?? '';
      const penalty = auth.penalty(path, (request.body ?? {}) as Json);
      if (penalty) {
        void reply.send(penalty);
        return false;
      }
      if (OPEN.has(path) || auth.signedIn(request.headers.authorization)) return true;
      void reply.code(401).type('text/plain').send('Access is denied');
      return false;
    },
  });
  const { app } = server;
  const who = (request: FastifyRequest) => {
    const found = auth.signedIn(request.headers.authorization);
    if (!found) throw new FakeAnswer(401, 'Access is denied');
    return found;
  };
  const query = (request: FastifyRequest) => request.query as Record<string, string | undefined>;
  const body = (request: FastifyRequest) => {
    const { 'p-ticket': _ticket, ...rest } = (request.body ?? {}) as Json;
    return rest;
  };
  const answer =
    (handler: (request: FastifyRequest) => unknown) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const result = handler(request);
        return result === undefined ? reply.code(404).type('text/plain').send('Not found') : result;
      } catch (error) {
        if (!(error instanceof FakeAnswer)) throw error;
        return reply.code(error.status).send(error.body);
      }
    };

  app.post(
    '/v1/auth/accesstokenrequest',
    answer((request) => auth.accessTokenRequest(body(request))),
  );
  app.get(
    '/v1/auth/renewaccesstoken',
    answer((request) => auth.renew(request.headers.authorization)),
  );
  app.get(
    '/v1/account/list',
    answer((request) => {
      const { user } = who(request);
      return accounts
        .filter((item) => item.userId === user.userId)
        .map((item) => ({
          id: item.id,
          name: item.name,
          userId: item.userId,
          accountType: 'Customer',
          active: true,
          clearingHouseId: 2,
          riskCategoryId: 2,
          autoLiqProfileId: 2,
          marginAccountType: 'Speculator',
          legalStatus: 'Individual',
          readonly: false,
        }));
    }),
  );
  app.get(
    '/v1/contract/find',
    answer((request) => library.byName(query(request).name ?? '')),
  );
  app.get(
    '/v1/contract/item',
    answer((request) => library.byId(num(query(request).id))),
  );
  app.get(
    '/v1/contract/items',
    answer((request) =>
      (query(request).ids ?? '')
        .split(',')
        .map(num)
        .flatMap((id) => library.byId(id) ?? []),
    ),
  );
  app.get(
    '/v1/contract/deps',
    answer((request) => library.contracts.filter((item) => item.contractMaturityId === num(query(request).masterid))),
  );
  app.get(
    '/v1/product/find',
    answer((request) => {
      const product = library.products.find((item) => item.name === query(request).name);
      return product && { id: product.id, name: product.name, productType: 'Futures', status: 'Verified' };
    }),
  );
  app.get(
    '/v1/contractMaturity/deps',
    answer((request) => library.maturities.filter((item) => item.productId === num(query(request).masterid))),
  );
  /** What the next placement, carried out, is answered instead (its answer lost to a timeout). */
  let lostAnswer: Json | undefined;
  for (const kind of ['order', 'oso', 'oco'] as const) {
    app.post(
      `/v1/order/place${kind}`,
      answer((request) => {
        const { user, session } = who(request);
        const placed = book.place(body(request), kind, user.userId, session);
        const lost = lostAnswer;
        lostAnswer = undefined;
        if (lost?.orderId === true) return { ...lost, orderId: (placed as Json).orderId };
        return lost ?? placed;
      }),
    );
  }
  app.post(
    '/v1/order/cancelorder',
    answer((request) => {
      const { user, session } = who(request);
      return book.cancel(body(request), user.userId, session);
    }),
  );
  app.post(
    '/v1/order/modifyorder',
    answer((request) => {
      const { user, session } = who(request);
      return book.modify(body(request), user.userId, session);
    }),
  );
  app.post(
    '/v1/order/liquidateposition',
    answer((request) => {
      const { user, session } = who(request);
      return book.liquidate(body(request), user.userId, session);
    }),
  );
  app.get(
    '/v1/order/item',
    answer((request) => book.ordersOf(who(request).user.userId).find((item) => item.id === num(query(request).id))),
  );
  app.get(
    '/v1/order/list',
    answer((request) => book.ordersOf(who(request).user.userId)),
  );
  app.get(
    '/v1/command/list',
    answer((request) => book.commandsOf(who(request).user.userId)),
  );
  app.get(
    '/v1/orderVersion/deps',
    answer((request) => book.versionsOf(who(request).user.userId, num(query(request).masterid))),
  );
  app.get(
    '/v1/fill/deps',
    answer((request) => book.fillsOf(num(query(request).masterid))),
  );
  app.get(
    '/v1/executionReport/deps',
    answer((request) => book.reportsOf(num(query(request).masterid))),
  );
  app.get(
    '/v1/position/list',
    answer((request) => book.positionsOf(who(request).user.userId)),
  );

  const url = await server.listen();
  return {
    url,
    baseUrl: `${url}/v1`,
    requests: server.requests,
    book,
    /** Orders placed through the API (seeded ones not counted). */
    placed: () => book.orders.length - seeded,
    auth,
    library,
    accounts,
    inject: server.inject,
    clearInjections: server.clearInjections,
    /**
     * The next placement is carried out but answered with this failure (e.g. RiskCheckTimeout),
     * beside the order's id when `withOrderId`.
     */
    loseNextPlacement: (failureReason: string, failureText?: string, withOrderId = false) => {
      lostAnswer = {
        failureReason,
        ...(failureText ? { failureText } : {}),
        ...(withOrderId ? { orderId: true } : {}),
      };
    },
    /** Requests that could have placed an order. */
    submissions: () => server.requests.filter((r) => r.method === 'POST' && /\/order\/place/.test(r.url)),
    close: () => server.app.close(),
  };
}

export type TradovateFake = Awaited<ReturnType<typeof startTradovateFake>>;

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startTradovateFake({ seed: true });
  return {
    config: { baseUrl: fake.baseUrl },
    credentials: () => FAKE_CREDENTIALS,
    signal: { symbol: 'ES1!', action: 'buy', quantity: 1 },
    orderCount: fake.placed,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (recorded) => fake.inject(recorded),
    close: fake.close,
  };
};
