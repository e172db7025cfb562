import { UNAVAILABLE_MESSAGE } from '@router/shared/outage';
import { tryAgainText, unavailableText, unreachableMessage } from './unreachable.ts';

interface ErrorLike {
  message?: unknown;
  extensions?: { code?: unknown; retryAfter?: unknown };
}

/**
 * A failed call's message for the screen: the shared sentence when the server did not answer
 * (lib/unreachable.ts), else the message without urql's '[GraphQL] ' / '[Network] ' prefix, else
 * `fallback`. urql hands GraphQL errors over as plain objects ({message, extensions}), not Error
 * instances, so any object with a string `message` counts; a CombinedError is read as the call
 * wrapper reads it (its network error, else its first GraphQL error). A GraphQL error that says
 * when to retry (`extensions.retryAfter`, seconds: a rate limit, a dependency down) says so too,
 * unless its message already tells to try again.
 */
export function errorMessage(error: unknown, fallback = 'Error'): string {
  const unreachable = unreachableMessage(error);
  if (unreachable) return unreachable;
  const first = firstOf(error);
  const { message: raw, extensions } = typeof first === 'object' && first !== null ? (first as ErrorLike) : {};
  const message = typeof raw === 'string' ? raw.replace(/^\[(GraphQL|Network)\]\s*/, '').trim() : '';
  const retryAfter = typeof extensions?.retryAfter === 'number' ? extensions.retryAfter : undefined;
  if (extensions?.code === 'SERVICE_UNAVAILABLE' && message === UNAVAILABLE_MESSAGE) return unavailableText(retryAfter);
  if (!message) return fallback;
  // The server's own words already say when to retry ('please wait a minute and try again'): one sentence only.
  if (retryAfter === undefined || retryAfter <= 0 || SAYS_TRY_AGAIN.test(message)) return message;
  return `${/[.!?…]$/.test(message) ? message : `${message}.`} ${tryAgainText(retryAfter)}`;
}

const SAYS_TRY_AGAIN = /\btry again\b/i;

function firstOf(error: unknown): unknown {
  if (typeof error !== 'object' || error === null || !('graphQLErrors' in error)) return error;
  const combined = error as { networkError?: unknown; graphQLErrors?: unknown[] };
  return combined.networkError ?? combined.graphQLErrors?.[0] ?? error;
}
