// Zerodha's own response mocks (kiteconnect-mocks, copied to ../shared/broker-specs/zerodha):
// the fake answers each route with every field the mock has, and the adapter reads the mocks it
// consumes as they are. (order_response, orders, order_info and order_cancel are also replayed
// through placeOrder, findOrder and cancelOrder by core/replay.test.ts from fixtures/.)
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRecord } from '../../core/json-read.ts';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { kiteChecksum } from './login.ts';
import { ACCOUNT, type Connected, connected, input } from './test-support.ts';

const folder = brokerSpecsPath('zerodha');
const mock = (file: string): unknown => JSON.parse(readFileSync(`${folder}/${file}`, 'utf8'));

/** Keys of `expected` (recursively; of every element, for lists) that `actual` lacks. */
function missingKeys(expected: unknown, actual: unknown, at = ''): string[] {
  if (Array.isArray(expected)) {
    const items = expected.map(asRecord).filter((item) => item !== undefined);
    if (!items.length) return [];
    const shared = Object.keys(items[0] ?? {}).filter((key) => items.every((item) => key in item));
    const first = Array.isArray(actual) ? actual[0] : undefined;
    if (first === undefined) return [`${at}[]`];
    return missingKeys(Object.fromEntries(shared.map((key) => [key, items[0]?.[key]])), first, `${at}[]`);
  }
  const record = asRecord(expected);
  if (!record) return [];
  const other = asRecord(actual) ?? {};
  return Object.entries(record).flatMap(([key, value]) =>
    key in other ? missingKeys(value, other[key], `${at}.${key}`) : [`${at}.${key}`],
  );
}

let c: Connected;
let filledId = '';
let openId = '';
beforeAll(async () => {
  c = await connected();
  filledId = (await c.broker.placeOrder(c.ctx, c.session, input({ symbol: 'NSE:SBIN', action: 'buy', quantity: 1 })))
    .id;
  openId = await placeOpen();
});
afterAll(() => c.fake.close());

/** A new resting limit order: the modify and the cancel each act on their own, whichever of them runs first. */
async function placeOpen() {
  const order = input({ symbol: 'NSE:SBIN', action: 'buy', quantity: 1, limit_price: 700 });
  return (await c.broker.placeOrder(c.ctx, c.session, order)).id;
}

/** The fake's answer to a request signed in as the session. */
async function kite(method: string, path: string, form?: Record<string, string>) {
  const answer = await fetch(`${c.fake.baseUrl}${path}`, {
    method,
    headers: {
      'x-kite-version': '3',
      authorization: `token ${c.session.secrets.apiKey}:${c.session.secrets.accessToken}`,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(form ? { body: new URLSearchParams(form).toString() } : {}),
  });
  return answer.json() as Promise<unknown>;
}

/** Each mock and the request the fake answers it for; postback.json is Kite's push, not an answer. */
const ROUTES: Record<string, () => Promise<unknown>> = {
  'generate_session.json': async () => {
    const token = c.fake.issueRequestToken();
    const checksum = kiteChecksum('kitefakeapikey', token, 'kitefakeapisecret');
    const answer = await kite('POST', '/session/token', { api_key: 'kitefakeapikey', request_token: token, checksum });
    // A new login ends the earlier session: later requests use this one.
    const accessToken = String(asRecord(asRecord(answer)?.data)?.access_token);
    c.session = { ...c.session, secrets: { ...c.session.secrets, accessToken } };
    return answer;
  },
  'profile.json': () => kite('GET', '/user/profile'),
  'margins.json': () => kite('GET', '/user/margins'),
  'positions.json': () => kite('GET', '/portfolio/positions'),
  'orders.json': () => kite('GET', '/orders'),
  'order_info.json': () => kite('GET', `/orders/${openId}`),
  'order_response.json': () =>
    kite('POST', '/orders/regular', {
      tradingsymbol: 'SBIN',
      exchange: 'NSE',
      transaction_type: 'BUY',
      order_type: 'LIMIT',
      quantity: '1',
      product: 'CNC',
      price: '701',
      validity: 'DAY',
    }),
  'order_modify.json': async () => kite('PUT', `/orders/regular/${await placeOpen()}`, { price: '702' }),
  'order_cancel.json': async () => kite('DELETE', `/orders/regular/${await placeOpen()}`),
  'order_trades.json': () => kite('GET', `/orders/${filledId}/trades`),
  'trades.json': () => kite('GET', '/trades'),
};
const PUSHED = ['postback.json'];

describe('kiteconnect-mocks', () => {
  it('names a route for every mock beside WIRE.md', () => {
    const files = readdirSync(folder).filter((file) => file.endsWith('.json'));
    expect([...Object.keys(ROUTES), ...PUSHED].sort()).toEqual(files.sort());
  });

  it.each(Object.keys(ROUTES))('the fake answers %s with every field of the mock', async (file) => {
    const route = ROUTES[file];
    if (!route) throw new Error(file);
    const answer = await route();
    expect(asRecord(answer)?.status).toBe('success');
    expect(missingKeys(mock(file), answer)).toEqual([]);
  });

  it('connect reads generate_session.json: the user, and its access token as the day’s secret', async () => {
    c.fake.inject({ method: 'POST', path: '/session/token', status: 200, body: mock('generate_session.json') });
    const session = await c.broker.connect(c.ctx, { credentials: { request_token: c.fake.issueRequestToken() } });
    expect(session.accounts).toEqual([
      {
        id: 'XX0000',
        name: 'Zerodha XX0000',
        dataTitle: 'Kite Connect',
        dataType: 'individual',
        dataCurrency: 'INR',
        demo: false,
      },
    ]);
    expect(session.secrets).toEqual({ apiKey: 'kitefakeapikey', accessToken: 'XXXXXX' });
  });

  it('holdings read margins.json and positions.json', async () => {
    c.fake.inject({ method: 'GET', path: '/user/margins', status: 200, body: mock('margins.json') });
    c.fake.inject({ method: 'GET', path: '/portfolio/positions', status: 200, body: mock('positions.json') });
    c.fake.inject({ method: 'GET', path: '/portfolio/holdings', status: 200, body: { status: 'success', data: [] } });
    const holdings = await c.broker.getHoldings(c.ctx, c.session, ACCOUNT);
    expect(holdings).toEqual({
      cash: 245431.6,
      buyingPower: 99725.05000000002,
      currency: 'INR',
      positions: [{ symbol: 'MCX:LEADMINI17DECFUT', quantity: 1, averagePrice: 161.05, marketValue: 161050 }],
    });
  });
});
