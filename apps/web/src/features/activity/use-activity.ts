import { ACTIVITY_PAGE_SIZE } from '@router/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useClient } from 'urql';
import type { ActivityActionsQuery, ActivityActionsQueryVariables } from '../../gql/graphql.ts';
import { ActivityActionsDocument } from './documents.ts';
import { ACTIVITY_SEARCH_DEBOUNCE_MS, effectiveSearch } from './search-rules.ts';
import { useDebouncedValue } from './use-debounced-value.ts';

export type ActionRow = ActivityActionsQuery['actions'][number];

export interface ActivityState {
  actions: ActionRow[];
  loading: boolean;
  /** The first load settled. */
  loaded: boolean;
  /** SPEC §2: the first load returned no actions (or failed), so the panel is not shown. */
  hidden: boolean;
  /** SPEC §9: 'More' shows when the last batch had at least a page of actions. */
  hasMore: boolean;
  /** The search the shown list answers ('' = none). */
  search: string;
}

const INITIAL: ActivityState = { actions: [], loading: true, loaded: false, hidden: false, hasMore: false, search: '' };

type Update = (rows: ActionRow[] | null) => (state: ActivityState) => ActivityState;

const full = (rows: ActionRow[]) => rows.length >= ACTIVITY_PAGE_SIZE;

/**
 * The 'Last actions' log (SPEC §2, §4, §7): first load without parameters, search from 3
 * characters after 777 ms, 'More' by createdAtFrom; one request at a time (Search and More wait
 * or are ignored while one runs), aborted when the panel unmounts. Failed loads show no message.
 * With `signalId` (a notification's link) it holds that signal's entries only, shown even when
 * there are none.
 */
export function useActivity(text: string, signalId?: string) {
  const client = useClient();
  const [state, setState] = useState<ActivityState>(INITIAL);
  const pending = useRef<{ unsubscribe: () => void } | null>(null);

  const run = useCallback(
    (variables: ActivityActionsQueryVariables, update: Update): boolean => {
      if (pending.current) return false;
      setState((s) => ({ ...s, loading: true }));
      let settled = false;
      const source = client.query(ActivityActionsDocument, variables, { requestPolicy: 'network-only' });
      const subscription = source.subscribe((result) => {
        if (settled) return;
        settled = true;
        pending.current = null;
        if (!result.data) console.warn('Last actions: load failed', result.error?.message);
        setState((s) => ({ ...update(result.data?.actions ?? null)(s), loading: false }));
      });
      if (settled) subscription.unsubscribe();
      else
        pending.current = {
          unsubscribe: () => {
            settled = true;
            subscription.unsubscribe();
          },
        };
      return true;
    },
    [client],
  );

  // First load; unmounting tears the operation down, which aborts its fetch.
  useEffect(() => {
    run(signalId ? { signalId } : {}, (rows) => (s) => ({
      ...s,
      actions: rows ?? [],
      loaded: true,
      search: '',
      hidden: !signalId && (!rows || rows.length === 0),
      hasMore: !signalId && rows ? full(rows) : false,
    }));
    return () => {
      pending.current?.unsubscribe();
      pending.current = null;
    };
  }, [run, signalId]);

  // Search: applied once the text settles; waits while a request runs.
  const search = useDebouncedValue(effectiveSearch(text), ACTIVITY_SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (signalId || !state.loaded || state.loading || state.hidden || search === state.search) return;
    run(search ? { search } : {}, (rows) => (s) => ({
      ...s,
      // A failed search keeps the list (no message, SPEC §8) and is not retried in a loop.
      actions: rows ?? s.actions,
      hasMore: rows ? full(rows) : s.hasMore,
      search,
    }));
  }, [signalId, search, state.loaded, state.loading, state.hidden, state.search, run]);

  const more = useCallback(() => {
    const last = state.actions.at(-1);
    if (state.loading || !state.hasMore || !last) return;
    const variables = { createdAtFrom: last.createdAt, ...(state.search ? { search: state.search } : {}) };
    run(variables, (rows) => (s) => {
      if (!rows) return s;
      const shown = new Set(s.actions.map((action) => action.id));
      return { ...s, actions: [...s.actions, ...rows.filter((row) => !shown.has(row.id))], hasMore: full(rows) };
    });
  }, [state.actions, state.loading, state.hasMore, state.search, run]);

  return { ...state, more };
}
