// The fake's trading routes (WIRE.md §4, §5, §7): placing a single order, an entry with related
// orders, or two orders one-cancels-other; Saxo's 15-second rule (the same order with the same
// X-Request-ID again → 409); legs on the wrong side of the market refused while the others stand
// (400 with the placed OrderIds beside the ErrorInfo); precheck; modify (PATCH); cancel by
// comma-separated ids.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  business,
  type CheckedOrder,
  checkOco,
  checkOrder,
  checkRelated,
  checkTicks,
  costOf,
  FakeRefusal,
  list,
  record,
} from './fake-book.ts';
import { type FakeAccount, type FakeOrder, type FakeState, fill, logActivity, newOrder } from './fake-state.ts';

type Json = Record<string, unknown>;
const DUPLICATE_WINDOW_MS = 15_000;

/** A resting leg already through the market: Saxo refuses it (OnWrongSideOfMarket). */
function wrongSide(order: CheckedOrder): boolean {
  const price = Number(order.body.OrderPrice);
  const market = order.instrument.price;
  const buy = order.body.BuySell === 'Buy';
  if (order.body.OrderType === 'Limit') return buy ? price > market : price < market;
  if (String(order.body.OrderType).includes('Stop')) return buy ? price < market : price > market;
  return false;
}
const WRONG_SIDE = { ErrorCode: 'OnWrongSideOfMarket', Message: 'Price is on wrong side of market' };

