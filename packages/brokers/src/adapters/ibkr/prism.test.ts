// The IBKR adapter's wire requests judged by a validating mock built from IBKR's own API
// description (broker-specs/validating/ibkr.json, served by Prism), not by our fake: every order
// form of fixtures/requests.json as the adapter sent it to the fake, and the session, lookup,
// cancel, holdings, preview and reply calls sent to the mock itself (through a gateway session,
// since the mock checks no credentials).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import type { RecordedRequest } from '../../core/fake-server.ts';
import { type PrismMock, startPrismMock, validatingSpec, type WireRequest } from '../../core/prism-mock.ts';
import { type RequestCase, readFixtures } from '../../core/replay.ts';
import { recordWire } from '../../core/wire-recorder.ts';
import { createIbkrBroker } from './adapter.ts';
import { type Connected, connected, ORDERS_PATH, toOrder } from './test-support.ts';

const CASES = readFixtures<RequestCase>('ibkr', 'requests.json')?.placeOrder ?? [];
const spec = validatingSpec('ibkr.json');
let mock: PrismMock;
let c: Connected;

const wire = recordWire(() => mock);
/**
 * IBKR's file gives the /tickle and ssodh/init examples under `example` as if it were `examples`,
 * so Prism answers {"success": {"value": …}}: the session reads the value inside, as IBKR sends it.
 */
const unwrapped: typeof fetch = async (input, init) => {
  const response = await wire.fetch(input, init);
  if (!/\/(tickle|ssodh\/init)$/.test(new URL(String(input)).pathname)) return response;
  const body = (await response.json()) as { success?: { value?: unknown } };
  const headers = { 'content-type': 'application/json' };
  return new Response(JSON.stringify(body.success?.value ?? body), { status: response.status, headers });
};
const broker = createIbkrBroker({ fetch: unwrapped });
// (The tickle example says the session is open, so no ssodh/init is sent here; connect.test.ts covers it.)
const ACCOUNT = 'U1234567';
const session: BrokerSession = {
  secrets: { mode: 'gateway' },
  accounts: [{ id: ACCOUNT, name: 'U1234567', demo: true }],
};
let ctx: BrokerContext;

function replayable(recorded: RecordedRequest): WireRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(recorded.headers)) {
    if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers[name] = value;
  }
  return { method: recorded.method, url: recorded.url, headers, body: recorded.body };
}

beforeAll(async () => {
  [mock, c] = await Promise.all([startPrismMock(spec, 60_000), connected()]);
  ctx = { baseUrl: `${mock.url}/v1/api` };
}, 90_000);
afterAll(async () => {
  broker.close();
  await Promise.all([mock?.close(), c?.close()]);
});

describe('IBKR order tickets against the validating mock', () => {
  it.each(CASES)('accepts $description', async ({ input }) => {
    const before = c.fake.requests.length;
    await c.broker.placeOrder(c.ctx, c.session, {
      accountId: 'DU123456',
      order: toOrder(input.signal ?? {}),
      clientOrderId: `${input.clientOrderId}-prism`,
    });
    const sent = c.fake.requests.slice(before).filter((r) => r.method === 'POST' && r.url === ORDERS_PATH);
    expect(sent).toHaveLength(1);
    const verdict = await mock.check(replayable(sent[0] as RecordedRequest));
    expect([verdict.accepted, verdict.status, verdict.violations]).toEqual([true, 200, []]);
  });

  it('refuses what IBKR refuses (the verdict can fail)', async () => {
    const request = replayable(c.fake.requests.find((r) => r.url === ORDERS_PATH) as RecordedRequest);
    const body = JSON.parse(request.body ?? '{}') as { orders: Array<Record<string, unknown>> };
    const wrong = { orders: body.orders.map((ticket) => ({ ...ticket, tif: 'GTD' })) };
    const verdict = await mock.check({ ...request, body: JSON.stringify(wrong) });
    expect(verdict.accepted).toBe(false);
    expect(verdict.violations[0]?.location).toEqual(['request', 'body', 'orders', '0', 'tif']);
  });
});

describe('IBKR calls against the validating mock', () => {
  it('accepts the session, an order by contract id, lookups, cancel, holdings and the preview', async () => {
    const order = toOrder({ symbol: '#265598', action: 'buy', quantity: 1, limit_price: 190, duration: 'day' });
    const placed = await broker.placeOrder(ctx, session, { accountId: ACCOUNT, order, clientOrderId: 'sig-prism' });
    expect(placed).toEqual({
      id: '1370093239',
      status: 'accepted',
      status_description: 'Interactive Brokers order PreSubmitted',
    });
    expect(await broker.findByBrokerId(ctx, session, ACCOUNT, '1370093239')).toMatchObject({ status: 'filled' });
    await broker.listRecentOrders(ctx, session, { accountId: ACCOUNT, clientOrderId: 'sig-prism', from: 0, to: 1 });
    await broker.cancelOrder(ctx, session, { accountId: ACCOUNT, brokerOrderId: '1370093239' });
    await broker.getHoldings(ctx, session, ACCOUNT);
    await broker.previewOrder(ctx, session, { accountId: ACCOUNT, order, clientOrderId: 'sig-prism' });
    for (const [method, path] of [
      ['POST', /\/tickle$/],
      ['GET', /\/iserver\/accounts$/],
      ['POST', /\/iserver\/questions\/suppress$/],
      ['POST', /\/iserver\/account\/U1234567\/orders$/],
      ['GET', /\/iserver\/account\/order\/status\/1370093239$/],
      ['GET', /\/iserver\/account\/orders$/],
      ['GET', /\/iserver\/account\/trades$/],
      ['DELETE', /\/iserver\/account\/U1234567\/order\/1370093239$/],
      ['GET', /\/portfolio\/accounts$/],
      ['GET', /\/portfolio\/U1234567\/summary$/],
      ['GET', /\/portfolio\/U1234567\/positions\/0$/],
      ['POST', /\/iserver\/account\/U1234567\/orders\/whatif$/],
    ] as const) {
      const { verdict, refusals } = await wire.lastSent(method, path);
      expect([verdict.accepted, refusals], `${method} ${path}`).toEqual([true, []]);
    }
  });

  it('accepts the reply the loop sends, and refuses one without an answer', async () => {
    const reply = {
      method: 'POST',
      url: '/v1/api/iserver/reply/99097238-9824-4830-84ef-46979aa22593',
      headers: { 'content-type': 'application/json' },
    };
    expect((await mock.check({ ...reply, body: JSON.stringify({ confirmed: true }) })).accepted).toBe(true);
    expect((await mock.check({ ...reply, body: JSON.stringify({}) })).accepted).toBe(false);
  });
});
