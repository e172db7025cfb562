// Traders for hook tests: a user with credits, a connected broker and a hook; and a broker whose
// behaviour a test switches (slow, outcome unknown, refusing) to drill the exactly-once path.
import {
  type Broker,
  type BrokerCapabilities,
  BrokerError,
  NO_CAPABILITIES,
  recordBrokerRequest,
} from '@router/brokers';
import type { Order, OrderResponse } from '@router/orders';
import type { LightMyRequestResponse } from 'fastify';
import { type Queryable, recordSignalOutcomes, storeSignals } from '../src/db/repositories/signals.repository.ts';
import { activateConnector } from '../src/modules/connectors/index.ts';
import { createHook } from '../src/modules/hooks/index.ts';
import { insertTestUser, type TestApp } from './app.ts';

export async function setupTrader(
  t: TestApp,
  email: string,
  options: { credits?: number; isTest?: boolean; provider?: string } = {},
) {
  const { id: userId, headers } = await insertTestUser(t.services, email);
  await t.services.db.$client.query('insert into accounts (user_id, balance, credits) values ($1, $2, $2)', [
    userId,
    options.credits ?? 5,
  ]);
  const actor = { userId, address: null };
  const connector = await activateConnector(t.services, actor, options.provider ?? 'paper', []);
  const accountId = connector.accounts[0]?.id as string;
  const hook = await createHook(t.services, actor, {
    connectorKey: connector.key,
    accountId,
    name: 'Main',
    isTest: options.isTest ?? false,
  });
  const addHook = (isTest: boolean) =>
    createHook(t.services, actor, { connectorKey: connector.key, accountId, name: 'More', isTest });
  return { userId, headers, connector, accountId, hook, shortKey: hook.shortKey, addHook };
}

