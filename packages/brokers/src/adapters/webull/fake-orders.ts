// The Webull fake's accounts and orders: a stock/option margin account, a futures and a crypto
// account (orders only on the account of their kind), placement (fake-rules.ts), the order
// detail by client_order_id, open orders, cancel by client_order_id, preview, balance and
// positions. Market orders fill at once, marketable limits too; others stay SUBMITTED.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { webullRefusal } from './fake-auth.ts';
import { checkCombo, checkOrder, instrumentTypeOf, rule, WebullRefusal, type WireOrder } from './fake-rules.ts';

export interface FakeAccount {
  account_id: string;
  account_number: string;
  account_type: string;
  account_class: string;
  account_label: string;
  user_id: string;
  /** Instrument types its orders may be. */
  trades: string[];
  cash: number;
  positions: Map<string, { quantity: number; cost: number; instrumentType: string }>;
}

export type FakeWebullOrder = Record<string, unknown> & {
  account_id: string;
  client_order_id: string;
  order_id: string;
  status: string;
};

const QUOTES: Record<string, number> = { AAPL: 190, F: 10.5, MSFT: 420, ESZ6: 5000, BTCUSD: 60_000 };
const quoteOf = (order: WireOrder) => (Array.isArray(order.legs) ? 5 : (QUOTES[String(order.symbol)] ?? 100));
const multiplierOf = (instrumentType: string) =>
  instrumentType === 'OPTION' ? 100 : instrumentType === 'FUTURES' ? 50 : 1;
const orderId = () => `ORD${randomBytes(11).toString('hex').toUpperCase()}`.slice(0, 25);

