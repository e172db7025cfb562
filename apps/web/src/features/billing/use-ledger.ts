import { LEDGER_PAGE_SIZE } from '@router/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useClient } from 'urql';
import type { AccountLedgerQuery } from '../../gql/graphql.ts';
import { AccountLedgerDocument } from './documents.ts';

export type LedgerEntryRow = AccountLedgerQuery['accountLedger'][number];

export interface LedgerState {
  entries: LedgerEntryRow[];
  loading: boolean;
  /** The first page settled (loaded or failed). */
  loaded: boolean;
  /** The last request failed. */
  failed: boolean;
  /** 'More' shows when the last page was full. */
  hasMore: boolean;
}

const INITIAL: LedgerState = { entries: [], loading: true, loaded: false, failed: false, hasMore: false };

/** The credit ledger, newest first, a page at a time ('More' asks from the last entry shown). */
export function useLedger(): LedgerState & { more: () => void } {
  const client = useClient();
  const [state, setState] = useState<LedgerState>(INITIAL);
  const busy = useRef(false);
  const mounted = useRef(true);

  const load = useCallback(
    async (createdAtFrom?: number) => {
      if (busy.current) return;
      busy.current = true;
      setState((s) => ({ ...s, loading: true }));
      const variables = createdAtFrom === undefined ? {} : { createdAtFrom };
      const result = await client
        .query(AccountLedgerDocument, variables, { requestPolicy: 'network-only' })
        .toPromise();
      busy.current = false;
      if (!mounted.current) return;
      const page = result.data?.accountLedger;
      if (!page) console.warn('Credit history: load failed', result.error?.message);
      setState((s) => ({
        entries: page ? [...s.entries, ...page] : s.entries,
        loading: false,
        loaded: true,
        failed: !page,
        hasMore: page ? page.length >= LEDGER_PAGE_SIZE : s.hasMore,
      }));
    },
    [client],
  );

  useEffect(() => {
    mounted.current = true;
    void load();
    return () => {
      mounted.current = false;
    };
  }, [load]);

  const last = state.entries.at(-1);
  const more = useCallback(() => {
    if (last && !state.loading) void load(last.createdAt);
  }, [last, state.loading, load]);
  return { ...state, more };
}
