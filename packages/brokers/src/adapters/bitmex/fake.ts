// Protocol fake of BitMEX REST v1 (broker-specs/bitmex/swagger.json): instruments, wallet
// assets, margin, orders and positions. Private calls carry api-key, api-expires and
// api-signature = hex HMAC-SHA256(secret, verb + path + expires + body).
import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createFakeServer, type FakeServer, startExchangeFake } from '../../ccxt/fake-server.ts';
import type { StartProtocolFake } from '../../core/protocol-fake.ts';

export const BITMEX_FAKE_KEY = 'bitmex-test-key';
export const BITMEX_FAKE_SECRET = 'bitmex-test-secret';

const base = {
  state: 'Open',
  typ: 'FFWCSX',
  expiry: null,
  initMargin: 0.01,
  maintMargin: 0.005,
  takerFee: 0.00075,
  makerFee: -0.00025,
  maxOrderQty: 10_000_000,
  maxPrice: 1_000_000,
};
const XBTUSDT = {
  ...base,
  symbol: 'XBTUSDT',
  rootSymbol: 'XBT',
  underlying: 'XBT',
  quoteCurrency: 'USDT',
  settlCurrency: 'USDt',
  positionCurrency: 'XBT',
  isInverse: false,
  isQuanto: false,
  multiplier: 1,
  underlyingToPositionMultiplier: 1_000_000,
  lotSize: 1000,
  tickSize: 0.5,
  lastPrice: 65000,
};
const INSTRUMENTS = [
  {
    ...base,
    symbol: 'XBTUSD',
    rootSymbol: 'XBT',
    underlying: 'XBT',
    quoteCurrency: 'USD',
    settlCurrency: 'XBt',
    positionCurrency: 'USD',
    isInverse: true,
    isQuanto: false,
    multiplier: -100_000_000,
    underlyingToPositionMultiplier: null,
    lotSize: 100,
    tickSize: 0.5,
    lastPrice: 65000,
  },
  XBTUSDT,
  {
    ...base,
    symbol: 'ETHUSD',
    rootSymbol: 'ETH',
    underlying: 'ETH',
    quoteCurrency: 'USD',
    settlCurrency: 'XBt',
    positionCurrency: 'USD',
    isInverse: false,
    isQuanto: true,
    multiplier: 100,
    underlyingToPositionMultiplier: null,
    lotSize: 1,
    tickSize: 0.05,
    lastPrice: 3000,
  },
  // BitMEX lists spot pairs too (typ IFXXXP): XBT_USDT is BTC/USDT spot, beside the XBTUSDT swap.
  { ...XBTUSDT, typ: 'IFXXXP', symbol: 'XBT_USDT', lotSize: 100 },
];
const ASSETS = [
  { asset: 'XBT', currency: 'XBt', name: 'Bitcoin', scale: 8, enabled: true, isMarginCurrency: true, networks: [] },
  { asset: 'USDT', currency: 'USDt', name: 'Tether', scale: 6, enabled: true, isMarginCurrency: true, networks: [] },
];
const ORD_TYPES = ['Market', 'Limit', 'Stop', 'StopLimit', 'MarketIfTouched', 'LimitIfTouched'];
const TIME_IN_FORCE = ['Day', 'GoodTillCancel', 'ImmediateOrCancel', 'FillOrKill'];

export type BitmexFakeOrder = Record<string, string | number | boolean | null>;

export interface BitmexFake extends FakeServer {
  /** Available margin in satoshis (XBt). */
  availableXBt: number;
  orders: BitmexFakeOrder[];
  positions: Array<{ symbol: string; currentQty: number; avgEntryPrice: number }>;
  failNextOrder?: { status: number; message: string };
  /** The next cancel's refusal (DELETE /order). */
  failNextCancel?: { status: number; message: string };
}

const error = (reply: FastifyReply, status: number, message: string, name = 'HTTPError') =>
  reply.code(status).send({ error: { message, name } });