export function registerOrders(app: FastifyInstance, accounts: Map<string, FakeAccount>, now: () => number) {
  const orders: FakeWebullOrder[] = [];

  const refuse = (reply: FastifyReply, error: unknown) => {
    if (!(error instanceof WebullRefusal)) throw error;
    return webullRefusal(reply, error.status, error.code, error.message);
  };
  const accountOf = (id: unknown) => {
    const account = accounts.get(String(id ?? ''));
    if (!account) throw new WebullRefusal(400, 'INVALID_ACCOUNT', 'account_id is not valid');
    return account;
  };

  function fill(account: FakeAccount, order: FakeWebullOrder, price: number) {
    const type = instrumentTypeOf(order);
    const key = Array.isArray(order.legs) ? String(order.client_order_id) : String(order.symbol);
    const quantity = Number(order.quantity ?? Number(order.total_cash_amount) / price);
    const signed = order.side === 'BUY' ? quantity : -quantity;
    const held = account.positions.get(key) ?? { quantity: 0, cost: price, instrumentType: type };
    held.quantity += signed;
    account.cash -= signed * price * multiplierOf(type);
    if (held.quantity === 0) account.positions.delete(key);
    else account.positions.set(key, held);
    const time = now();
    Object.assign(order, {
      status: 'FILLED',
      filled_quantity: String(quantity),
      filled_price: String(price),
      filled_time: String(time),
      filled_time_at: new Date(time).toISOString(),
    });
  }

  /** Books one checked order; fills it when marketable. */
  function book(account: FakeAccount, wire: WireOrder, comboType: string): FakeWebullOrder {
    const time = now();
    const order: FakeWebullOrder = {
      ...wire,
      account_id: account.account_id,
      client_order_id: String(wire.client_order_id),
      order_id: orderId(),
      combo_type: comboType,
      status: 'SUBMITTED',
      total_quantity: wire.quantity,
      filled_quantity: '0',
      place_time: String(time),
      place_time_at: new Date(time).toISOString(),
    };
    orders.push(order);
    const quote = quoteOf(wire);
    const limit = Number(wire.limit_price);
    const marketable =
      wire.order_type === 'MARKET' ||
      (wire.order_type === 'LIMIT' && (wire.side === 'BUY' ? limit >= quote : limit <= quote));
    if (marketable && (comboType === 'NORMAL' || comboType === 'MASTER'))
      fill(account, order, wire.order_type === 'MARKET' ? quote : limit);
    return order;
  }

  function place(body: WireOrder, category: unknown, preview: boolean) {
    const account = accountOf(body.account_id);
    const list = Array.isArray(body.new_orders) ? (body.new_orders as WireOrder[]) : [];
    const [first] = list;
    if (!first) throw new WebullRefusal(400, 'INVALID_PARAMETER', 'new_orders is required');
    const types = list.map(checkOrder);
    if (category !== `US_${types[0]}`)
      throw new WebullRefusal(400, 'INVALID_PARAMETER', 'category header does not match the order');
    if (list.length > 1) checkCombo(list, body.client_combo_order_id);
    if (!account.trades.includes(types[0] ?? ''))
      throw rule('ACCOUNT_NOT_SUPPORT', `This account does not trade ${types[0]}`);
    for (const wire of list)
      if (
        orders.some(
          (order) => order.account_id === account.account_id && order.client_order_id === wire.client_order_id,
        )
      )
        throw rule('CLIENT_ORDER_ID_EXISTS', 'client_order_id already exists');
    const cost =
      first.side === 'BUY'
        ? Number(first.total_cash_amount ?? Number(first.quantity) * quoteOf(first) * multiplierOf(types[0] ?? ''))
        : 0;
    if (cost > account.cash) throw rule('BUYING_POWER_NOT_ENOUGH', 'Insufficient buying power');
    if (preview) return { estimated_cost: String(cost), estimated_transaction_fee: '0', currency: 'USD' };
    const booked = list.map((wire, _index) =>
      book(account, wire, list.length > 1 ? String(wire.combo_type) : 'NORMAL'),
    );
    const [master] = booked;
    return {
      client_order_id: master?.client_order_id,
      order_id: master?.order_id,
      ...(list.length > 1 ? { client_combo_order_id: body.client_combo_order_id, combo_order_id: orderId() } : {}),
    };
  }

  app.post('/openapi/trade/order/place', async (request, reply) => {
    try {
      return place((request.body ?? {}) as WireOrder, request.headers.category, false);
    } catch (error) {
      return refuse(reply, error);
    }
  });

  app.post('/openapi/trade/order/preview', async (request, reply) => {
    try {
      return place((request.body ?? {}) as WireOrder, request.headers.category, true);
    } catch (error) {
      return refuse(reply, error);
    }
  });

  const entry = ({ account_id: _account, ...order }: FakeWebullOrder) => order;
  const detail = (order: FakeWebullOrder) => ({
    client_order_id: order.client_order_id,
    combo_type: order.combo_type,
    orders: [entry(order)],
  });

  app.get('/openapi/trade/order/detail', async (request, reply) => {
    const { account_id: accountId, client_order_id: clientId } = request.query as Record<string, string | undefined>;
    const order = orders.find((item) => item.account_id === accountId && item.client_order_id === clientId);
    return order ? detail(order) : webullRefusal(reply, 404, 'ORDER_NOT_FOUND', 'Order not found');
  });

  app.get('/openapi/trade/order/open', async (request) => {
    const {
      account_id: accountId,
      page_size: size = '10',
      last_client_order_id: last,
    } = request.query as Record<string, string | undefined>;
    const open = orders.filter(
      (order) => order.account_id === accountId && ['SUBMITTED', 'PARTIAL_FILLED'].includes(order.status),
    );
    const start = last ? open.findIndex((order) => order.client_order_id === last) + 1 : 0;
    return open.slice(start, start + Number(size)).map(detail);
  });

  app.post('/openapi/trade/order/cancel', async (request, reply) => {
    const { account_id: accountId, client_order_id: clientId } = (request.body ?? {}) as Record<string, unknown>;
    const order = orders.find((item) => item.account_id === accountId && item.client_order_id === clientId);
    if (!order || !['SUBMITTED', 'PARTIAL_FILLED'].includes(order.status))
      return webullRefusal(reply, 404, 'ORDER_NOT_FOUND', 'Order not found');
    order.status = 'CANCELLED';
    return { client_order_id: order.client_order_id, order_id: order.order_id };
  });

  // Replace (WIRE.md §7): only the fields given change; quantity is the order's new total.
  app.post('/openapi/trade/order/replace', async (request, reply) => {
    const { account_id: accountId, modify_orders: changes } = (request.body ?? {}) as {
      account_id?: string;
      modify_orders?: Array<Record<string, unknown>>;
    };
    const answers = [];
    for (const change of changes ?? []) {
      const order = orders.find(
        (item) => item.account_id === accountId && item.client_order_id === change.client_order_id,
      );
      if (!order || !['SUBMITTED', 'PARTIAL_FILLED'].includes(order.status))
        return webullRefusal(reply, 404, 'ORDER_NOT_FOUND', 'Order not found');
      // Crypto orders cannot be replaced (WIRE.md §7); the code is the fake's own.
      if (instrumentTypeOf(order) === 'CRYPTO')
        return webullRefusal(reply, 417, 'ORDER_NOT_SUPPORT_REPLACE', 'Crypto orders cannot be modified');
      const quantity = Number(change.quantity ?? order.quantity);
      if (!(quantity > Number(order.filled_quantity ?? 0)))
        return webullRefusal(reply, 400, 'INVALID_PARAMETER', 'quantity must exceed the filled quantity');
      order.quantity = String(quantity);
      order.total_quantity = String(quantity);
      answers.push({ client_order_id: order.client_order_id, order_id: order.order_id });
    }
    return answers[0] ?? {};
  });

  app.get('/openapi/account/list', async () =>
    [...accounts.values()].map(({ trades: _t, cash: _c, positions: _p, ...account }) => account),
  );

  app.get('/openapi/assets/balance', async (request, reply) => {
    const account = accounts.get(String((request.query as { account_id?: string }).account_id));
    if (!account) return webullRefusal(reply, 400, 'INVALID_ACCOUNT', 'account_id is not valid');
    const value = [...account.positions.entries()].reduce(
      (sum, [symbol, p]) => sum + p.quantity * (QUOTES[symbol] ?? 100),
      0,
    );
    const usd = {
      currency: 'USD',
      cash_balance: String(account.cash),
      settled_cash: String(account.cash),
      unsettled_cash: '0',
      market_value: String(value),
      buying_power: String(account.cash),
      unrealized_profit_loss: '0',
      available_withdrawal: String(account.cash),
    };
    return {
      total_asset_currency: 'USD',
      total_cash_balance: String(account.cash),
      total_market_value: String(value),
      total_net_liquidation_value: String(account.cash + value),
      total_unrealized_profit_loss: '0',
      account_currency_assets: [usd],
    };
  });

  app.get('/openapi/assets/positions', async (request) => {
    const account = accounts.get(String((request.query as { account_id?: string }).account_id));
    return [...(account?.positions.entries() ?? [])].map(([symbol, p]) => ({
      symbol,
      instrument_id: String(symbol.length * 1000),
      quantity: String(p.quantity),
      instrument_type: p.instrumentType,
      cost_price: String(p.cost),
      last_price: String(QUOTES[symbol] ?? 100),
      market_value: String(p.quantity * (QUOTES[symbol] ?? 100)),
      unrealized_profit_loss: '0',
      currency: 'USD',
    }));
  });

  return { orders };
}