export function postSignal(
  t: TestApp,
  shortKey: string,
  body: string | Record<string, unknown>,
  contentType = 'application/json',
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/hook/${shortKey}`,
    headers: { 'content-type': contentType },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export async function balanceOf(t: TestApp, userId: number): Promise<number> {
  const { rows } = await t.services.db.$client.query<{ balance: number }>(
    'select balance from accounts where user_id = $1',
    [userId],
  );
  return rows[0]?.balance ?? Number.NaN;
}

export async function paperOrders(t: TestApp, accountId: string): Promise<Array<{ client_order_id: string }>> {
  const { rows } = await t.services.db.$client.query<{ client_order_id: string }>(
    'select client_order_id from paper_orders where account_id = $1',
    [accountId],
  );
  return rows;
}

export async function signalRows(t: TestApp, userId: number) {
  const { rows } = await t.services.db.$client.query<{
    id: string;
    status: string;
    credit_held: boolean;
    is_test: boolean;
    broker_order_id: string | null;
    response: Record<string, unknown> | null;
  }>('select id, status, credit_held, is_test, broker_order_id, response from signals where user_id = $1 order by id', [
    userId,
  ]);
  return rows;
}

/**
 * Polls `check` until it returns true (after-response writes), at most `ms`: 10 s by default, the
 * room the other waits have (a busy CI machine delays a 200 ms activity flush by seconds); a
 * passing check returns at its first true, so the bound only decides when a failure is told.
 */
export async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `reading`: slow as `slow`, after a read that changes nothing (IBKR's close waiting for its live orders). */
export type FlakyMode = 'fill' | 'slow' | 'reading' | 'unknown' | 'lost' | 'refuse' | 'auth' | 'echo';

export interface FlakyBroker {
  broker: Broker;
  mode: FlakyMode;
  delayMs: number;
  /** Orders the broker really has, by client order id. */
  orders: Map<string, OrderResponse>;
  calls: { placeOrder: number; lookups: number };
}

export const FLAKY_TITLE = 'Flaky Broker';

/**
 * How the broker finds an order again: by our client order id, only by its own id, by its terms
 * among the recent orders (it keeps no client order id), or not at all.
 */
export type FlakyLookup = 'clientId' | 'brokerId' | 'terms' | 'nothing';

const LOOKUPS: Record<FlakyLookup, Partial<BrokerCapabilities>> = {
  clientId: { findOrderByClientId: true, findOrderByBrokerId: true, idempotencyKey: true },
  brokerId: { findOrderByBrokerId: true },
  terms: { findOrderByBrokerId: true, listRecentOrders: true },
  nothing: {},
};

/** What a terms lookup compares: instrument, side and quantity. */
const termsOf = (order: Order) => `${order.symbol} ${order.action} ${order.quantity}`;

/** A credentials broker (default 'flaky') whose placeOrder misbehaves as `mode` says. */
export function flakyBroker(options: { name?: string; knows?: FlakyLookup } = {}): FlakyBroker {
  const knows = options.knows ?? 'clientId';
  const handle: FlakyBroker = {
    mode: 'fill',
    delayMs: 0,
    orders: new Map(),
    calls: { placeOrder: 0, lookups: 0 },
    broker: undefined as unknown as Broker,
  };
  const terms = new Map<string, string>();
  // One account for every user (F-1): its order ids are never reused, even after orders.clear().
  let placed = 0;
  const keep = (clientOrderId: string): OrderResponse => {
    placed += 1;
    const order: OrderResponse = {
      id: `FB-${placed}`,
      status: 'filled',
      status_description: 'Filled',
      price: 10,
    };
    handle.orders.set(clientOrderId, order);
    return order;
  };
  const lookedUp = (found: OrderResponse | undefined) => {
    handle.calls.lookups += 1;
    return Promise.resolve(found ?? null);
  };
  handle.broker = {
    descriptor: {
      name: options.name ?? 'flaky',
      title: FLAKY_TITLE,
      status: 'active',
      has: { ...NO_CAPABILITIES, ...LOOKUPS[knows] },
      clientOrderId: knows === 'clientId' ? { maxLength: 64, pattern: '^.+$' } : null,
      authentication: { type: 'credentials', credentials: [] },
      reference: {
        symbol: { required: true },
        action: { required: true, values: ['buy', 'sell'] },
        quantity: { required: true },
        type: { values: ['market', 'limit'] },
        limit_price: {},
        duration: { values: ['day', 'gtc'] },
        client_id: {},
      },
    },
    async connect() {
      return { secrets: { token: 'secret' }, accounts: [{ id: 'F-1', name: 'Flaky account', demo: false }] };
    },
    async placeOrder(_ctx, session, { clientOrderId, order }) {
      handle.calls.placeOrder += 1;
      terms.set(clientOrderId, termsOf(order));
      switch (handle.mode) {
        case 'reading':
        case 'slow':
          if (handle.mode === 'reading') recordBrokerRequest({ method: 'GET', path: '/orders', mutating: false });
          await new Promise((resolve) => setTimeout(resolve, handle.delayMs));
          return keep(clientOrderId);
        case 'unknown':
          keep(clientOrderId);
          throw new BrokerError('BrokerUnavailable', FLAKY_TITLE, 'connection dropped', { outcomeUnknown: true });
        case 'lost':
          throw new BrokerError('BrokerUnavailable', FLAKY_TITLE, 'connection dropped', { outcomeUnknown: true });
        case 'refuse':
          throw new BrokerError('InsufficientFunds', FLAKY_TITLE, 'insufficient buying power');
        case 'auth':
          throw new BrokerError('AuthenticationError', FLAKY_TITLE, 'token revoked');
        case 'echo':
          // A broker answering a bad request with the request's own headers.
          throw new BrokerError(
            'InvalidOrder',
            FLAKY_TITLE,
            `bad request (Authorization: Bearer ${session.secrets.token})`,
          );
        default:
          return keep(clientOrderId);
      }
    },
    ...(knows === 'clientId'
      ? { findByClientId: (_ctx, _session, _accountId, clientOrderId) => lookedUp(handle.orders.get(clientOrderId)) }
      : {}),
    ...(knows === 'terms'
      ? {
          listRecentOrders: (_ctx, _session, query) => {
            handle.calls.lookups += 1;
            const wanted = query.order && termsOf(query.order);
            const listed = [...handle.orders].filter(([clientOrderId]) => terms.get(clientOrderId) === wanted);
            return Promise.resolve(listed.map(([, order]) => ({ order, match: 'terms' as const })));
          },
        }
      : {}),
    ...(knows !== 'nothing'
      ? {
          findByBrokerId: (_ctx, _session, _accountId, brokerOrderId) =>
            lookedUp([...handle.orders.values()].find((order) => order.id === brokerOrderId)),
        }
      : {}),
  };
  return handle;
}

/**
 * Stores a live signal of the trader's hook as the hook does, and rejects stored ones (credit
 * released) as the hook's outcome statement does, on `db` (default: the pool; a client inside a
 * transaction to hold the signal's row).
 */
export async function hookBooks(
  t: TestApp,
  trader: Awaited<ReturnType<typeof setupTrader>>,
  db: Queryable = t.services.db.$client,
) {
  const { rows } = await db.query<{ id: string }>('select connector_id as id from hooks where id = $1', [
    trader.hook.id,
  ]);
  const store = (id: string) =>
    storeSignals(
      db,
      [
        {
          id,
          hookId: trader.hook.id,
          key: id,
          userId: trader.userId,
          isTest: false,
          connectorId: Number(rows[0]?.id),
          accountId: trader.accountId,
          providerName: 'paper',
          request: '{}',
          order: '{}',
          response: null,
          address: null,
        },
      ],
      60,
    );
  const reject = (...ids: string[]) =>
    recordSignalOutcomes(
      db,
      ids.map((id) => ({
        id,
        from: 'placing',
        status: 'rejected',
        brokerOrderId: null,
        price: null,
        response: null,
        elapsedMs: null,
        releaseCredit: true,
      })),
    );
  return { store, reject };
}
