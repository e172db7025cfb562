import type { Provider } from '@router/orders';

const RANK: Record<Provider['status'], number> = { active: 0, beta: 1, unavailable: 2, disabled: 3 };

/** The grid's providers: active first, then beta, then unavailable (listed to say why), each by title. */
export function connectableProviders(providers: Iterable<Provider>): Provider[] {
  const rank = (provider: Provider) => RANK[provider.status];
  return [...providers]
    .filter((provider) => provider.status !== 'disabled')
    .sort((a, b) => rank(a) - rank(b) || a.title.localeCompare(b.title, 'en-US'));
}

/** SPEC §2: case-insensitive over titles. */
export function searchProviders(providers: readonly Provider[], search: string): Provider[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return [...providers];
  return providers.filter((provider) => provider.title.toLowerCase().includes(needle));
}

/** The brokers one can trade through (active and beta), for the landing page and the FAQ. */
export function supportedProviders(providers: Iterable<Provider>): Provider[] {
  return connectableProviders(providers).filter((provider) => provider.status !== 'unavailable');
}
