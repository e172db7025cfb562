// The one mapping of a broker's failure to the caller's error, for every path that answers one
// (REST cancel and holdings, GraphQL's order preview and connect, and any BrokerError reaching
// the error handlers): its kind, or an unknown outcome, to an AppError code of the error table.
// The hook answers a live signal's refusal itself (signals/outcome.ts: SPEC §8, errors 400).
import { type BrokerError, type BrokerErrorKind, isBrokerError, parseRetryAfter } from '@router/brokers';
import { AppError, type ErrorCode } from '../../errors.ts';

const CODE_OF: Record<BrokerErrorKind, ErrorCode> = {
  InvalidOrder: 'EXECUTION',
  InsufficientFunds: 'EXECUTION',
  OrderNotFound: 'EXECUTION',
  DuplicateOrder: 'EXECUTION',
  /** The broker refused the connection's credentials: reconnect (400, not the caller's own 401). */
  AuthenticationError: 'BROKER_AUTHENTICATION',
  /** The broker's own limit: 429, with its Retry-After when it gave one. */
  RateLimited: 'RATE_LIMITED',
  /** A dependency down: 503, the caller retries. */
  BrokerUnavailable: 'UNAVAILABLE',
};

/**
 * The error-table code of a broker failure. One whose outcome is unknown (timeout, dropped
 * connection) decided nothing: a dependency down (503), whatever words came with it.
 */
export function brokerErrorCode(error: BrokerError): ErrorCode {
  return error.outcomeUnknown ? 'UNAVAILABLE' : CODE_OF[error.kind];
}

/** A broker's Retry-After (seconds or an HTTP date) as whole seconds from now, at least 1. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  const said = parseRetryAfter(value);
  if (!said) return undefined;
  const seconds = 'seconds' in said ? said.seconds : Math.ceil((said.at - now) / 1000);
  return Math.max(1, seconds);
}

/** A broker's failure as the caller's error (its message carries the broker title). */
export function brokerAppError(error: BrokerError): AppError {
  const code = brokerErrorCode(error);
  const retryAfterS = code === 'RATE_LIMITED' ? retryAfterSeconds(error.retryAfter) : undefined;
  return new AppError(code, error.message, { cause: error, retryAfterS });
}

/** brokerAppError for a broker's failure; anything else as is. */
export function asAppError(error: unknown): unknown {
  return isBrokerError(error) ? brokerAppError(error) : error;
}
