// The protocol fake's order routes (WIRE.md §4-7): placing with IBKR's questions (o354 without
// market data, o163 for a limit price over 3 % away, and any a test asks for; none that the
// session suppressed), /iserver/reply/{id}, what-if, modify (the full ticket again, the same
// questions), cancel, status by id, live orders, trades.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  checkGroup,
  checkTicket,
  costOf,
  duplicateError,
  duplicateOf,
  FakeAnswer,
  type FakeLeg,
  type FakeOrder,
  type FakeTicket,
  legsOf,
  refused,
  ticketsOf,
} from './fake-book.ts';
import { type FakeLedger, liveOrderView, orderStatusView, place, tradeView } from './fake-fills.ts';
import type { FakeContract, FakeMarket } from './fake-market.ts';

export interface FakeQuestion {
  messageId: string;
  message: string;
}

export interface OrderRoutesOptions {
  ledger: FakeLedger;
  market: FakeMarket;
  now: () => number;
  /** Whether the login has market data; without it every order asks o354. */
  marketData: boolean;
  /** Questions a test wants asked on the next order, in order. */
  questions: FakeQuestion[];
  suppressed: Set<string>;
  /** Whether this live orders list is the session's first while it warms up: empty then. */
  coldList: () => boolean;
}

type Resolved = { ticket: FakeTicket; contract: FakeContract; legs?: FakeLeg[] };
interface Pending {
  questions: FakeQuestion[];
  /** What is done once the questions are answered: the answer. */
  act: () => unknown;
}

const NO_MARKET_DATA =
  'You are submitting an order without market data. We strongly recommend against this as it may result in erroneous and unexpected trades.\nAre you sure you want to submit this order?';
const LIVE_FILTERS =
  /^(inactive|pending_submit|pre_submitted|submitted|filled|pending_cancel|cancelled|warn_state|sort_by_time)(,(inactive|pending_submit|pre_submitted|submitted|filled|pending_cancel|cancelled|warn_state|sort_by_time))*$/;

