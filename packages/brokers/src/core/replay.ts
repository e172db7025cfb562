// Test support: ccxt-style static fixtures beside each adapter, replayed against its protocol
// fake by core/replay.test.ts.
//   fixtures/requests.json   input → the exact request the adapter sends (method, path, query, body)
//   fixtures/responses.json  a recorded broker answer → what the adapter makes of it
// Both are { "<call>": [ { "description", "input", … } ] } with call placeOrder, findOrder or cancelOrder.
// Each case runs against a fake of its own; one that needs an earlier order (a position to close,
// a repeated id) names the calls that make it in "given".
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { normalizeOrderOrThrow } from '@router/orders';
import { ADAPTERS_DIR } from '../discover.ts';
import type { Broker, BrokerContext, BrokerSession } from './broker.ts';
import { findOrder } from './find-order.ts';
import type { RecordedAnswer, WireRecord } from './protocol-fake.ts';

export const REPLAY_CALLS = ['placeOrder', 'findOrder', 'cancelOrder'] as const;
export type ReplayCall = (typeof REPLAY_CALLS)[number];

/** placeOrder: signal, clientOrderId. findOrder: the lookup (signal for order). cancelOrder: either id. */
export interface CallInput {
  signal?: Record<string, unknown>;
  clientOrderId?: string;
  brokerOrderId?: string;
  /** ISO time or ms since epoch. */
  sentAt?: string | number;
}

export interface ExpectedRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** A call a case makes before its own, to put the fake in the state it needs; its requests are not compared. */
export interface GivenCall {
  call: ReplayCall;
  input: CallInput;
}

export interface RequestCase {
  description: string;
  given?: GivenCall[];
  input: CallInput;
  /** Every request the call sends to this method and path (a list where it sends several). */
  output: ExpectedRequest | ExpectedRequest[];
  /** Keys left out of query and body (nonces, signatures, random ids). */
  skipKeys?: string[];
}

export interface ResponseCase {
  description: string;
  given?: GivenCall[];
  input: CallInput;
  httpResponse: RecordedAnswer;
  /** The call's result, or { "error": { "kind", "message" } } for a BrokerError. */
  parsedResponse: unknown;
}

export type Fixtures<T> = Partial<Record<ReplayCall, T[]>>;

/** A folder's fixtures file, or undefined when it has none. */
export function readFixtures<T>(folder: string, file: 'requests.json' | 'responses.json'): Fixtures<T> | undefined {
  const at = path.join(ADAPTERS_DIR, folder, 'fixtures', file);
  if (!existsSync(at)) return undefined;
  const parsed = JSON.parse(readFileSync(at, 'utf8')) as Record<string, unknown>;
  const unknownCalls = Object.keys(parsed).filter((key) => !(REPLAY_CALLS as readonly string[]).includes(key));
  if (unknownCalls.length) throw new Error(`${at}: unknown calls ${unknownCalls.join(', ')}`);
  return parsed as Fixtures<T>;
}

export interface ReplayTarget {
  broker: Broker;
  ctx: BrokerContext;
  session: BrokerSession;
  accountId: string;
}

/**
 * The clock a fixture's signal is read with: brokers' published examples date from 2024 on
 * (Tradier's SPY240119 options, Rithmic's ESZ4), and read today they would be refused as expired.
 */
export const PUBLISHED_AT = (): number => Date.UTC(2024, 0, 2);

/** Runs one call of a fixture case through the adapter (and, for findOrder, the core route choice). */
export async function runCall(call: ReplayCall, input: CallInput, target: ReplayTarget): Promise<unknown> {
  const { broker, ctx, session, accountId } = target;
  const provider = broker.descriptor;
  const order = input.signal ? normalizeOrderOrThrow(input.signal, { provider, now: PUBLISHED_AT }) : undefined;
  const sentAt = typeof input.sentAt === 'string' ? Date.parse(input.sentAt) : input.sentAt;
  switch (call) {
    case 'placeOrder':
      if (!order) throw new Error('placeOrder needs input.signal');
      return broker.placeOrder(ctx, session, { accountId, order, clientOrderId: input.clientOrderId ?? 'replay-1' });
    case 'findOrder':
      return findOrder(broker, ctx, session, {
        accountId,
        clientOrderId: input.clientOrderId ?? 'replay-1',
        ...(input.brokerOrderId ? { brokerOrderId: input.brokerOrderId } : {}),
        ...(order ? { order } : {}),
        ...(sentAt !== undefined ? { sentAt } : {}),
      });
    case 'cancelOrder':
      if (!broker.cancelOrder) throw new Error(`${broker.descriptor.name} has no cancelOrder`);
      return broker.cancelOrder(ctx, session, {
        accountId,
        ...(input.brokerOrderId ? { brokerOrderId: input.brokerOrderId } : {}),
        ...(input.clientOrderId ? { clientOrderId: input.clientOrderId } : {}),
      });
  }
}

function without(value: unknown, keys: readonly string[]): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}

/** The part of a received request a fixture pins, for a deep comparison with `output`. */
export function pinned(request: WireRecord, skipKeys: readonly string[] = []): ExpectedRequest {
  const body = without(request.body, skipKeys);
  return {
    method: request.method,
    path: request.path,
    query: without(request.query, skipKeys) as Record<string, string>,
    ...(body !== undefined ? { body } : {}),
  };
}
