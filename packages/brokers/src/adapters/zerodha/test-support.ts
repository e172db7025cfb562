// Test support for the Zerodha contract tests: a fake and a signed-in adapter on one clock,
// orders from signals, and the form of what was sent.
import { normalizeOrderOrThrow } from '@router/orders';
import type { BrokerContext, BrokerSession, PlaceOrderInput } from '../../core/broker.ts';
import { type WireRecord, wireRecord } from '../../core/protocol-fake.ts';
import { WRITTEN_AT } from '../../core/test-clock.ts';
import { createZerodhaBroker, type ZerodhaBroker } from './adapter.ts';
import { zerodhaDescriptor } from './descriptor.ts';
import { startZerodhaFake, type ZerodhaFake, type ZerodhaFakeOptions } from './fake.ts';

export { brokerFailure as expectFailure } from '../../core/expect-failure.ts';

export const ACCOUNT = 'ZR1234';

export interface Connected {
  fake: ZerodhaFake;
  broker: ZerodhaBroker;
  ctx: BrokerContext;
  session: BrokerSession;
  /** The clock of fake and adapter; tests move it. */
  clock: { now: number };
}

/** 10:00 IST on a trading day. */
export const MORNING = Date.parse('2026-06-09T04:30:00Z');

export async function connected(options: ZerodhaFakeOptions = {}): Promise<Connected> {
  const clock = { now: MORNING };
  const now = () => clock.now;
  const fake = await startZerodhaFake({ now, ...options });
  const broker = createZerodhaBroker({ now });
  const ctx: BrokerContext = {
    baseUrl: fake.baseUrl,
    ...fake.app,
    redirectUrl: 'https://router.example/callback/zerodha',
  };
  const session = await broker.connect(ctx, { credentials: { request_token: fake.issueRequestToken() } });
  return { fake, broker, ctx, session, clock };
}

let sequence = 0;
export function input(signal: Record<string, unknown>, clientOrderId = `sig${++sequence}`): PlaceOrderInput {
  return {
    accountId: ACCOUNT,
    clientOrderId,
    order: normalizeOrderOrThrow(signal, { provider: zerodhaDescriptor, now: WRITTEN_AT }),
  };
}

/** The requests the fake received since `from`, read as Kite reads them. */
export function sentSince(fake: ZerodhaFake, from: number): WireRecord[] {
  return fake.requests.slice(from).map((request) => wireRecord(request.method, request.url, request.body));
}
