import { useState } from 'react';
import { useFocusBack } from '../../components/use-focus-back.ts';
import type { UserTokensQuery } from '../../gql/graphql.ts';
import { formatDateTime } from '../../lib/format.ts';
import { tokenName } from './token-name.ts';
import { TokenNameForm } from './token-name-form.tsx';

export type TokenItem = UserTokensQuery['userTokens'][number];

/** One API token: name (renamable), last characters of its secret, creation time, delete. */
export function TokenRow({
  token,
  onRename,
  onDelete,
}: {
  token: TokenItem;
  onRename: (token: TokenItem, name: string) => Promise<string | null>;
  onDelete: (token: TokenItem) => void;
}) {
  const [editing, setEditing] = useState(false);
  const renameButton = useFocusBack<HTMLButtonElement>(editing);
  const name = tokenName(token.metadata);
  const created = new Date(token.createdAt);
  return (
    <tr>
      <td>
        {editing ? (
          <TokenNameForm
            initial={name}
            label="New name"
            submitLabel="Save"
            onCancel={() => setEditing(false)}
            onSave={async (next) => {
              const failure = await onRename(token, next);
              if (!failure) setEditing(false);
              return failure;
            }}
          />
        ) : (
          name
        )}
      </td>
      <td className="font-monospace text-nowrap">…{token.suffix}</td>
      <td className="text-nowrap d-none d-sm-table-cell">
        <time dateTime={created.toISOString()}>{formatDateTime(created)}</time>
      </td>
      <td className="text-end text-nowrap">
        {!editing && (
          <button
            ref={renameButton}
            type="button"
            className="btn btn-sm btn-link"
            onClick={() => setEditing(true)}
            aria-label={`Rename ${name}`}
          >
            Rename
          </button>
        )}
        <button
          type="button"
          className="btn btn-sm btn-link link-danger"
          onClick={() => onDelete(token)}
          aria-label={`Delete ${name}`}
        >
          Delete
        </button>
      </td>
    </tr>
  );
}
