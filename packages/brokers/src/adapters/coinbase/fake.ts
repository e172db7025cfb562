// Protocol fake of Coinbase Advanced Trade (POST /api/v3/brokerage/orders and friends, the public
// market products and ticker). Every
// private call needs "Authorization: Bearer <ES256 JWT>" signed by the CDP key, verified here
// with jose against its public key: kid and sub = key name, 2-minute expiry, uri = method + host + path.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { createFakeServer, type FakeServer, startExchangeFake } from '../../ccxt/fake-server.ts';
import type { StartProtocolFake } from '../../core/protocol-fake.ts';

export const COINBASE_KEY_NAME = 'organizations/5a1b-org/apiKeys/7c2d-key';
const PRODUCTS = [
  {
    product_id: 'BTC-USD',
    price: '65000',
    base_increment: '0.00000001',
    quote_increment: '0.01',
    base_min_size: '0.00000001',
    base_max_size: '3400',
    quote_min_size: '1',
    quote_max_size: '150000000',
    base_currency_id: 'BTC',
    quote_currency_id: 'USD',
  },
  {
    product_id: 'ETH-USD',
    price: '3000',
    base_increment: '0.00000001',
    quote_increment: '0.01',
    base_min_size: '0.00000001',
    base_max_size: '38000',
    quote_min_size: '1',
    quote_max_size: '150000000',
    base_currency_id: 'ETH',
    quote_currency_id: 'USD',
  },
  // From ccxt's recorded createOrder case (broker-specs/ccxt): a market sell of 10 ADA-USDT.
  {
    product_id: 'ADA-USDT',
    price: '0.45',
    base_increment: '0.00000001',
    quote_increment: '0.0001',
    base_min_size: '0.00000001',
    base_max_size: '10000000',
    quote_min_size: '1',
    quote_max_size: '10000000',
    base_currency_id: 'ADA',
    quote_currency_id: 'USDT',
  },
  // Traded in whole coins (Coinbase's SHIB-USD: base_increment 1).
  {
    product_id: 'SHIB-USD',
    price: '0.00001',
    base_increment: '1',
    quote_increment: '0.00000001',
    base_min_size: '1',
    base_max_size: '100000000000',
    quote_min_size: '1',
    quote_max_size: '10000000',
    base_currency_id: 'SHIB',
    quote_currency_id: 'USD',
  },
  {
    product_id: 'SOL-USDC',
    price: '150',
    base_increment: '0.00000001',
    quote_increment: '0.01',
    base_min_size: '0.00000001',
    base_max_size: '80000',
    quote_min_size: '1',
    quote_max_size: '25000000',
    base_currency_id: 'SOL',
    quote_currency_id: 'USDC',
  },
].map((p) => ({
  ...p,
  price_increment: p.quote_increment,
  status: 'online',
  trading_disabled: false,
  is_disabled: false,
  cancel_only: false,
  limit_only: false,
  post_only: false,
  product_type: 'SPOT',
  alias: '',
  alias_to: [],
  base_name: p.base_currency_id,
  quote_name: p.quote_currency_id,
}));
const CONFIGURATIONS = [
  'market_market_ioc',
  'sor_limit_ioc',
  'limit_limit_gtc',
  'limit_limit_fok',
  'stop_limit_stop_limit_gtc',
];
const positive = (value: unknown) => typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) && Number(value) > 0;
/** An absent size, or one no finer than the increment ("0.00000001" → at most 8 decimals). */
const onStep = (value: string | undefined, increment: string) => {
  const decimals = (text: string) => (text.split('.')[1] ?? '').replace(/0+$/, '').length;
  if (value === undefined) return true;
  const step = Number(increment);
  return (
    decimals(value) <= decimals(increment) && Math.abs(Number(value) / step - Math.round(Number(value) / step)) < 1e-9
  );
};

export type CoinbaseFakeOrder = Record<string, unknown> & { order_id: string; client_order_id: string; status: string };

export interface CoinbaseFake extends FakeServer {
  privateKeyPem: string;
  available: Record<string, number>;
  orders: CoinbaseFakeOrder[];
  failNextOrder?: { status: number; body: unknown };
  /** The most orders one page of the order list holds (Coinbase: `limit`, then `cursor`). */
  pageSize?: number;
}

