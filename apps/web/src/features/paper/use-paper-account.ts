import { useCallback, useState } from 'react';
import { useQuery } from 'urql';
import type { PaperAccountFieldsFragment } from '../../gql/graphql.ts';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useLiveReload } from '../live/live-provider.tsx';
import { PaperAccountDocument, PaperAccountResetDocument } from './documents.ts';

/** A paper account, refreshed on new activity or on demand, and its reset (the answer replaces what is shown). */
export function usePaperAccount(connectorKey: string, accountId: string) {
  const variables = { connectorKey, accountId };
  const [{ data, error, fetching }, refetch] = useQuery({
    query: PaperAccountDocument,
    variables,
    requestPolicy: 'cache-and-network',
  });
  const call = useCall();
  const [afterReset, setAfterReset] = useState<PaperAccountFieldsFragment | null>(null);
  const reload = useCallback(() => {
    setAfterReset(null);
    refetch({ requestPolicy: 'network-only' });
  }, [refetch]);
  // Live: a signal to one of the account's webhooks fills or places an order (a new activity entry).
  useLiveReload(reload);
  /** Resets; resolves to an error message, or null when done. */
  const reset = useCallback(async (): Promise<string | null> => {
    try {
      const answer = await call.mutate(PaperAccountResetDocument, { connectorKey, accountId });
      setAfterReset(answer.paperAccountReset);
      return null;
    } catch (failure) {
      return errorMessage(failure, 'The account could not be reset. Please try again.');
    }
  }, [call, connectorKey, accountId]);
  const notFound = error?.graphQLErrors.some((e) => e.extensions?.code === 'NOT_FOUND') ?? false;
  return { account: afterReset ?? data?.paperAccount, error, notFound, fetching, reload, reset };
}
