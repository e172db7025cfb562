// Zerodha through the server as a trader meets it, against the Kite fake (ZERODHA_BASE_URL):
// Kite's login (request token back on /callback/zerodha, state through redirect_params), a
// connection that expires at the next 6 AM IST, one live hook, a signal of every class Zerodha
// trades (NSE stock, NFO future, NFO option) plus a cover order, each placed once with our signal
// id as its tag; and a refusal Kite gives shown with its title.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startZerodhaFake, type ZerodhaFake } from '../../../packages/brokers/src/adapters/zerodha/fake.ts';
import { updateHook } from '../src/modules/hooks/index.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithOAuth, createLiveHook, type Trader, trader } from './broker-journey.ts';
import { eventually, postSignal, signalRows } from './signal-fixtures.ts';

let t: TestApp;
let fake: ZerodhaFake;
let user: Trader;
let shortKey: string;

beforeAll(async () => {
  fake = await startZerodhaFake({ cash: 5_000_000 });
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    env: brokerVariables('zerodha', { baseUrl: fake.baseUrl, ...fake.app }),
  });
  user = await trader(t, 'kite@example.com');
  await t.services.db.$client.query('update accounts set balance = 50, credits = 50 where user_id = $1', [user.userId]);
  const connector = await connectWithOAuth(t, user, 'zerodha', fake);
  expect(connector).toMatchObject({ providerName: 'zerodha', isActive: true });
  // Kite's session ends at the next 6 AM IST (00:30 UTC): the connection says so.
  const expiresAt = new Date(Number(connector.expiresAt));
  expect(expiresAt.getUTCHours() * 60 + expiresAt.getUTCMinutes()).toBe(30);
  expect(Number(connector.expiresAt) - Date.now()).toBeLessThanOrEqual(24 * 60 * 60_000);
  shortKey = await createLiveHook(t, user, connector);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const lastPosted = () => {
  const [request] = fake.submissions().slice(-1);
  return request ? { path: request.url, form: Object.fromEntries(new URLSearchParams(request.body)) } : undefined;
};

describe('zerodha: a live hook per class', () => {
  it.each([
    [
      'stock',
      { symbol: 'NSE:INFY', action: 'buy', quantity: 3 },
      '/orders/regular',
      { exchange: 'NSE', product: 'CNC' },
    ],
    [
      'future',
      { symbol: 'NFO:NIFTY26JUNFUT', class: 'future', action: 'sell', quantity: 75, limit_price: 24150 },
      '/orders/regular',
      { exchange: 'NFO', product: 'NRML', order_type: 'LIMIT' },
    ],
    [
      'option',
      { symbol: 'NFO:NIFTY26JUN24000CE', class: 'option', action: 'buy_to_open', quantity: 75, limit_price: 215 },
      '/orders/regular',
      { exchange: 'NFO', tradingsymbol: 'NIFTY26JUN24000CE', transaction_type: 'BUY' },
    ],
    [
      'cover order',
      { symbol: 'NSE:SBIN', action: 'buy', quantity: 10, stop_loss_price: 780 },
      '/orders/co',
      { product: 'CO', trigger_price: '780' },
    ],
  ])('%s: placed once, tagged with our signal id', async (_name, signal, path, fields) => {
    const before = fake.submissions().length;
    const answer = await postSignal(t, shortKey, signal);
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json() as { id: string };
    expect(fake.submissions()).toHaveLength(before + 1);
    const rows = await signalRows(t, user.userId);
    expect(lastPosted()).toMatchObject({ path, form: { ...fields, tag: rows.at(-1)?.id } });
    expect(fake.orders.some((order) => order.order_id === id)).toBe(true);
  });

  it("answers Kite's refusal with its title", async () => {
    const answer = await postSignal(t, shortKey, {
      symbol: 'NSE:SBIN',
      action: 'buy',
      quantity: 1,
      limit_price: 800.03,
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      status: 'ExecutionError',
      message: 'Zerodha: Price should be a multiple of tick size 0.05.',
    });
    const occ = await postSignal(t, shortKey, { symbol: 'NIFTY280629C24000', action: 'buy_to_open', quantity: 75 });
    expect(occ.json()).toMatchObject({
      message:
        'Zerodha: NIFTY 280629C24000000: give the option as Kite lists it (NFO:NIFTY27JUN24000CE), not in OCC form',
    });
  });

  it('values a market order under maxNotional at the quote of its own exchange (BSE:INFY asks BSE)', async () => {
    const { rows } = await t.services.db.$client.query<{ key: string }>('select key from hooks where short_key = $1', [
      shortKey,
    ]);
    const hookKey = rows[0]?.key ?? '';
    const owner = { userId: user.userId, address: null };
    await updateHook(t.services, owner, hookKey, { rules: JSON.stringify({ maxNotional: 1000 }) });
    // The hook is cached from the signals above: wait for hook_changed to reach this instance.
    await eventually(async () => (await t.app.signalRuntime.hooks.get(shortKey))?.rules?.maxNotional === 1000);
    try {
      const from = fake.requests.length;
      const answer = await postSignal(t, shortKey, { symbol: 'BSE:INFY', action: 'buy', quantity: 1 });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toMatch(/maxNotional/);
      const asked = fake.requests.slice(from).filter((r) => r.url.startsWith('/quote/ltp'));
      expect(asked.map((r) => new URL(r.url, fake.baseUrl).searchParams.getAll('i'))).toEqual([['BSE:INFY']]);
    } finally {
      await updateHook(t.services, owner, hookKey, { rules: '' });
      await eventually(async () => !(await t.app.signalRuntime.hooks.get(shortKey))?.rules);
    }
  });
});
