import type { ReactNode } from 'react';
import { useId } from 'react';
import Modal from 'react-bootstrap/Modal';

/** Asks before an action (destructive by default); Cancel is the default way out (Escape, backdrop). */
export function ConfirmDialog({
  show,
  title,
  confirmLabel = 'Delete',
  variant = 'danger',
  busy,
  onConfirm,
  onClose,
  children,
}: {
  show: boolean;
  title: string;
  confirmLabel?: string;
  /** The confirm button's colour: danger for destructive actions. */
  variant?: 'danger' | 'primary';
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Modal show={show} onHide={onClose} centered aria-labelledby={id}>
      <Modal.Header closeButton>
        <Modal.Title id={id} as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={`btn btn-${variant}`} onClick={onConfirm} disabled={busy}>
          {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
          {confirmLabel}
        </button>
      </Modal.Footer>
    </Modal>
  );
}
