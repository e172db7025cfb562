import { useEffect, useMemo, useState } from 'react';
import { useClient, useQuery } from 'urql';
import { ActivityConnectorsDocument, ActivityHooksDocument } from './documents.ts';

export interface OwnWebhooks {
  /** key → name. */
  hooks: ReadonlyMap<string, string>;
  /** Provider names. */
  providers: ReadonlySet<string>;
}

const NONE: ReadonlyMap<string, string> = new Map();

/**
 * The trader's webhooks and brokers, for the trade filters: a webhook whose calls are older than
 * the entries loaded is offered too, by its name. Asked afresh (a webhook made a moment ago); none
 * while loading or when a load fails (the filters still offer what the entries show).
 */
export function useOwnWebhooks(): OwnWebhooks {
  const client = useClient();
  const [{ data }] = useQuery({ query: ActivityConnectorsDocument, requestPolicy: 'network-only' });
  const connectors = data?.connectors;
  const [hooks, setHooks] = useState(NONE);
  useEffect(() => {
    if (!connectors || connectors.length === 0) return;
    let current = true;
    const lists = connectors.map((connector) =>
      client
        .query(ActivityHooksDocument, { connectorKey: connector.key }, { requestPolicy: 'network-only' })
        .toPromise(),
    );
    void Promise.all(lists).then((results) => {
      if (!current) return;
      const next = new Map<string, string>();
      for (const result of results) for (const hook of result.data?.hooks ?? []) next.set(hook.key, hook.name);
      setHooks(next);
    });
    return () => {
      current = false;
    };
  }, [client, connectors]);
  const providers = useMemo(() => new Set(connectors?.map((connector) => connector.providerName)), [connectors]);
  return { hooks, providers };
}
