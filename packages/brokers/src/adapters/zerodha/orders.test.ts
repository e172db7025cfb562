// Contract: every order form Kite takes, as the exact form it receives; what Kite cannot take is
// refused before anything is sent; RMS rejections after a 200 read as rejected orders.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, type Connected, connected, expectFailure, input, sentSince } from './test-support.ts';

let c: Connected;
beforeAll(async () => {
  c = await connected();
});
afterAll(() => c.fake.close());
afterEach(() => c.fake.clearInjections());

/** Places the signal; returns the answer and the form POSTed to /orders/{variety}. */
async function place(signal: Record<string, unknown>, clientOrderId?: string) {
  const before = c.fake.requests.length;
  const answer = await c.broker.placeOrder(c.ctx, c.session, input(signal, clientOrderId));
  const posts = sentSince(c.fake, before).filter((r) => r.method === 'POST');
  return { answer, path: posts[0]?.path, form: posts[0]?.body as Record<string, string> | undefined };
}

describe('orders', () => {
  it('a market buy: MARKET with automatic market protection, CNC, our id as tag; filled at once', async () => {
    const before = c.fake.requests.length;
    const { answer, path, form } = await place({ symbol: 'NSE:INFY', action: 'buy', quantity: 2 }, 'sig20260609a0001');
    expect(path).toBe('/orders/regular');
    expect(form).toEqual({
      tradingsymbol: 'INFY',
      exchange: 'NSE',
      transaction_type: 'BUY',
      order_type: 'MARKET',
      quantity: '2',
      product: 'CNC',
      validity: 'DAY',
      market_protection: '-1',
      tag: 'sig20260609a0001',
    });
    expect(answer).toMatchObject({ status: 'filled', price: 1520, status_description: 'Zerodha order complete' });
    // Placed, then its state read once: RMS answers after the 200.
    expect(sentSince(c.fake, before).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /orders/regular',
      `GET /orders/${answer.id}`,
    ]);
    expect(c.fake.requests.at(-1)?.headers['content-type']).toBeUndefined();
    const post = c.fake.requests.find((r) => r.method === 'POST' && r.url === '/orders/regular');
    expect(post?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(post?.headers.authorization).toMatch(/^token kitefakeapikey:[0-9a-f]{32}$/);
  });

  it('a limit sell of held shares: LIMIT at Kite’s price text, open until it fills', async () => {
    const { answer, form } = await place({ symbol: 'INFY', action: 'sell', quantity: 5, limit_price: 1600.5 });
    expect(form).toMatchObject({
      exchange: 'NSE',
      order_type: 'LIMIT',
      price: '1600.50',
      product: 'CNC',
      validity: 'DAY',
    });
    expect(answer).toMatchObject({ status: 'accepted', status_description: 'Zerodha order open' });
  });

  it('a stop is SL-M with market protection; a stop_limit on NFO is SL, NRML, in lots', async () => {
    const stop = await place({
      symbol: 'NSE:SBIN',
      action: 'buy',
      quantity: 1,
      stop_price: 810,
      extra: { market_protection: 5 },
    });
    expect(stop.form).toMatchObject({ order_type: 'SL-M', trigger_price: '810', market_protection: '5' });
    expect(stop.answer.status_description).toBe('Zerodha order trigger pending');
    const nfo = await place(
      {
        symbol: 'NFO:NIFTY26JUNFUT',
        class: 'future',
        action: 'buy',
        quantity: 75,
        stop_price: 24100,
        limit_price: 24105,
      },
      'sig20260609a0003',
    );
    expect(nfo.form).toEqual({
      tradingsymbol: 'NIFTY26JUNFUT',
      exchange: 'NFO',
      transaction_type: 'BUY',
      order_type: 'SL',
      quantity: '75',
      product: 'NRML',
      price: '24105',
      trigger_price: '24100',
      validity: 'DAY',
      tag: 'sig20260609a0003',
    });
    // Derivative symbols go to NFO without a prefix; options by Kite's own name.
    const option = await place({
      symbol: 'NIFTY26JUN24000CE',
      class: 'option',
      action: 'buy_to_open',
      quantity: 75,
      limit_price: 200,
    });
    expect(option.form).toMatchObject({ exchange: 'NFO', tradingsymbol: 'NIFTY26JUN24000CE', product: 'NRML' });
  });

  it('a short sale is intraday (MIS); extra picks product, validity and TTL', async () => {
    expect((await place({ symbol: 'NSE:SBIN', action: 'sell_short', quantity: 3 })).form).toMatchObject({
      transaction_type: 'SELL',
      product: 'MIS',
    });
    const ttl = await place({
      symbol: 'NSE:SBIN',
      action: 'buy',
      quantity: 1,
      limit_price: 700,
      duration: 'day',
      extra: { validity_ttl: 5, product: 'MIS' },
    });
    expect(ttl.form).toMatchObject({ validity: 'TTL', validity_ttl: '5', product: 'MIS' });
    const ioc = await place({ symbol: 'NSE:SBIN', action: 'buy', quantity: 1, limit_price: 700, duration: 'ioc' });
    expect(ioc.form).toMatchObject({ validity: 'IOC' });
    expect(ioc.answer.status).toBe('canceled');
  });

  it('stop_loss_price makes a cover order: /orders/co, product CO, its stop as trigger_price', async () => {
    const { path, form, answer } = await place({
      symbol: 'NSE:SBIN',
      action: 'buy',
      quantity: 2,
      stop_loss_price: 790,
    });
    expect(path).toBe('/orders/co');
    expect(form).toMatchObject({ order_type: 'MARKET', product: 'CO', trigger_price: '790', market_protection: '-1' });
    expect(answer.status).toBe('filled');
    const stopLeg = c.fake.orders.find((order) => order.parent_order_id === answer.id);
    expect(stopLeg).toMatchObject({
      variety: 'co',
      order_type: 'SL-M',
      transaction_type: 'SELL',
      status: 'TRIGGER PENDING',
    });
  });

  it('after-market and iceberg orders by variety', async () => {
    const amo = await place({
      symbol: 'NSE:SBIN',
      action: 'buy',
      quantity: 1,
      limit_price: 700,
      extra: { variety: 'amo' },
    });
    expect(amo.path).toBe('/orders/amo');
    expect(amo.answer.status_description).toBe('Zerodha order amo req received');
    const iceberg = await place({
      symbol: 'NSE:SBIN',
      action: 'buy',
      quantity: 200,
      limit_price: 700,
      extra: { variety: 'iceberg', iceberg_legs: 3 },
    });
    expect(iceberg.path).toBe('/orders/iceberg');
    expect(iceberg.form).toMatchObject({ iceberg_legs: '3', iceberg_quantity: '67' });
  });

  it('autoslice: slices Kite refused are named, the order stands', async () => {
    const small = await connected({ cash: 300_000 });
    const before = small.fake.requests.length;
    const order = {
      symbol: 'NFO:NIFTY26JUNFUT',
      action: 'buy',
      quantity: 3600,
      limit_price: 1000,
      extra: { autoslice: true },
    };
    const answer = await small.broker.placeOrder(small.ctx, small.session, input(order));
    expect(sentSince(small.fake, before)[0]?.body).toMatchObject({ autoslice: 'true', quantity: '3600' });
    expect(answer.status).toBe('accepted');
    expect(answer.status_description).toMatch(
      /^Zerodha order open; 1 of 2 slices placed, refused: Insufficient funds\. Required margin is 270000\.00 but available margin is 30000\.00\.$/,
    );
    expect(small.fake.placed().map((placed) => placed.quantity)).toEqual([1800]);
    await small.fake.close();
  });

  it('RMS rejects after the 200: the answer is the rejected order with Kite’s reason', async () => {
    const { answer } = await place({ symbol: 'NSE:RELIANCE', action: 'buy', quantity: 1000 });
    expect(answer).toMatchObject({
      status: 'rejected',
      status_description: expect.stringMatching(/^Zerodha order rejected: Insufficient funds\. Required margin is/),
    });
    const held = await place({ symbol: 'NSE:TATASTEEL', action: 'sell', quantity: 1 });
    expect(held.answer).toMatchObject({
      status: 'rejected',
      status_description: 'Zerodha order rejected: Insufficient holdings. Available quantity is 0.',
    });
  });

  it('an id that does not fit Kite’s tag is hashed to 20 letters and digits, the same each time', async () => {
    const long = 'signal-id-with-dashes-and-more-than-20';
    const first = await place({ symbol: 'NSE:SBIN', action: 'buy', quantity: 1, limit_price: 700 }, long);
    const second = await place({ symbol: 'NSE:SBIN', action: 'buy', quantity: 1, limit_price: 700 }, long);
    expect(first.form?.tag).toMatch(/^[0-9a-f]{20}$/);
    expect(second.form?.tag).toBe(first.form?.tag);
  });

  it.each([
    [
      { symbol: 'SPY  261218C00600000', action: 'buy_to_open', quantity: 1 },
      'give the option as Kite lists it (NFO:NIFTY27JUN24000CE), not in OCC form',
    ],
    [{ symbol: 'NIFTY1!', action: 'buy', quantity: 75 }, 'Kite has no continuous contract'],
    // A root past 5 letters (TradingView's NSE:BANKNIFTY1!, MCX:CRUDEOIL1!) went to NSE as the stock "BANKNIFTY1!".
    [{ symbol: 'NSE:BANKNIFTY1!', action: 'buy', quantity: 30 }, 'Kite has no continuous contract'],
    [{ symbol: 'MCX:CRUDEOIL1!', action: 'buy', quantity: 1 }, 'Kite has no continuous contract'],
    [{ symbol: 'NYSE:IBM', action: 'buy', quantity: 1 }, 'NYSE is not an exchange Kite trades on'],
    [
      { symbol: 'NSE:INFY', class: 'option', action: 'buy_to_open', quantity: 1 },
      "NSE trades stocks; give the option's exchange",
    ],
    [{ symbol: 'NSE:INFY', action: 'buy', quantity: 1.5 }, 'quantity must be a whole number'],
    [
      { symbol: 'NSE:INFY', action: 'buy', quantity: 1, limit_price: 1500, extra: { market_protection: 5 } },
      'market_protection is for market and stop orders',
    ],
    [
      { symbol: 'NSE:INFY', action: 'sell_short', quantity: 1, extra: { product: 'CNC' } },
      'a short sale is intraday at Kite: product MIS',
    ],
    [
      { symbol: 'NSE:INFY', action: 'buy', quantity: 1, extra: { variety: 'co' } },
      'a cover order (variety co) needs stop_loss_price',
    ],
    [
      { symbol: 'NSE:INFY', action: 'buy', quantity: 1, stop_price: 1500, stop_loss_price: 1400 },
      'a cover order enters at market or limit',
    ],
    [
      { symbol: 'NSE:INFY', action: 'buy', quantity: 10, limit_price: 1500, extra: { variety: 'iceberg' } },
      'an iceberg order needs extra.iceberg_legs',
    ],
    [
      { symbol: 'NSE:INFY', action: 'buy', quantity: 1, extra: { iceberg_legs: 2 } },
      'iceberg_legs and iceberg_quantity need variety iceberg',
    ],
    [
      { symbol: 'NSE:INFY', action: 'buy', quantity: 1, duration: 'ioc', extra: { validity_ttl: 3 } },
      'validity_ttl goes with duration day',
    ],
  ])('refuses %j before sending', async (signal, message) => {
    const before = c.fake.requests.length;
    const error = await expectFailure(c.broker.placeOrder(c.ctx, c.session, input(signal)));
    expect(error.kind).toBe('InvalidOrder');
    expect(error.message).toMatch(/^Zerodha: /);
    expect(error.message).toContain(message);
    expect(c.fake.requests.length).toBe(before);
  });

  it('refuses an account that is not the connection’s', async () => {
    const error = await expectFailure(
      c.broker.placeOrder(c.ctx, c.session, {
        ...input({ symbol: 'NSE:INFY', action: 'buy', quantity: 1 }),
        accountId: 'XY9999',
      }),
    );
    expect(error).toMatchObject({
      kind: 'InvalidOrder',
      message: 'Zerodha: account XY9999 is not part of this connection',
    });
    expect(ACCOUNT).toBe(c.session.accounts[0]?.id);
  });
});
