// Test support for the Webull contract tests: a fake and a connected adapter on one clock, orders
// from signals, and what was sent.
import { normalizeOrderOrThrow } from '@router/orders';
import type { BrokerContext, BrokerSession, PlaceOrderInput } from '../../core/broker.ts';
import { type WireRecord, wireRecord } from '../../core/protocol-fake.ts';
import { WRITTEN_AT } from '../../core/test-clock.ts';
import { createWebullBroker, type WebullBroker, type WebullBrokerOptions } from './adapter.ts';
import { webullDescriptor } from './descriptor.ts';
import { startWebullFake, type WebullFake, type WebullFakeOptions } from './fake.ts';

export { brokerFailure as expectFailure } from '../../core/expect-failure.ts';

export const STOCKS = 'DEMOACCT0001';
export const FUTURES = 'DEMOFUT00001';
export const CRYPTO = 'DEMOCRY00001';

export interface Connected {
  fake: WebullFake;
  broker: WebullBroker;
  ctx: BrokerContext;
  session: BrokerSession;
  clock: { now: number };
}

export async function connected(
  options: WebullFakeOptions = {},
  brokerOptions: WebullBrokerOptions = {},
): Promise<Connected> {
  const clock = { now: Date.parse('2026-06-09T14:31:02Z') };
  const now = () => clock.now;
  // Order queries paced over 20 ms rather than Webull's 2 s (query-pacing.test.ts keeps 2 s).
  const fake = await startWebullFake({ now, orderQueryWindowMs: 20, ...options });
  const broker = createWebullBroker({ now, orderQueryWindowMs: 20, ...brokerOptions });
  const ctx: BrokerContext = { baseUrl: fake.baseUrl };
  const session = await broker.connect(ctx, { credentials: fake.keys });
  return { fake, broker, ctx, session, clock };
}

let sequence = 0;
export function input(
  signal: Record<string, unknown>,
  clientOrderId = `sig${++sequence}`,
  accountId = STOCKS,
): PlaceOrderInput {
  return {
    accountId,
    clientOrderId,
    order: normalizeOrderOrThrow(signal, { provider: webullDescriptor, now: WRITTEN_AT }),
  };
}

export function sentSince(fake: WebullFake, from: number): WireRecord[] {
  return fake.requests.slice(from).map((request) => wireRecord(request.method, request.url, request.body));
}
