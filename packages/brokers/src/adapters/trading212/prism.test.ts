// The Trading 212 adapter's wire requests judged by a validating mock built from Trading 212's
// own API description (broker-specs/validating/trading212.yaml, served by Prism), not by our fake.
// The mock's instrument list holds only AAPL_US_EQ, so every case trades AAPL here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { type PrismMock, startPrismMock, validatingSpec } from '../../core/prism-mock.ts';
import { recordWire } from '../../core/wire-recorder.ts';
import { createTrading212Broker } from './adapter.ts';
import { SIGNAL_CASES, toOrder } from './fixtures/signals.ts';

let mock: PrismMock;
const spec = validatingSpec('trading212.yaml');
let ctx: BrokerContext;
let session: BrokerSession;
const aapl = (signal: Record<string, unknown>) => ({ ...signal, symbol: 'AAPL' });

const wire = recordWire(() => mock);
const broker = createTrading212Broker({ fetch: wire.fetch });
const lastSent = wire.lastSent;

describe('Trading 212 requests against the validating mock', () => {
  beforeAll(async () => {
    mock = await startPrismMock(spec, 60_000);
    ctx = { baseUrl: mock.url };
    session = await broker.connect(ctx, { credentials: { apiKey: 'key', apiSecret: 'secret' } });
  }, 90_000);
  afterAll(() => mock?.close());

  it('accepts the connection check', async () => {
    const { verdict, refusals } = await lastSent('GET', /\/account\/summary$/);
    expect([verdict.accepted, verdict.status, refusals]).toEqual([true, 200, []]);
    expect(session.accounts[0]?.id).toMatch(/^-?\d+$/);
  });

  for (const { name, signal, path, wire } of SIGNAL_CASES) {
    it(`accepts ${name}`, async () => {
      const accountId = session.accounts[0]?.id ?? '';
      await broker.placeOrder(ctx, session, { accountId, order: toOrder(aapl(signal)), clientOrderId: 's' });
      const { request, verdict, refusals } = await lastSent('POST', /\/equity\/orders\//);
      expect(request.url).toBe(path);
      expect([verdict.accepted, verdict.status, refusals]).toEqual([true, 200, []]);
      expect(JSON.parse(request.body ?? '')).toEqual({ ...wire, ticker: 'AAPL_US_EQ' });
    });
  }

  it('accepts the lookups, holdings and cancels', async () => {
    const accountId = session.accounts[0]?.id ?? '';
    const order = toOrder(aapl(SIGNAL_CASES[0]?.signal ?? {}));
    await broker.findByBrokerId(ctx, session, accountId, '4000000001');
    const now = Date.now();
    await broker.listRecentOrders(ctx, session, { accountId, clientOrderId: 's', order, from: now - 60_000, to: now });
    await broker.getHoldings(ctx, session, accountId);
    await broker.placeOrder(ctx, session, { accountId, order: { ...order, action: 'cancel' }, clientOrderId: 's' });
    await broker.cancelOrder(ctx, session, { accountId, brokerOrderId: '4000000001' });
    for (const [method, path] of [
      ['GET', /\/equity\/orders\/4000000001$/],
      ['GET', /\/equity\/orders$/],
      ['GET', /\/history\/orders$/],
      ['GET', /\/equity\/positions$/],
      ['DELETE', /\/equity\/orders\/-?\d+$/],
    ] as const) {
      const { verdict, refusals } = await lastSent(method, path);
      expect([verdict.accepted, refusals], `${method} ${path}`).toEqual([true, []]);
    }
  });

  it('refuses what Trading 212 refuses (the verdict can fail)', async () => {
    const verdict = await mock.check({
      method: 'POST',
      url: '/api/v0/equity/orders/limit',
      headers: { authorization: 'key', 'content-type': 'application/json' },
      body: JSON.stringify({ ticker: 'AAPL_US_EQ', quantity: 1, timeValidity: 'GTC' }),
    });
    expect(verdict.accepted).toBe(false);
    expect(verdict.violations.map((violation) => violation.location.join('.'))).toEqual(
      expect.arrayContaining(['request.body', 'request.body.timeValidity']),
    );
  });
});
