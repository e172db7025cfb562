import { ConfirmDialog } from '../../components/confirm-dialog.tsx';

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
    <ConfirmDialog
      show={name !== null}
      title="Delete token"
      busy={busy}
      removesOpener
      onConfirm={onConfirm}
      onClose={onClose}
    >
      Delete <strong>{name}</strong>? Anything using this token loses access to the API at once.
    </ConfirmDialog>
  );
}
