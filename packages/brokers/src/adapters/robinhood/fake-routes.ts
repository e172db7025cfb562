// The routes of the Robinhood protocol fake, v1 and v2 alike (/api/:version/crypto/trading/…):
// accounts, trading pairs, holdings, orders (place, list, get, cancel), and v1 market data's best
// bid/ask. v2 needs account_number on holdings and orders; lists are pages of {next, previous, results} with full next URLs.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type CheckedOrder,
  checkOrder,
  FAKE_PAIRS,
  type FakeOrder,
  FakeRefusal,
  newOrder,
  pairBody,
  wide,
} from './fake-book.ts';

export interface FakeAccountConfig {
  accountNumber: string;
  cash: number;
  holdings: Record<string, number>;
  v2: boolean;
  now: () => number;
  pageSize: number;
}

type Query = Record<string, string | string[] | undefined>;
const validation = (attr: string | null, detail: string) => ({ type: 'validation_error', errors: [{ detail, attr }] });
const clientError = (detail: string) => ({ type: 'client_error', errors: [{ detail, attr: null }] });
const OPEN = ['open', 'partially_filled'];

export function registerRobinhoodRoutes(app: FastifyInstance, config: FakeAccountConfig) {
  const { accountNumber, now } = config;
  let cash = config.cash;
  const held = new Map(Object.entries(config.holdings).map(([asset, total]) => [asset, { total, available: total }]));
  const orders: FakeOrder[] = [];
  const quantities = new Map<string, number>();
  const iso = () => new Date(now()).toISOString();

  /** The version of the route, or a 404 answered; v2 routes of a holding check account_number. */
  function version(request: FastifyRequest, reply: FastifyReply, needsAccount: boolean): string | undefined {
    const { version: v } = request.params as { version: string };
    if (v !== 'v1' && (v !== 'v2' || !config.v2)) {
      reply.code(404).send(clientError('Not found.'));
      return undefined;
    }
    if (v === 'v2' && needsAccount) {
      const sent = (request.query as Query).account_number;
      if (!sent) {
        reply.code(400).send(validation('account_number', 'This field is required.'));
        return undefined;
      }
      if (sent !== accountNumber) {
        reply.code(403).send(clientError('You do not have permission to perform this action.'));
        return undefined;
      }
    }
    return v;
  }

  /** One page of `items` with Robinhood's cursor pagination. */
  function page(request: FastifyRequest, items: unknown[]) {
    const query = new URLSearchParams(request.url.split('?')[1] ?? '');
    const offset = Number(Buffer.from(query.get('cursor') ?? '', 'base64url').toString() || 0);
    const size = Number(query.get('limit') ?? config.pageSize);
    const link = (at: number) => {
      query.set('cursor', Buffer.from(String(at)).toString('base64url'));
      return `http://${request.headers.host}${request.url.split('?')[0]}?${query}`;
    };
    return {
      next: offset + size < items.length ? link(offset + size) : null,
      previous: offset > 0 ? link(Math.max(0, offset - size)) : null,
      results: items.slice(offset, offset + size),
    };
  }

  const account = () => ({
    account_number: accountNumber,
    status: 'active',
    buying_power: cash.toFixed(2),
    buying_power_currency: 'USD',
  });

  function fill(order: FakeOrder, checked: CheckedOrder, price: number): void {
    const quantity = checked.quantity ?? (checked.quoteAmount ?? 0) / price;
    const asset = checked.pair.symbol.split('-')[0] ?? '';
    const holding = held.get(asset) ?? { total: 0, available: 0 };
    if (checked.side === 'buy') {
      cash -= quantity * price;
      holding.total += quantity;
      holding.available += quantity;
    } else {
      cash += quantity * price;
      holding.total -= quantity;
    }
    held.set(asset, holding);
    Object.assign(order, {
      state: 'filled',
      average_price: String(price),
      filled_asset_quantity: wide(quantity),
      executions: [{ effective_price: String(price), quantity: wide(quantity), timestamp: iso() }],
      updated_at: iso(),
    });
  }

  app.get('/api/:version/crypto/trading/accounts/', async (request, reply) => {
    const v = version(request, reply, false);
    if (!v) return reply;
    return v === 'v1' ? account() : page(request, [account()]);
  });

  app.get('/api/:version/crypto/trading/trading_pairs/', async (request, reply) => {
    const v = version(request, reply, false);
    if (!v) return reply;
    const wanted = [(request.query as Query).symbol ?? []].flat();
    const pairs = FAKE_PAIRS.filter((item) => wanted.length === 0 || wanted.includes(item.symbol));
    return page(
      request,
      pairs.map((item) => pairBody(item, v)),
    );
  });

  // Market data (v1): one result per listed symbol asked for, its spread on either side of `price`.
  app.get('/api/v1/crypto/marketdata/best_bid_ask/', async (request, reply) => {
    const wanted = [(request.query as Query).symbol ?? []].flat();
    const unknown = wanted.find((symbol) => !FAKE_PAIRS.some((item) => item.symbol === symbol));
    if (unknown) return reply.code(400).send(validation('symbol', `Invalid symbol: ${unknown}.`));
    const results = FAKE_PAIRS.filter((item) => wanted.length === 0 || wanted.includes(item.symbol)).map((item) => {
      const spread = item.quote * 0.001;
      return {
        symbol: item.symbol,
        price: String(item.quote),
        bid_inclusive_of_sell_spread: String(item.quote - spread),
        sell_spread: '0.001',
        ask_inclusive_of_buy_spread: String(item.quote + spread),
        buy_spread: '0.001',
        timestamp: iso(),
      };
    });
    return { results };
  });

  app.get('/api/:version/crypto/trading/holdings/', async (request, reply) => {
    if (!version(request, reply, true)) return reply;
    const wanted = [(request.query as Query).asset_code ?? []].flat();
    const items = [...held]
      .filter(([asset, holding]) => holding.total > 0 && (wanted.length === 0 || wanted.includes(asset)))
      .map(([asset, holding]) => ({
        account_number: accountNumber,
        asset_code: asset,
        total_quantity: wide(holding.total),
        quantity_available_for_trading: wide(holding.available),
      }));
    return page(request, items);
  });

  app.post('/api/:version/crypto/trading/orders/', async (request, reply) => {
    const v = version(request, reply, true);
    if (!v) return reply;
    const body = (request.body ?? {}) as Record<string, unknown>;
    let checked: CheckedOrder;
    try {
      checked = checkOrder(body, v, new Set(orders.map((order) => order.client_order_id)));
      const price = checked.limitPrice ?? checked.pair.quote;
      const quantity = checked.quantity ?? (checked.quoteAmount ?? 0) / price;
      const asset = checked.pair.symbol.split('-')[0] ?? '';
      if (checked.side === 'buy' && quantity * price > cash)
        throw new FakeRefusal(400, 'non_field_errors', 'Insufficient buying power.');
      if (checked.side === 'sell' && quantity > (held.get(asset)?.available ?? 0) + 1e-12)
        throw new FakeRefusal(400, 'non_field_errors', 'Insufficient holdings.');
    } catch (error) {
      if (!(error instanceof FakeRefusal)) throw error;
      return reply.code(error.status).send(validation(error.attr, error.message));
    }
    const order = newOrder(body, checked, accountNumber, iso());
    orders.unshift(order);
    const answer = structuredClone(order);
    const quote = checked.pair.quote;
    const marketable =
      checked.type === 'market' ||
      (checked.type === 'limit' &&
        (checked.side === 'buy' ? quote <= (checked.limitPrice ?? 0) : quote >= (checked.limitPrice ?? 0)));
    const quantity = checked.quantity ?? (checked.quoteAmount ?? 0) / (checked.limitPrice ?? quote);
    quantities.set(order.id, quantity);
    if (checked.side === 'sell') {
      const holding = held.get(checked.pair.symbol.split('-')[0] ?? '');
      if (holding) holding.available -= quantity;
    }
    if (marketable) fill(order, checked, checked.type === 'market' ? quote : (checked.limitPrice ?? quote));
    return reply.code(201).send(answer);
  });

  app.get('/api/:version/crypto/trading/orders/', async (request, reply) => {
    if (!version(request, reply, true)) return reply;
    const query = request.query as Record<string, string | undefined>;
    const time = (value: string | undefined) => (value ? Date.parse(value) : undefined);
    const [start, end] = [time(query.created_at_start), time(query.created_at_end)];
    const matching = orders.filter((order) => {
      const created = Date.parse(order.created_at);
      return (
        (start === undefined || created >= start) &&
        (end === undefined || created <= end) &&
        ['symbol', 'state', 'side', 'type', 'id'].every((field) => !query[field] || order[field] === query[field])
      );
    });
    return page(request, matching);
  });

  app.get('/api/:version/crypto/trading/orders/:id/', async (request, reply) => {
    if (!version(request, reply, true)) return reply;
    const order = orders.find((item) => item.id === (request.params as { id: string }).id);
    return order ?? reply.code(404).send(clientError('Not found.'));
  });

  app.post('/api/:version/crypto/trading/orders/:id/cancel/', async (request, reply) => {
    const v = version(request, reply, true);
    if (!v) return reply;
    const order = orders.find((item) => item.id === (request.params as { id: string }).id);
    if (!order) return reply.code(404).send(clientError('Not found.'));
    if (!OPEN.includes(order.state))
      return reply.code(400).send(validation('non_field_errors', `Order is ${order.state} and cannot be canceled.`));
    Object.assign(order, { state: 'canceled', updated_at: iso() });
    if (order.side === 'sell') {
      const holding = held.get(order.symbol.split('-')[0] ?? '');
      if (holding) holding.available += quantities.get(order.id) ?? 0;
    }
    // v1 acknowledges in plain text; v2 answers with the order.
    return v === 'v1' ? reply.type('text/plain').send('Cancel request was submitted') : order;
  });

  return {
    orders,
    holdings: held,
    cash: () => cash,
  };
}
