// Test support for the cTrader contract tests: the protocol fake, an adapter on its live and
// demo sockets, a session connected through the OAuth code flow, and small helpers.
import { normalizeOrderOrThrow } from '@router/orders';
import { afterAll, beforeAll } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { resolveBrokerContext } from '../../core/context.ts';
import { toProvider } from '../../core/registry.ts';
import { type CtraderBroker, createCtraderBroker } from './adapter.ts';
import { ctraderDescriptor } from './descriptor.ts';
import { type CtraderFake, FAKE_APP, startCtraderFake } from './fake.ts';

export const DEMO = '44533070';
export const LIVE = '44533071';
const provider = toProvider(ctraderDescriptor);
export const order = (signal: Record<string, unknown>) => normalizeOrderOrThrow(signal, { provider });

export interface Contract {
  fake: CtraderFake;
  broker: CtraderBroker;
  ctx: BrokerContext;
  session: BrokerSession;
  place(
    signal: Record<string, unknown>,
    clientOrderId: string,
    accountId?: string,
    on?: BrokerSession,
  ): ReturnType<CtraderBroker['placeOrder']>;
  /** Payloads of the `name` messages the fake received since record `since`. */
  sent(name: string, since?: number): unknown[];
}

/** Starts the fake and connects before the file's tests; stops both after them. */
export function useContract(): Contract {
  const contract = {} as Contract;
  beforeAll(async () => {
    const fake = await startCtraderFake();
    const broker = createCtraderBroker({ endpoints: fake.endpoints });
    const ctx = resolveBrokerContext(ctraderDescriptor, {
      config: { baseUrl: fake.baseUrl, ...FAKE_APP },
      publicUrl: 'http://127.0.0.1:9',
    });
    const session = await broker.connect(ctx, { credentials: { code: fake.issueCode(ctx.redirectUrl ?? '') } });
    Object.assign(contract, {
      fake,
      broker,
      ctx,
      session,
      place: (signal: Record<string, unknown>, clientOrderId: string, accountId = DEMO, on = session) =>
        broker.placeOrder(ctx, on, { accountId, order: order(signal), clientOrderId }),
      sent: (name: string, since = 0) =>
        fake.records
          .slice(since)
          .filter((record) => record.path === name)
          .map((record) => record.body),
    });
  });
  afterAll(async () => {
    contract.broker?.close();
    await contract.fake?.close();
  });
  return contract;
}

/** The error a call fails with (the test fails when it succeeds). */
export async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { kind?: string; message: string; outcomeUnknown?: boolean };
  }
  throw new Error('expected a refusal');
}
