import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { deactivationText } from './hook-deactivation.ts';
import type { HookItem } from './hook-model.ts';

/** Asks before a deactivated webhook takes alerts again, saying why it was turned off. */
export function HookReactivateDialog({
  hook,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  hook: HookItem | null;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      show={hook !== null}
      title="Reactivate webhook"
      confirmLabel="Reactivate"
      variant="primary"
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>
        <strong>{hook?.name}</strong> was deactivated. {deactivationText(hook?.deactivatedReason, true)}
      </p>
      <p className={error ? '' : 'mb-0'}>
        Once reactivated, alerts sent to its URL place orders again{hook?.isTest ? ' (test orders: status draft)' : ''}.
      </p>
      {error && (
        <div className="alert alert-danger mb-0" role="alert">
          {error}
        </div>
      )}
    </ConfirmDialog>
  );
}
