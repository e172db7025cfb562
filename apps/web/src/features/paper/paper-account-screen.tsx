import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { formatDateTime } from '../../lib/format.ts';
import { formatUsd } from './format.ts';
import { PaperBalances } from './paper-balances.tsx';
import { FillsTable, OpenOrdersTable, PositionsTable } from './paper-tables.tsx';
import { usePaperAccount } from './use-paper-account.ts';

const BACK = '/me/connector';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card shadow-sm" aria-label={title}>
      <div className="card-body">
        <h2 className="h5">{title}</h2>
        {children}
      </div>
    </section>
  );
}

/** A paper account: balances, positions, open orders, recent fills, and a reset to the starting cash. */
export function PaperAccountScreen({ connectorKey, accountId }: { connectorKey: string; accountId: string }) {
  useDocumentTitle('Paper account');
  const { account, error, notFound, fetching, reload, reset } = usePaperAccount(connectorKey, accountId);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resetError, setResetError] = useState<string | null>(null);
  const [resetDone, setResetDone] = useState(false);

  async function confirmReset() {
    setBusy(true);
    const failure = await reset();
    setBusy(false);
    setConfirming(false);
    setResetError(failure);
    setResetDone(failure === null);
  }

  const back = (
    <Link to={BACK} className="small">
      ← Brokers &amp; Webhooks
    </Link>
  );
  if (!account) {
    return (
      <div className="d-flex flex-column gap-3">
        {back}
        <h1 className="h3 mb-0">Paper account</h1>
        {notFound ? (
          <div className="alert alert-warning" role="alert">
            This paper account is not one of your connections, or it was deleted.
          </div>
        ) : error && !fetching ? (
          <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2" role="alert">
            <span className="flex-grow-1">Cannot load the paper account.</span>
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={reload}>
              Try again
            </button>
          </div>
        ) : (
          <DelayedSpinner />
        )}
      </div>
    );
  }

  return (
    <div className="d-flex flex-column gap-3">
      {back}
      <header className="d-flex flex-wrap align-items-center gap-2">
        <div className="flex-grow-1">
          <h1 className="h3 mb-1 text-break">{account.name}</h1>
          <p className="text-secondary small mb-0">
            Paper Trading · <span className="font-monospace">{account.accountId}</span> · started with{' '}
            {formatUsd(account.startingCash)}
            {account.resetAt !== null && <> · reset {formatDateTime(account.resetAt)}</>} · prices as of{' '}
            {formatDateTime(account.asOf)}
          </p>
        </div>
        <button type="button" className="btn btn-outline-secondary" onClick={reload} disabled={fetching}>
          Refresh
        </button>
        <button type="button" className="btn btn-outline-danger" onClick={() => setConfirming(true)}>
          Reset account
        </button>
      </header>
      {resetError && (
        <div className="alert alert-danger" role="alert">
          {resetError}
        </div>
      )}
      {resetDone && (
        <output className="alert alert-success d-block">
          The account was reset to {formatUsd(account.startingCash)}.
        </output>
      )}
      <PaperBalances account={account} />
      <Section title="Positions">
        <PositionsTable positions={account.positions} />
      </Section>
      <Section title="Open orders">
        <OpenOrdersTable orders={account.openOrders} total={account.openOrderCount} />
      </Section>
      <Section title="Recent fills">
        <FillsTable fills={account.fills} />
      </Section>
      <ConfirmDialog
        show={confirming}
        title="Reset the paper account?"
        confirmLabel="Reset"
        busy={busy}
        onConfirm={() => void confirmReset()}
        onClose={() => setConfirming(false)}
      >
        <p className="mb-0">
          Open orders are canceled, positions are cleared and the cash goes back to {formatUsd(account.startingCash)}.
          Fills before the reset are no longer shown. This cannot be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}