export function createCoinbaseFake(): CoinbaseFake {
  const keys = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'sec1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const server = createFakeServer();
  const fake: CoinbaseFake = Object.assign(server, {
    privateKeyPem: keys.privateKey,
    available: { USD: 100_000, BTC: 0.5, USDC: 0 },
    orders: [],
  });
  const publicKey = importSPKI(keys.publicKey, 'ES256');
  const unauthorized = (reply: FastifyReply) => reply.code(401).type('text/plain').send('Unauthorized\n');

  async function authorized(request: FastifyRequest): Promise<boolean> {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!token) return false;
    try {
      if (decodeProtectedHeader(token).kid !== COINBASE_KEY_NAME) return false;
      const { payload } = await jwtVerify(token, await publicKey, {
        algorithms: ['ES256'],
        subject: COINBASE_KEY_NAME,
        maxTokenAge: 120,
      });
      const path = request.url.split('?')[0];
      const uri = String(payload.uri ?? '').replace(/^[A-Z]+ (https?:\/\/)?/, '');
      return String(payload.uri).startsWith(`${request.method} `) && uri === `${request.headers.host}${path}`;
    } catch {
      return false;
    }
  }

  const app = server.app;
  app.addHook('preHandler', async (request, reply) => {
    if (!request.url.startsWith('/api/v3/brokerage/market/') && !(await authorized(request)))
      return unauthorized(reply);
  });
  app.get('/api/v3/brokerage/market/products', async (request) => {
    const query = request.query as { product_type?: string };
    const products = query.product_type === 'FUTURE' ? [] : PRODUCTS;
    return { products, num_products: products.length };
  });
  // Public market ticker (ccxt's recorded fetchTicker case): the last `limit` trades, newest first,
  // with the book's best_bid / best_ask.
  app.get('/api/v3/brokerage/market/products/:id/ticker', async (request, reply) => {
    const product = PRODUCTS.find((p) => p.product_id === (request.params as { id: string }).id);
    if (!product)
      return reply
        .code(404)
        .send({ error: 'NOT_FOUND', message: 'product not found', error_details: 'product not found' });
    const limit = Number((request.query as { limit?: string }).limit);
    if (!(Number.isInteger(limit) && limit > 0 && limit <= 1000))
      return reply
        .code(400)
        .send({ error: 'INVALID_ARGUMENT', message: 'limit is required', error_details: 'limit is required' });
    const price = Number(product.price);
    const tick = Number(product.quote_increment);
    const trade = {
      trade_id: '635541194',
      product_id: product.product_id,
      price: product.price,
      size: '0.01',
      time: '2026-09-01T00:00:00.000000Z',
      side: 'BUY',
      bid: '',
      ask: '',
    };
    return { trades: [trade], best_bid: String(price - tick), best_ask: String(price + tick) };
  });
  app.get('/api/v3/brokerage/transaction_summary', async () => ({
    total_volume: 0,
    total_fees: 0,
    fee_tier: { pricing_tier: 'Advanced 1', maker_fee_rate: '0.004', taker_fee_rate: '0.006' },
  }));
  app.get('/api/v3/brokerage/accounts', async () => ({
    accounts: Object.entries(fake.available).map(([currency, value]) => ({
      uuid: `acct-${currency}`,
      name: `${currency} Wallet`,
      currency,
      available_balance: { value: String(value), currency },
      default: true,
      active: true,
      type: 'ACCOUNT_TYPE_CRYPTO',
      ready: true,
      hold: { value: '0', currency },
    })),
    has_next: false,
    cursor: '',
    size: 3,
  }));
  app.get('/api/v3/brokerage/orders/historical/batch', async (request) => {
    const query = request.query as { order_status?: string | string[]; limit?: string; cursor?: string };
    const statuses = ([] as string[]).concat(query.order_status ?? []);
    // Newest first, a page of `limit` (capped at pageSize) at a time; the cursor is the next offset.
    const listed = fake.orders.filter((o) => statuses.length === 0 || statuses.includes(o.status)).reverse();
    const size = Math.min(Number(query.limit) || Number.POSITIVE_INFINITY, fake.pageSize ?? Number.POSITIVE_INFINITY);
    const start = Number(query.cursor) || 0;
    const next = start + size;
    return {
      orders: listed.slice(start, next),
      has_next: next < listed.length,
      cursor: next < listed.length ? String(next) : '',
    };
  });
  app.get('/api/v3/brokerage/orders/historical/:id', async (request, reply) => {
    const order = fake.orders.find((o) => o.order_id === (request.params as { id: string }).id);
    return order
      ? { order }
      : reply.code(404).send({ error: 'NOT_FOUND', message: 'order not found', error_details: 'order not found' });
  });
  app.post('/api/v3/brokerage/orders/batch_cancel', async (request) => {
    const { order_ids: ids = [] } = JSON.parse(String(request.body)) as { order_ids?: string[] };
    return {
      results: ids.map((id) => {
        const order = fake.orders.find((o) => o.order_id === id && o.status === 'OPEN');
        if (order) order.status = 'CANCELLED';
        return {
          success: Boolean(order),
          failure_reason: order ? 'UNKNOWN_CANCEL_FAILURE_REASON' : 'UNKNOWN_CANCEL_ORDER',
          order_id: id,
        };
      }),
    };
  });
  app.post('/api/v3/brokerage/orders', async (request, reply) => {
    if (fake.failNextOrder) {
      const { status, body } = fake.failNextOrder;
      fake.failNextOrder = undefined;
      return reply.code(status).send(body);
    }
    const body = JSON.parse(String(request.body)) as {
      client_order_id?: string;
      product_id?: string;
      side?: string;
      order_configuration?: Record<string, Record<string, string>>;
    };
    const refuse = (error: string, message: string) => ({
      success: false,
      failure_reason: 'UNKNOWN_FAILURE_REASON',
      order_id: '',
      error_response: { error, message, error_details: message, preview_failure_reason: `PREVIEW_${error}` },
    });
    const product = PRODUCTS.find((p) => p.product_id === body.product_id);
    if (typeof body.client_order_id !== 'string' || !body.client_order_id)
      return reply.code(400).send({ error: 'INVALID_ARGUMENT', message: 'client_order_id is required' });
    // A repeated client_order_id creates nothing and answers with the order it names.
    const existing = fake.orders.find((o) => o.client_order_id === body.client_order_id);
    if (existing)
      return {
        success: true,
        success_response: {
          order_id: existing.order_id,
          product_id: existing.product_id,
          side: existing.side,
          client_order_id: existing.client_order_id,
        },
      };
    if (!product) return refuse('INVALID_PRODUCT_ID', 'Invalid product_id');
    if (body.side !== 'BUY' && body.side !== 'SELL')
      return reply.code(400).send({ error: 'INVALID_ARGUMENT', message: 'invalid side' });
    const keys = Object.keys(body.order_configuration ?? {});
    const kind = keys[0] ?? '';
    const config = body.order_configuration?.[kind] ?? {};
    if (keys.length !== 1 || !CONFIGURATIONS.includes(kind))
      return reply.code(400).send({ error: 'INVALID_ARGUMENT', message: 'invalid order_configuration' });
    const market = kind === 'market_market_ioc';
    if (market ? positive(config.base_size) === positive(config.quote_size) : !positive(config.base_size))
      return refuse('INVALID_SIZE', 'Invalid order size');
    // Sizes and prices finer than the product's increments are refused, not rounded.
    if (!onStep(config.base_size, product.base_increment) || !onStep(config.quote_size, product.quote_increment))
      return refuse('INVALID_SIZE_PRECISION', 'Too many decimals in order amount');
    if (!market && !positive(config.limit_price)) return refuse('INVALID_LIMIT_PRICE', 'Invalid limit price');
    if (
      kind.startsWith('stop_') &&
      (!positive(config.stop_price) ||
        !['STOP_DIRECTION_STOP_UP', 'STOP_DIRECTION_STOP_DOWN'].includes(config.stop_direction ?? ''))
    )
      return refuse('INVALID_STOP_PRICE', 'Invalid stop price');
    const price = market ? Number(product.price) : Number(config.limit_price);
    const size = config.base_size ? Number(config.base_size) : Number(config.quote_size) / price;
    const short =
      body.side === 'BUY'
        ? size * price > (fake.available[product.quote_currency_id] ?? 0)
        : size > (fake.available[product.base_currency_id] ?? 0);
    if (short) return refuse('INSUFFICIENT_FUND', 'Insufficient balance in source account');
    const order: CoinbaseFakeOrder = {
      order_id: randomUUID(),
      product_id: product.product_id,
      user_id: 'user-1',
      order_configuration: body.order_configuration,
      side: body.side,
      client_order_id: body.client_order_id,
      status: market ? 'FILLED' : 'OPEN',
      time_in_force: market ? 'IMMEDIATE_OR_CANCEL' : 'GOOD_UNTIL_CANCELLED',
      created_time: new Date().toISOString(),
      completion_percentage: market ? '100' : '0',
      filled_size: market ? String(size) : '0',
      average_filled_price: market ? product.price : '0',
      number_of_fills: market ? '1' : '0',
      filled_value: market ? String(size * price) : '0',
      pending_cancel: false,
      size_in_quote: Boolean(config.quote_size),
      total_fees: '0',
      order_type: market ? 'MARKET' : kind.startsWith('stop') ? 'STOP_LIMIT' : 'LIMIT',
      product_type: 'SPOT',
    };
    fake.orders.push(order);
    return {
      success: true,
      success_response: {
        order_id: order.order_id,
        product_id: order.product_id,
        side: order.side,
        client_order_id: order.client_order_id,
      },
      order_configuration: body.order_configuration,
    };
  });
  return fake;
}

export const startProtocolFake: StartProtocolFake = () => {
  const fake = createCoinbaseFake();
  return startExchangeFake(fake, {
    credentials: { apiKeyName: COINBASE_KEY_NAME, privateKey: fake.privateKeyPem },
    signal: { symbol: 'BTC-USD', action: 'buy', quantity: 0.01 },
    orderCount: () => fake.orders.length,
  });
};
