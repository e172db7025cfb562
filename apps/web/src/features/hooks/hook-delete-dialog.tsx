import { useQuery } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { QueuedSignalsDocument } from './documents.ts';
import type { HookItem } from './hook-model.ts';

/**
 * Asks before a webhook goes: signals sent to its URL are refused from then on, and those it holds
 * for its trading window (answered 'queued') go with it, never placed.
 */
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
  const [queued] = useQuery({ query: QueuedSignalsDocument, pause: hook === null, requestPolicy: 'cache-and-network' });
  const waiting =
    queued.data?.queuedSignals.filter((s) => s.hookKey === hook?.key && s.status === 'queued').length ?? 0;
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
      {waiting > 0 && (
        <p className="mb-0 mt-2 text-danger">
          Its {waiting === 1 ? 'signal' : `${waiting} signals`} queued until its trading window opens will not be placed
          either.
        </p>
      )}
    </ConfirmDialog>
  );
}
