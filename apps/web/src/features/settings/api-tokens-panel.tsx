import { useState } from 'react';
import { useQuery } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useConfirmedDelete } from '../../components/use-confirmed-delete.ts';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import {
  UserTokenCreateDocument,
  UserTokenDeleteDocument,
  UserTokensDocument,
  UserTokenUpdateDocument,
} from './documents.ts';
import { TokenDeleteDialog } from './token-delete-dialog.tsx';
import { renamed, tokenName } from './token-name.ts';
import { TokenNameForm } from './token-name-form.tsx';
import { type TokenItem, TokenRow } from './token-row.tsx';
import { TokenSecret } from './token-secret.tsx';

/** Settings' API tokens: list, create (secret shown once), rename, delete after confirming. */
export function ApiTokensPanel() {
  const { mutate } = useCall();
  const [{ data, error, fetching }, refetch] = useQuery({
    query: UserTokensDocument,
    requestPolicy: 'cache-and-network',
  });
  const [secret, setSecret] = useState<string | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  async function create(name: string): Promise<string | null> {
    try {
      const { userTokenCreate } = await mutate(UserTokenCreateDocument, { metadata: { name } });
      setSecret(userTokenCreate.secret);
      reload();
      return null;
    } catch (failure) {
      return errorMessage(failure);
    }
  }

  async function rename(token: TokenItem, name: string): Promise<string | null> {
    try {
      await mutate(UserTokenUpdateDocument, { key: token.key, metadata: renamed(token.metadata, name) });
      reload();
      return null;
    } catch (failure) {
      return errorMessage(failure);
    }
  }

  const deleting = useConfirmedDelete(
    (token: TokenItem) => mutate(UserTokenDeleteDocument, { key: token.key }),
    reload,
    'userTokenDelete',
  );

  const tokens = data?.userTokens;
  return (
    <>
      <p className="text-secondary">Secret tokens let your own programs call the API as you.</p>
      {secret ? (
        <TokenSecret secret={secret} onDone={() => setSecret(null)} />
      ) : (
        <div className="mb-3">
          <TokenNameForm submitLabel="Create token" onSave={create} />
        </div>
      )}
      {fetching && !tokens && <DelayedSpinner />}
      {error && !tokens && (
        <p className="text-danger" role="alert">
          Cannot load your tokens.
        </p>
      )}
      {tokens?.length === 0 && <p className="text-secondary mb-0">No tokens yet.</p>}
      {tokens && tokens.length > 0 && (
        <div className="table-responsive">
          <table className="table align-middle mb-0">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Ends with</th>
                <th scope="col" className="d-none d-sm-table-cell">
                  Created
                </th>
                <th scope="col" className="text-end">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <TokenRow key={token.key} token={token} onRename={rename} onDelete={deleting.ask} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <TokenDeleteDialog
        name={deleting.pending ? tokenName(deleting.pending.metadata) : null}
        busy={deleting.busy}
        onConfirm={deleting.confirm}
        onClose={deleting.cancel}
      />
    </>
  );
}
