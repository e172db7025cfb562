import type { FormEventHandler, ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';

/**
 * The frame of the application dialogs ('New application', 'Edit application'): a form with its
 * title, the body given, and Cancel and Save. While saving it cannot be closed (by Escape, the
 * backdrop or its buttons), so an answer never arrives in a hidden dialog.
 */
export function AppFormModal({
  show,
  title,
  titleId,
  busy,
  onClose,
  onSubmit,
  children,
}: {
  show: boolean;
  title: string;
  titleId: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <Modal
      show={show}
      onHide={onClose}
      backdrop={busy ? 'static' : true}
      keyboard={!busy}
      centered
      aria-labelledby={titleId}
    >
      <form onSubmit={onSubmit} noValidate>
        <Modal.Header closeButton={!busy}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            Save
          </button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
