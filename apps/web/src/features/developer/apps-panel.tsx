import { useState } from 'react';
import { useQuery } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { TrashIcon } from '../../components/trash-icon.tsx';
import { useConfirmedDelete } from '../../components/use-confirmed-delete.ts';
import type { UserAppsQuery } from '../../gql/graphql.ts';
import { useCall } from '../../lib/call.ts';
import { formatDateTime } from '../../lib/format.ts';
import { AppCreateDialog } from './app-create-dialog.tsx';
import { AppEditDialog } from './app-edit-dialog.tsx';
import { AppSecretDialog } from './app-secret-dialog.tsx';
import { UserAppDeleteDocument, UserAppsDocument } from './documents.ts';

type App = UserAppsQuery['userApps'][number];

/**
 * SPEC §2 Settings, Applications (professionals): an intro linking to /api/docs; rows with the
 * name, 'ID' and key, 'Created at' and delete; 'Create application' opens 'New application'.
 * Each row also shows the callback URL, with 'Edit' (name, description, callback URL) and 'New
 * secret' (a leaked client secret replaced, shown once), neither ending users' grants.
 * Deleting really deletes (the original's handler never ran, SPEC §7).
 */
export function AppsPanel() {
  const { mutate } = useCall();
  const [{ data, error, fetching }, refetch] = useQuery({
    query: UserAppsDocument,
    requestPolicy: 'cache-and-network',
  });
  const [creating, setCreating] = useState(false);
  const [rotating, setRotating] = useState<App | null>(null);
  const [editing, setEditing] = useState<App | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const deleting = useConfirmedDelete(
    (app: App) => mutate(UserAppDeleteDocument, { key: app.key }),
    reload,
    'userAppDelete',
  );

  const apps = data?.userApps;
  return (
    <>
      <p className="text-secondary">
        Register an application to let Signal Router users connect it to their accounts with OAuth 2.0: it gets a client
        ID and secret, and acts only with the permissions each user grants. See the{' '}
        <a href="/api/docs">API documentation</a>.
      </p>
      <button type="button" className="btn btn-primary mb-3" onClick={() => setCreating(true)}>
        Create application
      </button>
      {fetching && !apps && <DelayedSpinner />}
      {error && !apps && (
        <p className="text-danger" role="alert">
          Cannot load your applications.
        </p>
      )}
      {apps && apps.length > 0 && (
        <ul className="list-group">
          {apps.map((app) => (
            <li key={app.key} className="list-group-item d-flex align-items-center gap-3">
              <div className="flex-grow-1 text-break">
                <div className="fw-semibold">{app.name}</div>
                <div className="small">
                  ID <code className="user-select-all">{app.key}</code>
                </div>
                <div className="small">
                  Callback URL <code className="user-select-all">{app.redirectUrl}</code>
                </div>
                <div className="small text-secondary">
                  Created at{' '}
                  <time dateTime={new Date(app.createdAt).toISOString()}>{formatDateTime(app.createdAt)}</time>
                </div>
              </div>
              <button
                type="button"
                className="btn btn-sm btn-outline-secondary"
                aria-label={`Edit ${app.name}`}
                onClick={() => setEditing(app)}
              >
                Edit
              </button>
              <button
                type="button"
                className="btn btn-sm btn-outline-secondary text-nowrap"
                aria-label={`New secret for ${app.name}`}
                title="Replace the client secret"
                onClick={() => setRotating(app)}
              >
                New secret
              </button>
              <button
                type="button"
                className="btn btn-sm btn-outline-danger"
                aria-label={`Delete ${app.name}`}
                title="Delete application"
                onClick={() => deleting.ask(app)}
              >
                <TrashIcon />
              </button>
            </li>
          ))}
        </ul>
      )}
      <AppCreateDialog show={creating} onClose={() => setCreating(false)} onCreated={reload} />
      <AppSecretDialog app={rotating} onClose={() => setRotating(null)} />
      <AppEditDialog app={editing} onClose={() => setEditing(null)} onSaved={reload} />
      <ConfirmDialog
        show={deleting.pending !== null}
        title="Delete application"
        busy={deleting.busy}
        removesOpener
        onConfirm={deleting.confirm}
        onClose={deleting.cancel}
      >
        Delete <strong>{deleting.pending?.name}</strong>? Every user's access granted to it ends at once.
      </ConfirmDialog>
    </>
  );
}
