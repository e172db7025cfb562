import type { Provider } from '@router/orders';
import { useId } from 'react';
import Modal from 'react-bootstrap/Modal';
import { FocusedAlert } from '../../components/focused-alert.tsx';
import { CredentialsForm } from './credentials-form.tsx';
import { useConnect } from './use-connect.ts';

/** SPEC §2 connect dialog: the provider's credential form, or the authorization window. */
export function ConnectDialog({
  provider,
  onConnected,
  onClose,
}: {
  provider: Provider;
  onConnected: () => void;
  onClose: () => void;
}) {
  const formId = useId();
  const { phase, error, connectWithCredentials, authorize } = useConnect(provider, onConnected);
  const isOpen = provider.authentication.type === 'open';
  const names = isOpen ? [] : (provider.authentication.credentials ?? []);
  const branchField = provider.authentication.type === 'credentials' ? provider.authentication.branchSearch : undefined;
  const busy = phase !== 'idle';

  return (
    <Modal show onHide={onClose} centered scrollable aria-labelledby={`${formId}-title`}>
      <Modal.Header closeButton>
        <Modal.Title id={`${formId}-title`} as="h2" className="h5">
          Connect {provider.title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {provider.notice && (
          <div className="alert alert-warning small" role="note">
            {provider.notice}
          </div>
        )}
        {provider.authentication.help && <p className="text-secondary">{provider.authentication.help}</p>}
        {isOpen ? (
          <p className="mb-0">
            {phase === 'authorizing'
              ? `Finish signing in to ${provider.title} in the window that opened. This page updates when it closes.`
              : `A ${provider.title} window opens for you to sign in and allow access.`}
          </p>
        ) : (
          <CredentialsForm
            id={formId}
            names={names}
            branchField={branchField}
            disabled={busy}
            onSubmit={connectWithCredentials}
          />
        )}
        {error && <FocusedAlert className="mt-3 mb-0">{error}</FocusedAlert>}
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Cancel
        </button>
        {isOpen ? (
          <button type="button" className="btn btn-primary" onClick={() => void authorize()} disabled={busy}>
            {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
            {phase === 'authorizing' ? 'Waiting for authorization…' : `Continue to ${provider.title}`}
          </button>
        ) : (
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>
            {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
            Connect
          </button>
        )}
      </Modal.Footer>
    </Modal>
  );
}
