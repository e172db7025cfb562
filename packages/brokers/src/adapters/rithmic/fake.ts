// Protocol fake of Rithmic's R | Protocol gateway on 127.0.0.1 (RITHMIC_BASE_URL=ws://…): binary
// frames of one length-prefixed protobuf message each, dispatched by template_id; system info,
// login per plant (wrong credentials answered rp_code ["13","permission denied"] as the published
// failure example), heartbeats, login info, accounts, trade routes, order updates, new and bracket
// orders (fake-book.ts), cancels, open orders and history replayed as snapshots, logout. Requests
// before login, of another plant or undecodable are answered with Reject (75).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import type { RecordedAnswer, StartProtocolFake, WireRecord } from '../../core/protocol-fake.ts';
import {
  createFakeBook,
  exchangeNotification,
  FAKE_ACCOUNT,
  FAKE_FCM,
  FAKE_IB,
  FAKE_ROUTES,
  type FakeOrder,
  orderProblem,
} from './fake-book.ts';
import {
  decodeFrame,
  encodeFrame,
  hasLengthPrefix,
  ORDER_PLANT,
  type RithmicFields,
  TEMPLATES,
  TICKER_PLANT,
} from './protocol.ts';

export const FAKE_CREDENTIALS = { user: 'trader01', password: 'correct horse', systemName: 'Rithmic Test' };
export const FAKE_SYSTEMS = ['Rithmic Test', 'Rithmic Paper Trading'];

export interface RithmicFakeOptions {
  now?: () => number;
  /** Seconds, as ResponseLogin's heartbeat_interval. */
  heartbeatInterval?: number;
}

const OK = ['0'];
const QUARTERS = ['H', 'M', 'U', 'Z'] as const;

/** The fake's front month: the next quarterly month after this one (Z6 in November 2026). */
export function frontMonthCode(at: number): string {
  const date = new Date(at);
  const quarter = Math.floor((date.getUTCMonth() + 1) / 3);
  const year = date.getUTCFullYear() + (quarter > 3 ? 1 : 0);
  return `${QUARTERS[quarter % 4]}${year % 10}`;
}
const PUBLIC = new Set([16, 10, 18]);

/** A request as the fake received it: SEND /<message name>, the message's fields as body. */
const recordOf = (fields: RithmicFields): WireRecord => ({
  method: 'SEND',
  path: `/${TEMPLATES[fields.template_id as keyof typeof TEMPLATES] ?? fields.template_id}`,
  query: {},
  body: fields,
});

