import { useId } from 'react';
import { type Control, type UseFormRegisterReturn, useWatch } from 'react-hook-form';
import { useQuery } from 'urql';
import { TextField } from '../../components/text-field.tsx';
import { BRANCH_SEARCH_DEBOUNCE_MS, BRANCH_SEARCH_MIN_LENGTH } from './constants.ts';
import { ProviderBranchesDocument } from './documents.ts';
import { useDebouncedValue } from './use-debounced-value.ts';

/**
 * The connect form's field naming the broker server the account is on (SPEC §3
 * Connector.branch), for a provider whose descriptor says so (`authentication.branchSearch`):
 * server names matching what is typed are offered as the input's list. A name not offered is
 * taken as typed (brokers add servers); a failed search only offers nothing.
 */
export function BranchField({
  name,
  label,
  control,
  registration,
  error,
  autoFocus,
}: {
  name: string;
  label: string;
  control: Control<Record<string, string>>;
  registration: UseFormRegisterReturn;
  error: string | undefined;
  autoFocus: boolean;
}) {
  const listId = useId();
  const typed = useWatch({ control, name }) ?? '';
  const search = useDebouncedValue(typed.trim(), BRANCH_SEARCH_DEBOUNCE_MS);
  const [{ data }] = useQuery({
    query: ProviderBranchesDocument,
    variables: { search },
    pause: search.length < BRANCH_SEARCH_MIN_LENGTH,
  });
  const servers = search.length < BRANCH_SEARCH_MIN_LENGTH ? [] : (data?.providerMetatraderBranches ?? []);
  return (
    <>
      <TextField
        label={label}
        registration={registration}
        error={error}
        list={listId}
        autoComplete="off"
        spellCheck={false}
        autoFocus={autoFocus}
        hint="The server as your trading platform shows it; type a few letters of it or of your broker for suggestions."
      />
      <datalist id={listId}>
        {servers.map((server) => (
          <option
            key={`${server.platform ?? ''}:${server.name}`}
            value={server.name}
            label={[server.broker, server.platform?.toUpperCase()].filter(Boolean).join(' · ')}
          />
        ))}
      </datalist>
    </>
  );
}
