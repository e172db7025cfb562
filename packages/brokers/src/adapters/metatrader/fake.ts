// Protocol fake of MetaApi's cloud REST API on loopback, both origins on one port: provisioning
// (fake-provisioning.ts) and the trading API of an account (its terminal: fake-terminal.ts).
// Every call needs a known `auth-token` (401 UnauthorizedError otherwise); accounts belong to the
// token's user (404 for anyone else's); trade bodies are checked against MetatraderTrade
// (fake-schema.ts) and the 26-character comment + clientId budget, then answered with HTTP 200
// and a trade return code, success or not, as MetaApi does.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createFakeServer } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { MT_ACCOUNTS, OPERATOR_TOKEN, userToken } from './fake-data.ts';
import {
  type FakeProvisioningOptions,
  metaApiError,
  ownedAccount,
  type ProvisioningState,
  registerProvisioning,
} from './fake-provisioning.ts';
import { TRADE_SCHEMA } from './fake-schema.ts';
import { createTerminal, type FakeOrder, ticketCounter } from './fake-terminal.ts';

const BUDGET = 26;

export interface FakeMetaApiOptions extends FakeProvisioningOptions {
  /** Expiry of the linking user's token (ms); none by default. */
  userTokenExpiresAt?: number;
}

/** The MetaApi account a user added themselves (FTMO-Demo), linked with the user's own token. */
export const LINKED_ACCOUNT = MT_ACCOUNTS[3] as NonNullable<(typeof MT_ACCOUNTS)[3]>;

