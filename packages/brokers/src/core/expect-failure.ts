// Test support: the BrokerError a call fails with (anything else fails the test).
import { BrokerError } from './errors.ts';

export async function brokerFailure(promise: Promise<unknown>): Promise<BrokerError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BrokerError)) throw new Error(`expected a BrokerError, got ${String(error)}`);
  return error;
}