export async function startRithmicFake(options: RithmicFakeOptions = {}) {
  // Read at each call, so a test that fakes the date fakes it here too.
  const now = options.now ?? (() => Date.now());
  const book = createFakeBook();
  const requests: WireRecord[] = [];
  const answers: RecordedAnswer[] = [];
  const counts = { logins: 0, heartbeats: 0, logouts: 0 };
  /** An rp_code the next order, booked all the same, is answered with (and its basket_id or not). */
  let bookedWith: { rpCode: string[]; basket: boolean } | undefined;
  /** Message name → how many heartbeats its next request waits for before it is answered. */
  const holds = new Map<string, number>();
  const http = createServer();
  const server = new WebSocketServer({ server: http });

  server.on('connection', (socket: WebSocket) => {
    let plant: number | undefined;
    let subscribed = false;
    // A dropped connection: the plant acts on the request, its answers are lost.
    let dropping = false;
    let held: { request: RithmicFields; path: string; heartbeats: number } | undefined;
    // Answers framed as the client frames its requests: length-prefixed (the clients') or bare.
    let prefixed = true;
    const send = (fields: RithmicFields) => {
      if (!dropping) socket.send(encodeFrame(fields, prefixed));
    };
    const reply = (request: RithmicFields, fields: RithmicFields) =>
      send({ user_msg: request.user_msg ?? [], ...fields });
    const reject = (request: RithmicFields, code: string, text: string) =>
      reply(request, { template_id: 75, rp_code: [code, text] });

    socket.on('message', (data: Buffer, isBinary: boolean) => {
      let request: RithmicFields;
      try {
        if (!isBinary) throw new Error('text frame');
        const frame = new Uint8Array(data);
        request = decodeFrame(frame);
        prefixed = hasLengthPrefix(frame);
      } catch {
        send({ template_id: 75, rp_code: ['3', 'malformed message'] });
        return;
      }
      requests.push(recordOf(request));
      const path = recordOf(request).path;
      const hold = holds.get(path);
      holds.delete(path);
      if (hold) held = { request, path, heartbeats: hold };
      else answer(request, path);
      if (request.template_id === 18 && held && --held.heartbeats === 0) {
        const { request: waiting, path: waitingPath } = held;
        held = undefined;
        answer(waiting, waitingPath);
      }
    });

    function answer(request: RithmicFields, path: string) {
      const index = answers.findIndex((answer) => answer.path === path);
      const injected = index < 0 ? undefined : answers.splice(index, 1)[0];
      if (injected && injected.status !== 0) {
        const bodies = Array.isArray(injected.body) ? injected.body : [injected.body];
        // Rithmic echoes the request's user_msg: a recorded answer gets this request's.
        for (const body of bodies as RithmicFields[])
          send(
            body.template_id === 351 || body.template_id === 352 ? body : { ...body, user_msg: request.user_msg ?? [] },
          );
        return;
      }
      dropping = injected !== undefined;
      handle(request);
      if (dropping) socket.terminate();
    }

    function handle(request: RithmicFields) {
      const id = request.template_id;
      if (!(id in TEMPLATES) || !String(TEMPLATES[id as keyof typeof TEMPLATES]).startsWith('Request'))
        return reject(request, '5', `unsupported template ${id}`);
      if (!PUBLIC.has(id) && plant === undefined) return reject(request, '3', 'not logged in');
      if (id >= 300 && plant !== ORDER_PLANT) return reject(request, '3', 'not an order plant session');
      if (id === 113 && plant !== TICKER_PLANT) return reject(request, '3', 'not a ticker plant session');
      const account = request.account_id;
      if (account !== undefined && account !== FAKE_ACCOUNT)
        return reply(request, { template_id: id + 1, rp_code: ['5', `account ${String(account)} not found`] });
      switch (id) {
        case 16:
          return reply(request, { template_id: 17, rp_code: OK, system_name: FAKE_SYSTEMS });
        case 10:
          return login(request);
        case 18:
          counts.heartbeats++;
          return send({ template_id: 19, rp_code: OK });
        case 12:
          plant = undefined;
          counts.logouts++;
          return reply(request, { template_id: 13, rp_code: OK });
        case 113:
          return frontMonth(request);
        case 300:
          return reply(request, {
            template_id: 301,
            rp_code: OK,
            fcm_id: FAKE_FCM,
            ib_id: FAKE_IB,
            user: FAKE_CREDENTIALS.user,
            user_type: 3,
          });
        case 302:
          return accounts(request);
        case 310:
          for (const [exchange, route] of Object.entries(FAKE_ROUTES))
            reply(request, {
              template_id: 311,
              rq_handler_rp_code: OK,
              fcm_id: FAKE_FCM,
              ib_id: FAKE_IB,
              exchange,
              trade_route: route,
              status: 'UP',
              is_default: true,
            });
          return reply(request, { template_id: 311, rp_code: OK });
        case 308:
          subscribed = true;
          return reply(request, { template_id: 309, rp_code: OK });
        case 312:
        case 330:
          return order(request);
        case 316:
          return cancel(request);
        case 318: {
          // WIRE.md §5 names no date the history dates must list, and 320 replays the open orders
          // only: the fake lists past days only (the day in progress may not be listed yet),
          // while 324 answers any date, today's included.
          const today = new Date(now()).toISOString().slice(0, 10).replaceAll('-', '');
          const dates = book.dates().filter((date) => date < today);
          return reply(request, { template_id: 319, rp_code: dates.length ? OK : ['7', 'no data'], date: dates });
        }
        case 320:
          for (const item of book.open(FAKE_ACCOUNT)) send(snapshotOf(item));
          return reply(request, { template_id: 321, rp_code: OK });
        case 324:
          if (!/^\d{8}$/.test(String(request.date ?? '')))
            return reply(request, { template_id: 325, rp_code: ['3', 'date is required'] });
          for (const item of book.onDate(FAKE_ACCOUNT, String(request.date))) send(snapshotOf(item));
          return reply(request, { template_id: 325, rp_code: OK });
        default:
          return reject(request, '5', `unsupported template ${id}`);
      }
    }

    const snapshotOf = (item: FakeOrder) => exchangeNotification(item, now(), true);

    function login(request: RithmicFields) {
      const missing = ['template_version', 'user', 'password', 'app_name', 'app_version', 'system_name'].find(
        (key) => typeof request[key] !== 'string' || request[key] === '',
      );
      if (missing || typeof request.infra_type !== 'number')
        return reply(request, { template_id: 11, rp_code: ['3', `${missing ?? 'infra_type'} is required`] });
      if (
        request.user !== FAKE_CREDENTIALS.user ||
        request.password !== FAKE_CREDENTIALS.password ||
        request.system_name !== FAKE_CREDENTIALS.systemName
      )
        return reply(request, { template_id: 11, rp_code: ['13', 'permission denied'] });
      plant = request.infra_type;
      counts.logins++;
      return reply(request, {
        template_id: 11,
        template_version: '3.9',
        rp_code: OK,
        fcm_id: FAKE_FCM,
        ib_id: FAKE_IB,
        country_code: 'US',
        state_code: 'IL',
        unique_user_id: FAKE_CREDENTIALS.user,
        heartbeat_interval: options.heartbeatInterval ?? 60,
      });
    }

    function frontMonth(request: RithmicFields) {
      const root = String(request.symbol ?? '');
      const exchange = String(request.exchange ?? '');
      if (FAKE_ROUTES[exchange] === undefined || !/^[A-Z0-9]{1,5}$/.test(root))
        return reply(request, { template_id: 114, rp_code: ['7', 'no data'] });
      const trading = `${root}${frontMonthCode(now())}`;
      return reply(request, {
        template_id: 114,
        rp_code: OK,
        symbol: root,
        exchange,
        is_front_month_symbol: true,
        symbol_name: trading,
        trading_symbol: trading,
        trading_exchange: exchange,
      });
    }

    function accounts(request: RithmicFields) {
      if (request.fcm_id !== FAKE_FCM || request.ib_id !== FAKE_IB)
        return reply(request, { template_id: 303, rp_code: ['3', 'invalid fcm_id/ib_id'] });
      reply(request, {
        template_id: 303,
        rq_handler_rp_code: OK,
        fcm_id: FAKE_FCM,
        ib_id: FAKE_IB,
        account_id: FAKE_ACCOUNT,
        account_name: FAKE_ACCOUNT,
        account_currency: 'USD',
        account_auto_liquidate: 'enabled',
      });
      return reply(request, { template_id: 303, rp_code: OK });
    }

    function order(request: RithmicFields) {
      const problem = orderProblem(request);
      const answer = request.template_id + 1;
      if (problem) return reply(request, { template_id: answer, user_tag: request.user_tag, rp_code: ['3', problem] });
      const at = now();
      const { order: booked, notifications } = book.place(request, at);
      const { rpCode, basket } = bookedWith ?? { rpCode: OK, basket: true };
      bookedWith = undefined;
      reply(request, {
        template_id: answer,
        user_tag: request.user_tag,
        rp_code: rpCode,
        ...(basket ? { basket_id: booked.basketId } : {}),
        ssboe: Math.floor(at / 1000),
        usecs: (at % 1000) * 1000,
      });
      if (subscribed) for (const notification of notifications) send(notification);
    }

    function cancel(request: RithmicFields) {
      if (request.manual_or_auto !== 1 && request.manual_or_auto !== 2)
        return reply(request, { template_id: 317, rp_code: ['3', 'manual_or_auto is required'] });
      const { problem, notifications } = book.cancel(String(request.basket_id ?? ''), now());
      if (problem) return reply(request, { template_id: 317, rp_code: ['5', problem] });
      reply(request, { template_id: 317, rp_code: OK, basket_id: request.basket_id });
      if (subscribed) for (const notification of notifications) send(notification);
    }
  });

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    baseUrl: `ws://127.0.0.1:${port}`,
    book,
    requests,
    counts,
    answerNext: (answer: RecordedAnswer) => {
      answers.push(answer);
    },
    /** The next order is booked but answered with this rp_code (with its basket_id unless told). */
    bookNextOrderAnswering: (rpCode: string[], basket = true) => {
      bookedWith = { rpCode, basket };
    },
    /** Answers the next request to this message (/RequestShowOrders) only after `heartbeats` more heartbeats. */
    holdNext: (path: string, heartbeats: number) => {
      holds.set(path, heartbeats);
    },
    close: async () => {
      for (const client of server.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

export type RithmicFake = Awaited<ReturnType<typeof startRithmicFake>>;

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startRithmicFake();
  return {
    config: { baseUrl: fake.baseUrl },
    credentials: () => ({ ...FAKE_CREDENTIALS }),
    signal: { symbol: 'ESH2027', action: 'buy', quantity: 1 },
    orderCount: () => fake.book.orders.length,
    requests: () => fake.requests,
    answerNext: fake.answerNext,
    close: fake.close,
  };
};
