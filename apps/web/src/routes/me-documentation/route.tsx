import { type ReactNode, useMemo } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useQuery } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { ProviderDocs } from '../../features/documentation/provider-docs.tsx';
import { brokerOptions, defaultBroker } from '../../features/playground/broker-options.ts';
import { parseConnector } from '../../features/playground/connectors.ts';
import { PlaygroundConnectorsDocument } from '../../features/playground/documents.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useProviders } from '../../lib/providers.tsx';

/** SPEC §2 Documentation and playground (/me/documentation/{providerName?}). */
export function Component() {
  useDocumentTitle('Documentation');
  const { providerName } = useParams();
  const navigate = useNavigate();
  const { providers } = useProviders();
  const [result, reexecute] = useQuery({ query: PlaygroundConnectorsDocument, requestPolicy: 'cache-and-network' });
  const connectors = useMemo(() => (result.data?.connectors ?? []).map(parseConnector), [result.data]);
  const brokers = useMemo(() => brokerOptions(providers, connectors), [providers, connectors]);
  const settled = result.data !== undefined || result.error !== undefined;
  const provider = defaultBroker(brokers, providerName);
  // A provider with no order API has no parameters to show: say why instead.
  const named = providerName ? providers.get(providerName) : undefined;
  const unavailable = named?.status === 'unavailable' ? named : undefined;

  let body: ReactNode;
  if (!settled) body = <DelayedSpinner />;
  else if (!provider) body = <p className="text-secondary">No brokers are available yet.</p>;
  else
    body = (
      <ProviderDocs
        key={provider.name}
        provider={provider}
        brokers={brokers}
        onBroker={(name) => navigate(`/me/documentation/${name}`)}
        connectors={connectors}
      />
    );

  return (
    <div className="documentation" style={{ maxWidth: '64rem' }}>
      <h1 className="h3 mb-2">Documentation</h1>
      <p className="text-secondary mb-4">
        Choose a broker to view its order parameters and examples, and try orders in the playground: test orders run in
        'preview' mode, so nothing is placed or charged.
      </p>
      {result.error && !result.fetching && (
        <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2" role="alert">
          <span className="me-auto">Your connected brokers could not be loaded: {errorMessage(result.error)}</span>
          <button
            type="button"
            className="btn btn-sm btn-outline-danger"
            onClick={() => reexecute({ requestPolicy: 'network-only' })}
          >
            Retry
          </button>
        </div>
      )}
      {settled && provider && providerName && provider.name !== providerName && (
        <div className="alert alert-warning" role="alert">
          {unavailable
            ? `${unavailable.title} is unavailable: ${unavailable.authentication.help ?? 'it cannot be connected.'} Showing ${provider.title}.`
            : `There is no broker named “${providerName}”; showing ${provider.title}.`}
        </div>
      )}
      {body}
    </div>
  );
}
