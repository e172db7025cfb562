import { accountNameSchema } from '@router/shared';
import { type ReactNode, useId, useState } from 'react';
import { InlineNameForm } from '../../components/inline-name-form.tsx';
import { useFocusBack } from '../../components/use-focus-back.ts';
import { accountDetails, type ConnectorAccount } from './connector-model.ts';

/** One broker account's heading: name (renamable), details, demo badge, its actions; hooks below. */
export function AccountSection({
  account,
  onRename,
  onNotifications,
  onNewHook,
  creatingHook = false,
  actions,
  children,
}: {
  account: ConnectorAccount;
  onRename: (account: ConnectorAccount, name: string) => Promise<string | null>;
  onNotifications: (account: ConnectorAccount) => void;
  onNewHook: (account: ConnectorAccount) => void;
  /** The new-webhook form is open under it: New webhook takes the focus back when it closes. */
  creatingHook?: boolean;
  /** More of the account's actions (a paper account's own screen). */
  actions?: ReactNode;
  children: ReactNode;
}) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const renameButton = useFocusBack<HTMLButtonElement>(editing);
  const newHookButton = useFocusBack<HTMLButtonElement>(creatingHook);
  const details = accountDetails(account);
  return (
    <section className="border-top pt-3 mt-3" aria-labelledby={`${id}-name`}>
      {editing ? (
        <InlineNameForm
          initial={account.name}
          label="Account name"
          schema={accountNameSchema}
          onCancel={() => setEditing(false)}
          onSave={async (name) => {
            const failure = await onRename(account, name);
            if (!failure) setEditing(false);
            return failure;
          }}
        />
      ) : (
        <div className="d-flex flex-wrap align-items-center gap-2">
          <h4 id={`${id}-name`} className="h6 mb-0 text-break">
            {account.name}
          </h4>
          {account.demo && <span className="badge text-bg-warning">demo</span>}
          <button
            ref={renameButton}
            type="button"
            className="btn btn-sm btn-link p-0 tap-link"
            onClick={() => setEditing(true)}
            aria-label={`Rename account ${account.name}`}
          >
            Rename
          </button>
        </div>
      )}
      <div className="small text-secondary mb-2">
        <span className="font-monospace">{account.id}</span>
        {details && ` · ${details}`}
      </div>
      <div className="d-flex flex-wrap gap-2 mb-2">
        <button
          ref={newHookButton}
          type="button"
          className="btn btn-sm btn-outline-primary"
          onClick={() => onNewHook(account)}
          aria-label={`New webhook for ${account.name}`}
        >
          New webhook
        </button>
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          onClick={() => onNotifications(account)}
          aria-label={`Notifications for ${account.name}`}
        >
          Notifications
        </button>
        {actions}
      </div>
      {children}
    </section>
  );
}
