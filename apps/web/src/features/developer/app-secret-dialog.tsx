import { useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { FocusedAlert } from '../../components/focused-alert.tsx';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { TokenSecret } from '../settings/token-secret.tsx';
import { UserAppSecretRotateDocument } from './documents.ts';

/**
 * 'New secret' of an application (a leaked client secret): asks first, since the current secret
 * stops working at once, then shows the new one once. Users' grants stay. It cannot be closed
 * while the call runs: the secret would arrive in a hidden dialog.
 */
export function AppSecretDialog({ app, onClose }: { app: { key: string; name: string } | null; onClose: () => void }) {
  const { mutate } = useCall();
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    setSecret(null);
    setFailure(null);
    onClose();
  };

  const replace = async () => {
    if (!app) return;
    setBusy(true);
    setFailure(null);
    try {
      setSecret((await mutate(UserAppSecretRotateDocument, { key: app.key })).userAppSecretRotate.secret);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      show={app !== null}
      onHide={close}
      backdrop={busy ? 'static' : true}
      keyboard={!busy}
      centered
      aria-labelledby="app-secret-title"
    >
      <Modal.Header closeButton={!busy}>
        <Modal.Title id="app-secret-title" as="h2" className="h5">
          New client secret
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {failure && <FocusedAlert className="py-2">{failure}</FocusedAlert>}
        {secret ? (
          <TokenSecret
            secret={secret}
            onDone={close}
            label="New client secret"
            hint="Copy it now: it is shown only once. Your application's token requests need it from now on."
          />
        ) : (
          <p className="mb-0">
            Replace the client secret of <strong>{app?.name}</strong>? The current secret stops working at once, so
            update your application right away. Users' access granted to it stays.
          </p>
        )}
      </Modal.Body>
      {!secret && (
        <Modal.Footer>
          <button type="button" className="btn btn-secondary" onClick={close} disabled={busy}>
            Cancel
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void replace()} disabled={busy}>
            Replace secret
          </button>
        </Modal.Footer>
      )}
    </Modal>
  );
}
