import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { deactivationText } from './hook-deactivation.ts';
import type { HookItem } from './hook-model.ts';

/**
 * Asks before a deactivated webhook takes alerts again, saying why it was turned off; and, when its
 * broker connection is deactivated too (`connectionOff`), that alerts stay refused until it is reconnected.
 */
export function HookReactivateDialog({
  hook,
  connectionOff = false,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  hook: HookItem | null;
  connectionOff?: boolean;
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
        {connectionOff
          ? 'Its broker connection is deactivated too: alerts sent to its URL stay refused until you reconnect the broker.'
          : `Once reactivated, alerts sent to its URL place orders again${hook?.isTest ? ' (test orders: status draft)' : ''}.`}
      </p>
      {error && (
        <div className="alert alert-danger mb-0" role="alert">
          {error}
        </div>
      )}
    </ConfirmDialog>
  );
}
