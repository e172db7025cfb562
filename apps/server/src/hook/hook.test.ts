import { parseOrderText } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { balanceOf, eventually, paperOrders, postSignal, setupTrader, signalRows } from '../../test/signal-fixtures.ts';
import { listActions } from '../modules/actions/list-actions.ts';
import { deleteConnector } from '../modules/connectors/index.ts';
import { POST_ONLY } from '../modules/signals/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };

describe('POST /hook/:shortKey', () => {
  it('places one paper order for a signal, spends one credit and answers 201', async () => {
    const trader = await setupTrader(t, 'place@example.com');
    const res = await postSignal(t, trader.shortKey, BUY);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ status: 'filled' });
    expect(typeof body.id).toBe('string');
    expect(typeof body.price).toBe('number');
    const orders = await paperOrders(t, trader.accountId);
    expect(orders).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(4);
    await eventually(async () => (await signalRows(t, trader.userId))[0]?.status === 'filled');
    const [signal] = await signalRows(t, trader.userId);
    expect(orders[0]?.client_order_id).toBe(signal?.id);
    expect(signal).toMatchObject({ credit_held: true, is_test: false, broker_order_id: body.id });
  });

  it('takes text/plain (TradingView), a charset, and a byte-order mark', async () => {
    const trader = await setupTrader(t, 'plain@example.com');
    const text = await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 }, 'text/plain');
    expect(text.statusCode).toBe(201);
    const charset = await postSignal(t, trader.shortKey, { ...BUY, quantity: 3 }, 'application/json; charset=utf-8');
    expect(charset.statusCode).toBe(201);
    const bom = await postSignal(t, trader.shortKey, `\ufeff${JSON.stringify({ ...BUY, quantity: 4 })}`, 'text/plain');
    expect(bom.statusCode).toBe(201);
    const none = await t.app.inject({ method: 'POST', url: `/hook/${trader.shortKey}`, payload: JSON.stringify(BUY) });
    expect(none.statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(4);
  });

  it('reads the body as text whatever its content type says: blank, a bare word, a list', async () => {
    const trader = await setupTrader(t, 'every-type@example.com');
    const types = ['', ' ', 'json', 'text', 'application/json, text/plain'];
    for (const [i, type] of types.entries()) {
      const res = await postSignal(t, trader.shortKey, { ...BUY, quantity: i + 1 }, type);
      expect(res.statusCode, type).toBe(201);
      expect(res.json()).toMatchObject({ status: 'filled' });
    }
    expect(await paperOrders(t, trader.accountId)).toHaveLength(types.length);
  });

  it('takes the URL with a slash added at its end as the same webhook: one order, told to a browser too', async () => {
    const trader = await setupTrader(t, 'slash@example.com');
    const res = await postSignal(t, `${trader.shortKey}/`, BUY, 'text/plain');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'filled' });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(4);
    const opened = await t.app.inject({ method: 'GET', url: `/hook/${trader.shortKey}/` });
    expect(opened.statusCode).toBe(405);
  });

  it('takes the URL pasted with a space or a line end around its key as the same webhook', async () => {
    const trader = await setupTrader(t, 'pasted@example.com');
    const urls = [`${trader.shortKey}%20`, `${trader.shortKey}%0D%0A`, `%20${trader.shortKey}`];
    for (const [i, url] of urls.entries()) {
      // Three orders (one body thrice would be one order and two repeats).
      const res = await postSignal(t, url, { symbol: 'AAPL', action: 'buy', quantity: i + 1 });
      expect(res.statusCode, url).toBe(201);
    }
    expect(await paperOrders(t, trader.accountId)).toHaveLength(3);
  });

  it('tells a browser opening the URL that it takes POST, the same for every key, and places nothing', async () => {
    const trader = await setupTrader(t, 'opened@example.com');
    const opened = (key: string) => t.app.inject({ method: 'GET', url: `/hook/${key}` });
    const known = await opened(trader.shortKey);
    const unknown = await opened('NoSuchWebhookKey0000000');
    for (const res of [known, unknown]) {
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.json()).toEqual({ status: 'Error', message: expect.stringContaining('takes alerts sent by POST') });
    }
    expect(known.body).toBe(unknown.body);
    expect(await signalRows(t, trader.userId)).toHaveLength(0);
    expect(await balanceOf(t, trader.userId)).toBe(5);
  });

  it('refuses the loose text the playground repairs, saying so, and takes the strict body it shows', async () => {
    const trader = await setupTrader(t, 'loose@example.com');
    const loose = "{symbol: 'AAPL', action: 'buy', quantity: 1, // entry\n}";
    const refused = await postSignal(t, trader.shortKey, loose, 'text/plain');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('it reads only once repaired (single quotes, trailing commas, comments…)');
    const read = parseOrderText(loose);
    expect(read).toMatchObject({ ok: true, repaired: true });
    const strict = JSON.stringify(read.ok ? read.value : null, null, 2); // What the playground shows and copies.
    const placed = await postSignal(t, trader.shortKey, strict, 'text/plain');
    expect(placed.statusCode).toBe(201);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
  });

  it('refuses invalid JSON and unknown fields with a ValidationError naming the problem', async () => {
    const trader = await setupTrader(t, 'invalid@example.com');
    const broken = await postSignal(t, trader.shortKey, '{"symbol": "AAPL", ', 'text/plain');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ status: 'ValidationError' });
    expect(broken.json().message).toMatch(/JSON/);
    const unknown = await postSignal(t, trader.shortKey, { ...BUY, stop_los_price: 10 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/stop_los_price/);
    const empty = await postSignal(t, trader.shortKey, '');
    expect(empty.statusCode).toBe(400);
    // JSON.parse would keep the last: a sell.
    const twice = await postSignal(t, trader.shortKey, '{"symbol":"AAPL","action":"buy","quantity":1,"action":"sell"}');
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toEqual({ status: 'ValidationError', message: 'action: given twice' });
    // TradingView's plain alert leaves a strategy variable as written: unquoted, the text is no JSON.
    const bare = '{"symbol": "AAPL", "action": "buy", "quantity": {{strategy.order.contracts}}}';
    const unreplaced = await postSignal(t, trader.shortKey, bare, 'text/plain; charset=utf-8');
    expect(unreplaced.json()).toEqual({
      status: 'ValidationError',
      message: 'quantity: placeholder {{strategy.order.contracts}} was not replaced by the sender',
    });
    const two = await postSignal(t, trader.shortKey, `${JSON.stringify(BUY)}\n${JSON.stringify(BUY)}`, 'text/plain');
    expect(two.json().message).toBe(
      'body: holds more than one order; send one order per signal (an alert or a call each)',
    );
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    expect(await balanceOf(t, trader.userId)).toBe(5);
  });

  it('refuses a cancel given a quantity_type, which would not make it cancel fewer orders', async () => {
    const trader = await setupTrader(t, 'cancel-quantity-type@example.com');
    const res = await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'cancel', quantity_type: 'cash' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 'ValidationError',
      message: 'quantity_type: not used with action cancel (it cancels every open order on the symbol)',
    });
    expect(await balanceOf(t, trader.userId)).toBe(5);
  });

  it('answers 413 over 64 KiB and takes a body of exactly 64 KiB', async () => {
    const trader = await setupTrader(t, 'large@example.com');
    const json = JSON.stringify(BUY);
    const exact = json + ' '.repeat(65_536 - json.length);
    expect((await postSignal(t, trader.shortKey, exact)).statusCode).toBe(201);
    const over = await postSignal(t, trader.shortKey, `${exact} `);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ status: 'ValidationError' });
  });

  it('answers 404 for unknown keys', async () => {
    for (const key of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', 'not-a-key.json']) {
      const res = await postSignal(t, key, BUY);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: 'Error', message: 'Webhook not found' });
    }
  });

  it('refuses a deactivated hook or connector, saying which', async () => {
    const trader = await setupTrader(t, 'off@example.com');
    const pool = t.services.db.$client;
    await pool.query(
      `update hooks set is_active = false, deactivated_reason = 'too many invalid requests' where id = $1`,
      [trader.hook.id],
    );
    await pool.query(`select pg_notify('hook_changed', $1)`, [trader.shortKey]);
    await eventually(async () => (await postSignal(t, trader.shortKey, BUY)).statusCode === 400);
    expect((await postSignal(t, trader.shortKey, BUY)).json()).toEqual({
      status: 'ExecutionError',
      message: 'Webhook is deactivated: too many invalid requests',
    });
    const other = await trader.addHook(false);
    await pool.query('update connectors set is_active = false where key = $1', [trader.connector.key]);
    const res = await postSignal(t, other.shortKey, BUY);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^Broker connection is deactivated/);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
  });

  it('refuses a signal for an account its connection no longer holds, leaving the connection working', async () => {
    const trader = await setupTrader(t, 'dropped@example.com');
    const pool = t.services.db.$client;
    // Reconnected without this account (left out at the broker's consent, or closed there).
    await pool.query(
      `update connectors set accounts = jsonb_build_array(jsonb_set(accounts->0, '{id}', '"P-kept"')) where key = $1`,
      [trader.connector.key],
    );
    await pool.query(`select pg_notify('hook_changed', $1)`, [trader.shortKey]);
    const res = await postSignal(t, trader.shortKey, BUY);
    expect(res.statusCode).toBe(400);
    const { rows } = await pool.query('select is_active from connectors where key = $1', [trader.connector.key]);
    expect(rows[0]?.is_active).toBe(true);
    expect(res.json().message).toMatch(/account is no longer connected/);
  });

  it('refuses with no signals left, storing and placing nothing', async () => {
    const trader = await setupTrader(t, 'broke@example.com', { credits: 1 });
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    const res = await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 'ExecutionError', message: 'No signals left: top up in Account & Billing' });
    expect(await paperOrders(t, trader.accountId)).toHaveLength(1);
    expect(await signalRows(t, trader.userId)).toHaveLength(1);
    expect(await balanceOf(t, trader.userId)).toBe(0);
  });

  it('answers a test hook with the normalized order as a draft, free, sending nothing', async () => {
    const trader = await setupTrader(t, 'test-hook@example.com', { isTest: true, credits: 0 });
    const res = await postSignal(t, trader.shortKey, {
      symbol: 'aapl',
      action: 'BUY',
      quantity: '2 * 3',
      limit_price: 100,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'draft',
      order: {
        symbol: 'AAPL',
        class: 'stock',
        action: 'buy',
        quantity: 6,
        quantity_type: 'fixed',
        type: 'limit',
        limit_price: 100,
        duration: 'gtc',
      },
    });
    expect(res.json().status_description).toMatch(/Paper/);
    expect(await paperOrders(t, trader.accountId)).toHaveLength(0);
    expect(await balanceOf(t, trader.userId)).toBe(0);
    const [signal] = await signalRows(t, trader.userId);
    expect(signal).toMatchObject({ is_test: true, status: 'draft', credit_held: false, id: res.json().id });
  });

  it("places a signal on the hook owner's account only", async () => {
    const owner = await setupTrader(t, 'owner@example.com');
    const other = await setupTrader(t, 'other@example.com');
    const res = await postSignal(t, owner.shortKey, BUY);
    expect(res.statusCode).toBe(201);
    expect(await paperOrders(t, owner.accountId)).toHaveLength(1);
    expect(await paperOrders(t, other.accountId)).toHaveLength(0);
    expect(await balanceOf(t, owner.userId)).toBe(4);
    expect(await balanceOf(t, other.userId)).toBe(5);
  });

  it('never answers 5xx to garbage', async () => {
    const trader = await setupTrader(t, 'garbage@example.com', { credits: 100 });
    const bodies = [
      '',
      'null',
      '[]',
      '"text"',
      '{"__proto__": {"x": 1}, "symbol": "AAPL", "action": "buy", "quantity": 1}',
      '{"constructor": {"prototype": {}}}',
      '{"symbol": "AAPL", "action": "buy", "quantity": 1e309}',
      '{"symbol": "AAPL\\u0000", "action": "buy", "quantity": 1}',
      '{"symbol": "\\ud800", "action": "buy", "quantity": 1}',
      '{"symbol": "AAPL", "action": "buy", "quantity": 1, "client_id": "a\\u0000b"}',
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      '{"symbol": "AAPL", "symbol": "MSFT", "action": "buy", "quantity": "NaN"}',
      '\u0000\u0001\u0002',
      '{"legs": [1, 2, {"symbol": {}}]}',
    ];
    for (const body of bodies) {
      for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded', 'image/png']) {
        const res = await postSignal(t, trader.shortKey, body, type);
        expect(res.statusCode, `${type} ${body.slice(0, 40)}`).toBeLessThan(500);
      }
    }
  });
});

