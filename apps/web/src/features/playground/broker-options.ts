// SPEC §2 broker select: connected brokers, a separator, then the other active brokers; the
// default is the route's provider, else the first connected, else the first unconnected.
// Unavailable providers (no order API) have no parameters to document: they are not offered, not
// even when the user still has a connector of one (the server refuses its test orders).
import type { Provider } from '@router/orders';
import type { ProviderMap } from '../../lib/providers.tsx';
import type { PlaygroundConnector } from './connectors.ts';

export interface BrokerOptions {
  connected: Provider[];
  others: Provider[];
}

const offered = (provider: Provider): boolean => provider.status !== 'disabled' && provider.status !== 'unavailable';

export function brokerOptions(providers: ProviderMap, connectors: readonly PlaygroundConnector[]): BrokerOptions {
  const connectedNames = new Set(connectors.map((connector) => connector.providerName));
  const connected = [...connectedNames].flatMap((name) => {
    const provider = providers.get(name);
    return provider && offered(provider) ? [provider] : [];
  });
  const others = [...providers.values()].filter((provider) => !connectedNames.has(provider.name) && offered(provider));
  return { connected, others };
}

/** The provider to show; undefined only when there is none at all. */
export function defaultBroker(options: BrokerOptions, routeName: string | undefined): Provider | undefined {
  const all = [...options.connected, ...options.others];
  return (routeName ? all.find((provider) => provider.name === routeName) : undefined) ?? all[0];
}
