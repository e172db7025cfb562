// Test support for the FOREX.com contract tests: signals as the validator normalizes them, a
// connected adapter over a fresh protocol fake, and the BrokerError a call fails with.
import { normalizeOrderOrThrow } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { createForexBroker } from './adapter.ts';
import { forexDescriptor } from './descriptor.ts';
import { type ForexFakeOptions, startForexFake } from './fake.ts';

export { brokerFailure as failure } from '../../core/expect-failure.ts';

export const toOrder = (signal: Record<string, unknown>) =>
  normalizeOrderOrThrow(signal, { provider: forexDescriptor });

/** The account of the fake's login (accounts.response.json). */
export const ACCOUNT = '400234567';

export async function connected(options: ForexFakeOptions = {}) {
  const fake = await startForexFake(options);
  const broker = createForexBroker();
  const ctx: BrokerContext = { baseUrl: fake.url };
  const session: BrokerSession = await broker.connect(ctx, { credentials: fake.credentials });
  const place = (signal: Record<string, unknown>, call: BrokerContext = ctx, on: BrokerSession = session) =>
    broker.placeOrder(call, on, { accountId: ACCOUNT, order: toOrder(signal), clientOrderId: 'sig-fx' });
  const posted = (path: string) => fake.requests.filter((r) => r.method === 'POST' && r.url.split('?')[0] === path);
  return { fake, broker, ctx, session, place, posted };
}
