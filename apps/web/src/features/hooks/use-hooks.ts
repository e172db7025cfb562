import { useCallback } from 'react';
import { useQuery } from 'urql';
import { HooksDocument } from './documents.ts';

/** The hooks of one connector; `reload` asks the server again (after a change). */
export function useHooks(connectorKey: string) {
  const [{ data, error, fetching }, refetch] = useQuery({
    query: HooksDocument,
    variables: { connectorKey },
    requestPolicy: 'cache-and-network',
  });
  const reload = useCallback(() => refetch({ requestPolicy: 'network-only' }), [refetch]);
  return { hooks: data?.hooks, error, fetching, reload };
}
