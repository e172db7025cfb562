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

/** SPEC §9 logo scale factors, applied subtly to the tile's title (1.8 → 1.2×, 0.65 → 0.91×). */
export function tileFontScale(scale: number | undefined): number {
  const factor = 1 + ((scale ?? 1) - 1) / 4;
  return Math.round(Math.min(1.25, Math.max(0.85, factor)) * 100) / 100;
}
