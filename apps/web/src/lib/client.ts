import { Client, type CombinedError, cacheExchange, fetchExchange, mapExchange, type Operation } from '@urql/core';
import { readProxiedUser, readToken } from './storage.ts';
import { reachingFetch } from './unreachable.ts';

/** Same origin in every environment; the Vite dev server proxies it to the server (port 3000). */
export const GRAPHQL_URL: string = import.meta.env.VITE_GRAPHQL_URL ?? '/graphql';

export const UNAUTHENTICATED = 'UNAUTHENTICATED';

/** Computed per request: the token or proxy may change between two calls (SPEC §7). */
export function requestHeaders(): Record<string, string> {
  const headers: Record<string, string> = { Authorization: `Bearer ${readToken() ?? ''}` };
  const proxiedUser = readProxiedUser();
  if (proxiedUser) headers['X-User'] = proxiedUser;
  return headers;
}

export function isUnauthenticated(error: CombinedError): boolean {
  return error.graphQLErrors.some((graphQLError) => graphQLError.extensions?.code === UNAUTHENTICATED);
}

export interface ErrorHandlerOptions {
  /** SPEC §8: sign out, or end proxy mode when a proxied user is set. */
  onUnauthenticated: () => void;
  log?: (message: string, ...details: unknown[]) => void;
}

/**
 * True from the page's `pagehide` until it is shown again: requests still in flight when a page
 * goes (a broker's callback popup closing itself, a navigation away) fail with 'Failed to fetch',
 * which says nothing about the server and is not logged.
 */
let leaving = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    leaving = true;
  });
  window.addEventListener('pageshow', () => {
    leaving = false;
  });
}

/**
 * The page is about to go by its own doing (the callback popup's `window.close()`): its requests
 * in flight may be aborted before `pagehide` fires, and that says nothing about the server.
 */
export function pageLeaving(): void {
  leaving = true;
}

export function createErrorHandler({ onUnauthenticated, log = console.error }: ErrorHandlerOptions) {
  return (error: CombinedError, operation: Operation): void => {
    if (error.networkError && !leaving) {
      log(`${error.message} (${operation.kind} ${operationName(operation)})`, error.networkError);
    }
    if (isUnauthenticated(error)) onUnauthenticated();
  };
}

function operationName(operation: Operation): string {
  for (const definition of operation.query.definitions) {
    if (definition.kind === 'OperationDefinition' && definition.name) return definition.name.value;
  }
  return 'anonymous';
}

export interface AppClientOptions extends ErrorHandlerOptions {
  url?: string;
  fetch?: typeof fetch;
}

/**
 * The one GraphQL client (SPEC §7): GET for queries whose URL stays within 2047 characters,
 * cache-first by default; urql's CombinedError prefixes '[Network]' / '[GraphQL]' and reports
 * an empty response as 'No Content' (SPEC §8). No answer (offline, a 502, 503 or 504 without a
 * GraphQL body) is a ServerUnreachableError, whose message every screen shows (lib/unreachable.ts).
 */
export function createAppClient(options: AppClientOptions): Client {
  return new Client({
    url: options.url ?? GRAPHQL_URL,
    preferGetMethod: 'within-url-limit',
    requestPolicy: 'cache-first',
    // Subscriptions (live updates) over Server-Sent Events, through the same fetch.
    fetchSubscriptions: true,
    fetchOptions: () => ({ headers: requestHeaders() }),
    fetch: reachingFetch(options.fetch),
    exchanges: [mapExchange({ onError: createErrorHandler(options) }), cacheExchange, fetchExchange],
  });
}
