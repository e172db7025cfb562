import { useCallback, useState } from 'react';
import { useQuery } from 'urql';
import { useLastLoaded } from '../../lib/use-last-loaded.ts';
import { useLiveReload } from '../live/live-provider.tsx';
import { HooksDocument } from './documents.ts';

/** Midnight of the trader's own day: 'calls today' counts from there. */
export function startOfToday(now = new Date()): number {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
}

/** The hooks of one connector with their calls today; `reload` asks the server again (after a change). */
export function useHooks(connectorKey: string) {
  const [since, setSince] = useState(startOfToday);
  const [{ data, error, fetching }, refetch] = useQuery({
    query: HooksDocument,
    variables: { connectorKey, since },
    requestPolicy: 'cache-and-network',
  });
  // A page left open past midnight counts from the new day's start (a new query, asked anew).
  const reload = useCallback(() => {
    const today = startOfToday();
    if (today !== since) setSince(today);
    else refetch({ requestPolicy: 'network-only' });
  }, [refetch, since]);
  // Live: last call, calls today and deactivation change with every signal.
  useLiveReload(reload);
  // A reload that fails (a live update during a blip) keeps the list shown, with the trader's open
  // edits in its rows (risk controls being typed, a rename).
  const hooks = useLastLoaded(data?.hooks);
  return { hooks, error, fetching, reload };
}
