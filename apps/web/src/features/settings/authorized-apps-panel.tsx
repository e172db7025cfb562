import { API_SCOPES, type ApiScope } from '@router/shared';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { TrashIcon } from '../../components/trash-icon.tsx';
import { useConfirmedDelete } from '../../components/use-confirmed-delete.ts';
import type { AuthorizedAppsQuery } from '../../gql/graphql.ts';
import { useCall } from '../../lib/call.ts';
import { formatDateTime } from '../../lib/format.ts';
import { UserTokenDeleteDocument } from './documents.ts';

export type AuthorizedApp = AuthorizedAppsQuery['userTokens'][number];

export const NONAME = 'Noname';

/** What the user let the application do (the grant's API scopes, in the consent screen's words). */
function grantedScopes(app: AuthorizedApp): string[] {
  const scopes = (app.metadata as { scopes?: unknown } | null)?.scopes;
  if (!Array.isArray(scopes)) return [];
  return scopes
    .filter((scope): scope is ApiScope => typeof scope === 'string' && Object.hasOwn(API_SCOPES, scope))
    .map((scope) => API_SCOPES[scope]);
}
export const grantedText = (count: number) =>
  `You have granted ${count} application(s) access to your connected accounts`;

/**
 * SPEC §2 Settings, authorized applications: the count, then per application its name (or
 * 'Noname'), what it may do (the scopes granted, in the consent screen's words), 'Added at' and a
 * trash action revoking it by key. The app's access ends at once.
 */
export function AuthorizedAppsPanel({ apps, onChange }: { apps: readonly AuthorizedApp[]; onChange: () => void }) {
  const { mutate } = useCall();
  const nameOf = (app: AuthorizedApp) => app.userApp?.name || NONAME;
  const revoking = useConfirmedDelete(
    (app: AuthorizedApp) => mutate(UserTokenDeleteDocument, { key: app.key }),
    onChange,
    'userTokenDelete',
  );

  return (
    <>
      <p>{grantedText(apps.length)}</p>
      <ul className="list-group">
        {apps.map((app) => (
          <li key={app.key} className="list-group-item d-flex align-items-center gap-3">
            <div className="flex-grow-1">
              <div className="fw-semibold">{nameOf(app)}</div>
              {grantedScopes(app).length > 0 && (
                <ul className="small mb-1 ps-3" aria-label={`What ${nameOf(app)} may do`}>
                  {grantedScopes(app).map((text) => (
                    <li key={text}>{text}</li>
                  ))}
                </ul>
              )}
              <div className="small text-secondary">
                Added at <time dateTime={new Date(app.createdAt).toISOString()}>{formatDateTime(app.createdAt)}</time>
              </div>
            </div>
            <button
              type="button"
              className="btn btn-sm btn-outline-danger"
              aria-label={`Revoke ${nameOf(app)}`}
              title="Revoke access"
              onClick={() => revoking.ask(app)}
            >
              <TrashIcon />
            </button>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        show={revoking.pending !== null}
        title="Revoke access"
        confirmLabel="Revoke"
        busy={revoking.busy}
        removesOpener
        onConfirm={revoking.confirm}
        onClose={revoking.cancel}
      >
        Revoke the access of <strong>{revoking.pending ? nameOf(revoking.pending) : ''}</strong>? It can no longer read
        your accounts or place orders, at once.
      </ConfirmDialog>
    </>
  );
}
