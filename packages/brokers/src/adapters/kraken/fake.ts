// Protocol fake of Kraken's spot REST API (docs.kraken.com, broker-specs/kraken): public
// AssetPairs and Ticker, and private BalanceEx, AddOrder, OpenOrders, ClosedOrders, QueryOrders, CancelOrder, each
// form-encoded and signed: API-Sign = HMAC-SHA512(base64-decoded secret, path + SHA256(nonce + body)).
import { createHash, createHmac } from 'node:crypto';
import { createFakeServer, type FakeServer, startExchangeFake } from '../../ccxt/fake-server.ts';
import type { StartProtocolFake } from '../../core/protocol-fake.ts';

export const KRAKEN_FAKE_KEY = 'kraken-test-key';
export const KRAKEN_FAKE_SECRET = Buffer.from('kraken-test-secret-0123456789abcdef').toString('base64');

const PAIRS = {
  XXBTZUSD: {
    altname: 'XBTUSD',
    wsname: 'XBT/USD',
    base: 'XXBT',
    quote: 'ZUSD',
    pair_decimals: 1,
    lot_decimals: 8,
    ordermin: '0.0001',
    last: 65000,
  },
  XETHZUSD: {
    altname: 'ETHUSD',
    wsname: 'ETH/USD',
    base: 'XETH',
    quote: 'ZUSD',
    pair_decimals: 2,
    lot_decimals: 8,
    ordermin: '0.002',
    last: 3000,
  },
  // From ccxt's recorded createOrder case (broker-specs/ccxt): LTC/USDT is sent as pair=LTCUSDT.
  LTCUSDT: {
    altname: 'LTCUSDT',
    wsname: 'LTC/USDT',
    base: 'XLTC',
    quote: 'USDT',
    pair_decimals: 2,
    lot_decimals: 8,
    ordermin: '0.05',
    last: 70,
  },
  SOLUSD: {
    altname: 'SOLUSD',
    wsname: 'SOL/USD',
    base: 'SOL',
    quote: 'ZUSD',
    pair_decimals: 2,
    lot_decimals: 8,
    ordermin: '0.02',
    last: 150,
  },
} as const;
type PairId = keyof typeof PAIRS;
const ORDER_TYPES = ['market', 'limit', 'stop-loss', 'stop-loss-limit', 'take-profit', 'take-profit-limit'];

export interface KrakenFakeOrder {
  txid: string;
  fields: Record<string, string>;
  status: 'open' | 'closed' | 'canceled';
}

export interface KrakenFake extends FakeServer {
  balances: Record<string, number>;
  orders: KrakenFakeOrder[];
  /** Answers the next AddOrder with this error instead of handling it. */
  failNextOrder?: string;
  /** Private methods the key lacks the permission for (BalanceEx), answered "EGeneral:Permission denied". */
  denied: string[];
}

const ok = (result: unknown) => ({ error: [], result });
const fail = (...error: string[]) => ({ error });

function signature(path: string, body: string, nonce: string): string {
  const hash = createHash('sha256')
    .update(nonce + body)
    .digest();
  const hmac = createHmac('sha512', Buffer.from(KRAKEN_FAKE_SECRET, 'base64'));
  return hmac.update(Buffer.concat([Buffer.from(path), hash])).digest('base64');
}

function describe(order: KrakenFakeOrder) {
  const f = order.fields;
  const pair = PAIRS[f.pair as PairId];
  const executed = order.status === 'closed' ? (f.volume ?? '0') : '0';
  return {
    refid: null,
    userref: 0,
    ...(f.cl_ord_id ? { cl_ord_id: f.cl_ord_id } : {}),
    status: order.status,
    opentm: 1_700_000_000.1,
    starttm: 0,
    expiretm: 0,
    descr: {
      pair: pair?.altname,
      type: f.type,
      ordertype: f.ordertype,
      price: f.price ?? '0',
      price2: f.price2 ?? '0',
      leverage: 'none',
      order: `${f.type} ${f.volume} ${pair?.altname} @ ${f.ordertype}`,
      close: '',
    },
    vol: f.volume,
    vol_exec: executed,
    cost: '0',
    fee: '0',
    price: order.status === 'closed' ? String(pair?.last ?? 0) : '0',
    stopprice: '0',
    limitprice: '0',
    misc: '',
    oflags: f.oflags ?? 'fciq',
  };
}

