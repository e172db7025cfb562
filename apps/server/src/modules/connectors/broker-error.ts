import { isBrokerError } from '@router/brokers';
import { AppError } from '../../errors.ts';

/** A broker's refusal as the caller's error (its message carries the broker title); anything else as is. */
export function asAppError(error: unknown): unknown {
  if (!isBrokerError(error)) return error;
  const code = error.kind === 'AuthenticationError' ? 'BROKER_AUTHENTICATION' : 'EXECUTION';
  return new AppError(code, error.message, { cause: error });
}

/**
 * The same for a read that changes nothing at the broker (holdings): the broker down is a
 * dependency down, UNAVAILABLE (503, the caller retries it), not a refusal of the request.
 */
export function asReadError(error: unknown): unknown {
  if (isBrokerError(error) && error.kind === 'BrokerUnavailable') {
    return new AppError('UNAVAILABLE', error.message, { cause: error });
  }
  return asAppError(error);
}