export function registerOrderRoutes(app: FastifyInstance, state: FakeState, prefix: string): void {
  const recent: Array<{ key: string; at: number }> = [];
  const accountKeys = () => new Set(state.accounts.keys());
  const accountOf = (order: CheckedOrder): FakeAccount =>
    state.accounts.get(String(order.body.AccountKey)) as FakeAccount;
  const refuse = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof FakeRefusal)) throw error;
    return reply.code(error.status).send(error.body);
  };

  /** The 15-second rule: an identical request with the same X-Request-ID (or none) is a duplicate. */
  function checkDuplicate(request: FastifyRequest): void {
    const now = state.now();
    const key = `${String(request.headers['x-request-id'] ?? '')}|${JSON.stringify(request.body)}`;
    while (recent[0] && now - recent[0].at > DUPLICATE_WINDOW_MS) recent.shift();
    if (recent.some((item) => item.key === key))
      throw business(409, 'DuplicateOperation', 'Duplicate operation not allowed. Please wait before retrying');
    recent.push({ key, at: now });
  }

  function checkFunds(orders: CheckedOrder[]): void {
    const cost = orders.reduce((sum, order) => sum + costOf(order), 0);
    const [first] = orders;
    if (first && cost > accountOf(first).cash) {
      throw business(400, 'InsufficientFunds', 'Insufficient cash available for the order');
    }
  }

  function place(entry: CheckedOrder, relation: FakeOrder['OrderRelation']): FakeOrder {
    const order = newOrder(state, accountOf(entry), entry, relation);
    state.open.set(order.OrderId, order);
    logActivity(state, order, 'Placed');
    return order;
  }

  app.post(`${prefix}/trade/v2/orders`, async (request, reply) => {
    try {
      const body = record(request.body) ?? {};
      const children = list(body.Orders);
      const oco = body.Uic === undefined && children.length > 0;
      const entry = oco ? undefined : checkOrder(body, accountKeys());
      const legs = children.map((child, index) => checkOrder(child, accountKeys(), `Orders[${index}].`));
      if (entry) checkRelated(entry, legs);
      else checkOco(legs);
      checkTicks(entry ? [entry, ...legs] : legs);
      checkFunds(entry ? [entry] : legs);
      checkDuplicate(request);
      const placeLegs = (relation: FakeOrder['OrderRelation']) =>
        legs.map((leg) =>
          wrongSide(leg)
            ? {
                ErrorInfo: WRONG_SIDE,
                ...(leg.body.ExternalReference ? { ExternalReference: leg.body.ExternalReference } : {}),
              }
            : place(leg, relation),
        );
      if (!entry) {
        const placed = placeLegs('Oco');
        const answer = placed.map((leg) =>
          'OrderId' in leg
            ? {
                OrderId: leg.OrderId,
                ...(leg.body.ExternalReference ? { ExternalReference: leg.body.ExternalReference } : {}),
              }
            : leg,
        );
        return reply.code(placed.some((leg) => 'ErrorInfo' in leg) ? 400 : 200).send({ Orders: answer });
      }
      const master = place(entry, legs.length ? 'IfDoneMaster' : 'StandAlone');
      const exits = placeLegs('IfDoneSlave');
      for (const exit of exits) {
        if ('OrderId' in exit) {
          master.related.push(exit.OrderId);
          exit.Status = 'NotWorking';
        }
      }
      if (entry.body.OrderType === 'Market') {
        fill(state, master);
        for (const id of master.related) {
          const exit = state.open.get(id);
          if (exit) exit.Status = 'Working';
        }
      }
      const answer: Json = { OrderId: master.OrderId };
      if (exits.length) answer.Orders = exits.map((exit) => ('OrderId' in exit ? { OrderId: exit.OrderId } : exit));
      return reply.code(exits.some((exit) => 'ErrorInfo' in exit) ? 400 : 200).send(answer);
    } catch (error) {
      return refuse(reply, error);
    }
  });

  app.post(`${prefix}/trade/v2/orders/precheck`, async (request, reply) => {
    try {
      const body = { ManualOrder: false, ...record(request.body) };
      const checked = checkOrder(body, accountKeys());
      checkTicks([checked]);
      const cost = costOf(checked);
      const account = accountOf(checked);
      return {
        EstimatedCashRequired: cost,
        EstimatedCashRequiredCurrency: account.Currency,
        ...(cost > account.cash
          ? { ErrorInfo: { ErrorCode: 'InsufficientFunds', Message: 'Insufficient cash available for the order' } }
          : {}),
        PreCheckResult: cost > account.cash ? 'Error' : 'Ok',
      };
    } catch (error) {
      // Business refusals come back as a precheck result, not as an HTTP error.
      if (error instanceof FakeRefusal && record(error.body.ErrorInfo)) {
        return { ErrorInfo: error.body.ErrorInfo, EstimatedCashRequired: 0, PreCheckResult: 'Error' };
      }
      return refuse(reply, error);
    }
  });

  // Modify (PATCH): the open order changed in place to the type, price, amount and duration given.
  app.patch(`${prefix}/trade/v2/orders`, async (request, reply) => {
    const body = record(request.body) ?? {};
    const order = state.open.get(String(body.OrderId));
    if (!order || order.account.AccountKey !== body.AccountKey) {
      return reply.code(404).send({ ErrorInfo: { ErrorCode: 'OrderNotFound', Message: 'Order not found' } });
    }
    try {
      const { OrderId: _id, ...terms } = body;
      const changed = { ...order.body, ...terms, Uic: order.instrument.Identifier, BuySell: order.body.BuySell };
      const checked = checkOrder(changed, accountKeys());
      checkTicks([checked]);
      if (order.Status === 'Working' && wrongSide(checked))
        throw business(400, WRONG_SIDE.ErrorCode, WRONG_SIDE.Message);
      order.body = checked.body;
      order.amount = Number(checked.body.Amount);
      logActivity(state, order, 'Changed');
      return { OrderId: order.OrderId };
    } catch (error) {
      return refuse(reply, error);
    }
  });

  app.delete(`${prefix}/trade/v2/orders/:ids`, async (request, reply) => {
    const accountKey = (request.query as { AccountKey?: string }).AccountKey;
    const ids = (request.params as { ids: string }).ids.split(',');
    const orders = ids.map((id) => state.open.get(id));
    if (orders.some((order) => !order || order.account.AccountKey !== accountKey)) {
      return reply.code(404).send({ ErrorInfo: { ErrorCode: 'OrderNotFound', Message: 'Order not found' } });
    }
    for (const order of orders as FakeOrder[]) {
      // A canceled entry takes its related orders with it.
      for (const id of [order.OrderId, ...order.related]) {
        const canceled = state.open.get(id);
        if (!canceled) continue;
        state.open.delete(id);
        logActivity(state, canceled, 'Cancelled');
      }
    }
    return { Orders: ids.map((OrderId) => ({ OrderId })) };
  });
}
