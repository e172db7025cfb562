// SPEC §2 Broker callback: which provider answered, and what it sent back.
import type { Provider } from '@router/orders';

export const ETRADE_FAILURE_MESSAGE = 'Token generation failure. Please try again';
const ETRADE_ALREADY_AUTHORIZED = 'already been Authorized';

/** By the route's name, else by the page we came from matching a provider's referrer base. */
export function findCallbackProvider(
  providers: ReadonlyMap<string, Provider>,
  routeName: string | undefined,
  referrer: string,
): Provider | undefined {
  if (routeName) return providers.get(routeName);
  if (!referrer) return undefined;
  for (const provider of providers.values()) {
    const base = provider.authentication.referrerBase;
    if (base && referrer.startsWith(base)) return provider;
  }
  return undefined;
}

export type CallbackRequest =
  | { kind: 'leave' }
  | { kind: 'failure'; message: string }
  /** A provider connected with its form (no broker window comes back here): the page was opened by hand. */
  | { kind: 'form' }
  | { kind: 'activate'; credentials: string[] };

/** The broker's refusal of the authorization, in its own words where it gave some. */
function authorizationRefused(title: string, error: string, description: string | null): string {
  const reason = error === 'access_denied' ? 'access was not granted' : `the broker answered ${error}`;
  const words = description?.trim().slice(0, 200);
  return `${title}: the authorization was not completed (${reason}${words ? `: ${words}` : ''}). Please connect again.`;
}

/** The provider's first listed credential from the query ('code' by default), with `state` (or `oauth_token`). */
export function readCallback(provider: Provider, search: string): CallbackRequest {
  if (provider.authentication.type !== 'open') return { kind: 'form' };
  const query = new URLSearchParams(search);
  if (provider.name === 'etrade' && query.get('oauth_verifier')?.endsWith(ETRADE_ALREADY_AUTHORIZED)) {
    return { kind: 'failure', message: ETRADE_FAILURE_MESSAGE };
  }
  const parameter = provider.authentication.credentials?.[0] ?? 'code';
  const code = query.get(parameter);
  if (!code) {
    // The broker's refusal (RFC 6749 §4.1.2.1: the user denied access, or the request was
    // refused) comes back with `error` instead of a code: said, not left in silence, since the
    // popup would otherwise show the connector list inside itself. Nothing is sent or stored.
    const error = query.get('error');
    if (!error) return { kind: 'leave' };
    return { kind: 'failure', message: authorizationRefused(provider.title, error, query.get('error_description')) };
  }
  // OAuth 1.0a (E*TRADE) brings no state: its request token names the attempt instead.
  const state = query.get('state') ?? query.get('oauth_token');
  return { kind: 'activate', credentials: state ? [code, state] : [code] };
}