export function registerOrderRoutes(app: FastifyInstance, options: OrderRoutesOptions): void {
  const { ledger, market, now } = options;
  const pending = new Map<string, Pending>();
  const answer = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof FakeAnswer)) throw error;
    return reply.code(error.status).send(error.body);
  };

  function resolve(accountId: string, body: unknown): Resolved[] {
    if (!ledger.accounts.has(accountId)) throw new FakeAnswer(500, { error: `Account ${accountId} not found` });
    const tickets = ticketsOf(body);
    checkGroup(tickets);
    let cost = 0;
    const resolved = tickets.map((ticket): Resolved => {
      const combo = ticket.conidex !== undefined ? legsOf(ticket.conidex, market) : undefined;
      const contract = combo?.contract ?? market.byConid(ticket.conid ?? 0);
      if (!contract) throw refused(`No contract found for conid ${ticket.conid}`);
      checkTicket(ticket, accountId, contract);
      cost += ticket.parentId ? 0 : costOf(ticket, contract);
      return { ticket, contract, ...(combo ? { legs: combo.legs } : {}) };
    });
    if (cost > (ledger.accounts.get(accountId)?.cash ?? 0))
      throw refused('Order rejected: insufficient available funds');
    return resolved;
  }

  function questionsFor(tickets: Resolved[]): FakeQuestion[] {
    const asked = options.questions.splice(0);
    const [entry] = tickets;
    if (!options.marketData) asked.push({ messageId: 'o354', message: NO_MARKET_DATA });
    const limit = entry?.ticket.orderType === 'LMT' ? entry.ticket.price : undefined;
    if (
      entry &&
      !entry.legs &&
      limit !== undefined &&
      Math.abs(limit - entry.contract.price) > entry.contract.price * 0.03
    ) {
      const text = `${entry.ticket.side} ${entry.ticket.quantity} ${entry.contract.symbol} ${entry.contract.exchange} @ ${limit}`;
      asked.push({
        messageId: 'o163',
        message: `The following order "${text}" price exceeds \nthe Percentage constraint of 3%.\nAre you sure you want to submit this order?`,
      });
    }
    return asked.filter((question) => !options.suppressed.has(question.messageId));
  }

  /** Asks the next question, or acts (places or modifies the order). */
  function proceed(request: Pending) {
    const [question, ...rest] = request.questions;
    if (question) {
      const id = randomUUID();
      pending.set(id, { ...request, questions: rest });
      return [{ id, message: [question.message], isSuppressed: false, messageIds: [question.messageId] }];
    }
    return request.act();
  }

  const placedView = (order: FakeOrder) => ({
    order_id: String(order.orderId),
    order_status: order.status,
    encrypt_message: '1',
  });

  function placeAll(accountId: string, tickets: Resolved[]) {
    // The cOID is taken when the order is placed, after its questions.
    const cOID = tickets[0]?.ticket.cOID;
    if (duplicateOf(ledger.orders, cOID, now())) throw duplicateError(cOID ?? '');
    return place(ledger, accountId, tickets, now()).map(placedView);
  }

  app.post('/v1/api/iserver/account/:accountId/orders', async (request, reply) => {
    const { accountId } = request.params as { accountId: string };
    try {
      const tickets = resolve(accountId, request.body);
      const cOID = tickets[0]?.ticket.cOID;
      if (duplicateOf(ledger.orders, cOID, now())) throw duplicateError(cOID ?? '');
      return proceed({ questions: questionsFor(tickets), act: () => placeAll(accountId, tickets) });
    } catch (error) {
      return answer(reply, error);
    }
  });

  // Modify: a single ticket object, the order's terms all given again; an order no longer working
  // is unknown to it (as to cancel).
  app.post('/v1/api/iserver/account/:accountId/order/:orderId', async (request, reply) => {
    const { accountId, orderId } = request.params as { accountId: string; orderId: string };
    try {
      const body = Array.isArray(request.body) ? undefined : request.body;
      const [ticket] = ticketsOf({ orders: [body] });
      const order = ledger.orders.find((o) => String(o.orderId) === orderId && o.account === accountId);
      if (!ticket || !order || ['Filled', 'Cancelled'].includes(order.status))
        return { error: `OrderID ${orderId} doesn't exist` };
      if (order.legs || ticket.conid !== order.contract.conid || ticket.side !== order.side)
        throw refused('The contract and side of an order cannot be modified');
      checkTicket(ticket, accountId, order.contract);
      if (ticket.quantity < order.filled)
        throw refused(`Order quantity cannot be less than the ${order.filled} filled`);
      const { quantity, orderType, price, auxPrice, tif, outsideRTH } = ticket;
      const act = () => {
        Object.assign(order, { quantity, orderType, price, auxPrice, tif, outsideRTH });
        return [placedView(order)];
      };
      return proceed({ questions: questionsFor([{ ticket, contract: order.contract }]), act });
    } catch (error) {
      return answer(reply, error);
    }
  });

  app.post('/v1/api/iserver/reply/:replyId', async (request, reply) => {
    const { replyId } = request.params as { replyId: string };
    const { confirmed } = (request.body ?? {}) as { confirmed?: unknown };
    if (typeof confirmed !== 'boolean')
      return reply.code(400).send({ error: 'confirmed is required', statusCode: 400 });
    const waiting = pending.get(replyId);
    if (!waiting) return { error: `reply id not found: '${replyId}'` };
    pending.delete(replyId);
    if (!confirmed) return { error: 'Order not confirmed ' };
    try {
      return proceed(waiting);
    } catch (error) {
      return answer(reply, error);
    }
  });

  app.post('/v1/api/iserver/account/:accountId/orders/whatif', async (request, reply) => {
    const { accountId } = request.params as { accountId: string };
    try {
      const [entry] = resolve(accountId, request.body);
      const value = entry ? costOf({ ...entry.ticket, side: 'BUY' }, entry.contract) : 0;
      const units = `${entry?.ticket.quantity ?? 0} ${entry?.contract.secType === 'STK' ? 'Shares' : 'Contracts'}`;
      const cash = ledger.accounts.get(accountId)?.cash ?? 0;
      return {
        amount: {
          amount: `${value.toFixed(2)} USD (${units})`,
          commission: '1 USD',
          total: `${(value + 1).toFixed(2)} USD`,
        },
        equity: { current: cash.toFixed(0), change: '-1', after: (cash - 1).toFixed(0) },
        initial: { current: '0', change: value.toFixed(0), after: value.toFixed(0) },
        maintenance: { current: '0', change: value.toFixed(0), after: value.toFixed(0) },
        position: {
          current: '0',
          change: String(entry?.ticket.quantity ?? 0),
          after: String(entry?.ticket.quantity ?? 0),
        },
        warn: options.marketData
          ? null
          : '21/You are trying to submit an order without having market data for this instrument.',
        error: null,
      };
    } catch (error) {
      if (error instanceof FakeAnswer && error.status === 200) return { ...(error.body as object), amount: null };
      return answer(reply, error);
    }
  });

  app.delete('/v1/api/iserver/account/:accountId/order/:orderId', async (request) => {
    const { accountId, orderId } = request.params as { accountId: string; orderId: string };
    const order = ledger.orders.find((o) => String(o.orderId) === orderId && o.account === accountId);
    if (!order || ['Filled', 'Cancelled'].includes(order.status)) return { error: `OrderID ${orderId} doesn't exist` };
    const status = order.status;
    order.status = 'Cancelled';
    return { msg: 'Request was submitted', order_id: orderId, order_status: status, encrypt_message: '1' };
  });

  app.get('/v1/api/iserver/account/order/status/:orderId', async (request, reply) => {
    const { orderId } = request.params as { orderId: string };
    const order = ledger.orders.find((o) => String(o.orderId) === orderId);
    if (!order) return reply.code(503).send({ error: 'Service Unavailable', statusCode: 503 });
    return orderStatusView(order);
  });

  app.get('/v1/api/iserver/account/orders', async (request, reply) => {
    const { filters, force } = request.query as { filters?: string; force?: string };
    if (filters !== undefined && !LIVE_FILTERS.test(filters))
      return reply.code(400).send({ error: `invalid filters ${filters}`, statusCode: 400 });
    // force=true clears IBKR's cache and answers an empty list (the spec's own words).
    if (force === 'true' || options.coldList()) return { orders: [], snapshot: false };
    const wanted = filters?.split(',').filter((f) => f !== 'sort_by_time');
    const statusKey = (status: string) => status.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
    const orders = ledger.orders.filter((o) => !wanted?.length || wanted.includes(statusKey(o.status)));
    return { orders: orders.map(liveOrderView), snapshot: true };
  });

  app.get('/v1/api/iserver/account/trades', async (request) => {
    const { days } = request.query as { days?: string };
    const since = now() - Math.min(Number(days ?? 1) || 1, 7) * 24 * 60 * 60_000;
    return ledger.executions.map(tradeView).filter((_, index) => (ledger.executions[index]?.time ?? 0) >= since);
  });
}
