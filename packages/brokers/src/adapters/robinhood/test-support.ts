// Test support for the Robinhood contract tests: signals as the validator normalizes them, and
// the BrokerError a call fails with.
import { normalizeOrderOrThrow } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { robinhoodDescriptor } from './descriptor.ts';

export const toOrder = (signal: Record<string, unknown>) =>
  normalizeOrderOrThrow(signal, { provider: robinhoodDescriptor });

export async function failure(promise: Promise<unknown>): Promise<BrokerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BrokerError)) throw new Error(`expected a BrokerError, got ${String(error)}`);
  return error;
}
