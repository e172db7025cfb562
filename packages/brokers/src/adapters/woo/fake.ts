// Protocol fake of WOO X REST v3: instruments, balances, orders and positions, answered in the
// {"success": ..., "data": ..., "timestamp": ...} envelope. Private calls carry x-api-key,
// x-api-timestamp and x-api-signature = hex HMAC-SHA256(secret, timestamp + method + path(?query) + body).
import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createFakeServer, type FakeServer, startExchangeFake } from '../../ccxt/fake-server.ts';
import type { StartProtocolFake } from '../../core/protocol-fake.ts';

export const WOO_FAKE_KEY = 'woo-test-key';
export const WOO_FAKE_SECRET = 'woo-test-secret';
const row = (symbol: string, baseTick: string, quoteTick: string, baseMin: string) => ({
  symbol,
  status: 'TRADING',
  quoteTick,
  baseTick,
  baseMin,
  baseMax: '1000',
  quoteMin: '0',
  quoteMax: '1000000',
  minNotional: '1',
  orderMode: 'NORMAL',
});
const INSTRUMENTS = [
  row('SPOT_BTC_USDT', '0.000001', '0.1', '0.00001'),
  row('SPOT_ETH_USDT', '0.0001', '0.01', '0.0001'),
  row('PERP_BTC_USDT', '0.0001', '0.1', '0.0001'),
  // From ccxt's recorded createOrder case (broker-specs/ccxt): a market buy of 0.1 LTC/USDT.
  row('SPOT_LTC_USDT', '0.01', '0.01', '0.01'),
];
const LAST: Record<string, number> = {
  SPOT_BTC_USDT: 65000,
  SPOT_ETH_USDT: 3000,
  PERP_BTC_USDT: 65000,
  SPOT_LTC_USDT: 70,
};
const TYPES = ['LIMIT', 'MARKET', 'IOC', 'FOK', 'POST_ONLY'];

export type WooFakeOrder = Record<string, string | number | boolean | null> & {
  orderId: number;
  clientOrderId: number;
  status: string;
  symbol: string;
};

export interface WooFake extends FakeServer {
  balances: Record<string, number>;
  orders: WooFakeOrder[];
  positions: Array<{ symbol: string; holding: number; averageOpenPrice: number }>;
  failNextOrder?: { status: number; code: number; message: string };
}

const ok = (data: unknown) => ({ success: true, data, timestamp: 1_763_000_000_000 });
const fail = (reply: FastifyReply, status: number, code: number, message: string) =>
  reply.code(status).send({ success: false, code, message });