describe('after the answer', () => {
  it('records the Order action and the hook call time', async () => {
    const trader = await setupTrader(t, 'activity@example.com');
    await postSignal(t, trader.shortKey, BUY);
    await postSignal(t, trader.shortKey, { symbol: 'AAPL' });
    await t.app.signalRuntime.writer.flush();
    const { rows } = await t.services.db.$client.query<{ code: string; metadata: Record<string, unknown> }>(
      `select code, metadata from actions where user_id = $1 and code = 'Order' order by id`,
      [trader.userId],
    );
    expect(rows).toHaveLength(2);
    const [signal] = await signalRows(t, trader.userId);
    // The stored signal's request lives in its row only; the refused one has no row and keeps its own.
    expect(rows[0]?.metadata).toMatchObject({
      hook: { key: trader.hook.key, name: 'Main' },
      providerName: 'paper',
      accountId: trader.accountId,
      signalId: signal?.id,
      response: { status: 'filled' },
    });
    expect(rows[0]?.metadata).not.toHaveProperty('request');
    expect(typeof rows[0]?.metadata.elapsed).toBe('number');
    expect(rows[1]?.metadata).toMatchObject({ request: { symbol: 'AAPL' }, response: { status: 'ValidationError' } });
    // The activity log shows both requests, and finds the stored one by its text.
    const log = await listActions(t.services, trader.userId, { code: 'Order' });
    expect(log.map((a) => JSON.parse(a.metadata).request)).toEqual([{ symbol: 'AAPL' }, BUY]);
    const found = await listActions(t.services, trader.userId, { search: '"quantity": 1' });
    expect(found.map((a) => JSON.parse(a.metadata).signalId)).toEqual([signal?.id]);
    const hook = await t.services.db.$client.query('select called_at from hooks where id = $1', [trader.hook.id]);
    expect(hook.rows[0]?.called_at).toBeInstanceOf(Date);
  });

  it('keeps the signal history when the broker connection is deleted', async () => {
    const trader = await setupTrader(t, 'history@example.com');
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    expect(await deleteConnector(t.services, { userId: trader.userId, address: null }, trader.connector.key)).toBe(
      true,
    );
    const signals = await signalRows(t, trader.userId);
    expect(signals).toHaveLength(1);
    // hook_changed reaches the cache asynchronously (a moment after the commit).
    await eventually(async () => (await postSignal(t, trader.shortKey, BUY)).statusCode === 404);
  });
});

describe('other methods on /hook/:shortKey', () => {
  it('answers 405 with Allow: POST (never a 404 that says the hook is gone), for known and unknown keys alike', async () => {
    const trader = await setupTrader(t, 'browser@example.com');
    for (const key of [trader.shortKey, 'A'.repeat(22)]) {
      for (const method of ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'] as const) {
        const res = await t.app.inject({ method, url: `/hook/${key}` });
        expect({ method, status: res.statusCode, allow: res.headers.allow }).toEqual({
          method,
          status: 405,
          allow: 'POST',
        });
        if (method !== 'HEAD') expect(res.json()).toEqual(POST_ONLY.body);
      }
    }
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
  });
});
