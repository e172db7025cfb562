import { isBrokerError } from '@router/brokers';
import { AppError } from '../../errors.ts';

/** A broker's refusal as the caller's error (its message carries the broker title); anything else as is. */
export function asAppError(error: unknown): unknown {
  if (!isBrokerError(error)) return error;
  const code = error.kind === 'AuthenticationError' ? 'BROKER_AUTHENTICATION' : 'EXECUTION';
  return new AppError(code, error.message, { cause: error });
}
