import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { findCallbackProvider, readCallback } from '../../features/connectors/callback-request.ts';
import { ConnectorActivateDocument } from '../../features/connectors/documents.ts';
import { useCall } from '../../lib/call.ts';
import { pageLeaving } from '../../lib/client.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useProviders } from '../../lib/providers.tsx';

const LIST = '/me/connector';

/** SPEC §2 Broker callback: activates the connection from the broker's answer, once. */
export function Component() {
  useDocumentTitle('Connecting your broker');
  const { providerName } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const { mutate } = useCall();
  const { providers } = useProviders();
  const [provider] = useState(() => findCallbackProvider(providers, providerName, document.referrer));
  const [request] = useState(() => (provider ? readCallback(provider, search) : ({ kind: 'leave' } as const)));
  const [failure, setFailure] = useState<string | null>(request.kind === 'failure' ? request.message : null);
  const [connected, setConnected] = useState(false);
  // An authorization code works once: never send it twice (StrictMode runs effects twice).
  const sent = useRef(false);

  useEffect(() => {
    if (!provider || request.kind !== 'activate' || sent.current) return;
    sent.current = true;
    mutate(ConnectorActivateDocument, { providerName: provider.name, credentials: request.credentials }).then(
      () => {
        if (window.opener) {
          setConnected(true);
          pageLeaving();
          window.close();
        } else navigate(LIST, { replace: true });
      },
      (error: unknown) => setFailure(errorMessage(error)),
    );
  }, [provider, request, mutate, navigate]);

  if (request.kind === 'leave') return <Navigate to={LIST} replace />;

  return (
    <section className="mx-auto" style={{ maxWidth: '32rem' }}>
      <h1 className="h4 mb-3">Connecting {provider?.title ?? 'your broker'}</h1>
      {provider && request.kind === 'form' ? (
        <>
          <p>{provider.title} is connected with its form on Brokers &amp; Webhooks: no broker window returns here.</p>
          <Link to={`${LIST}/${provider.name}`} className="btn btn-primary">
            Connect {provider.title}
          </Link>
        </>
      ) : failure ? (
        <>
          <div className="alert alert-danger" role="alert">
            {failure}
          </div>
          <Link to="/signin" className="btn btn-primary">
            Continue
          </Link>
        </>
      ) : connected ? (
        <p role="status">Connected. You can close this window.</p>
      ) : (
        <>
          <p className="text-secondary">Finishing the connection…</p>
          <DelayedSpinner />
        </>
      )}
    </section>
  );
}
