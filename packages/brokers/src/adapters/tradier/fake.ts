// Protocol fake of Tradier's brokerage API on loopback: Bearer token checked (401 "Invalid Access
// Token"), form-encoded orders validated (fake-book.ts), preview=true, tags, and Tradier's JSON
// quirks: a list of one comes as an object, an empty list as "null". Market orders fill at once.
// The order list is paginated (page, limit: 25 unless asked), as Tradier documents.
import { randomUUID } from 'node:crypto';
import { createFakeServer } from '../../core/fake-server.ts';
import { type StartProtocolFake, wireRecord } from '../../core/protocol-fake.ts';
import { checkOrderForm, type FakeTradierOrder, quoteOf, TradierRefusal } from './fake-book.ts';

export interface FakeTradierOptions {
  token?: string;
  accounts?: Array<{ account_number: string; type?: string; status?: string }>;
  cash?: number;
  positions?: Array<{ symbol: string; quantity: number; cost_basis: number }>;
}

/** Tradier's rendering of a list: "null", one object, or an array. */
const tradierList = <T>(items: T[]): T | T[] | 'null' =>
  items.length === 0 ? 'null' : items.length === 1 ? (items[0] as T) : items;

export async function startFakeTradier(options: FakeTradierOptions = {}) {
  const token = options.token ?? 'sandbox-token-1';
  const accounts = options.accounts ?? [{ account_number: 'VA12345678', type: 'margin' }];
  let cash = options.cash ?? 100_000;
  const orders: FakeTradierOrder[] = [];
  const positions = new Map((options.positions ?? []).map((p) => [p.symbol, { ...p }]));
  let nextId = 228_175;
  const server = createFakeServer({
    authenticate(request, reply) {
      const ok = request.headers.authorization === `Bearer ${token}`;
      if (!ok) reply.code(401).type('text/plain').send('Invalid Access Token');
      return ok;
    },
  });
  const { app, requests } = server;
  app.addHook('preHandler', async (request, reply) => {
    if (!String(request.headers.accept).includes('application/json'))
      return reply.code(200).type('application/xml').send('<?xml version="1.0"?><response/>');
    const id = (request.params as { id?: string }).id;
    if (id !== undefined && !accounts.some((a) => a.account_number === id))
      return reply.code(401).type('text/plain').send('Invalid Access Token');
  });
  const errors = (message: string) => ({ errors: { error: [message] } });

  const fill = (instrument: string, side: string, quantity: number) => {
    const signed = side.startsWith('buy') ? quantity : -quantity;
    const price = quoteOf(instrument);
    const held = positions.get(instrument) ?? { symbol: instrument, quantity: 0, cost_basis: 0 };
    held.quantity += signed;
    held.cost_basis += signed * price * (instrument.length > 10 ? 100 : 1);
    cash -= signed * price * (instrument.length > 10 ? 100 : 1);
    if (held.quantity === 0) positions.delete(instrument);
    else positions.set(instrument, held);
    return price;
  };

  app.get('/v1/user/profile', async () => ({
    profile: {
      id: 'id-gcostanza',
      name: 'George Costanza',
      account: tradierList(
        accounts.map((a) => ({
          account_number: a.account_number,
          classification: 'individual',
          day_trader: false,
          option_level: 6,
          status: a.status ?? 'active',
          type: a.type ?? 'margin',
        })),
      ),
    },
  }));

  app.post('/v1/accounts/:id/orders', async (request, reply) => {
    if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return reply.code(400).send(errors('Missing Parameter: class'));
    const form = (request.body ?? {}) as Record<string, string>;
    let checked: ReturnType<typeof checkOrderForm>;
    try {
      checked = checkOrderForm(form);
      if (checked.cost > cash) throw new TradierRefusal('You do not have enough buying power for this trade.');
    } catch (error) {
      if (error instanceof TradierRefusal) return reply.code(400).send(errors(error.message));
      throw error;
    }
    // Tradier's back office refuses with HTTP 200 and no order: a market buy to cover, no short held.
    const held = positions.get(form.symbol ?? '')?.quantity ?? 0;
    if (form.preview !== 'true' && form.type === 'market' && form.side === 'buy_to_cover' && !(held < 0))
      return { errors: { error: ['Backoffice rejected override of the order.', 'UnexpectedBuyToCoverOrder'] } };
    if (form.preview === 'true')
      return {
        order: {
          status: 'ok',
          commission: 0,
          cost: checked.cost,
          fees: 0,
          symbol: form.symbol,
          quantity: Number(form.quantity ?? 0),
          side: form.side,
          type: form.type,
          duration: form.duration,
          result: true,
          order_cost: checked.cost,
          margin_change: 0,
          class: form.class,
        },
      };
    const [first] = checked.legs;
    const order: FakeTradierOrder = {
      id: nextId++,
      type: form.type,
      symbol: form.symbol ?? '',
      ...(form.option_symbol ? { option_symbol: form.option_symbol } : {}),
      side: first?.side ?? '',
      quantity: first?.quantity ?? 0,
      status: 'open',
      duration: form.duration,
      class: form.class,
      // Listed as Tradier lists them: the limit as price, the stop as stop_price.
      ...(form.price !== undefined && form.class !== 'multileg' ? { price: Number(form.price) } : {}),
      ...(form.stop !== undefined ? { stop_price: Number(form.stop) } : {}),
      create_date: new Date().toISOString(),
      ...(form.tag ? { tag: form.tag } : {}),
    };
    orders.push(order);
    if (form.type === 'market') {
      const prices = checked.legs.map((leg) => fill(leg.instrument, leg.side, leg.quantity));
      Object.assign(order, { status: 'filled', avg_fill_price: prices[0], exec_quantity: order.quantity });
    }
    return { order: { id: order.id, status: 'ok', partner_id: randomUUID() } };
  });

  // Paginated as documented: page (default 1) of limit orders (default 25).
  app.get('/v1/accounts/:id/orders', async (request) => {
    const query = request.query as { includeTags?: string; page?: string; limit?: string };
    const withTags = query.includeTags === 'true';
    const limit = Number(query.limit ?? 25);
    const page = Number(query.page ?? 1);
    const shown = orders
      .slice((page - 1) * limit, page * limit)
      .map(({ tag, ...rest }) => (withTags && tag ? { ...rest, tag } : rest));
    return { orders: shown.length ? { order: tradierList(shown) } : 'null' };
  });

  app.get('/v1/accounts/:id/orders/:orderId', async (request, reply) => {
    const order = orders.find((o) => String(o.id) === (request.params as { orderId: string }).orderId);
    if (!order) return reply.code(400).send(errors('Order not found'));
    const { tag, ...rest } = order;
    const withTags = (request.query as { includeTags?: string }).includeTags === 'true';
    return { order: withTags && tag ? { ...rest, tag } : rest };
  });

  app.delete('/v1/accounts/:id/orders/:orderId', async (request, reply) => {
    const order = orders.find((o) => String(o.id) === (request.params as { orderId: string }).orderId);
    if (!order) return reply.code(400).send(errors('Order not found'));
    if (order.status !== 'open') return reply.code(400).send(errors(`Order is already ${order.status}`));
    order.status = 'canceled';
    return { order: { id: order.id, status: 'ok' } };
  });

  app.get('/v1/accounts/:id/positions', async () => {
    const list = [...positions.values()].map((p, index) => ({
      ...p,
      id: 130_089 + index,
      date_acquired: '2024-01-02T15:04:05.000Z',
    }));
    return { positions: list.length ? { position: tradierList(list) } : 'null' };
  });

  // Market data sits beside the account routes; one symbol (or a comma list) per call.
  app.get('/v1/markets/quotes', async (request) => {
    const symbols = String((request.query as { symbols?: string }).symbols ?? '')
      .split(',')
      .filter(Boolean);
    const known = symbols.filter((symbol) => /^[A-Z.]{1,6}$/.test(symbol) || /^[A-Z]{1,6}\d{6}[CP]\d{8}$/.test(symbol));
    const unknown = symbols.filter((symbol) => !known.includes(symbol));
    const quote = known.map((symbol) => {
      const last = quoteOf(symbol);
      return { symbol, type: symbol.length > 10 ? 'option' : 'stock', last, bid: last - 0.01, ask: last + 0.01 };
    });
    return {
      quotes: {
        ...(quote.length ? { quote: tradierList(quote) } : {}),
        ...(unknown.length ? { unmatched_symbols: { symbol: tradierList(unknown) } } : {}),
      },
    };
  });

  app.get('/v1/accounts/:id/balances', async (request) => ({
    balances: {
      account_number: (request.params as { id: string }).id,
      account_type: 'margin',
      total_cash: cash,
      total_equity: cash + [...positions.values()].reduce((sum, p) => sum + p.quantity * quoteOf(p.symbol), 0),
      margin: { stock_buying_power: cash * 2, option_buying_power: cash },
    },
  }));

  const url = await server.listen();
  return {
    url,
    token,
    requests,
    orders,
    /** The market reaches a resting order (by Tradier's id): it fills, whole, later. */
    fillResting(id: number) {
      const order = orders.find((o) => o.id === id && o.status === 'open');
      if (!order) throw new Error(`no open order ${id}`);
      const price = fill(String(order.option_symbol ?? order.symbol), String(order.side), Number(order.quantity));
      Object.assign(order, { status: 'filled', avg_fill_price: price, exec_quantity: order.quantity });
    },
    /** Requests that reached the order endpoint (previews included). */
    submissions: () => requests.filter((r) => r.method === 'POST' && /\/orders$/.test(r.url)),
    inject: server.inject,
    clearInjections: server.clearInjections,
    close: () => app.close(),
  };
}

export type FakeTradier = Awaited<ReturnType<typeof startFakeTradier>>;

export const startProtocolFake: StartProtocolFake = async () => {
  const fake = await startFakeTradier();
  return {
    config: { baseUrl: fake.url },
    credentials: () => ({ accessToken: fake.token }),
    signal: { symbol: 'AAPL', action: 'buy', quantity: 1 },
    orderCount: () => fake.orders.length,
    requests: () => fake.requests.map((request) => wireRecord(request.method, request.url, request.body)),
    answerNext: (answer) => fake.inject(answer),
    close: fake.close,
  };
};
