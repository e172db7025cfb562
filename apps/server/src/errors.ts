// One AppError, one code enum, one table mapping codes to SPEC §8 API statuses, HTTP statuses
// (REST and the hook) and GraphQL extensions.code (DESIGN.md "Errors").

import { UNAVAILABLE_MESSAGE } from '@router/shared';

export type ApiStatus = 'ValidationError' | 'ExecutionError' | 'AuthenticationError' | 'ForbiddenError' | 'Error';

interface ErrorMapping {
  status: ApiStatus;
  http: number;
  graphql: string;
}

export const ERROR_TABLE = {
  /** Bad input from the caller. */
  VALIDATION: { status: 'ValidationError', http: 400, graphql: 'BAD_USER_INPUT' },
  /** The broker or a business rule refused (no signals left, hook deactivated, order rejected). */
  EXECUTION: { status: 'ExecutionError', http: 400, graphql: 'EXECUTION_ERROR' },
  /** Our own authentication failed: no, expired or revoked token. */
  UNAUTHENTICATED: { status: 'AuthenticationError', http: 401, graphql: 'UNAUTHENTICATED' },
  /** The broker refused the connection's credentials (the hook answers 400, not 401). */
  BROKER_AUTHENTICATION: { status: 'AuthenticationError', http: 400, graphql: 'BROKER_AUTHENTICATION' },
  FORBIDDEN: { status: 'ForbiddenError', http: 403, graphql: 'FORBIDDEN' },
  NOT_FOUND: { status: 'Error', http: 404, graphql: 'NOT_FOUND' },
  PAYLOAD_TOO_LARGE: { status: 'ValidationError', http: 413, graphql: 'PAYLOAD_TOO_LARGE' },
  RATE_LIMITED: { status: 'Error', http: 429, graphql: 'RATE_LIMITED' },
  /** Our fault; the message is generic and the cause is logged with the request id. */
  INTERNAL: { status: 'Error', http: 500, graphql: 'INTERNAL_SERVER_ERROR' },
  /** A dependency (database) is down; the caller may retry. */
  UNAVAILABLE: { status: 'Error', http: 503, graphql: 'SERVICE_UNAVAILABLE' },
} as const satisfies Record<string, ErrorMapping>;

export type ErrorCode = keyof typeof ERROR_TABLE;

/** A dependency down (the database restarting, a broker's outage, the server shutting down): retry after this. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

export const GENERIC_MESSAGE = 'Something went wrong. Please try again later.';

export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  /** The input field at fault, when there is one. */
  readonly field: string | undefined;
  /**
   * Whole seconds until a retry may pass (REST answers it as Retry-After, GraphQL as
   * `extensions.retryAfter`): RATE_LIMITED's when known, UNAVAILABLE's UNAVAILABLE_RETRY_AFTER_S
   * unless told otherwise.
   */
  readonly retryAfterS: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details?: { field?: string; cause?: unknown; retryAfterS?: number | undefined },
  ) {
    super(message, details?.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.field = details?.field;
    this.retryAfterS = details?.retryAfterS ?? (code === 'UNAVAILABLE' ? UNAVAILABLE_RETRY_AFTER_S : undefined);
  }

  get mapping(): ErrorMapping {
    return ERROR_TABLE[this.code];
  }

  /** SPEC §8 body: `{status, message}`. */
  toBody(): { status: ApiStatus; message: string } {
    return { status: this.mapping.status, message: this.message };
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

const UNSTORABLE_TEXT = 'Input cannot hold the character \\u0000';

/**
 * PostgreSQL refuses \u0000 in text (22021) and in jsonb (22P05): a value the caller sent, so bad
 * input, not our fault. Also when a query builder wrapped the driver's error.
 */
function isUnstorableText(error: unknown): boolean {
  const failure = error as { code?: unknown; cause?: { code?: unknown } } | null;
  return [failure?.code, failure?.cause?.code].some((code) => code === '22021' || code === '22P05');
}

export { UNAVAILABLE_MESSAGE };

/** PostgreSQL's SQLSTATEs of a database out of reach: connection exceptions, shutting down or starting, full. */
const UNREACHABLE_STATE = /^(08...|57P0[123]|53300)$/;
/** node-postgres' own errors when the connection drops or none can be had in time. */
const UNREACHABLE_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect)/;

/**
 * The database could not be reached (restarting, refusing connections, the connection dropped):
 * a dependency down, not our fault, so the caller may retry (503). Also when a query builder
 * wrapped the driver's error.
 */
function isUnreachable(error: unknown): boolean {
  const failure = error as { code?: unknown; syscall?: unknown; message?: unknown; cause?: unknown } | null;
  return [failure, failure?.cause as typeof failure].some((e) => {
    if (!e || typeof e !== 'object') return false;
    if (e.syscall === 'connect' || e.code === 'ECONNREFUSED' || e.code === 'ECONNRESET') return true;
    if (typeof e.code === 'string' && UNREACHABLE_STATE.test(e.code)) return true;
    return typeof e.message === 'string' && UNREACHABLE_MESSAGE.test(e.message);
  });
}

/**
 * Any error as an AppError: known ones as they are, the database out of reach UNAVAILABLE, the
 * rest INTERNAL with a generic message.
 */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (isUnstorableText(error)) return new AppError('VALIDATION', UNSTORABLE_TEXT, { cause: error });
  if (isUnreachable(error)) return new AppError('UNAVAILABLE', UNAVAILABLE_MESSAGE, { cause: error });
  return new AppError('INTERNAL', GENERIC_MESSAGE, { cause: error });
}
