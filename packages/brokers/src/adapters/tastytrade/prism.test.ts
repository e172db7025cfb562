// The tastytrade adapter's wire requests judged by a validating mock built from tastytrade's own
// API description (broker-specs/validating/tastytrade.json, served by Prism), not by our fake.
// The description has no OAuth endpoint: the session is made here, its token never checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { type PrismMock, startPrismMock, validatingSpec } from '../../core/prism-mock.ts';
import { recordWire } from '../../core/wire-recorder.ts';
import { createTastytradeBroker } from './adapter.ts';
import { CLIENT_ORDER_ID, SIGNAL_CASES, toOrder } from './fixtures/signals.ts';
import { secretsOf } from './oauth.ts';

const ACCOUNT = '5WT00001';
const now = Date.parse('2026-06-09T14:31:00Z');
const session: BrokerSession = {
  secrets: secretsOf({ accessToken: 'token', refreshToken: 'refresh', accessExpiresAt: now + 900_000 }),
  accounts: [{ id: ACCOUNT, name: `tastytrade Individual ${ACCOUNT}`, demo: false }],
};
let mock: PrismMock;
const spec = validatingSpec('tastytrade.json');
let ctx: BrokerContext;

const wire = recordWire(() => mock);
const broker = createTastytradeBroker({ fetch: wire.fetch });
const { lastSent } = wire;
const input = (signal: Record<string, unknown>) => ({
  accountId: ACCOUNT,
  order: toOrder(signal),
  clientOrderId: CLIENT_ORDER_ID,
});

describe('tastytrade requests against the validating mock', () => {
  beforeAll(async () => {
    mock = await startPrismMock(spec, 60_000);
    ctx = { baseUrl: mock.url, now: () => now };
  }, 90_000);
  afterAll(() => mock?.close());

  for (const { name, signal, path, wire: expected } of SIGNAL_CASES) {
    it(`accepts ${name}`, async () => {
      const response = await broker.placeOrder(ctx, session, input(signal));
      const { request, verdict, refusals } = await lastSent('POST', new RegExp(`${path}$`));
      expect([verdict.accepted, verdict.status, refusals]).toEqual([true, 201, []]);
      expect(request.headers).toMatchObject({ authorization: 'Bearer token', 'user-agent': 'signal-router/1.0' });
      expect(JSON.parse(request.body ?? '')).toEqual(expected);
      // The mock answers the published place-order example for orders.
      if (path === '/orders') expect(response).toMatchObject({ id: '1075999', status: 'accepted' });
    });
  }

  it('accepts the dry-runs, the lookups, holdings, accounts, close and cancel', async () => {
    const market = input({ symbol: 'AAPL', action: 'buy', quantity: 1 });
    const bracket = input({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 170, stop_loss_price: 160 });
    await broker.previewOrder(ctx, session, market);
    await broker.previewOrder(ctx, session, bracket);
    await broker.findByBrokerId(ctx, session, ACCOUNT, '1075999');
    await broker.listRecentOrders(ctx, session, { ...market, from: now - 60_000, to: now });
    await broker.getHoldings(ctx, session, ACCOUNT);
    await broker.cancelOrder(ctx, session, { accountId: ACCOUNT, brokerOrderId: '1075999' });
    await broker.placeOrder(ctx, session, input({ symbol: 'AAPL', action: 'cancel' }));
    // Prism's positions are placeholders: close is judged by its positions request.
    await broker.closePosition(ctx, session, ACCOUNT, 'AAPL').catch(() => undefined);
    for (const [method, path] of [
      ['POST', /\/orders\/dry-run$/],
      ['POST', /\/complex-orders\/dry-run$/],
      ['GET', /\/orders\/1075999$/],
      ['GET', /\/orders$/],
      ['GET', /\/balances\/USD$/],
      ['GET', /\/positions$/],
      ['DELETE', /\/orders\/1075999$/],
      ['GET', /\/orders\/live$/],
    ] as const) {
      const { verdict, refusals } = await lastSent(method, path);
      expect([verdict.accepted, refusals], `${method} ${path}`).toEqual([true, []]);
    }
    const accounts = await mock.check({
      method: 'GET',
      url: '/customers/me/accounts',
      headers: { authorization: 'Bearer token', 'user-agent': 'signal-router/1.0' },
    });
    expect(accounts.accepted).toBe(true);
  });

  it('refuses what tastytrade refuses (the verdict can fail)', async () => {
    const [first] = SIGNAL_CASES;
    const headers = {
      authorization: 'Bearer token',
      'user-agent': 'signal-router/1.0',
      'content-type': 'application/json',
    };
    const url = `/accounts/${ACCOUNT}/orders`;
    const bad = await mock.check({
      method: 'POST',
      url,
      headers,
      body: JSON.stringify({ ...first?.wire, 'order-type': 'market' }),
    });
    expect(bad.accepted).toBe(false);
    expect(bad.violations.map((violation) => violation.location.join('.'))).toContain('request.body.order-type');
    const { authorization: _, ...anonymous } = headers;
    const unsigned = await mock.check({ method: 'POST', url, headers: anonymous, body: JSON.stringify(first?.wire) });
    expect([unsigned.accepted, unsigned.status]).toEqual([false, 401]);
  });
});
