// Protocol fake of the cTrader Open API on 127.0.0.1, for contract tests and CTRADER_BASE_URL:
// the OAuth pages over HTTP (fake-oauth.ts) and, on the same port, WebSocket connections carrying
// Spotware's messages: binary frames of ProtoMessage (protobuf port 5035), or JSON texts
// {"clientMsgId", "payloadType", "payload"} (JSON port 5036), answered in the form they came in.
// Every message is checked against the .proto schema (required fields, enum values) and the
// order of authentication: application, then each account with a valid token. `/live` and
// `/demo` serve one environment each (an account authorised on the wrong one is refused);
// any other path serves both. Requests are recorded as {method: "WS", path: <message name>,
// body: <payload>}; answerNext({method: "WS", path, status: <payloadType>, body}) plays a recorded
// answer to the next such message.
import Fastify from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import { type Injection, playInjection, takeInjection } from '../../core/fake-server.ts';
import type { JsonRecord } from '../../core/json-read.ts';
import { type StartProtocolFake, type WireRecord, wireRecord } from '../../core/protocol-fake.ts';
import { FAKE_ACCOUNTS, FakeBook } from './fake-book.ts';
import { registerOAuth } from './fake-oauth.ts';
import { errorRes, type Reply, TRADING } from './fake-trading.ts';
import {
  decodeMessage,
  encodeMessage,
  invalidPayload,
  messageName,
  payloadTypeOf,
  type WireMessage,
} from './protocol.ts';

export interface CtraderFakeOptions {
  clientId?: string;
  clientSecret?: string;
  now?: () => number;
}

interface Connection {
  socket: WebSocket;
  environment?: 'live' | 'demo';
  appAuthorized: boolean;
  /** Authorised accounts and the access token each was authorised with. */
  accounts: Map<number, string>;
}

/** The published app of app-auth.request.json. */
export const FAKE_APP = { clientId: '34Rsd_T098asHkl', clientSecret: 'validClientSecret' };

