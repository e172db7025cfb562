import { LEDGER_PAGE_SIZE } from '@router/shared';
import { useCallback } from 'react';
import { useClient } from 'urql';
import type { AccountLedgerQuery } from '../../gql/graphql.ts';
import { type TimePagesState, useTimePages } from '../../lib/use-time-pages.ts';
import { AccountLedgerDocument } from './documents.ts';

export type LedgerEntryRow = AccountLedgerQuery['accountLedger'][number];

export type LedgerState = Omit<TimePagesState<LedgerEntryRow>, 'rows'> & { entries: LedgerEntryRow[] };

/** The credit ledger, newest first, a page at a time ('More' asks from the last entry shown). */
export function useLedger(): LedgerState & { more: () => void } {
  const client = useClient();
  const fetchPage = useCallback(
    async (createdAtFrom?: number) => {
      const variables = createdAtFrom === undefined ? {} : { createdAtFrom };
      const result = await client
        .query(AccountLedgerDocument, variables, { requestPolicy: 'network-only' })
        .toPromise();
      if (!result.data) console.warn('Credit history: load failed', result.error?.message);
      return result.data?.accountLedger ?? null;
    },
    [client],
  );
  const { rows, ...pages } = useTimePages(fetchPage, LEDGER_PAGE_SIZE);
  return { ...pages, entries: rows };
}