export async function startFakeMetaApi(options: FakeMetaApiOptions = {}) {
  const userTokenValue = userToken('user-7', options.userTokenExpiresAt);
  const state: ProvisioningState = {
    accounts: new Map(),
    terminals: new Map(),
    users: new Map([
      [OPERATOR_TOKEN, 'site'],
      [userTokenValue, 'user-7'],
    ]),
    nextTicket: ticketCounter(),
  };
  const server = createFakeServer({
    authenticate(request, reply) {
      const ok = state.users.has(String(request.headers['auth-token']));
      if (!ok) void metaApiError(reply, 401, 'UnauthorizedError', 'Authorization token invalid');
      return ok;
    },
  });
  const { app } = server;
  registerProvisioning(app, state, options);

  state.accounts.set(LINKED_ACCOUNT.metaApiId, {
    _id: LINKED_ACCOUNT.metaApiId,
    name: 'My FTMO challenge',
    login: LINKED_ACCOUNT.login,
    server: LINKED_ACCOUNT.server,
    platform: LINKED_ACCOUNT.platform,
    type: 'cloud-g2',
    region: 'london',
    state: 'DEPLOYED',
    connectionStatus: 'CONNECTED',
    magic: 123456,
    reliability: 'high',
    baseCurrency: LINKED_ACCOUNT.currency,
    resourceSlots: 1,
    tags: [],
    userId: 'user-7',
    pollsLeft: 0,
  });
  state.terminals.set(LINKED_ACCOUNT.metaApiId, createTerminal(LINKED_ACCOUNT, false, state.nextTicket));

  /** The terminal of a connected account of the caller; else MetaApi's 404 is sent. */
  function terminalOf(request: FastifyRequest, reply: FastifyReply) {
    const account = ownedAccount(state, request, reply);
    if (!account) return undefined;
    const terminal = state.terminals.get(account._id);
    if (account.state === 'DEPLOYED' && account.connectionStatus === 'CONNECTED' && terminal) return terminal;
    metaApiError(reply, 404, 'NotFoundError', `Trading account ${account._id} is not connected to the broker`);
    return undefined;
  }

  /** What the next trade, carried out, is answered instead of its result (a lost answer). */
  let lostAnswer: Record<string, unknown> | undefined;
  const base = '/users/current/accounts/:id';
  app.get(`${base}/account-information`, async (request, reply) => terminalOf(request, reply)?.info() ?? reply);
  app.get(`${base}/symbols`, async (request, reply) => terminalOf(request, reply)?.symbols() ?? reply);
  // Read symbol price: 404 for a symbol the account's server does not define.
  app.get(`${base}/symbols/:symbol/current-price`, async (request, reply) => {
    const terminal = terminalOf(request, reply);
    if (!terminal) return reply;
    const { symbol } = request.params as { symbol: string };
    return (
      terminal.price(symbol, new Date()) ??
      metaApiError(reply, 404, 'NotFoundError', `Specified symbol ${symbol} not found`)
    );
  });
  app.get(`${base}/symbols/:symbol/specification`, async (request, reply) => {
    const terminal = terminalOf(request, reply);
    if (!terminal) return reply;
    const { symbol } = request.params as { symbol: string };
    return (
      terminal.specification(symbol) ??
      metaApiError(reply, 404, 'NotFoundError', `Specified symbol ${symbol} not found`)
    );
  });
  app.get(`${base}/positions`, async (request, reply) => {
    const terminal = terminalOf(request, reply);
    return terminal ? [...terminal.positions.values()] : reply;
  });
  app.get(`${base}/orders`, async (request, reply) => {
    const terminal = terminalOf(request, reply);
    return terminal ? [...terminal.orders.values()] : reply;
  });
  app.get(`${base}/orders/:orderId`, async (request, reply) => {
    const terminal = terminalOf(request, reply);
    if (!terminal) return reply;
    const { orderId } = request.params as { orderId: string };
    return terminal.orders.get(orderId) ?? metaApiError(reply, 404, 'NotFoundError', `Order ${orderId} not found`);
  });
  app.get(`${base}/history-orders/ticket/:ticket`, async (request, reply) => {
    const terminal = terminalOf(request, reply);
    const { ticket } = request.params as { ticket: string };
    return terminal ? terminal.history.filter((order) => order.id === ticket) : reply;
  });
  app.get(`${base}/history-orders/time/:startTime/:endTime`, async (request, reply) => {
    const terminal = terminalOf(request, reply);
    if (!terminal) return reply;
    const { startTime, endTime } = request.params as { startTime: string; endTime: string };
    const { offset = '0', limit = '1000' } = request.query as { offset?: string; limit?: string };
    const [from, to] = [Date.parse(startTime), Date.parse(endTime)];
    if (!Number.isFinite(from) || !Number.isFinite(to))
      return metaApiError(reply, 400, 'ValidationError', 'startTime and endTime must be ISO times');
    const inRange = (order: FakeOrder) => Date.parse(order.time) >= from && Date.parse(order.time) <= to;
    return terminal.history.filter(inRange).slice(Number(offset), Number(offset) + Math.min(Number(limit), 1000));
  });

  app.post(`${base}/trade`, { schema: { body: TRADE_SCHEMA }, attachValidation: true }, async (request, reply) => {
    const invalid = (message: string) =>
      metaApiError(reply, 400, 'ValidationError', 'Validation failed', { details: [{ parameter: 'body', message }] });
    if (request.validationError) return invalid(request.validationError.message);
    const terminal = terminalOf(request, reply);
    if (!terminal) return reply;
    const body = request.body as Record<string, unknown>;
    const tag = `${body.comment ?? ''}${body.clientId ?? ''}`;
    if (tag.length > BUDGET) return invalid(`comment and clientId must be ${BUDGET} characters at most together`);
    if (body.clientId !== undefined && !/^[A-Za-z0-9_]+$/.test(String(body.clientId)))
      return invalid('clientId must contain letters, digits and _ only');
    const result = terminal.trade(body);
    if (!lostAnswer) return result;
    // MetaApi's odd part: the trade reached the broker but the terminal lost its answer.
    const answer = lostAnswer;
    lostAnswer = undefined;
    return answer;
  });

  /** The next trade is carried out but answered with this code instead of its result. */
  const loseNextTradeAnswer = (numericCode: number, stringCode: string, message: string) => {
    lostAnswer = { numericCode, stringCode, message };
  };

  const url = await server.listen();
  return {
    url,
    operatorToken: OPERATOR_TOKEN,
    userToken: userTokenValue,
    accounts: state.accounts,
    terminals: state.terminals,
    requests: server.requests,
    /** Requests that reached POST …/trade. */
    trades: () => server.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/trade')),
    inject: server.inject,
    /** The next trade is carried out but answered -11 (disconnected during the trade). */
    disconnectDuringNextTrade: () =>
      loseNextTradeAnswer(-11, 'TRADE_RETCODE_DISCONNECTED_DURING_TRADE', 'Disconnected during trade'),
    loseNextTradeAnswer,
    clearInjections: server.clearInjections,
    close: () => app.close(),
  };
}

export type FakeMetaApi = Awaited<ReturnType<typeof startFakeMetaApi>>;

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startFakeMetaApi();
  return {
    config: { baseUrl: fake.url, clientSecret: fake.operatorToken },
    credentials: () => ({ login: '1234567', password: 'master-pass', server: 'ICMarketsSC-Demo' }),
    signal: { symbol: 'EURUSD', action: 'buy', quantity: 0.01 },
    orderCount: () => [...fake.terminals.values()].reduce((sum, terminal) => sum + terminal.entered(), 0),
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.inject(answer),
    close: fake.close,
  };
};
