// The fake's order routes, as tastytrade answers them: place (201 {"data":{"order":…,
// "buying-power-effect":…}}), dry-run (the same, no id, nothing kept), complex orders (OTO, OTOCO:
// exits Contingent until the trigger fills; OCO), get, today's orders (/orders/live) and the
// history by time (both paginated), and cancel of an order or a complex order (200, 'Cancel Requested'; 'Cancelled' on
// the next read).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type FakeAccount, FakeRefusal, type Json, list, validateOrder } from './fake-book.ts';
import { effects, type FakeOrder, isOpen, orderView, tryFill } from './fake-ledger.ts';
import { COMPLEX_ORDER_SCHEMA, ORDER_SCHEMA } from './fake-schema.ts';

export interface FakeState {
  accounts: Map<string, FakeAccount>;
  orders: FakeOrder[];
  quotes: Record<string, number>;
  now: () => number;
}

const notFound = (what: string) => new FakeRefusal(404, 'record_not_found', `${what} not found`);

export function registerOrderRoutes(app: FastifyInstance, state: FakeState): void {
  const { orders, quotes, now } = state;
  let nextId = 1_075_999;
  let nextComplexId = 90_001;

  const accountOf = (request: FastifyRequest) => {
    const account = state.accounts.get((request.params as { account: string }).account);
    if (!account) throw notFound('Account');
    return account;
  };
  const answer = (reply: FastifyReply, context: string, work: () => unknown, status = 200) => {
    try {
      return reply.code(status).send({ data: work(), context });
    } catch (error) {
      if (!(error instanceof FakeRefusal)) throw error;
      return reply.code(error.status).send(error.body);
    }
  };
  const checked = (request: FastifyRequest) => {
    if (request.validationError) {
      throw new FakeRefusal(400, 'validation_error', 'Request validation failed', [
        { code: 'invalid', message: request.validationError.message },
      ]);
    }
    return { account: accountOf(request), body: (request.body ?? {}) as Json };
  };
  const newOrder = (account: FakeAccount, body: Json, complexOrderId?: number, dryRun = false): FakeOrder => ({
    id: dryRun ? 0 : nextId++,
    account,
    body,
    status: 'Routed',
    receivedAt: now(),
    updatedAt: now(),
    ...(complexOrderId ? { complexOrderId } : {}),
  });
  /** Routes a new order: filled at once when marketable, else Live. */
  const route = (order: FakeOrder) => {
    if (tryFill(order, quotes, now())) for (const exit of order.contingent ?? []) route(exit);
    else order.status = 'Live';
  };
  const refresh = () => {
    for (const order of orders) {
      if (order.status === 'Cancel Requested') Object.assign(order, { status: 'Cancelled', updatedAt: now() });
    }
  };
  const withBody = { schema: { body: ORDER_SCHEMA }, attachValidation: true };
  const withComplexBody = { schema: { body: COMPLEX_ORDER_SCHEMA }, attachValidation: true };

  /** An OCO complex order: two orders, no trigger, both routed; one filling cancels the other. */
  const oco = (account: FakeAccount, body: Json, pair: Json[], dryRun: boolean) => {
    if (body['trigger-order'] !== undefined || pair.length !== 2)
      throw new FakeRefusal(400, 'validation_error', 'OCO takes two orders and no trigger-order');
    const cost = pair.reduce((sum, item) => sum + validateOrder(item, account, quotes), 0);
    const id = dryRun ? 0 : nextComplexId++;
    const created = pair.map((item) => newOrder(account, item, id, dryRun));
    const view = () => ({ id, 'account-number': account.number, type: 'OCO', orders: created.map(orderView) });
    if (dryRun) return { 'complex-order': { ...view(), id: undefined }, ...effects(cost, account.cash) };
    orders.push(...created);
    for (const order of created) route(order);
    return { 'complex-order': view(), ...effects(cost, account.cash) };
  };

  for (const dryRun of [false, true]) {
    const suffix = dryRun ? '/dry-run' : '';
    app.post(`/accounts/:account/orders${suffix}`, withBody, async (request, reply) =>
      answer(
        reply,
        request.url,
        () => {
          const { account, body } = checked(request);
          const cost = validateOrder(body, account, quotes);
          const order = newOrder(account, body, undefined, dryRun);
          if (dryRun)
            return {
              order: { ...orderView(order), id: undefined, status: 'Received' },
              ...effects(cost, account.cash),
            };
          orders.push(order);
          const view = orderView(order);
          route(order);
          return { order: view, ...effects(cost, account.cash) };
        },
        201,
      ),
    );
    app.post(`/accounts/:account/complex-orders${suffix}`, withComplexBody, async (request, reply) =>
      answer(
        reply,
        request.url,
        () => {
          const { account, body } = checked(request);
          const trigger = body['trigger-order'] as Json | undefined;
          const exits = list(body.orders);
          if (body.type === 'OCO') return oco(account, body, exits, dryRun);
          if (
            !trigger ||
            (body.type === 'OTOCO') !== (exits.length === 2) ||
            (body.type === 'OTO') !== (exits.length === 1)
          ) {
            throw new FakeRefusal(400, 'validation_error', 'OTO takes one order and OTOCO two, after a trigger-order');
          }
          const cost = validateOrder(trigger, account, quotes);
          for (const exit of exits) validateOrder(exit, account, quotes, true);
          const id = dryRun ? 0 : nextComplexId++;
          const entry = newOrder(account, trigger, id, dryRun);
          entry.contingent = exits.map((exit) => ({ ...newOrder(account, exit, id, dryRun), status: 'Contingent' }));
          const complex = () => ({
            id,
            'account-number': account.number,
            type: body.type,
            'trigger-order': orderView(entry),
            orders: (entry.contingent ?? []).map(orderView),
          });
          if (dryRun) return { 'complex-order': { ...complex(), id: undefined }, ...effects(cost, account.cash) };
          orders.push(entry, ...(entry.contingent ?? []));
          const view = complex();
          route(entry);
          return { 'complex-order': view, ...effects(cost, account.cash) };
        },
        201,
      ),
    );
  }

  const ownOrder = (request: FastifyRequest) => {
    const account = accountOf(request);
    const id = Number((request.params as { id: string }).id);
    const order = orders.find((item) => item.id === id && item.account === account);
    if (!order) throw notFound('Order');
    return order;
  };
  // Today's orders, all statuses (working ones whatever their day, those ended today), in the
  // order they came, a page at a time: per-page 100 unless asked, 200 at most (the reference's
  // getAccountsAccountNumberOrdersLive).
  app.get('/accounts/:account/orders/live', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const page = pageOf(query);
    if (!page) return reply.code(400).send(new FakeRefusal(400, 'validation_error', 'per-page must be 1 to 200').body);
    refresh();
    const today = easternDayStart(now());
    return listed(reply, request, page, (order) => isOpen(order) || order.updatedAt >= today, 'oldest');
  });
  app.get('/accounts/:account/orders/:id', async (request, reply) =>
    answer(reply, request.url, () => {
      refresh();
      return orderView(ownOrder(request));
    }),
  );
  app.delete('/accounts/:account/orders/:id', async (request, reply) =>
    answer(reply, request.url, () => {
      const order = ownOrder(request);
      if (!isOpen(order)) {
        throw new FakeRefusal(422, 'order_not_cancellable', `Order is ${order.status} and cannot be cancelled`);
      }
      order.status = 'Cancel Requested';
      order.updatedAt = now();
      for (const exit of order.contingent ?? []) Object.assign(exit, { status: 'Cancelled', updatedAt: now() });
      return orderView(order);
    }),
  );
  app.delete('/accounts/:account/complex-orders/:id', async (request, reply) =>
    answer(reply, request.url, () => {
      const account = accountOf(request);
      const id = Number((request.params as { id: string }).id);
      const components = orders.filter((item) => item.complexOrderId === id && item.account === account);
      if (components.length === 0) throw notFound('Complex order');
      // Every non-terminal component is asked to cancel.
      for (const order of components.filter(isOpen))
        Object.assign(order, { status: 'Cancel Requested', updatedAt: now() });
      return { id, 'account-number': account.number, orders: components.map(orderView) };
    }),
  );
  app.get('/accounts/:account/orders', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const page = pageOf(query);
    if (!page) return reply.code(400).send(new FakeRefusal(400, 'validation_error', 'per-page must be 1 to 200').body);
    const from = query['start-at'] ? Date.parse(query['start-at']) : Number.NEGATIVE_INFINITY;
    const to = query['end-at'] ? Date.parse(query['end-at']) : Number.POSITIVE_INFINITY;
    refresh();
    return listed(reply, request, page, (order) => order.receivedAt >= from && order.receivedAt <= to, 'newest');
  });

  /** The account's orders that `keep` keeps, `first` the newest or oldest, one page of them with its pagination. */
  function listed(
    reply: FastifyReply,
    request: FastifyRequest,
    { perPage, page }: { perPage: number; page: number },
    keep: (order: FakeOrder) => boolean,
    first: 'newest' | 'oldest',
  ) {
    try {
      const account = accountOf(request);
      const matching = orders
        .filter((order) => order.account === account && keep(order))
        .sort((a, b) => (b.receivedAt - a.receivedAt || b.id - a.id) * (first === 'newest' ? 1 : -1));
      const items = matching.slice(page * perPage, (page + 1) * perPage).map(orderView);
      const pagination = {
        'per-page': perPage,
        'page-offset': page,
        'item-offset': page * perPage,
        'total-items': matching.length,
        'total-pages': Math.ceil(matching.length / perPage),
      };
      return { data: { items }, context: request.url.split('?')[0], pagination };
    } catch (error) {
      if (!(error instanceof FakeRefusal)) throw error;
      return reply.code(error.status).send(error.body);
    }
  }
}

/** per-page (default 100, 1 to 200) and page-offset of a listing; undefined when out of range. */
function pageOf(query: Record<string, string | undefined>): { perPage: number; page: number } | undefined {
  const perPage = Number(query['per-page'] ?? 100);
  const page = Number(query['page-offset'] ?? 0);
  return perPage >= 1 && perPage <= 200 && page >= 0 ? { perPage, page } : undefined;
}

/** Midnight US Eastern (UTC-5, as the fake keeps it) of the day of `ms`. */
const easternDayStart = (ms: number) => {
  const offset = 5 * 3_600_000;
  return Math.floor((ms - offset) / 86_400_000) * 86_400_000 + offset;
};
