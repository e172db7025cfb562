import type { Provider } from '@router/orders';
import { Link } from 'react-router';
import { tileFontScale } from './provider-search.ts';
import './provider-tile.css';

function tileLabel({ title, status }: Provider): string {
  if (status === 'unavailable') return `${title} (unavailable)`;
  return `Connect ${title}${status === 'beta' ? ' (beta)' : ''}`;
}

/** A provider in the grid: its title as the logo (no images), beta or unavailable badge, notice. */
export function ProviderTile({ provider }: { provider: Provider }) {
  return (
    <Link
      to={`/me/connector/${encodeURIComponent(provider.name)}`}
      className="provider-tile card h-100 text-decoration-none text-body"
      aria-label={tileLabel(provider)}
    >
      <div className="card-body d-flex flex-column align-items-center justify-content-center text-center p-3">
        <span className="fw-semibold" style={{ fontSize: `${tileFontScale(provider.scale)}rem` }}>
          {provider.title}
        </span>
        {provider.status === 'beta' && <span className="badge text-bg-info mt-2">beta</span>}
        {provider.status === 'unavailable' && <span className="badge text-bg-secondary mt-2">Unavailable</span>}
        {provider.notice && (
          <span className="small text-warning-emphasis mt-2 provider-tile-notice" title={provider.notice}>
            {provider.notice}
          </span>
        )}
      </div>
    </Link>
  );
}
