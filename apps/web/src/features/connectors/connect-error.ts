import { CONNECT_ERROR_FALLBACK } from './constants.ts';

/**
 * A server error's message without urql's '[GraphQL]' / '[Network]' prefix, else `fallback`.
 * urql hands GraphQL errors over as plain objects ({message, extensions}), not Error instances.
 */
export function serverMessage(error: unknown, fallback = 'Error'): string {
  const raw = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  const message = typeof raw === 'string' ? raw.replace(/^\[(GraphQL|Network)\]\s*/, '').trim() : '';
  return message || fallback;
}

/** SPEC §8: a connect failure shows the first server error message, else 'Error...'. */
export const connectErrorMessage = (error: unknown): string => serverMessage(error, CONNECT_ERROR_FALLBACK);
