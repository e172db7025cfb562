import type { Provider } from '@router/orders';
import { Link } from 'react-router';
import { tileFontScale } from './provider-search.ts';
import './provider-tile.css';

/** A provider in the grid: its title as the logo (no images), beta badge, notice. */
export function ProviderTile({ provider }: { provider: Provider }) {
  return (
    <Link
      to={`/me/connector/${encodeURIComponent(provider.name)}`}
      className="provider-tile card h-100 text-decoration-none text-body"
      aria-label={`Connect ${provider.title}${provider.status === 'beta' ? ' (beta)' : ''}`}
    >
      <div className="card-body d-flex flex-column align-items-center justify-content-center text-center p-3">
        <span className="fw-semibold" style={{ fontSize: `${tileFontScale(provider.scale)}rem` }}>
          {provider.title}
        </span>
        {provider.status === 'beta' && <span className="badge text-bg-info mt-2">beta</span>}
        {provider.notice && (
          <span className="small text-warning-emphasis mt-2 provider-tile-notice" title={provider.notice}>
            {provider.notice}
          </span>
        )}
      </div>
    </Link>
  );
}
