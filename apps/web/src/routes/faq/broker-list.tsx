import { BrandLogo } from '../../features/connectors/brand-logo.tsx';
import { capabilitiesLine } from '../../features/connectors/capabilities.ts';
import { supportedProviders } from '../../features/connectors/provider-search.ts';
import { useProviders } from '../../lib/providers.tsx';

/** The brokers this server connects to, with what each supports (from their references). */
export function BrokerList() {
  const { providers } = useProviders();
  const brokers = supportedProviders(providers.values());
  if (brokers.length === 0) return <p className="mb-0">The broker list could not be loaded; reload the page.</p>;
  return (
    <ul className="list-unstyled mb-0">
      {brokers.map((provider) => (
        <li key={provider.name} className="d-flex gap-2 mb-2">
          <BrandLogo name={provider.name} title={provider.title} size={1.5} />
          <span>
            <strong>{provider.title}</strong>
            {provider.status === 'beta' && <span className="badge text-bg-info ms-1">beta</span>}
            <span className="d-block small text-secondary">{capabilitiesLine(provider)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
