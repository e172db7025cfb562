import type { Provider } from '@router/orders';
import type { ProviderTitles } from '@router/shared';
import { createContext, type ReactNode, use, useEffect, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { ProvidersDocument } from '../features/providers/documents.ts';

export const PROVIDER_TITLE_FALLBACK = 'Brokerage';

export type ProviderMap = ReadonlyMap<string, Provider>;

/** The `providers` query answers one JSON string of Provider[]; keyed here by name. */
export function parseProviders(json: string): Map<string, Provider> {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) throw new Error('providers: expected a JSON array');
  const providers = new Map<string, Provider>();
  for (const item of parsed as Provider[]) {
    if (!item || typeof item.name !== 'string') continue;
    providers.set(item.name, {
      ...item,
      title: item.title || PROVIDER_TITLE_FALLBACK,
      reference: item.reference ?? {},
    });
  }
  return providers;
}

export function providerTitle(providers: ProviderMap, name: string | null | undefined): string {
  return (name && providers.get(name)?.title) || PROVIDER_TITLE_FALLBACK;
}

export interface ProvidersValue {
  /** True once the first load settled (answered or failed); stays true across refetches. */
  isLoaded: boolean;
  providers: ProviderMap;
  title(name: string | null | undefined): string;
  /** Each provider's title by name (describeAction's). */
  titles: ProviderTitles;
}

const ProvidersContext = createContext<ProvidersValue | null>(null);

export function ProvidersProvider({ children }: { children: ReactNode }) {
  const [result] = useQuery({ query: ProvidersDocument });
  const json = result.data?.providers;
  const [providers, setProviders] = useState<ProviderMap | null>(null);

  useEffect(() => {
    if (json !== undefined) {
      try {
        setProviders(parseProviders(json));
      } catch (error) {
        console.error('Cannot parse the provider list', error);
        setProviders((current) => current ?? new Map());
      }
    } else if (result.error && !result.fetching) {
      // The app must still open (to sign in, say): go on with no providers.
      console.error('Cannot load the provider list', result.error);
      setProviders((current) => current ?? new Map());
    }
  }, [json, result.error, result.fetching]);

  const value = useMemo<ProvidersValue>(() => {
    const map = providers ?? new Map<string, Provider>();
    const titles = Object.fromEntries([...map.values()].map((p) => [p.name, p.title]));
    return { isLoaded: providers !== null, providers: map, title: (name) => providerTitle(map, name), titles };
  }, [providers]);

  return <ProvidersContext value={value}>{children}</ProvidersContext>;
}

export function useProviders(): ProvidersValue {
  const value = use(ProvidersContext);
  if (!value) throw new Error('useProviders must be used inside <ProvidersProvider>');
  return value;
}

/** The provider list where one is loaded; null outside <ProvidersProvider> (component tests). */
export function useOptionalProviders(): ProvidersValue | null {
  return use(ProvidersContext);
}
