// Paging by time, as SPEC §7 `actions` does it: `limit` rows per page, and `createdAtFrom` = the
// createdAt (ms) of the last row shown, for the rows strictly older than it.
import { AppError } from '../errors.ts';

/** The latest time a JavaScript Date holds (ms). */
export const MAX_TIME_MS = 8.64e15;

export interface Page {
  limit: number;
  /** Only rows created strictly before this millisecond. */
  before?: number;
}

export function parsePage(
  query: { limit?: number | null; createdAtFrom?: number | null },
  defaultLimit: number,
  maxLimit: number,
): Page {
  const limit = query.limit ?? defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    throw new AppError('VALIDATION', `Limit must be between 1 and ${maxLimit}`, { field: 'limit' });
  }
  const from = query.createdAtFrom;
  if (from === null || from === undefined) return { limit };
  // A time of no row (before 1970, or past what a date can hold) is bad input: the database's
  // to_timestamp would fail on it with an internal error.
  if (!Number.isFinite(from) || from < 0 || from > MAX_TIME_MS) {
    throw new AppError('VALIDATION', 'Invalid createdAtFrom', { field: 'createdAtFrom' });
  }
  return { limit, before: Math.floor(from) };
}
