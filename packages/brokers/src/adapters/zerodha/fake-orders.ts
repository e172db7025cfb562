// The Kite fake's orders: placement (checked by fake-book.ts), the day's book, each order's
// history (oldest state first, as order_info.json), cancel, modify and trades. Kite answers a
// placement with the order id once it has taken it; RMS checks follow, so a placement without
// margin is answered 200 and its order is REJECTED with Kite's status_message. Market orders fill
// at once; limit orders fill when marketable; stop orders wait (TRIGGER PENDING).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FakeAccount } from './fake-account.ts';
import { checkPlacement, instrumentOf, KiteRefusal } from './fake-book.ts';
import { kiteRefusal } from './fake-login.ts';
import { formatKiteTime } from './kite-time.ts';

export type FakeKiteOrder = Record<string, unknown> & { order_id: string; status: string; history: object[] };

export interface FakeTrade {
  trade_id: string;
  order_id: string;
  exchange: string;
  tradingsymbol: string;
  instrument_token: number;
  product: string;
  average_price: number;
  quantity: number;
  exchange_order_id: string;
  transaction_type: string;
  fill_timestamp: string;
  order_timestamp: string;
  exchange_timestamp: string;
}

export interface OrderBookOptions {
  userId: string;
  account: FakeAccount;
  now: () => number;
}

const FINAL = ['COMPLETE', 'CANCELLED', 'REJECTED'];
const ok = (data: unknown) => ({ status: 'success', data });