export async function startCtraderFake(options: CtraderFakeOptions = {}) {
  const now = options.now ?? (() => Date.now()); // read at each call: a test faking the date fakes it here too
  const app = Fastify();
  const book = new FakeBook(now);
  const records: WireRecord[] = [];
  const injections: Injection[] = [];
  const connections = new Set<Connection>();
  let heartbeats = 0;
  const clientId = options.clientId ?? FAKE_APP.clientId;
  const clientSecret = options.clientSecret ?? FAKE_APP.clientSecret;
  const oauth = registerOAuth(app, { clientId, clientSecret, now });

  app.addHook('preHandler', async (request, reply) => {
    records.push(wireRecord(request.method, request.url, request.body));
    const injection = takeInjection(injections, request.method, request.url);
    if (injection && (await playInjection(injection, request, reply))) return reply;
  });

  oauth.onInvalidated((accessToken) => {
    for (const connection of connections) {
      const ids = [...connection.accounts].filter(([, token]) => token === accessToken).map(([id]) => id);
      if (ids.length === 0) continue;
      for (const id of ids) connection.accounts.delete(id);
      const event = { ctidTraderAccountIds: ids, reason: 'Access Token is recalled' };
      send(connection, { name: 'ProtoOAAccountsTokenInvalidatedEvent', payload: event, echo: false }, undefined, false);
    }
  });

  function send(connection: Connection, reply: Reply, clientMsgId: string | undefined, json: boolean) {
    const id = reply.echo ? clientMsgId : undefined;
    if (json) {
      const payloadType = payloadTypeOf(reply.name);
      connection.socket.send(
        JSON.stringify({ ...(id ? { clientMsgId: id } : {}), payloadType, payload: reply.payload }),
      );
    } else connection.socket.send(encodeMessage(reply.name, reply.payload, id));
  }

  function accountAuth(connection: Connection, request: JsonRecord): Reply {
    const id = Number(request.ctidTraderAccountId);
    const token = String(request.accessToken);
    if (!oauth.accessValid(token)) return errorRes(id, 'CH_ACCESS_TOKEN_INVALID', 'Invalid access token');
    const account = FAKE_ACCOUNTS.find((item) => item.ctidTraderAccountId === id);
    const wrongServer = connection.environment && (connection.environment === 'live') !== account?.isLive;
    if (!account || wrongServer)
      return errorRes(id, 'CH_CTID_TRADER_ACCOUNT_NOT_FOUND', 'Trading account is not found on this server');
    if (connection.accounts.get(id) === token)
      return errorRes(id, 'ALREADY_LOGGED_IN', 'Trading account is already authorized');
    connection.accounts.set(id, token);
    return { name: 'ProtoOAAccountAuthRes', payload: { ctidTraderAccountId: id }, echo: true };
  }

  function answer(connection: Connection, message: WireMessage): Reply[] {
    const { name, payload } = message;
    if (name === 'ProtoHeartbeatEvent') return [];
    if (name === 'ProtoOAApplicationAuthReq') {
      if (payload.clientId !== clientId || payload.clientSecret !== clientSecret)
        return [errorRes(undefined, 'CH_CLIENT_AUTH_FAILURE', 'clientId or clientSecret is incorrect')];
      if (connection.appAuthorized)
        return [errorRes(undefined, 'ALREADY_LOGGED_IN', 'Application is already authorized')];
      connection.appAuthorized = true;
      return [{ name: 'ProtoOAApplicationAuthRes', payload: {}, echo: true }];
    }
    if (!connection.appAuthorized)
      return [errorRes(undefined, 'CH_CLIENT_NOT_AUTHENTICATED', 'Client is not authenticated')];
    if (name === 'ProtoOAGetAccountListByAccessTokenReq') {
      const accessToken = String(payload.accessToken);
      if (!oauth.accessValid(accessToken))
        return [errorRes(undefined, 'CH_ACCESS_TOKEN_INVALID', 'Invalid access token')];
      const ctidTraderAccount = FAKE_ACCOUNTS.map(
        ({ balance: _balance, depositAssetId: _asset, ...account }) => account,
      );
      const list = { accessToken, permissionScope: 1, ctidTraderAccount };
      return [{ name: 'ProtoOAGetAccountListByAccessTokenRes', payload: list, echo: true }];
    }
    if (name === 'ProtoOARefreshTokenReq') {
      const pair = oauth.renew(String(payload.refreshToken));
      if (!pair) return [errorRes(undefined, 'CH_ACCESS_TOKEN_INVALID', 'Invalid refresh token')];
      return [{ name: 'ProtoOARefreshTokenRes', payload: { ...pair }, echo: true }];
    }
    if (name === 'ProtoOAAccountAuthReq') return [accountAuth(connection, payload)];
    const handler = TRADING[name];
    if (!handler) return [errorRes(undefined, 'INVALID_REQUEST', `${name || message.payloadType} is not served here`)];
    const id = Number(payload.ctidTraderAccountId);
    const token = connection.accounts.get(id);
    const account = FAKE_ACCOUNTS.find((item) => item.ctidTraderAccountId === id);
    if (!token || !account || !oauth.accessValid(token))
      return [errorRes(id, 'ACCOUNT_NOT_AUTHORIZED', 'Trading account is not authorized')];
    return handler(book, account, payload);
  }

  /** A frame as received: protobuf (binary) or the JSON form (text); schema refusals as ProtoErrorRes. */
  function read(data: Buffer, json: boolean): WireMessage | string {
    try {
      if (!json) return decodeMessage(data);
      const framed = JSON.parse(data.toString('utf8')) as {
        payloadType?: number;
        payload?: JsonRecord;
        clientMsgId?: string;
      };
      const name = messageName(Number(framed.payloadType));
      const payload = framed.payload ?? {};
      const problem = name ? invalidPayload(name, payload) : undefined;
      if (problem) return `${name}: ${problem}`;
      return {
        payloadType: Number(framed.payloadType),
        name,
        payload,
        ...(framed.clientMsgId ? { clientMsgId: framed.clientMsgId } : {}),
      };
    } catch (error) {
      return error instanceof Error ? error.message : 'unreadable frame';
    }
  }

  function receive(connection: Connection, data: Buffer, json: boolean) {
    const message = read(data, json);
    if (typeof message === 'string') {
      send(
        connection,
        { name: 'ProtoErrorRes', payload: { errorCode: 'INVALID_REQUEST', description: message }, echo: false },
        undefined,
        json,
      );
      return;
    }
    if (message.name === 'ProtoHeartbeatEvent') heartbeats += 1;
    else
      records.push({
        method: 'WS',
        path: message.name || String(message.payloadType),
        query: {},
        body: message.payload,
      });
    const injection = takeInjection(injections, 'WS', message.name);
    injection?.onArrival?.();
    const replies =
      injection?.status !== undefined
        ? [{ name: messageName(injection.status), payload: (injection.body ?? {}) as JsonRecord, echo: true }]
        : answer(connection, message);
    // A dropped connection or a late answer: cTrader acted, the answer is lost or comes too late.
    if (injection?.drop) return connection.socket.terminate();
    const reply = () => {
      for (const item of replies)
        if (connection.socket.readyState === connection.socket.OPEN) send(connection, item, message.clientMsgId, json);
    };
    if (injection?.delayMs) setTimeout(reply, injection.delayMs);
    else reply();
  }

  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const sockets = new WebSocketServer({ server: app.server });
  sockets.on('connection', (socket, request) => {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const environment = path === '/live' ? 'live' : path === '/demo' ? 'demo' : undefined;
    const connection: Connection = {
      socket,
      appAuthorized: false,
      accounts: new Map(),
      ...(environment ? { environment } : {}),
    };
    connections.add(connection);
    socket.on('message', (data, isBinary) =>
      receive(connection, Buffer.isBuffer(data) ? data : Buffer.from(data.toString()), !isBinary),
    );
    socket.on('close', () => connections.delete(connection));
  });
  const baseUrl = address.replace('localhost', '127.0.0.1');
  const socketUrl = baseUrl.replace(/^http/, 'ws');

  return {
    baseUrl,
    endpoints: { live: `${socketUrl}/live`, demo: `${socketUrl}/demo` },
    book,
    records,
    issueCode: oauth.issueCode,
    /** A refresh made elsewhere (another server, the user's own app): the old pair stops working. */
    renew: oauth.renew,
    /** ProtoHeartbeatEvent frames received. */
    heartbeats: () => heartbeats,
    /** Open sockets (a test checks none is left behind). */
    openConnections: () => connections.size,
    /** Drops every socket, as a network failure would. */
    dropConnections: () => {
      for (const connection of connections) connection.socket.terminate();
    },
    answerNext: (injection: Injection) => injections.push(injection),
    async close() {
      for (const connection of connections) connection.socket.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      await app.close();
    },
  };
}

export type CtraderFake = Awaited<ReturnType<typeof startCtraderFake>>;

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startCtraderFake();
  return {
    config: { baseUrl: fake.baseUrl, ...FAKE_APP },
    credentials: (redirectUrl) => ({ code: fake.issueCode(redirectUrl) }),
    signal: { symbol: 'EURUSD', action: 'buy', quantity: 1000 },
    orderCount: () => fake.book.placed,
    requests: () => [...fake.records],
    answerNext: (answer) => fake.answerNext(answer),
    close: fake.close,
  };
};
