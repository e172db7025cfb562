import type { Provider } from '@router/orders';
import { Fragment, useId } from 'react';
import { Link } from 'react-router';
import { BrandLogo } from './brand-logo.tsx';
import { capabilitiesOf } from './capabilities.ts';
import './provider-tile.css';

function tileLabel({ title, status }: Provider): string {
  if (status === 'unavailable') return `${title} (unavailable)`;
  return `Connect ${title}${status === 'beta' ? ' (beta)' : ''}`;
}

/** What the broker supports, from its reference (none for an unavailable provider). */
function Supports({ id, provider }: { id: string; provider: Provider }) {
  const c = capabilitiesOf(provider);
  return (
    <div id={id} className="small text-secondary">
      <div>{c.classes.join(', ')}</div>
      <div>
        {/* Wrapped after a comma only, never inside "Stop limit". */}
        {c.types.map((type, index) => (
          <Fragment key={type}>
            {index > 0 && ', '}
            <span className="text-nowrap">{type}</span>
          </Fragment>
        ))}
      </div>
      {(c.brackets || c.multiLeg) && (
        <div className="d-flex flex-wrap gap-1 mt-1">
          {c.brackets && <span className="badge text-bg-light border">brackets</span>}
          {c.multiLeg && <span className="badge text-bg-light border">multi-leg</span>}
        </div>
      )}
    </div>
  );
}

/** A provider in the grid: logo, title, beta or unavailable badge, what it supports, notice. */
export function ProviderTile({ provider }: { provider: Provider }) {
  const id = useId();
  const unavailable = provider.status === 'unavailable';
  return (
    <Link
      to={`/me/connector/${encodeURIComponent(provider.name)}`}
      className="provider-tile card h-100 text-decoration-none text-body"
      aria-label={tileLabel(provider)}
      {...(unavailable ? {} : { 'aria-describedby': `${id}-supports` })}
    >
      <div className="card-body d-flex flex-column gap-2 p-3">
        <div className="provider-tile-head">
          <BrandLogo name={provider.name} title={provider.title} />
          <span className="provider-tile-title fw-semibold">{provider.title}</span>
          {provider.status === 'beta' && <span className="badge text-bg-info">beta</span>}
          {unavailable && <span className="badge text-bg-secondary">Unavailable</span>}
        </div>
        {!unavailable && <Supports id={`${id}-supports`} provider={provider} />}
        {provider.notice && (
          <span className="small text-warning-emphasis provider-tile-notice" title={provider.notice}>
            {provider.notice}
          </span>
        )}
      </div>
    </Link>
  );
}