export function registerOrders(app: FastifyInstance, options: OrderBookOptions) {
  const { account, now } = options;
  const orders: FakeKiteOrder[] = [];
  const trades: FakeTrade[] = [];
  /** Margin each live order holds, by order id. */
  const blocked = new Map<string, number>();
  let sequence = 0;
  const newId = () => String((BigInt(now()) << 20n) + BigInt(++sequence));

  const refuse = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof KiteRefusal)) throw error;
    return kiteRefusal(reply, error.status, error.errorType, error.message);
  };

  /** Moves the order to a new state, recorded in its history. */
  function setState(order: FakeKiteOrder, status: string, changes: Record<string, unknown> = {}) {
    const time = formatKiteTime(now());
    Object.assign(order, changes, { status, exchange_update_timestamp: time });
    const { history, ...state } = order;
    history.push(structuredClone(state));
  }

  function fill(order: FakeKiteOrder, price: number) {
    const quantity = Number(order.quantity);
    const time = formatKiteTime(now());
    const fill = {
      exchange: String(order.exchange),
      tradingsymbol: String(order.tradingsymbol),
      token: Number(order.instrument_token),
      product: String(order.product),
      side: String(order.transaction_type),
      quantity,
      price,
    };
    account.fill(fill, blocked.get(order.order_id) ?? 0);
    blocked.delete(order.order_id);
    trades.push({
      trade_id: String(10_000_000 + trades.length),
      order_id: order.order_id,
      exchange: String(order.exchange),
      tradingsymbol: String(order.tradingsymbol),
      instrument_token: Number(order.instrument_token),
      product: String(order.product),
      average_price: price,
      quantity,
      exchange_order_id: String(order.exchange_order_id),
      transaction_type: String(order.transaction_type),
      fill_timestamp: time,
      order_timestamp: time.slice(11),
      exchange_timestamp: time,
    });
    setState(order, 'COMPLETE', {
      average_price: price,
      filled_quantity: quantity,
      pending_quantity: 0,
      exchange_timestamp: time,
    });
  }

  function cancel(order: FakeKiteOrder) {
    account.release(blocked.get(order.order_id) ?? 0);
    blocked.delete(order.order_id);
    setState(order, 'CANCELLED', { cancelled_quantity: order.pending_quantity, pending_quantity: 0 });
  }

  /** What RMS says of the order: a rejection message, or the margin it blocks. */
  function rmsCheck(form: Record<string, string | undefined>, quantity: number, price: number) {
    const product = form.product ?? '';
    if (form.transaction_type === 'SELL' && product === 'CNC') {
      const held = account.deliverable(form.exchange ?? '', form.tradingsymbol ?? '');
      if (held >= quantity) return { margin: 0 };
      return { rejection: `Insufficient holdings. Available quantity is ${Math.max(held, 0)}.` };
    }
    const required = account.margin(product, quantity * price);
    const available = account.available();
    if (required <= available) return { margin: required };
    const rejection = `Insufficient funds. Required margin is ${required.toFixed(2)} but available margin is ${available.toFixed(2)}.`;
    return { rejection };
  }

  function place(
    variety: string,
    form: Record<string, string | undefined>,
    how: { parent?: string; rmsRefuses?: boolean } = {},
  ): FakeKiteOrder {
    const { parent } = how;
    // A cover order's stop leg is Kite's own order, not a request to check.
    const { instrument, quantity, price, trigger } = parent
      ? {
          instrument: instrumentOf(String(form.exchange), String(form.tradingsymbol)),
          quantity: Number(form.quantity),
          price: 0,
          trigger: Number(form.trigger_price),
        }
      : checkPlacement(variety, form);
    const time = formatKiteTime(now());
    const order: FakeKiteOrder = {
      account_id: options.userId,
      placed_by: options.userId,
      order_id: newId(),
      exchange_order_id: null,
      parent_order_id: parent ?? null,
      status: 'PUT ORDER REQ RECEIVED',
      status_message: null,
      status_message_raw: null,
      order_timestamp: time,
      exchange_update_timestamp: null,
      exchange_timestamp: null,
      variety,
      modified: false,
      exchange: form.exchange,
      tradingsymbol: form.tradingsymbol,
      instrument_token: instrument.token,
      order_type: form.order_type,
      transaction_type: form.transaction_type,
      validity: form.validity ?? 'DAY',
      validity_ttl: Number(form.validity_ttl ?? 0),
      product: form.product,
      quantity,
      disclosed_quantity: Number(form.disclosed_quantity ?? 0),
      price,
      trigger_price: trigger,
      average_price: 0,
      filled_quantity: 0,
      pending_quantity: quantity,
      cancelled_quantity: 0,
      market_protection: Number(form.market_protection ?? 0),
      meta: {},
      tag: form.tag ?? null,
      tags: form.tag ? [form.tag] : [],
      guid: `${sequence}Xfake`,
      history: [],
    };
    const { rejection, margin = 0 } = parent ? {} : rmsCheck(form, quantity, price || trigger || instrument.price);
    // An autoslice child refused by RMS is answered as an error child, not booked.
    if (rejection && how.rmsRefuses) throw new KiteRefusal(400, 'MarginException', rejection);
    if (!rejection) blocked.set(order.order_id, account.block(margin));
    orders.push(order);
    setState(order, 'PUT ORDER REQ RECEIVED');
    setState(order, 'VALIDATION PENDING');
    if (rejection) {
      setState(order, 'REJECTED', {
        status_message: rejection,
        status_message_raw: `RMS:${rejection}`,
        pending_quantity: 0,
      });
      return order;
    }
    if (variety === 'amo') {
      setState(order, 'AMO REQ RECEIVED');
      return order;
    }
    setState(order, 'OPEN PENDING');
    const exchangeOrderId = String(1_300_000_000_000_000n + BigInt(orders.length));
    const type = String(form.order_type);
    if (type === 'SL' || type === 'SL-M') {
      setState(order, 'TRIGGER PENDING', { exchange_order_id: exchangeOrderId, exchange_timestamp: time });
      return order;
    }
    setState(order, 'OPEN', { exchange_order_id: exchangeOrderId, exchange_timestamp: time });
    const marketable =
      type === 'MARKET' || (form.transaction_type === 'BUY' ? price >= instrument.price : price <= instrument.price);
    if (marketable) fill(order, type === 'MARKET' ? instrument.price : price);
    else if (order.validity === 'IOC')
      setState(order, 'CANCELLED', { cancelled_quantity: quantity, pending_quantity: 0 });
    if (variety === 'co' && order.status === 'COMPLETE') {
      const side = form.transaction_type === 'BUY' ? 'SELL' : 'BUY';
      const stop = { ...form, transaction_type: side, order_type: 'SL-M', market_protection: '-1', price: undefined };
      place('co', stop, { parent: order.order_id });
    }
    return order;
  }

  const withoutHistory = ({ history: _history, ...order }: FakeKiteOrder) => order;
  const find = (id: string) => orders.find((order) => order.order_id === id);
  const notFound = (reply: FastifyReply) =>
    kiteRefusal(reply, 400, 'GeneralException', "Couldn't find that `order_id`.");

  /** Autoslice: slices of at most the freeze quantity, each placed or refused on its own. */
  function placeSliced(variety: string, form: Record<string, string | undefined>, freeze: number) {
    const lot = instrumentOf(String(form.exchange), String(form.tradingsymbol)).lot;
    const size = Math.floor(freeze / lot) * lot;
    const children: object[] = [];
    for (let left = Number(form.quantity); left > 0; left -= size) {
      try {
        const slice = place(
          variety,
          { ...form, quantity: String(Math.min(left, size)), autoslice: undefined },
          {
            rmsRefuses: true,
          },
        );
        children.push({ order_id: slice.order_id });
      } catch (error) {
        if (!(error instanceof KiteRefusal)) throw error;
        children.push({
          error: { code: error.status, error_type: error.errorType, message: error.message, data: null },
        });
      }
    }
    const first = children.find((child): child is { order_id: string } => 'order_id' in child);
    if (!first) throw new KiteRefusal(400, 'MarginException', 'No slice of the order could be placed.');
    return { order_id: first.order_id, children };
  }

  app.post('/orders/:variety', async (request, reply) => {
    const { variety } = request.params as { variety: string };
    try {
      const form = (request.body ?? {}) as Record<string, string | undefined>;
      const { quantity, instrument } = checkPlacement(variety, form);
      if (form.autoslice === 'true' && quantity > instrument.freeze)
        return ok(placeSliced(variety, form, instrument.freeze));
      return ok({ order_id: place(variety, form).order_id });
    } catch (error) {
      return refuse(reply, error);
    }
  });

  app.get('/orders', async () => ok(orders.map(withoutHistory)));

  app.get('/orders/:id', async (request, reply) => {
    const order = find((request.params as { id: string }).id);
    return order ? ok(order.history) : notFound(reply);
  });

  app.get('/orders/:id/trades', async (request, reply) => {
    const { id } = request.params as { id: string };
    return find(id) ? ok(trades.filter((trade) => trade.order_id === id)) : notFound(reply);
  });

  app.get('/trades', async () => ok(trades));

  app.delete('/orders/:variety/:id', async (request, reply) => {
    const { variety, id } = request.params as { variety: string; id: string };
    const order = find(id);
    if (!order) return notFound(reply);
    if (order.variety !== variety) return kiteRefusal(reply, 400, 'InputException', 'Invalid `variety`.');
    if (FINAL.includes(order.status))
      return kiteRefusal(
        reply,
        400,
        'InputException',
        `Order cannot be cancelled as it is ${order.status.toLowerCase()}.`,
      );
    // A cover order's stop leg is not canceled alone: its "cancel" exits the position at market
    // (pykiteconnect's exit_order is this same DELETE with parent_order_id).
    if (order.variety === 'co' && order.parent_order_id) {
      if ((request.query as { parent_order_id?: string }).parent_order_id !== order.parent_order_id)
        return kiteRefusal(reply, 400, 'InputException', 'Missing or invalid `parent_order_id`.');
      fill(order, instrumentOf(String(order.exchange), String(order.tradingsymbol)).price);
      return ok({ order_id: id });
    }
    cancel(order);
    return ok({ order_id: id });
  });

  app.put('/orders/:variety/:id', async (request, reply) => {
    const { variety, id } = request.params as { variety: string; id: string };
    const order = find(id);
    if (!order) return notFound(reply);
    if (order.variety !== variety || FINAL.includes(order.status))
      return kiteRefusal(reply, 400, 'InputException', 'Order cannot be modified.');
    const form = (request.body ?? {}) as Record<string, string | undefined>;
    const changes: Record<string, unknown> = { modified: true };
    for (const key of ['quantity', 'price', 'trigger_price', 'disclosed_quantity'])
      if (form[key] !== undefined) changes[key] = Number(form[key]);
    // The new total quantity: what is pending follows it (what filled stays filled).
    if (changes.quantity !== undefined) {
      const filled = Number(order.filled_quantity ?? 0);
      if (!(Number(changes.quantity) > filled)) return kiteRefusal(reply, 400, 'InputException', 'Invalid `quantity`.');
      changes.pending_quantity = Number(changes.quantity) - filled;
    }
    for (const key of ['order_type', 'validity']) if (form[key] !== undefined) changes[key] = form[key];
    const current = order.status;
    setState(order, 'MODIFY VALIDATION PENDING', changes);
    setState(order, 'MODIFY PENDING');
    setState(order, 'MODIFIED');
    setState(order, current);
    return ok({ order_id: id });
  });

  return {
    orders,
    trades,
    /** Orders the API placed (a resend shows up as a second one). */
    placed: () => orders.filter((order) => !order.parent_order_id),
  };
}
