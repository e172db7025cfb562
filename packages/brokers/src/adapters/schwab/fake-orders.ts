// The fake's order routes: place (201, id in the Location header), preview, list by entered
// time (both bounds required, as Schwab requires them; child orders listed inside their parent,
// each with its id and status), get, replace and cancel. Bodies are checked as
// Schwab checks them (fake-book.ts); refusals are {"message":"...","errors":["..."]}.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type FakeAccount, type FakeOrder, FakeRejection, fill, orderCost, orderProblems } from './fake-book.ts';

export interface FakeState {
  accounts: Map<string, FakeAccount>;
  orders: Map<number, FakeOrder>;
  quote: (symbol: string) => number;
  now: () => number;
  nextOrderId: () => number;
  accountOf: (request: FastifyRequest) => FakeAccount;
  reject: (reply: FastifyReply, error: unknown) => unknown;
}

type Json = Record<string, unknown>;
// An order sent and not yet acknowledged is live too (and cancelable): a test may set it so.
const OPEN = new Set([
  'WORKING',
  'QUEUED',
  'PENDING_ACTIVATION',
  'PENDING_ACKNOWLEDGEMENT',
  'ACCEPTED',
  'AWAITING_PARENT_ORDER',
]);

function list(order: Json): Json[] {
  const legs = order.orderLegCollection;
  return Array.isArray(legs) ? (legs as Json[]).map((leg) => ({ ...leg, ...(leg.instrument as Json) })) : [];
}

