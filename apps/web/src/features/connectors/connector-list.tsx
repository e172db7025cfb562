import { useState } from 'react';
import { useCall } from '../../lib/call.ts';
import { useProviders } from '../../lib/providers.tsx';
import { ConnectorCard } from './connector-card.tsx';
import { ConnectorDeleteDialog } from './connector-delete-dialog.tsx';
import type { ConnectorItem } from './connector-model.ts';
import { ConnectorDeleteDocument } from './documents.ts';

/** The connected brokers, each a card, and the delete-broker dialog. */
export function ConnectorList({
  connectors,
  onReconnect,
  onChanged,
  hooksVersion,
}: {
  connectors: readonly ConnectorItem[];
  onReconnect: (providerName: string) => void;
  onChanged: () => void;
  /** Changes when every webhook changed at once (the kill switch): the cards reload theirs. */
  hooksVersion?: number;
}) {
  const { mutate } = useCall();
  const { title } = useProviders();
  const [deleting, setDeleting] = useState<ConnectorItem | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    // SPEC §8: delete failures are silently ignored; still logged (DESIGN.md), the list refreshes.
    await mutate(ConnectorDeleteDocument, { key: deleting.key }).catch((failure: unknown) =>
      console.debug('connectorDelete failed', failure),
    );
    setBusy(false);
    setDeleting(null);
    onChanged();
  }

  return (
    <>
      <div className="d-flex flex-column gap-3">
        {connectors.map((connector) => (
          <ConnectorCard
            key={connector.key}
            connector={connector}
            onReconnect={onReconnect}
            onDelete={setDeleting}
            onChanged={onChanged}
            hooksVersion={hooksVersion}
          />
        ))}
      </div>
      <ConnectorDeleteDialog
        connector={deleting ? { key: deleting.key, title: title(deleting.providerName) } : null}
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
