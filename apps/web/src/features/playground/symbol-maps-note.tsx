import type { OrderDraft } from '@router/orders';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import type { AccountChoice } from './connectors.ts';
import { PlaygroundHooksDocument } from './documents.ts';
import { mappedSymbol, symbolMapsOf } from './symbol-maps.ts';

/**
 * The playground previews the order as written, with no webhook; a webhook with a `symbolMap`
 * rewrites the symbol first. For each of the account's webhooks that maps symbols: the symbol it
 * would place for this order, and its whole map.
 */
export function SymbolMapsNote({ choice, draft }: { choice: AccountChoice | undefined; draft: OrderDraft }) {
  const [result] = useQuery({
    query: PlaygroundHooksDocument,
    variables: { connectorKey: choice?.connectorKey ?? '' },
    // Asked again on each visit: a webhook deleted on Brokers & Webhooks (hookDelete answers a
    // Boolean, which invalidates no cached Hook list) must not keep showing its map here.
    requestPolicy: 'cache-and-network',
    pause: !choice,
  });
  const maps = useMemo(
    () => (choice ? symbolMapsOf(result.data?.hooks ?? [], choice.accountId) : []),
    [result.data, choice],
  );
  if (maps.length === 0) return null;
  return (
    <section className="mt-3 small" aria-labelledby="symbol-maps-title">
      <h3 id="symbol-maps-title" className="h6">
        Symbol mapping on your webhooks
      </h3>
      <p className="text-body-secondary mb-2">
        The test above sends the symbol as written. These webhooks of this account map symbols before the order is read
        (risk control symbolMap):
      </p>
      <ul className="list-unstyled mb-0">
        {maps.map(({ hookKey, hookName, map }) => {
          const mapped = mappedSymbol(map, draft);
          return (
            <li key={hookKey} className="mb-1">
              <strong>{hookName}</strong>
              {mapped ? (
                <span>
                  {' '}
                  places <code>{String(draft.symbol).trim()}</code> as <code>{mapped}</code>
                </span>
              ) : (
                <span> leaves this order's symbol as it is</span>
              )}
              <span className="text-body-secondary"> ({map.map(([from, to]) => `${from} → ${to}`).join(', ')})</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