export function createKrakenFake(): KrakenFake {
  const server = createFakeServer();
  const fake: KrakenFake = Object.assign(server, {
    balances: { ZUSD: 100_000, XXBT: 1.5, XETH: 0 },
    orders: [],
    denied: [],
  });
  let lastNonce = 0n;
  let sequence = 0;

  server.app.get('/0/public/AssetPairs', async () => {
    const result: Record<string, unknown> = {};
    for (const [id, { last: _last, ...pair }] of Object.entries(PAIRS))
      result[id] = {
        ...pair,
        aclass_base: 'currency',
        aclass_quote: 'currency',
        lot: 'unit',
        cost_decimals: 5,
        fees: [[0, 0.26]],
        fees_maker: [[0, 0.16]],
        fee_volume_currency: 'ZUSD',
        margin_call: 80,
        margin_stop: 40,
        costmin: '0.5',
        tick_size: '0.1',
        status: 'online',
      };
    return ok(result);
  });

  // Public Ticker: one or more pairs (id or altname), keyed by the pair id; c = last trade closed.
  server.app.get('/0/public/Ticker', async (request) => {
    const asked = String((request.query as { pair?: string }).pair ?? '')
      .split(',')
      .filter(Boolean);
    const ids = asked.map((name) =>
      (Object.keys(PAIRS) as PairId[]).find((id) => id === name || PAIRS[id].altname === name),
    );
    if (!ids.length || ids.some((id) => id === undefined)) return fail('EQuery:Unknown asset pair');
    const result: Record<string, unknown> = {};
    for (const id of ids as PairId[]) {
      const last = PAIRS[id].last;
      const spread = 10 ** -PAIRS[id].pair_decimals;
      result[id] = {
        a: [(last + spread).toFixed(PAIRS[id].pair_decimals), '1', '1.000'],
        b: [(last - spread).toFixed(PAIRS[id].pair_decimals), '1', '1.000'],
        c: [last.toFixed(PAIRS[id].pair_decimals), '0.01000000'],
        v: ['100.0', '250.0'],
        p: [String(last), String(last)],
        t: [1000, 2500],
        l: [String(last * 0.98), String(last * 0.97)],
        h: [String(last * 1.02), String(last * 1.03)],
        o: String(last),
      };
    }
    return ok(result);
  });

  server.app.post('/0/private/:method', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const body = typeof request.body === 'string' ? request.body : '';
    const form = Object.fromEntries(new URLSearchParams(body)) as Record<string, string>;
    if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
      return fail('EGeneral:Invalid arguments');
    if (request.headers['api-key'] !== KRAKEN_FAKE_KEY) return fail('EAPI:Invalid key');
    const nonce = form.nonce ?? '';
    if (request.headers['api-sign'] !== signature(path, body, nonce)) return fail('EAPI:Invalid signature');
    if (!/^\d+$/.test(nonce) || BigInt(nonce) <= lastNonce) return fail('EAPI:Invalid nonce');
    lastNonce = BigInt(nonce);
    const { method } = request.params as { method: string };
    if (fake.denied.includes(method)) return fail('EGeneral:Permission denied');
    const balance = (code: string) => fake.balances[code] ?? 0;
    switch (method) {
      case 'BalanceEx':
        return ok(
          Object.fromEntries(
            Object.keys(fake.balances).map((c) => [c, { balance: balance(c).toFixed(8), hold_trade: '0.0000' }]),
          ),
        );
      case 'OpenOrders':
      case 'ClosedOrders': {
        const open = method === 'OpenOrders';
        const list = fake.orders.filter(
          (o) =>
            (open ? o.status === 'open' : o.status !== 'open') &&
            (!form.cl_ord_id || o.fields.cl_ord_id === form.cl_ord_id),
        );
        const rows = Object.fromEntries(list.map((o) => [o.txid, describe(o)]));
        return ok(open ? { open: rows } : { closed: rows, count: list.length });
      }
      case 'QueryOrders': {
        const ids = (form.txid ?? '').split(',');
        const found = fake.orders.filter((o) => ids.includes(o.txid));
        if (!found.length) return fail('EOrder:Unknown order');
        return ok(Object.fromEntries(found.map((o) => [o.txid, describe(o)])));
      }
      case 'CancelOrder': {
        const order = fake.orders.find(
          (o) =>
            o.status === 'open' && (o.txid === form.txid || (form.cl_ord_id && o.fields.cl_ord_id === form.cl_ord_id)),
        );
        if (!order) return fail('EOrder:Unknown order');
        order.status = 'canceled';
        return ok({ count: 1 });
      }
      case 'AddOrder': {
        if (fake.failNextOrder) {
          const error = fake.failNextOrder;
          fake.failNextOrder = undefined;
          if (error === 'HTTP 503') return reply.code(503).type('text/html').send('<html>Service Unavailable</html>');
          return fail(error);
        }
        const pair = PAIRS[form.pair as PairId];
        if (!pair) return fail('EQuery:Unknown asset pair');
        if (!['buy', 'sell'].includes(form.type ?? '') || !ORDER_TYPES.includes(form.ordertype ?? ''))
          return fail('EGeneral:Invalid arguments');
        const volume = Number(form.volume);
        const viqc = (form.oflags ?? '').split(',').includes('viqc');
        if (!(volume > 0)) return fail('EGeneral:Invalid arguments:volume');
        if (viqc && (form.type !== 'buy' || form.ordertype !== 'market'))
          return fail('EGeneral:Invalid arguments:viqc');
        if (!viqc && volume < Number(pair.ordermin)) return fail('EOrder:Order minimum not met');
        const needsPrice = form.ordertype !== 'market';
        if (needsPrice && !(Number(form.price) > 0)) return fail('EGeneral:Invalid arguments:price');
        if (form.ordertype?.endsWith('-limit') && !(Number(form.price2) > 0))
          return fail('EGeneral:Invalid arguments:price2');
        if (form.timeinforce && !['GTC', 'IOC', 'GTD'].includes(form.timeinforce))
          return fail('EGeneral:Invalid arguments:timeinforce');
        const clientId = form.cl_ord_id;
        if (
          clientId &&
          !/^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}|[\x20-\x7e]{1,18})$/i.test(
            clientId,
          )
        )
          return fail('EGeneral:Invalid arguments:cl_ord_id');
        if (clientId && fake.orders.some((o) => o.status === 'open' && o.fields.cl_ord_id === clientId))
          return fail('EOrder:Duplicate order');
        const price = form.ordertype === 'limit' ? Number(form.price) : pair.last;
        const cost = viqc ? volume : volume * price;
        if (form.type === 'buy' ? cost > balance(pair.quote) : volume > balance(pair.base))
          return fail('EOrder:Insufficient funds');
        const txid = `O${String(++sequence).padStart(5, '0')}-FAKE-KRAKEN`;
        const marketable =
          form.ordertype === 'market' ||
          (form.ordertype === 'limit' && (form.type === 'buy' ? price >= pair.last : price <= pair.last));
        fake.orders.push({ txid, fields: form, status: marketable && form.ordertype === 'market' ? 'closed' : 'open' });
        return ok({
          descr: { order: `${form.type} ${form.volume} ${pair.altname} @ ${form.ordertype}` },
          txid: [txid],
        });
      }
      default:
        return fail('EGeneral:Unknown method');
    }
  });
  return fake;
}

export const startProtocolFake: StartProtocolFake = () => {
  const fake = createKrakenFake();
  return startExchangeFake(fake, {
    credentials: { apiKey: KRAKEN_FAKE_KEY, apiSecret: KRAKEN_FAKE_SECRET },
    signal: { symbol: 'BTCUSD', action: 'buy', quantity: 0.01 },
    orderCount: () => fake.orders.length,
  });
};