export function registerOrderRoutes(app: FastifyInstance, state: FakeState): void {
  const { orders, quote, now, accountOf, reject } = state;
  const validate = (order: Json, account: FakeAccount) => {
    const problems = orderProblems(order);
    if (problems.length)
      throw new FakeRejection(400, 'A validation error occurred while processing the request.', problems);
    if (orderCost(order, quote) > account.cash) {
      throw new FakeRejection(400, 'Order rejected: insufficient buying power', [
        'The order exceeds your available funds',
      ]);
    }
  };
  /** An order with its child orders, each given an id; those of an order not yet filled await it. */
  const create = (account: FakeAccount, body: Json, status: string): FakeOrder => {
    const order: FakeOrder = {
      orderId: state.nextOrderId(),
      accountNumber: account.accountNumber,
      enteredTime: new Date(now()).toISOString(),
      status,
      body,
    };
    const children = Array.isArray(body.childOrderStrategies) ? (body.childOrderStrategies as Json[]) : [];
    const waiting = body.orderStrategyType === 'TRIGGER' ? 'AWAITING_PARENT_ORDER' : status;
    if (children.length) order.children = children.map((child) => create(account, child, waiting));
    return order;
  };
  /** The order of that id, a child order too. */
  const find = (id: number, among: Iterable<FakeOrder> = orders.values()): FakeOrder | undefined => {
    for (const order of among) {
      const found = order.orderId === id ? order : find(id, order.children ?? []);
      if (found) return found;
    }
    return undefined;
  };
  /** Ends an order and its open child orders (a canceled bracket takes its exits with it). */
  const end = (order: FakeOrder, status: string) => {
    order.status = status;
    for (const child of order.children ?? [])
      if (OPEN.has(child.status) || child.status === 'AWAITING_PARENT_ORDER') end(child, 'CANCELED');
  };
  const view = (order: FakeOrder): Json => ({
    ...order.body,
    orderId: order.orderId,
    accountNumber: Number(order.accountNumber),
    enteredTime: order.enteredTime,
    status: order.status,
    cancelable: OPEN.has(order.status) || order.status === 'AWAITING_PARENT_ORDER',
    ...(order.children ? { childOrderStrategies: order.children.map(view) } : {}),
    ...(order.fillPrice !== undefined
      ? {
          orderActivityCollection: [
            {
              activityType: 'EXECUTION',
              executionLegs: [{ price: order.fillPrice, quantity: Number(list(order.body)[0]?.quantity ?? 0) }],
            },
          ],
        }
      : {}),
  });

  app.post('/trader/v1/accounts/:hash/orders', async (request, reply) => {
    try {
      const account = accountOf(request);
      const body = (request.body ?? {}) as Json;
      validate(body, account);
      const order = create(account, body, 'WORKING');
      // A market order fills at once; a bracket's exits then work.
      if (body.orderType === 'MARKET' && body.orderStrategyType !== 'OCO') {
        order.fillPrice = fill(account, body, quote);
        order.status = 'FILLED';
        const work = (child: FakeOrder) => {
          child.status = 'WORKING';
          for (const grandchild of child.children ?? []) work(grandchild);
        };
        for (const child of order.children ?? []) work(child);
      }
      orders.set(order.orderId, order);
      const origin = `http://${request.headers.host}`;
      return reply
        .code(201)
        .header('location', `${origin}/trader/v1/accounts/${account.hashValue}/orders/${order.orderId}`)
        .send();
    } catch (error) {
      return reject(reply, error);
    }
  });
  app.post('/trader/v1/accounts/:hash/previewOrder', async (request, reply) => {
    try {
      const account = accountOf(request);
      const body = (request.body ?? {}) as Json;
      const problems = orderProblems(body);
      if (problems.length)
        throw new FakeRejection(400, 'A validation error occurred while processing the request.', problems);
      const value = orderCost(body, quote);
      const rejects =
        value > account.cash
          ? [{ message: 'Insufficient buying power for this order', validationRuleName: 'BuyingPower' }]
          : [];
      return {
        orderId: 0,
        orderStrategy: {
          ...body,
          price: Number(body.price ?? quote(String(list(body)[0]?.symbol ?? ''))),
          orderBalance: { orderValue: value },
        },
        orderValidationResult: { rejects, accepts: [] },
      };
    } catch (error) {
      return reject(reply, error);
    }
  });
  app.get('/trader/v1/accounts/:hash/orders', async (request, reply) => {
    try {
      const account = accountOf(request);
      const { fromEnteredTime, toEnteredTime } = request.query as Json;
      if (typeof fromEnteredTime !== 'string' || typeof toEnteredTime !== 'string') {
        throw new FakeRejection(400, 'fromEnteredTime and toEnteredTime are required');
      }
      const [from, to] = [Date.parse(fromEnteredTime), Date.parse(toEnteredTime)];
      return [...orders.values()]
        .filter((order) => order.accountNumber === account.accountNumber)
        .filter((order) => Date.parse(order.enteredTime) >= from && Date.parse(order.enteredTime) <= to)
        .map(view);
    } catch (error) {
      return reject(reply, error);
    }
  });
  app.get('/trader/v1/accounts/:hash/orders/:id', async (request, reply) => {
    try {
      accountOf(request);
      const order = find(Number((request.params as Json).id));
      if (!order) throw new FakeRejection(404, 'Order not found');
      return view(order);
    } catch (error) {
      return reject(reply, error);
    }
  });
  // Replace (PUT): the old order is canceled (REPLACED) and the new one created, its id in the
  // Location header of an empty 201, as for a placement.
  app.put('/trader/v1/accounts/:hash/orders/:id', async (request, reply) => {
    try {
      const account = accountOf(request);
      const old = find(Number((request.params as Json).id));
      if (!old || old.accountNumber !== account.accountNumber) throw new FakeRejection(404, 'Order not found');
      if (!OPEN.has(old.status)) throw new FakeRejection(400, `Order is ${old.status} and cannot be replaced`);
      const body = (request.body ?? {}) as Json;
      validate(body, account);
      end(old, 'REPLACED');
      const order = create(account, body, 'WORKING');
      orders.set(order.orderId, order);
      const origin = `http://${request.headers.host}`;
      return reply
        .code(201)
        .header('location', `${origin}/trader/v1/accounts/${account.hashValue}/orders/${order.orderId}`)
        .send();
    } catch (error) {
      return reject(reply, error);
    }
  });
  app.delete('/trader/v1/accounts/:hash/orders/:id', async (request, reply) => {
    try {
      accountOf(request);
      const order = find(Number((request.params as Json).id));
      if (!order) throw new FakeRejection(404, 'Order not found');
      if (!OPEN.has(order.status)) throw new FakeRejection(400, `Order is ${order.status} and cannot be canceled`);
      end(order, 'CANCELED');
      return reply.code(200).send();
    } catch (error) {
      return reject(reply, error);
    }
  });
}
