import type { Provider } from '@router/orders';
import { useId } from 'react';
import Modal from 'react-bootstrap/Modal';

/** In place of the connect dialog for a provider with no public order API: why, and what instead. */
export function UnavailableDialog({ provider, onClose }: { provider: Provider; onClose: () => void }) {
  const id = useId();
  return (
    <Modal show onHide={onClose} centered aria-labelledby={`${id}-title`}>
      <Modal.Header closeButton>
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          {provider.title} is unavailable
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="mb-0">{provider.authentication.help ?? `${provider.title} cannot be connected.`}</p>
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Close
        </button>
      </Modal.Footer>
    </Modal>
  );
}
