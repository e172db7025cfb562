// Test support for the MetaTrader contract tests: the MetaApi fake with an adapter whose connect
// waits are short, orders from signals, the failure of a call, and what reached the fake.
import { normalizeOrderOrThrow, type Order } from '@router/orders';
import type { BrokerContext, BrokerSession, PlaceOrderInput } from '../../core/broker.ts';
import { createMetatraderBroker, type MetatraderBroker, type MetatraderBrokerOptions } from './adapter.ts';
import { metatraderDescriptor } from './descriptor.ts';
import { type FakeMetaApi, type FakeMetaApiOptions, startFakeMetaApi } from './fake.ts';

export const DEMO = { login: '1234567', password: 'master-pass', server: 'ICMarketsSC-Demo' };
export const DEMO_ID = '865d3a4d-3803-486d-bdf3-a85679d9fad2';
export const FAST: MetatraderBrokerOptions['limits'] = { waitMs: 5_000, firstPollMs: 5, maxPollMs: 20 };

export interface MetaApiWorld {
  fake: FakeMetaApi;
  broker: MetatraderBroker;
  /** The site's context: METATRADER_BASE_URL and the site's MetaApi token. */
  ctx: BrokerContext;
  close(): Promise<void>;
}

export async function startWorld(
  options: FakeMetaApiOptions = {},
  limits: MetatraderBrokerOptions['limits'] = FAST,
): Promise<MetaApiWorld> {
  const fake = await startFakeMetaApi(options);
  const broker = createMetatraderBroker({ limits });
  return { fake, broker, ctx: { baseUrl: fake.url, clientSecret: fake.operatorToken }, close: fake.close };
}

export const toOrder = (signal: Record<string, unknown>): Order =>
  normalizeOrderOrThrow(signal, { provider: metatraderDescriptor });

let sequence = 0;
export function input(
  session: BrokerSession,
  signal: Record<string, unknown>,
  clientOrderId = `sig${++sequence}`,
): PlaceOrderInput {
  return { accountId: session.accounts[0]?.id ?? '', clientOrderId, order: toOrder(signal) };
}

/** "METHOD path" of the requests the fake received from index `from` on. */
export const callsSince = (fake: FakeMetaApi, from: number) =>
  fake.requests.slice(from).map((request) => `${request.method} ${request.url.split('?')[0]}`);

/** Bodies of the trade requests the fake received from trade index `from` on. */
export const tradesSince = (fake: FakeMetaApi, from: number) =>
  fake
    .trades()
    .slice(from)
    .map((request) => JSON.parse(request.body) as Record<string, unknown>);
