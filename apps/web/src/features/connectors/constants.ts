// SPEC §9 constants of the Brokers & Webhooks screen and the connect flow.
export { CONNECTOR_TIMEOUT_MS } from '@router/shared';

/** The authorization window is checked this often for being closed. */
export const POPUP_POLL_MS = 555;
/** The provider search applies this long after the last keystroke. */
export const PROVIDER_SEARCH_DEBOUNCE_MS = 555;
export const DAY_MS = 24 * 60 * 60 * 1000;
/** SPEC §8 fallback when a connect failure carries no message. */
export const CONNECT_ERROR_FALLBACK = 'Error...';
/** The branch (server) field asks for suggestions this long after the last keystroke, as the provider search. */
export const BRANCH_SEARCH_DEBOUNCE_MS = 555;
/** Fewer letters match too many servers to suggest. */
export const BRANCH_SEARCH_MIN_LENGTH = 2;