export function createWooFake(): WooFake {
  const server = createFakeServer();
  const fake: WooFake = Object.assign(server, {
    balances: { USDT: 50_000, BTC: 0.2 },
    orders: [],
    positions: [{ symbol: 'PERP_BTC_USDT', holding: -0.05, averageOpenPrice: 66000 }],
  });
  let sequence = 60_780_315_700;
  const signed = (request: FastifyRequest) => {
    const ts = String(request.headers['x-api-timestamp'] ?? '');
    const body = typeof request.body === 'string' ? request.body : '';
    const expected = createHmac('sha256', WOO_FAKE_SECRET)
      .update(`${ts}${request.method}${request.url}${body}`)
      .digest('hex');
    return (
      request.headers['x-api-key'] === WOO_FAKE_KEY &&
      Math.abs(Date.now() - Number(ts)) < 300_000 &&
      request.headers['x-api-signature'] === expected
    );
  };
  const app = server.app;
  app.addHook('preHandler', async (request, reply) => {
    if (!request.url.startsWith('/v3/public/') && !signed(request))
      return fail(
        reply,
        401,
        -1002,
        'API key or secret is invalid, it may because key have insufficient permission or the key is expired/revoked.',
      );
  });
  const find = (q: { orderId?: string; clientOrderId?: string }) =>
    fake.orders.find(
      (o) =>
        String(o.orderId) === q.orderId ||
        (q.clientOrderId !== undefined && String(o.clientOrderId) === q.clientOrderId),
    );
  app.get('/v3/public/instruments', async () => ok({ rows: INSTRUMENTS }));
  app.get('/v3/asset/balances', async () =>
    ok({
      holding: Object.entries(fake.balances).map(([token, holding]) => ({
        token,
        holding,
        frozen: 0,
        staked: 0,
        unbonding: 0,
        vault: 0,
        interest: 0,
        pendingShortQty: 0,
        pendingLongQty: 0,
        availableBalance: holding,
        averageOpenPrice: 0,
        markPrice: 0,
        pnl24H: 0,
        fee24H: 0,
        timestamp: 1_763_000_000,
      })),
      userId: 1,
    }),
  );
  app.get('/v3/futures/positions', async () =>
    ok({
      positions: fake.positions.map((p) => ({
        ...p,
        positionSide: 'BOTH',
        markPrice: 65000,
        pnl24H: 0,
        fee24H: 0,
        settlePrice: p.averageOpenPrice,
        leverage: 10,
        timestamp: 1_763_000_000,
      })),
    }),
  );
  app.get('/v3/trade/order', async (request, reply) => {
    const order = find(request.query as { orderId?: string; clientOrderId?: string });
    return order ? ok(order) : fail(reply, 400, 317152, 'The order not found for the order id.');
  });
  app.get('/v3/trade/orders', async (request) => {
    const q = request.query as { status?: string; symbol?: string };
    const rows = fake.orders.filter(
      (o) =>
        (!q.symbol || o.symbol === q.symbol) &&
        (q.status !== 'INCOMPLETE' || ['NEW', 'PARTIAL_FILLED'].includes(o.status)),
    );
    return ok({ rows, meta: { total: rows.length, recordsPerPage: 100, currentPage: 1 } });
  });
  app.delete('/v3/trade/order', async (request, reply) => {
    const q = request.query as { orderId?: string; symbol?: string };
    const order = find(q);
    if (!order || order.symbol !== q.symbol || order.status !== 'NEW')
      return fail(reply, 400, 317184, 'The order cannot be found, or it is already completed.');
    order.status = 'CANCELLED';
    return ok({ status: 'CANCEL_SENT' });
  });
  // Edit an open order's quantity or price (ccxt editOrder: PUT /v3/trade/order, JSON body).
  app.put('/v3/trade/order', async (request, reply) => {
    const o = JSON.parse(String(request.body ?? '{}')) as Record<string, string | number>;
    const order = fake.orders.find((x) => String(x.orderId) === String(o.orderId));
    if (!order || !['NEW', 'PARTIAL_FILLED'].includes(order.status))
      return fail(reply, 400, 317184, 'The order cannot be found, or it is already completed.');
    const quantity = Number(o.quantity ?? order.quantity);
    if (!(quantity > Number(order.executed)))
      return fail(reply, 400, -1005, 'quantity must be more than what is executed');
    order.quantity = quantity;
    order.visible = quantity;
    if (o.price !== undefined) order.price = Number(o.price);
    return ok({ status: 'EDIT_SENT' });
  });
  app.post('/v3/trade/order', async (request, reply) => {
    if (!(request.headers['content-type'] ?? '').startsWith('application/json'))
      return fail(reply, 400, -1005, 'Some parameters are in wrong format for api.');
    if (fake.failNextOrder) {
      const { status, code, message } = fake.failNextOrder;
      fake.failNextOrder = undefined;
      return fail(reply, status, code, message);
    }
    const o = JSON.parse(String(request.body)) as Record<string, string | number | boolean>;
    const last = LAST[String(o.symbol)];
    if (!last) return fail(reply, 400, -1005, 'symbol is not valid');
    if (!['BUY', 'SELL'].includes(String(o.side)) || !TYPES.includes(String(o.type)))
      return fail(reply, 400, -1005, 'Some parameters are in wrong format for api.');
    const quantity = Number(o.quantity ?? 0);
    const amount = Number(o.amount ?? 0);
    if (!(quantity > 0) === !(amount > 0)) return fail(reply, 400, -1005, 'quantity or amount is required');
    if (o.type !== 'MARKET' && !(Number(o.price) > 0)) return fail(reply, 400, -1005, 'price is required');
    if (o.clientOrderId !== undefined && !/^\d{1,19}$/.test(String(o.clientOrderId)))
      return fail(reply, 400, -1005, 'clientOrderId must be a number');
    if (o.clientOrderId !== undefined && fake.orders.some((x) => String(x.clientOrderId) === String(o.clientOrderId)))
      return fail(reply, 400, 302117, 'The client_order_id is repeated.');
    const price = o.type === 'MARKET' ? last : Number(o.price);
    const spot = String(o.symbol).startsWith('SPOT_');
    const [base, quote] = String(o.symbol).split('_').slice(1) as [string, string];
    const cost = amount || quantity * price;
    const short =
      o.side === 'BUY' || !spot
        ? (spot ? cost : cost / 10) > (fake.balances[quote] ?? 0)
        : quantity > (fake.balances[base] ?? 0);
    if (short) return fail(reply, 400, 302301, 'The balance isn’t enough.');
    const filled = o.type === 'MARKET';
    const order: WooFakeOrder = {
      orderId: ++sequence,
      clientOrderId: Number(o.clientOrderId ?? 0),
      symbol: String(o.symbol),
      orderTag: 'default',
      side: String(o.side),
      quantity: quantity || null,
      amount: amount || null,
      type: String(o.type),
      status: filled ? 'FILLED' : 'NEW',
      price: o.type === 'MARKET' ? null : price,
      executed: filled ? quantity || amount / price : 0,
      visible: quantity,
      averageExecutedPrice: filled ? price : 0,
      totalFee: 0,
      feeAsset: quote,
      totalRebate: 0,
      rebateAsset: quote,
      reduceOnly: o.reduceOnly === true,
      createdTime: '1763000000.123',
      realizedPnl: null,
      positionSide: 'BOTH',
    };
    fake.orders.push(order);
    return ok({
      orderId: order.orderId,
      clientOrderId: order.clientOrderId,
      type: order.type,
      price: order.price,
      quantity: order.quantity,
      amount: order.amount,
      bidAskLevel: null,
    });
  });
  return fake;
}

export const startProtocolFake: StartProtocolFake = () => {
  const fake = createWooFake();
  return startExchangeFake(fake, {
    credentials: { apiKey: WOO_FAKE_KEY, apiSecret: WOO_FAKE_SECRET },
    signal: { symbol: 'BTCUSDT', action: 'buy', quantity: 0.01 },
    orderCount: () => fake.orders.length,
  });
};
