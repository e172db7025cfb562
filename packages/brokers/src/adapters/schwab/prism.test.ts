// The Schwab adapter's wire requests judged by a validating mock built from Schwab's own API
// description (broker-specs/validating/schwab.json, served by Prism), not by our fake.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { type PrismMock, startPrismMock, validatingSpec } from '../../core/prism-mock.ts';
import { recordWire } from '../../core/wire-recorder.ts';
import { createSchwabBroker } from './adapter.ts';
import { SIGNAL_CASES, toOrder } from './fixtures/signals.ts';
import { secretsOf } from './oauth.ts';

const HASH = 'E5B1D0C3A9F84D2B';
const now = Date.parse('2025-03-03T15:00:00Z');
const session: BrokerSession = {
  secrets: secretsOf({
    accessToken: 'token',
    refreshToken: 'refresh',
    accessExpiresAt: now + 1_800_000,
    refreshExpiresAt: now + 86_400_000,
  }),
  accounts: [{ id: HASH, name: 'Schwab margin …5678', demo: false }],
};
let mock: PrismMock;
const spec = validatingSpec('schwab.json');
let ctx: BrokerContext;

const wire = recordWire(() => mock);
const broker = createSchwabBroker({ fetch: wire.fetch });
const lastSent = wire.lastSent;

describe('Schwab requests against the validating mock', () => {
  beforeAll(async () => {
    mock = await startPrismMock(spec, 60_000);
    ctx = { baseUrl: mock.url, now: () => now };
  }, 90_000);
  afterAll(() => mock?.close());

  for (const { name, signal, wire } of SIGNAL_CASES) {
    it(`accepts ${name}`, async () => {
      const response = await broker.placeOrder(ctx, session, {
        accountId: HASH,
        order: toOrder(signal),
        clientOrderId: 's',
      });
      const { request, verdict, refusals } = await lastSent('POST', /\/orders$/);
      expect([verdict.accepted, verdict.status, refusals]).toEqual([true, 201, []]);
      expect(JSON.parse(request.body ?? '')).toEqual(wire);
      expect(response.id).toBe('1000000001');
    });
  }

  it('accepts the preview, the lookups, holdings and cancel', async () => {
    const input = { accountId: HASH, order: toOrder(SIGNAL_CASES[1]?.signal ?? {}), clientOrderId: 's' };
    // Prism's generated preview body is placeholders; only the request's verdict matters here.
    await broker.previewOrder(ctx, session, input).catch(() => undefined);
    await broker.findByBrokerId(ctx, session, HASH, '1000000001');
    await broker.listRecentOrders(ctx, session, { ...input, from: now - 60_000, to: now });
    await broker.getHoldings(ctx, session, HASH);
    await broker.cancelOrder(ctx, session, { accountId: HASH, brokerOrderId: '1000000001' });
    for (const [method, path] of [
      ['POST', /\/previewOrder$/],
      ['GET', /\/orders\/1000000001$/],
      ['GET', /\/orders$/],
      ['GET', new RegExp(`/accounts/${HASH}$`)],
      ['DELETE', /\/orders\/1000000001$/],
    ] as const) {
      const { verdict, refusals } = await lastSent(method, path);
      expect([verdict.accepted, refusals], `${method} ${path}`).toEqual([true, []]);
    }
  });

  it('refuses what Schwab refuses (the verdict can fail)', async () => {
    const verdict = await mock.check({
      method: 'POST',
      url: `/trader/v1/accounts/${HASH}/orders`,
      headers: { authorization: 'Bearer token', 'content-type': 'application/json' },
      body: JSON.stringify({ ...SIGNAL_CASES[0]?.wire, duration: 'GTC' }),
    });
    expect(verdict.accepted).toBe(false);
    expect(verdict.violations[0]?.location).toEqual(['request', 'body', 'duration']);
  });
});
