import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import type { HookItem } from './hook-model.ts';

/** Asks before a webhook goes: signals sent to its URL are refused from then on. */
export function HookDeleteDialog({
  hook,
  busy,
  onConfirm,
  onClose,
}: {
  hook: HookItem | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      show={hook !== null}
      title="Delete webhook"
      busy={busy}
      removesOpener
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p className="mb-0">
        Delete the webhook <strong>{hook?.name}</strong>? Alerts sent to its URL will no longer place orders. This
        cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
