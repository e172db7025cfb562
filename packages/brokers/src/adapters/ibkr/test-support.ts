// Test support for the IBKR contract tests: a fake and a connected adapter on one clock, orders
// from signals, and the failures of a call.
import { normalizeOrderOrThrow, type Order } from '@router/orders';
import type { BrokerContext, BrokerSession, PlaceOrderInput } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { createIbkrBroker, type IbkrBroker } from './adapter.ts';
import type { IbkrApiOptions } from './api.ts';
import { ibkrDescriptor } from './descriptor.ts';
import { type FakeIbkr, type FakeIbkrOptions, startFakeIbkr } from './fake.ts';

export const ACCOUNT = 'DU123456';

export interface Connected {
  fake: FakeIbkr;
  broker: IbkrBroker;
  ctx: BrokerContext;
  session: BrokerSession;
  /** The clock of fake and adapter; tests move it. */
  clock: { now: number };
  close(): Promise<void>;
}

export async function connected(
  options: FakeIbkrOptions = {},
  keepAliveMs?: number,
  api: Pick<IbkrApiOptions, 'liveOrdersPacingMs'> = {},
): Promise<Connected> {
  const clock = { now: Date.now() };
  const now = () => clock.now;
  const fake = await startFakeIbkr({ now, ...options });
  const broker = createIbkrBroker({ now, ...api, ...(keepAliveMs ? { keepAliveMs } : {}) });
  const ctx: BrokerContext = { baseUrl: fake.url, clientSecret: 'gateway-passphrase' };
  const credentials =
    options.mode === 'gateway'
      ? {
          consumerKey: 'gateway',
          accessToken: 'gateway-passphrase',
          accessTokenSecret: '-',
          signaturePrivateKey: '-',
          encryptionPrivateKey: '-',
          dhPrime: '-',
        }
      : fake.credentials;
  const session = await broker.connect(ctx, { credentials });
  return {
    fake,
    broker,
    ctx,
    session,
    clock,
    close: async () => {
      broker.close();
      await fake.close();
    },
  };
}

export const toOrder = (signal: Record<string, unknown>): Order =>
  normalizeOrderOrThrow(signal, { provider: ibkrDescriptor });

let sequence = 0;
export function input(signal: Record<string, unknown>, clientOrderId = `sig-${++sequence}`): PlaceOrderInput {
  return { accountId: ACCOUNT, clientOrderId, order: toOrder(signal) };
}

export async function failure(promise: Promise<unknown>): Promise<BrokerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BrokerError)) throw new Error(`expected a BrokerError, got ${String(error)}`);
  return error;
}

/** "METHOD path" of the requests the fake received since `from`. */
export function sentSince(fake: FakeIbkr, from: number): string[] {
  return fake.requests.slice(from).map((request) => `${request.method} ${request.url.split('?')[0]}`);
}

export const ORDERS_PATH = `/v1/api/iserver/account/${ACCOUNT}/orders`;
