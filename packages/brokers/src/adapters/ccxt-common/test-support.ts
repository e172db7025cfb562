// Test support shared by the four exchange contract tests.
import type { Order } from '@router/orders';
import { expect } from 'vitest';
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError, type BrokerErrorKind } from '../../core/errors.ts';

export function order(fields: Partial<Order> = {}): Order {
  return {
    symbol: 'BTC/USD',
    class: 'crypto',
    action: 'buy',
    quantity: 0.01,
    quantity_type: 'fixed',
    type: 'market',
    duration: 'gtc',
    ...fields,
  };
}

export function context(baseUrl: string): BrokerContext {
  return { baseUrl };
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
