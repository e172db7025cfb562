import { type Ref, useId, useMemo, useState } from 'react';
import { useProviders } from '../../lib/providers.tsx';
import { PROVIDER_SEARCH_DEBOUNCE_MS } from './constants.ts';
import { connectableProviders, searchProviders } from './provider-search.ts';
import { ProviderTile } from './provider-tile.tsx';
import { useDebouncedValue } from './use-debounced-value.ts';

/** SPEC §2 searchable provider grid; `searchRef` is the search box (Connect broker focuses it). */
export function ProviderGrid({ searchRef }: { searchRef?: Ref<HTMLInputElement> }) {
  const id = useId();
  const { providers } = useProviders();
  const [search, setSearch] = useState('');
  const applied = useDebouncedValue(search, PROVIDER_SEARCH_DEBOUNCE_MS);
  const all = useMemo(() => connectableProviders(providers.values()), [providers]);
  const shown = useMemo(() => searchProviders(all, applied), [all, applied]);

  return (
    <section aria-labelledby={`${id}-title`}>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h2 id={`${id}-title`} className="h5 mb-0">
          Connect a broker
        </h2>
        <div style={{ width: '18rem', maxWidth: '100%' }}>
          <label htmlFor={`${id}-search`} className="visually-hidden">
            Search brokers
          </label>
          <input
            ref={searchRef}
            id={`${id}-search`}
            type="search"
            className="form-control"
            placeholder="Search brokers"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
      </div>
      {all.length === 0 ? (
        <p className="text-secondary">No brokers are available on this server.</p>
      ) : shown.length === 0 ? (
        <p className="text-secondary" role="status">
          No broker matches “{applied.trim()}”.
        </p>
      ) : (
        <ul className="row row-cols-2 row-cols-sm-3 row-cols-xl-4 g-3 list-unstyled mb-0" aria-label="Brokers">
          {shown.map((provider) => (
            <li key={provider.name} className="col">
              <ProviderTile provider={provider} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
