// Repository functions take the database or an open transaction.
import type { Database } from '../client.ts';

export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
export type Executor = Database | Transaction;

/** The codes an error carries: its own and, when a query builder wrapped it, its cause's. */
function errorCodes(error: unknown): unknown[] {
  const failure = error as { code?: unknown; cause?: { code?: unknown } } | null;
  return [failure?.code, failure?.cause?.code];
}

/** PostgreSQL unique_violation. */
export function isUniqueViolation(error: unknown): boolean {
  return errorCodes(error).includes('23505');
}

/** PostgreSQL invalid_parameter_value: e.g. a time zone name its tz database does not hold. */
export function isInvalidParameter(error: unknown): boolean {
  return errorCodes(error).includes('22023');
}

/** A value a statement could not take (SQLSTATE class 22) or a broken constraint (class 23). */
export function isDataError(error: unknown): boolean {
  return errorCodes(error).some((code) => typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code));
}
