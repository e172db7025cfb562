import { useCallback, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useQuery } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { ConnectDialog } from '../../features/connectors/connect-dialog.tsx';
import { ConnectorList } from '../../features/connectors/connector-list.tsx';
import { ConnectorsDocument } from '../../features/connectors/documents.ts';
import { ProviderGrid } from '../../features/connectors/provider-grid.tsx';
import { UnavailableDialog } from '../../features/connectors/unavailable-dialog.tsx';
import { useTileFocusBack } from '../../features/connectors/use-tile-focus-back.ts';
import { KillSwitch } from '../../features/hooks/kill-switch.tsx';
import { LiveIndicator } from '../../features/live/live-indicator.tsx';
import { useLiveReload } from '../../features/live/live-provider.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { useProviders } from '../../lib/providers.tsx';
import { useLastLoaded } from '../../lib/use-last-loaded.ts';

const BASE = '/me/connector';

/** SPEC §2 Brokers & Webhooks: connected brokers with accounts and webhooks, and the provider grid. */
export function Component() {
  useDocumentTitle('Brokers & Webhooks');
  const { providerName } = useParams();
  const navigate = useNavigate();
  const { providers } = useProviders();
  const searchRef = useRef<HTMLInputElement>(null);
  const [{ data, error, fetching }, refetch] = useQuery({
    query: ConnectorsDocument,
    requestPolicy: 'cache-and-network',
  });
  const reload = useCallback(() => refetch({ requestPolicy: 'network-only' }), [refetch]);
  // Live: a connection the server deactivated (an authorization refused, SPEC §2) shows so at once.
  useLiveReload(reload);
  const provider = providerName ? providers.get(providerName) : undefined;
  useTileFocusBack(BASE, providerName);
  // A reload after a change that fails for a moment answers no data: the brokers shown stay, and
  // with them the trader's open edits in their cards.
  const connectors = useLastLoaded(data?.connectors);
  // Bumped by the kill switch: the connector cards reload their webhooks (not mounted again, which
  // would drop the trader's open edits: a rename, risk controls being typed).
  const [generation, setGeneration] = useState(0);

  const openProvider = (name: string) => navigate(`${BASE}/${encodeURIComponent(name)}`);
  const closeDialog = () => navigate(BASE);
  const connected = useCallback(() => {
    reload();
    navigate(BASE);
  }, [reload, navigate]);

  return (
    <div className="d-flex flex-column gap-4">
      <header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
        <div>
          <div className="d-flex flex-wrap align-items-center gap-2 mb-1">
            <h1 className="h3 m-0">Brokers &amp; Webhooks</h1>
            <LiveIndicator />
          </div>
          <p className="text-secondary mb-0">
            Connect a broker, then create webhooks: each alert posted to a webhook URL becomes an order.
          </p>
        </div>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => {
            searchRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
            searchRef.current?.focus({ preventScroll: true });
          }}
        >
          Connect broker
        </button>
      </header>

      {providerName && !provider && (
        <div className="alert alert-warning" role="status">
          “{providerName}” is not a broker this server connects to. Pick one below.
        </div>
      )}

      <section aria-label="Connected brokers">
        {connectors ? (
          connectors.length > 0 ? (
            <>
              <ConnectorList
                hooksVersion={generation}
                connectors={connectors}
                onReconnect={openProvider}
                onChanged={reload}
              />
              <div className="mt-3">
                <KillSwitch onChanged={() => setGeneration((n) => n + 1)} />
              </div>
            </>
          ) : (
            <div className="text-center border rounded py-4 px-3 bg-body-tertiary">
              <h2 className="h5">No brokers connected yet</h2>
              <p className="text-secondary mb-0">
                Pick your broker below. No brokerage account? Paper Trading simulates one.
              </p>
            </div>
          )
        ) : error && !fetching ? (
          <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2" role="alert">
            <span className="flex-grow-1">Cannot load your brokers: {errorMessage(error)}</span>
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={reload}>
              Try again
            </button>
          </div>
        ) : (
          <DelayedSpinner />
        )}
      </section>

      <ProviderGrid searchRef={searchRef} />

      {provider?.status === 'unavailable' ? (
        <UnavailableDialog key={provider.name} provider={provider} onClose={closeDialog} />
      ) : (
        provider && (
          <ConnectDialog key={provider.name} provider={provider} onConnected={connected} onClose={closeDialog} />
        )
      )}
    </div>
  );
}
