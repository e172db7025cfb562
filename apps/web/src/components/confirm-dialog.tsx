import type { ReactNode } from 'react';
import { useId, useLayoutEffect, useRef } from 'react';
import Modal from 'react-bootstrap/Modal';

/** Where the focus goes when a confirmed deletion took its opener away: the opener's region, else the content. */
function focusRegion(region: HTMLElement | null): void {
  const target = region?.isConnected ? region : document.querySelector<HTMLElement>('main');
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
}

/** Asks before an action (destructive by default); Cancel is the default way out (Escape, backdrop). */
export function ConfirmDialog({
  show,
  title,
  confirmLabel = 'Delete',
  variant = 'danger',
  busy,
  removesOpener = false,
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
  /**
   * Confirming deletes the row of the button that opened the dialog: the focus then goes to that
   * row's region (list section), not back to the vanished button, which left it at the page's start.
   */
  removesOpener?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const id = useId();
  const region = useRef<HTMLElement | null>(null);
  const confirmed = useRef(false);
  // Before the dialog takes the focus (its own effect): the focus is still on the opener.
  useLayoutEffect(() => {
    if (!show) return;
    confirmed.current = false;
    region.current = document.activeElement?.closest<HTMLElement>('section, main') ?? null;
  }, [show]);
  const leavesRegion = removesOpener && confirmed.current;
  return (
    <Modal
      show={show}
      onHide={onClose}
      centered
      aria-labelledby={id}
      restoreFocus={!leavesRegion}
      onExited={leavesRegion ? () => focusRegion(region.current) : undefined}
    >
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
        <button
          type="button"
          className={`btn btn-${variant}`}
          onClick={() => {
            confirmed.current = true;
            onConfirm();
          }}
          disabled={busy}
        >
          {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
          {confirmLabel}
        </button>
      </Modal.Footer>
    </Modal>
  );
}
