import type { Provider } from '@router/orders';

/** Providers one can connect, active first then beta, each group by title. */
export function connectableProviders(providers: Iterable<Provider>): Provider[] {
  const rank = (provider: Provider) => (provider.status === 'active' ? 0 : 1);
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
