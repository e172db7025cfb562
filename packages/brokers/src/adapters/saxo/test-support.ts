// Test support for the Saxo contract tests: a fake and the adapter on one movable clock, sign-in
// through the fake's consent page, orders from signals.
import { normalizeOrderOrThrow, type Order } from '@router/orders';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { toProvider } from '../../core/registry.ts';
import { createSaxoBroker } from './adapter.ts';
import { saxoDescriptor } from './descriptor.ts';
import { API_PREFIX, FAKE_ACCOUNT_KEY, FAKE_APP, type SaxoFake, type SaxoFakeOptions, startSaxoFake } from './fake.ts';

export const MINUTE = 60_000;
export const ACCOUNT = FAKE_ACCOUNT_KEY;
export const CALLBACK = 'http://127.0.0.1:3000/callback/saxo';
export const SIGNAL_ID = '0ZqN3hJ5sig20260609x';
export const ORDERS = `${API_PREFIX}/trade/v2/orders`;

const provider = toProvider(saxoDescriptor);
export const toOrder = (signal: Record<string, unknown>): Order =>
  normalizeOrderOrThrow(signal, { provider, now: () => Date.parse('2026-06-09T14:31:00Z') });

export function useSaxoFake(options: SaxoFakeOptions = {}) {
  const clock = { time: Date.parse('2026-06-09T14:31:00Z') };
  const broker = createSaxoBroker();
  const t = {
    clock,
    broker,
    fake: undefined as unknown as SaxoFake,
    ctx: undefined as unknown as BrokerContext,
    connect: () => broker.connect(t.ctx, { credentials: { code: t.fake.oauth.issueCode(CALLBACK) } }),
    place: (session: BrokerSession, signal: Record<string, unknown>, clientOrderId = SIGNAL_ID) =>
      broker.placeOrder(t.ctx, session, { accountId: ACCOUNT, order: toOrder(signal), clientOrderId }),
    calls: () => t.fake.requests.map((r) => `${r.method} ${r.url.split('?')[0]}`),
    posted: () => t.fake.placements().map((r) => JSON.parse(r.body) as Record<string, unknown>),
  };
  beforeAll(async () => {
    t.fake = await startSaxoFake({ now: () => clock.time, ...options });
    t.ctx = {
      baseUrl: t.fake.baseUrl,
      clientId: FAKE_APP.appKey,
      clientSecret: FAKE_APP.appSecret,
      redirectUrl: CALLBACK,
      now: () => clock.time,
    };
  });
  afterAll(() => t.fake.close());
  beforeEach(() => {
    t.fake.requests.length = 0;
  });
  return t;
}
