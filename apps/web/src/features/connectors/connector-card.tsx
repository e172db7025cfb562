import { useEffect, useRef, useState } from 'react';
import { useQuery } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { errorMessage } from '../../lib/error-message.ts';
import { useProviders } from '../../lib/providers.tsx';
import { HookCreateForm } from '../hooks/hook-create-form.tsx';
import { HookDeleteDialog } from '../hooks/hook-delete-dialog.tsx';
import { HookList } from '../hooks/hook-list.tsx';
import type { HookActions, HookItem } from '../hooks/hook-model.ts';
import { HookReactivateDialog } from '../hooks/hook-reactivate-dialog.tsx';
import { PlatformPanel } from '../hooks/platform-panel.tsx';
import { useHookActions } from '../hooks/use-hook-actions.ts';
import { useHooks } from '../hooks/use-hooks.ts';
import { ConnectorNotificationsDocument } from '../notifications/documents.ts';
import { NotificationsDialog } from '../notifications/notifications-dialog.tsx';
import { PaperAccountLink } from '../paper/paper-account-link.tsx';
import { AccountSection } from './account-section.tsx';
import { BrandLogo } from './brand-logo.tsx';
import { capabilitiesLine } from './capabilities.ts';
import { type ConnectorAccount, type ConnectorItem, connectorState, parseAccounts } from './connector-model.ts';
import { ConnectorStateAlert, ConnectorStateBadge } from './connector-status.tsx';
import { useRenameAccount } from './use-rename-account.ts';

