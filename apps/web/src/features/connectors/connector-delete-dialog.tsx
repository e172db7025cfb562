import { useQuery } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { HooksDocument } from '../hooks/documents.ts';

/** Asks before a broker is disconnected: its webhooks and notification settings go with it. */
export function ConnectorDeleteDialog({
  connector,
  busy,
  onConfirm,
  onClose,
}: {
  /** The broker to delete; null hides the dialog. */
  connector: { key: string; title: string } | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  // Asked each time: a cached count would miss webhooks deleted since (hookDelete answers no hook
  // that could clear the cache); until it comes the text says 'its webhooks'.
  const [{ data, fetching }] = useQuery({
    query: HooksDocument,
    variables: { connectorKey: connector?.key ?? '' },
    pause: !connector,
    requestPolicy: 'network-only',
  });
  const count = connector && !fetching ? data?.hooks.length : undefined;
  const hooks = count === undefined ? 'its webhooks' : count === 1 ? 'its webhook' : `its ${count} webhooks`;
  return (
    <ConfirmDialog
      show={connector !== null}
      title="Delete broker"
      busy={busy}
      removesOpener
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>
        Disconnect <strong>{connector?.title}</strong>? This also deletes {hooks} and the notification settings of its
        accounts: alerts sent to those webhook URLs will no longer place orders.
      </p>
      <p className="mb-0 text-secondary small">Orders already placed at the broker are not affected.</p>
    </ConfirmDialog>
  );
}
