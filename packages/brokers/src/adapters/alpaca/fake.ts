// Protocol fake of Alpaca's Trading API v2 on loopback: key headers checked, orders validated
// (fake-book.ts), Alpaca's bodies, including 422 on a repeated client_order_id and 403 on
// insufficient buying power. Market orders answer `accepted` and fill right after.
import type { FastifyReply } from 'fastify';
import { createFakeServer } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import {
  assetClassOf,
  type FakeAlpacaOrder,
  type FakePosition,
  FakeRefusal,
  newOrder,
  quoteOf,
  validateOrder,
} from './fake-book.ts';

export interface FakeAlpacaOptions {
  keyId?: string;
  secretKey?: string;
  accountNumber?: string;
  cash?: number;
  positions?: FakePosition[];
}

export async function startFakeAlpaca(options: FakeAlpacaOptions = {}) {
  const keyId = options.keyId ?? 'PKTEST1234567890';
  const secretKey = options.secretKey ?? 'paper-secret';
  let cash = options.cash ?? 100_000;
  const orders: FakeAlpacaOrder[] = [];
  const positions = new Map<string, FakePosition>((options.positions ?? []).map((p) => [p.symbol.replace('/', ''), p]));
  const server = createFakeServer({
    authenticate(request, reply) {
      const ok = request.headers['apca-api-key-id'] === keyId && request.headers['apca-api-secret-key'] === secretKey;
      if (!ok) reply.code(401).send({ code: 40110000, message: 'request is not authorized' });
      return ok;
    },
  });
  const { app, requests } = server;
  const refusal = (reply: FastifyReply, error: FakeRefusal) =>
    reply.code(error.status).send({ code: error.code, message: error.message });

  const equity = () => cash + [...positions.values()].reduce((sum, p) => sum + p.qty * quoteOf(p.symbol), 0);
  const fill = (order: FakeAlpacaOrder, qty: number) => {
    const price = quoteOf(order.symbol);
    const signed = order.side === 'buy' ? qty : -qty;
    const key = order.symbol.replace('/', '');
    const held = positions.get(key) ?? { symbol: key, qty: 0, avg: price, assetClass: assetClassOf(order.symbol) };
    held.qty += signed;
    cash -= signed * price;
    if (held.qty === 0) positions.delete(key);
    else positions.set(key, held);
    Object.assign(order, { status: 'filled', filled_qty: String(qty), filled_avg_price: String(price) });
  };

  app.post('/v2/orders', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    try {
      const cost = validateOrder(body, new Set(orders.map((o) => o.client_order_id)));
      if (body.side === 'buy' && cost > cash) throw new FakeRefusal(403, 40310000, 'insufficient buying power');
    } catch (error) {
      if (error instanceof FakeRefusal) return refusal(reply, error);
      throw error;
    }
    const order = newOrder(body, new Date().toISOString());
    orders.push(order);
    const answer = structuredClone(order);
    if (order.type === 'market') {
      const qty = body.qty !== undefined ? Number(body.qty) : Number(body.notional) / quoteOf(order.symbol);
      fill(order, qty);
    } else order.status = 'new';
    return answer;
  });

  app.get('/v2/orders::by_client_order_id', async (request, reply) => {
    const { client_order_id: id } = request.query as { client_order_id?: string };
    const order = orders.find((o) => o.client_order_id === id);
    return order ?? reply.code(404).send({ code: 40410000, message: `order not found for ${id}` });
  });

  app.get('/v2/orders/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const order = orders.find((o) => o.id === id);
    return order ?? reply.code(404).send({ code: 40410000, message: `order not found for ${id}` });
  });

  app.get('/v2/orders', async (request) => {
    const { status = 'open', symbols } = request.query as { status?: string; symbols?: string };
    const open = (o: FakeAlpacaOrder) => ['new', 'accepted', 'partially_filled'].includes(o.status);
    const wanted = symbols?.split(',');
    return orders.filter(
      (o) => (status === 'all' || open(o) === (status === 'open')) && (!wanted || wanted.includes(o.symbol)),
    );
  });

  app.delete('/v2/orders/:id', async (request, reply) => {
    const order = orders.find((o) => o.id === (request.params as { id: string }).id);
    if (!order) return reply.code(404).send({ code: 40410000, message: 'order not found' });
    if (!['new', 'accepted'].includes(order.status))
      return reply.code(422).send({ code: 42210000, message: 'order is not cancelable' });
    order.status = 'canceled';
    return reply.code(204).send();
  });

  // Replace (PATCH): a new order with the old one's terms but those given, the old one 'replaced'.
  app.patch('/v2/orders/:id', async (request, reply) => {
    const old = orders.find((o) => o.id === (request.params as { id: string }).id);
    if (!old) return reply.code(404).send({ code: 40410000, message: 'order not found' });
    if (!['new', 'accepted'].includes(old.status))
      return reply.code(422).send({ code: 42210000, message: 'order is not replaceable' });
    const patch = (request.body ?? {}) as Record<string, unknown>;
    const terms = [
      'qty',
      'time_in_force',
      'limit_price',
      'stop_price',
      'trail_price',
      'trail_percent',
      'client_order_id',
    ];
    const body: Record<string, unknown> = { symbol: old.symbol, side: old.side, type: old.type };
    for (const key of terms) {
      const value = patch[key] ?? old[key];
      if (value !== null && value !== undefined) body[key] = value;
    }
    if (patch.client_order_id === undefined) delete body.client_order_id;
    try {
      validateOrder(body, new Set(orders.map((o) => o.client_order_id)));
    } catch (error) {
      if (error instanceof FakeRefusal) return refusal(reply, error);
      throw error;
    }
    const order = { ...newOrder(body, new Date().toISOString()), replaces: old.id, status: 'new' };
    Object.assign(old, { status: 'replaced', replaced_by: order.id });
    orders.push(order);
    return order;
  });

  app.delete('/v2/positions/:symbol', async (request, reply) => {
    const { symbol } = request.params as { symbol: string };
    const held = positions.get(symbol);
    if (!held) return reply.code(404).send({ code: 40410000, message: 'position does not exist' });
    const { qty, percentage } = request.query as { qty?: string; percentage?: string };
    const size = qty ? Number(qty) : (Math.abs(held.qty) * Number(percentage ?? 100)) / 100;
    const wire = held.assetClass === 'crypto' ? `${symbol.slice(0, -3)}/${symbol.slice(-3)}` : symbol;
    const order = newOrder(
      { symbol: wire, qty: size, side: held.qty > 0 ? 'sell' : 'buy', type: 'market', time_in_force: 'day' },
      new Date().toISOString(),
    );
    orders.push(order);
    const answer = structuredClone(order);
    fill(order, size);
    return answer;
  });

  const positionView = (p: FakePosition) => ({
    symbol: p.symbol,
    asset_class: p.assetClass,
    qty: String(p.qty),
    avg_entry_price: String(p.avg),
    side: p.qty > 0 ? 'long' : 'short',
    market_value: String(p.qty * quoteOf(p.symbol)),
  });
  app.get('/v2/positions', async () => [...positions.values()].map(positionView));
  app.get('/v2/positions/:symbol', async (request, reply) => {
    const held = positions.get((request.params as { symbol: string }).symbol);
    return held ? positionView(held) : reply.code(404).send({ code: 40410000, message: 'position does not exist' });
  });

  app.get('/v2/account', async () => ({
    id: 'e6fe16f3-64a4-4921-8928-cadf02f92f98',
    account_number: options.accountNumber ?? 'PA3ABCDEFGH1',
    status: 'ACTIVE',
    currency: 'USD',
    cash: String(cash),
    buying_power: String(cash),
    equity: String(equity()),
    multiplier: '1',
    trading_blocked: false,
  }));

  const url = await server.listen();
  return {
    url,
    keys: { apiKeyId: keyId, apiSecretKey: secretKey },
    requests,
    orders,
    /** Requests that reached POST /v2/orders. */
    submissions: () => requests.filter((r) => r.method === 'POST' && r.url === '/v2/orders'),
    /** The market reaches a resting order (by our client order id or its id): it fills, whole, later. */
    fillResting(clientOrderId: string) {
      const order = orders.find(
        (o) =>
          (o.client_order_id === clientOrderId || o.id === clientOrderId) && ['new', 'accepted'].includes(o.status),
      );
      if (!order) throw new Error(`no resting order ${clientOrderId}`);
      fill(order, Number(order.qty));
      Object.assign(order, { filled_at: new Date().toISOString(), updated_at: new Date().toISOString() });
    },
    inject: server.inject,
    clearInjections: server.clearInjections,
    close: () => app.close(),
  };
}

export type { RecordedRequest } from '../../core/fake-server.ts';
export type FakeAlpaca = Awaited<ReturnType<typeof startFakeAlpaca>>;

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startFakeAlpaca();
  return {
    config: { baseUrl: fake.url },
    credentials: () => fake.keys,
    signal: { symbol: 'AAPL', action: 'buy', quantity: 1 },
    orderCount: () => fake.orders.length,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.inject(answer),
    close: fake.close,
  };
};
