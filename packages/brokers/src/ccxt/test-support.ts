// Test support shared by the four exchange contract tests.
import type { Order } from '@router/orders';
import { expect } from 'vitest';
import type { Broker, BrokerContext, BrokerSession } from '../core/broker.ts';
import { BrokerError, type BrokerErrorKind } from '../core/errors.ts';
import { findOrder } from '../core/find-order.ts';
import type { OrderLookup, OrderLookupResult } from '../core/lookup.ts';
import type { PrismMock } from '../core/prism-mock.ts';
import type { WireRequest } from './fake-server.ts';

export function order(fields: Partial<Order> = {}): Order {
  // A close or cancel signal carries a quantity only when it says one, as normalizeOrder leaves it.
  const closing = fields.action === 'close' || fields.action === 'cancel';
  return {
    symbol: 'BTC/USD',
    class: 'crypto',
    action: 'buy',
    ...(closing ? {} : { quantity: 0.01 }),
    quantity_type: 'fixed',
    type: 'market',
    duration: 'gtc',
    ...fields,
  };
}

export function context(baseUrl: string): BrokerContext {
  return { baseUrl };
}

/** findOrder on the exchange's one account ('default'), sent a moment ago. */
export function lookUp(
  broker: Broker,
  baseUrl: string,
  session: BrokerSession,
  fields: Omit<OrderLookup, 'accountId' | 'sentAt'>,
): Promise<OrderLookupResult> {
  return findOrder(broker, context(baseUrl), session, { accountId: 'default', sentAt: Date.now(), ...fields });
}

/** lastPrice of a crypto symbol on the exchange's account; the broker must have the method. */
export async function quoteOf(
  broker: Broker,
  baseUrl: string,
  session: BrokerSession,
  symbol: string,
  accountId = 'default',
): Promise<number | null> {
  if (!broker.lastPrice || !broker.descriptor.has.lastPrice)
    throw new Error(`${broker.descriptor.title} quotes no last price`);
  return broker.lastPrice(context(baseUrl), session, accountId, symbol, 'crypto');
}

/** The promise fails with a BrokerError of this kind and exact message. */
export async function expectBrokerError(
  promise: Promise<unknown>,
  kind: BrokerErrorKind,
  message: string | RegExp,
): Promise<BrokerError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(BrokerError);
  const brokerError = error as BrokerError;
  expect(brokerError.kind).toBe(kind);
  if (typeof message === 'string') expect(brokerError.message).toBe(message);
  else expect(brokerError.message).toMatch(message);
  return brokerError;
}

export function formOf(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

export interface Verdict {
  accepted: boolean;
  status: number;
  /** The request's violations other than warnings, as `location: message`. */
  violations: string[];
}

const HOP_HEADERS = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'transfer-encoding']);

/** Replays a request the adapter sent to the fake, byte for byte, to Prism (core/prism-mock.ts). */
export async function verdictOf(prism: PrismMock, request: WireRequest): Promise<Verdict> {
  const headers = Object.fromEntries(Object.entries(request.headers).filter(([key]) => !HOP_HEADERS.has(key)));
  const withBody = request.method !== 'GET' && request.method !== 'HEAD';
  const verdict = await prism.check({
    method: request.method,
    url: request.url,
    headers,
    ...(withBody ? { body: request.rawBody } : {}),
  });
  const violations = verdict.violations
    .filter((violation) => violation.location[0] === 'request' && violation.severity !== 'Warning')
    .map((violation) => `${violation.location.join('.')}: ${violation.message}`);
  return { accepted: verdict.accepted, status: verdict.status, violations };
}
