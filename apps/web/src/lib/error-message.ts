/**
 * A failed call's message for the screen: without urql's '[GraphQL] ' / '[Network] ' prefix, else
 * `fallback`. urql hands GraphQL errors over as plain objects ({message, extensions}), not Error
 * instances, so any object with a string `message` counts.
 */
export function errorMessage(error: unknown, fallback = 'Error'): string {
  const raw = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  const message = typeof raw === 'string' ? raw.replace(/^\[(GraphQL|Network)\]\s*/, '').trim() : '';
  return message || fallback;
}