export function createBitmexFake(): BitmexFake {
  const server = createFakeServer();
  const fake: BitmexFake = Object.assign(server, {
    availableXBt: 50_000_000,
    orders: [],
    positions: [{ symbol: 'XBTUSD', currentQty: 200, avgEntryPrice: 60000 }],
  });
  const authorized = (request: FastifyRequest): string | undefined => {
    const h = request.headers;
    if (h['api-key'] !== BITMEX_FAKE_KEY) return 'Invalid API Key.';
    const expires = Number(h['api-expires']);
    if (!(expires > Date.now() / 1000)) return 'This request has expired - `expires` is in the past.';
    const body = typeof request.body === 'string' ? request.body : '';
    const expected = createHmac('sha256', BITMEX_FAKE_SECRET)
      .update(`${request.method}${request.url}${h['api-expires']}${body}`)
      .digest('hex');
    return h['api-signature'] === expected ? undefined : 'Signature not valid.';
  };
  const app = server.app;
  app.addHook('preHandler', async (request, reply) => {
    if (/^\/api\/v1\/(user|order|position)/.test(request.url)) {
      const problem = authorized(request);
      if (problem) return error(reply, 401, problem);
    }
  });
  app.get('/api/v1/instrument/active', async () => INSTRUMENTS);
  // GET /instrument: one symbol (or all) with its prices; a symbol BitMEX does not list matches none.
  app.get('/api/v1/instrument', async (request, reply) => {
    const { symbol } = request.query as { symbol?: string };
    if (symbol !== undefined && !/^[A-Z0-9_.:]{1,32}$/.test(symbol))
      return error(reply, 400, 'Invalid symbol', 'ValidationError');
    return INSTRUMENTS.filter((i) => symbol === undefined || i.symbol === symbol).map((i) => ({
      ...i,
      bidPrice: i.lastPrice - i.tickSize,
      askPrice: i.lastPrice + i.tickSize,
      midPrice: i.lastPrice,
      markPrice: i.lastPrice,
      timestamp: '2026-09-01T00:00:00.000Z',
    }));
  });
  app.get('/api/v1/wallet/assets', async () => ASSETS);
  app.get('/api/v1/user/margin', async () => [
    {
      account: 395724,
      currency: 'XBt',
      marginBalance: fake.availableXBt,
      availableMargin: fake.availableXBt,
      walletBalance: fake.availableXBt,
      timestamp: '2026-09-01T00:00:00.000Z',
    },
  ]);
  app.get('/api/v1/position', async () =>
    fake.positions.map((p) => ({
      account: 395724,
      symbol: p.symbol,
      currency: 'XBt',
      currentQty: p.currentQty,
      avgEntryPrice: p.avgEntryPrice,
      isOpen: p.currentQty !== 0,
      markPrice: 65000,
      timestamp: '2026-09-01T00:00:00.000Z',
    })),
  );
  app.get('/api/v1/order', async (request) => {
    const query = request.query as { filter?: string; symbol?: string };
    const filter = query.filter ? (JSON.parse(query.filter) as Record<string, unknown>) : {};
    return fake.orders.filter(
      (o) =>
        (!query.symbol || o.symbol === query.symbol) &&
        (filter.clOrdID === undefined || o.clOrdID === filter.clOrdID) &&
        (filter.orderID === undefined || o.orderID === filter.orderID) &&
        (filter.open !== true || o.ordStatus === 'New'),
    );
  });
  app.delete('/api/v1/order', async (request, reply) => {
    if (fake.failNextCancel) {
      const { status, message } = fake.failNextCancel;
      fake.failNextCancel = undefined;
      return error(reply, status, message);
    }
    const body = JSON.parse(String(request.body || '{}')) as { orderID?: string };
    const order = fake.orders.find((o) => o.orderID === body.orderID);
    if (!order) return [{ orderID: body.orderID, ordStatus: 'Rejected', error: 'Not Found' }];
    // An order no longer working (filled, canceled) is not canceled: a 200 naming its state.
    if (!['New', 'PartiallyFilled'].includes(String(order.ordStatus)))
      return [{ ...order, error: `Unable to cancel order due to existing state: ${order.ordStatus}` }];
    order.ordStatus = 'Canceled';
    return [order];
  });
  // Amend: orderQty is the order's whole quantity, filled part included.
  app.put('/api/v1/order', async (request, reply) => {
    const body = JSON.parse(String(request.body || '{}')) as { orderID?: string; orderQty?: number };
    const order = fake.orders.find((o) => o.orderID === body.orderID);
    if (order?.ordStatus !== 'New') return error(reply, 400, 'Invalid ordStatus', 'ValidationError');
    const qty = Number(body.orderQty);
    if (!Number.isInteger(qty) || qty <= Number(order.cumQty))
      return error(reply, 400, 'Invalid orderQty', 'ValidationError');
    order.orderQty = qty;
    order.leavesQty = qty - Number(order.cumQty);
    return order;
  });
  app.post('/api/v1/order', async (request, reply) => {
    if (!(request.headers['content-type'] ?? '').startsWith('application/json'))
      return error(reply, 415, 'Unsupported content type');
    if (fake.failNextOrder) {
      const { status, message } = fake.failNextOrder;
      fake.failNextOrder = undefined;
      return error(reply, status, message);
    }
    const o = JSON.parse(String(request.body)) as Record<string, string | number>;
    const instrument = INSTRUMENTS.find((i) => i.symbol === o.symbol);
    if (!instrument) return error(reply, 400, `Instrument ${o.symbol} not found`, 'ValidationError');
    const qty = Number(o.orderQty);
    if (!['Buy', 'Sell'].includes(String(o.side))) return error(reply, 400, 'Invalid side', 'ValidationError');
    if (!ORD_TYPES.includes(String(o.ordType))) return error(reply, 400, 'Invalid ordType', 'ValidationError');
    if (!Number.isInteger(qty) || qty <= 0 || qty % instrument.lotSize !== 0)
      return error(
        reply,
        400,
        `Invalid orderQty: must be a multiple of lot size ${instrument.lotSize}`,
        'ValidationError',
      );
    if (o.timeInForce !== undefined && !TIME_IN_FORCE.includes(String(o.timeInForce)))
      return error(reply, 400, 'Invalid timeInForce', 'ValidationError');
    if (/Limit/.test(String(o.ordType)) && !(Number(o.price) > 0))
      return error(reply, 400, 'Invalid price', 'ValidationError');
    if (/Stop|Touched/.test(String(o.ordType)) && !(Number(o.stopPx) > 0))
      return error(reply, 400, 'Invalid stopPx', 'ValidationError');
    if (o.clOrdID !== undefined && String(o.clOrdID).length > 36)
      return error(reply, 400, 'Invalid clOrdID', 'ValidationError');
    if (o.clOrdID !== undefined && fake.orders.some((x) => x.clOrdID === o.clOrdID))
      return error(reply, 400, 'Duplicate clOrdID', 'ValidationError');
    const cost = instrument.isInverse
      ? Math.round((qty / instrument.lastPrice) * 1e8 * instrument.initMargin)
      : qty * 10;
    if (cost > fake.availableXBt)
      return error(reply, 400, `Account has insufficient Available Balance, ${cost} XBt required`, 'ValidationError');
    const filled = o.ordType === 'Market';
    const order: BitmexFakeOrder = {
      orderID: randomUUID(),
      clOrdID: o.clOrdID ?? '',
      account: 395724,
      symbol: String(o.symbol),
      side: String(o.side),
      orderQty: qty,
      price: o.price ?? (filled ? instrument.lastPrice : null),
      stopPx: o.stopPx ?? null,
      ordType: String(o.ordType),
      timeInForce: o.timeInForce ?? 'GoodTillCancel',
      execInst: o.execInst ?? '',
      ordStatus: filled ? 'Filled' : 'New',
      leavesQty: filled ? 0 : qty,
      cumQty: filled ? qty : 0,
      avgPx: filled ? instrument.lastPrice : null,
      text: o.text ?? 'Submitted via API.',
      transactTime: '2026-09-01T00:00:00.000Z',
      timestamp: '2026-09-01T00:00:00.000Z',
    };
    fake.orders.push(order);
    return order;
  });
  return fake;
}

export const startProtocolFake: StartProtocolFake = () => {
  const fake = createBitmexFake();
  return startExchangeFake(fake, {
    credentials: { apiKey: BITMEX_FAKE_KEY, apiSecret: BITMEX_FAKE_SECRET },
    signal: { symbol: 'XBTUSD', action: 'buy', quantity: 100 },
    orderCount: () => fake.orders.length,
  });
};
