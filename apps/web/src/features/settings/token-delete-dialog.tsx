import Modal from 'react-bootstrap/Modal';

/** Asks before a token is revoked: programs using it stop working at once. */
export function TokenDeleteDialog({
  name,
  busy,
  onConfirm,
  onClose,
}: {
  name: string | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal show={name !== null} onHide={onClose} centered aria-labelledby="token-delete-title">
      <Modal.Header closeButton>
        <Modal.Title id="token-delete-title" as="h2" className="h5">
          Delete token
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        Delete <strong>{name}</strong>? Anything using this token loses access to the API at once.
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={busy}>
          Delete
        </button>
      </Modal.Footer>
    </Modal>
  );
}