/** One connected broker: state, notice, accounts with their webhooks, and its dialogs. */
export function ConnectorCard({
  connector,
  onReconnect,
  onDelete,
  onChanged,
  hooksVersion,
}: {
  connector: ConnectorItem;
  onReconnect: (providerName: string) => void;
  onDelete: (connector: ConnectorItem) => void;
  onChanged: () => void;
  /** Changes when every webhook changed at once (the kill switch): the webhooks are asked again. */
  hooksVersion?: number;
}) {
  const { providers, title } = useProviders();
  const provider = providers.get(connector.providerName);
  const accounts = parseAccounts(connector.accounts);
  const state = connectorState(connector);
  const { hooks, error, reload } = useHooks(connector.key);
  const seenVersion = useRef(hooksVersion);
  useEffect(() => {
    if (seenVersion.current === hooksVersion) return;
    seenVersion.current = hooksVersion;
    reload();
  }, [hooksVersion, reload]);
  const actions = useHookActions(connector.key, reload);
  const renameAccount = useRenameAccount(connector.key, onChanged);
  const [creatingFor, setCreatingFor] = useState<ConnectorAccount | null>(null);
  const [notifying, setNotifying] = useState<ConnectorAccount | null>(null);
  const [deleting, setDeleting] = useState<HookItem | null>(null);
  const [busy, setBusy] = useState(false);
  const [connecting, setConnecting] = useState<HookItem | null>(null);
  const [reactivating, setReactivating] = useState<HookItem | null>(null);
  const [reactivateError, setReactivateError] = useState<string | null>(null);
  const hookActions: HookActions = {
    onRename: actions.rename,
    onDelete: setDeleting,
    onConnect: setConnecting,
    onReactivate: (hook) => {
      setReactivateError(null);
      setReactivating(hook);
    },
    onChanged: reload,
  };
  const known = new Set(accounts.map((account) => account.id));
  const orphans = hooks?.filter((hook) => !known.has(hook.accountId)) ?? [];
  // Notification settings of accounts no longer connected stay as their webhooks do (they tell of
  // this connection, credits and the hooks' refusals, and come back with the account): listed
  // apart, so they can be seen and deleted.
  const [settings, refetchSettings] = useQuery({
    query: ConnectorNotificationsDocument,
    variables: { connectorKey: connector.key },
    requestPolicy: 'cache-and-network',
  });
  const goneNotified = [
    ...new Set(settings.data?.notifications.map((n) => n.accountId).filter((id) => !known.has(id))),
  ].sort();
  const closeNotifications = () => {
    setNotifying(null);
    refetchSettings({ requestPolicy: 'network-only' });
  };
  const reconnect = () => onReconnect(connector.providerName);

  async function confirmDelete() {
    if (!deleting) return;
    setBusy(true);
    await actions.remove(deleting);
    setBusy(false);
    setDeleting(null);
  }

  async function confirmReactivate() {
    if (!reactivating) return;
    setBusy(true);
    const failure = await actions.activate(reactivating);
    setBusy(false);
    setReactivateError(failure);
    if (!failure) setReactivating(null);
  }

  const hooksOf = (accountId: string) =>
    hooks ? (
      <HookList hooks={hooks.filter((hook) => hook.accountId === accountId)} actions={hookActions} />
    ) : error ? (
      <p className="small text-danger mb-0" role="alert">
        Cannot load the webhooks: {errorMessage(error)}{' '}
        <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={reload}>
          Try again
        </button>
      </p>
    ) : (
      <DelayedSpinner />
    );

  return (
    <article className="card shadow-sm" aria-label={title(connector.providerName)}>
      <div className="card-body">
        <header className="d-flex flex-wrap align-items-center gap-2 mb-2">
          <BrandLogo name={connector.providerName} title={title(connector.providerName)} />
          <h3 className="h5 mb-0">{title(connector.providerName)}</h3>
          <ConnectorStateBadge state={state} />
          {connector.isDemo && <span className="badge text-bg-warning">demo</span>}
          {provider?.status === 'beta' && <span className="badge text-bg-info">beta</span>}
          <div className="ms-auto d-flex gap-2">
            {/* Signing in again at an OAuth broker renews its authorization at any time. */}
            {state === 'active' && provider?.authentication.type === 'open' && (
              <button type="button" className="btn btn-sm btn-outline-secondary" onClick={reconnect}>
                Reconnect
              </button>
            )}
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => onDelete(connector)}>
              Delete broker
            </button>
          </div>
        </header>
        {provider && <p className="small text-secondary mb-2">Supports: {capabilitiesLine(provider)}</p>}
        <ConnectorStateAlert connector={connector} state={state} onReconnect={reconnect} />
        {provider?.notice && (
          <div className="alert alert-warning py-2 small" role="note">
            {provider.notice}
          </div>
        )}
        {accounts.length === 0 && <p className="text-secondary mb-0">This connection reported no accounts.</p>}
        {accounts.map((account) => (
          <AccountSection
            key={account.id}
            account={account}
            onRename={renameAccount}
            onNotifications={setNotifying}
            onNewHook={setCreatingFor}
            creatingHook={creatingFor?.id === account.id}
            actions={
              connector.providerName === 'paper' && <PaperAccountLink connectorKey={connector.key} account={account} />
            }
          >
            {creatingFor?.id === account.id && (
              <div className="mb-3">
                <HookCreateForm
                  accounts={accounts}
                  initialAccountId={account.id}
                  onCancel={() => setCreatingFor(null)}
                  onCreate={async (values) => {
                    const failure = await actions.create(values);
                    if (!failure) setCreatingFor(null);
                    return failure;
                  }}
                />
              </div>
            )}
            {hooksOf(account.id)}
          </AccountSection>
        ))}
        {orphans.length > 0 && (
          <section className="border-top pt-3 mt-3">
            <h4 className="h6">Webhooks of accounts no longer connected</h4>
            <HookList hooks={orphans} accountConnected={false} actions={hookActions} />
          </section>
        )}
        {goneNotified.length > 0 && (
          <section className="border-top pt-3 mt-3">
            <h4 className="h6">Notifications of accounts no longer connected</h4>
            <p className="small text-secondary">
              They still tell you about this connection and your credits, and work again for the account once you
              reconnect the broker with it. Delete them if it is gone for good.
            </p>
            <ul className="list-unstyled mb-0">
              {goneNotified.map((id) => (
                <li key={id} className="d-flex align-items-center gap-2 mb-1">
                  <span>Account {id}</span>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-secondary"
                    onClick={() => setNotifying(goneAccount(id))}
                    aria-label={`Notifications for ${id}`}
                  >
                    Notifications
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
      <HookDeleteDialog
        hook={deleting}
        busy={busy}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
      <HookReactivateDialog
        hook={reactivating}
        connectionOff={!connector.isActive}
        busy={busy}
        error={reactivateError}
        onConfirm={() => void confirmReactivate()}
        onClose={() => setReactivating(null)}
      />
      {connecting && provider && (
        <PlatformPanel hook={connecting} provider={provider} onClose={() => setConnecting(null)} />
      )}
      {notifying && <NotificationsDialog connector={connector} account={notifying} onClose={closeNotifications} />}
    </article>
  );
}

/** An account the connection no longer brings: only its id is left (its name went with it). */
const goneAccount = (id: string): ConnectorAccount => ({
  id,
  name: id,
  dataTitle: null,
  dataType: null,
  dataCurrency: null,
  demo: false,
});
