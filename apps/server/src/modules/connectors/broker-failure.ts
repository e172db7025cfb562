// A failed broker call, logged and counted in one place. A broker's refusal (invalid order,
// insufficient funds, rejected credentials, ...) is an everyday outcome: info, its kind and
// message, no stack. An unknown outcome or an unreachable broker is worth a warning; anything
// that is not a BrokerError is a fault of ours and keeps its stack.
import { isBrokerError } from '@router/brokers';
import type { Services } from '../../services.ts';

export function reportBrokerFailure(
  services: Pick<Services, 'log' | 'counters'>,
  error: unknown,
  broker: string,
  context: Record<string, unknown>,
  message: string,
): void {
  if (!isBrokerError(error)) {
    services.counters.brokerErrors.inc(broker, 'Unexpected');
    services.log.warn({ err: error, broker, ...context }, message);
    return;
  }
  services.counters.brokerErrors.inc(broker, error.kind);
  const details = { broker, kind: error.kind, reason: error.message, outcomeUnknown: error.outcomeUnknown, ...context };
  if (error.outcomeUnknown || error.kind === 'BrokerUnavailable') services.log.warn(details, message);
  else services.log.info(details, message);
}
