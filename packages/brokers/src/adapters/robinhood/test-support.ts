// Test support for the Robinhood contract tests: signals as the validator normalizes them, and
// the BrokerError a call fails with.
import { normalizeOrderOrThrow } from '@router/orders';
import { robinhoodDescriptor } from './descriptor.ts';

export { brokerFailure as failure } from '../../core/expect-failure.ts';

export const toOrder = (signal: Record<string, unknown>) =>
  normalizeOrderOrThrow(signal, { provider: robinhoodDescriptor });
