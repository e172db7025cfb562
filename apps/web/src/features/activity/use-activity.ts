import { ACTIVITY_PAGE_MAX, ACTIVITY_PAGE_SIZE } from '@router/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useClient } from 'urql';
import type { ActivityActionsQuery, ActivityActionsQueryVariables } from '../../gql/graphql.ts';
import { ActivityActionsDocument } from './documents.ts';
import { type ActivityFilters, NO_FILTERS, queryVariables } from './filters.ts';
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
  /** The query (search and filters) the shown list answers, as JSON ('{}' = none). */
  query: string;
}

const NONE = '{}';
const INITIAL: ActivityState = {
  actions: [],
  loading: true,
  loaded: false,
  hidden: false,
  hasMore: false,
  query: NONE,
};

type Update = (rows: ActionRow[] | null) => (state: ActivityState) => ActivityState;

const full = (rows: ActionRow[], limit = ACTIVITY_PAGE_SIZE) => rows.length >= limit;

/**
 * The rows a live refresh asks for: as many as are shown (those 'More' added too: a signal's
 * outcome, a fill, changes an older entry's trade line without a new entry), at most a request's.
 */
const refreshLimit = (shown: number) => Math.min(ACTIVITY_PAGE_MAX, Math.max(ACTIVITY_PAGE_SIZE, shown));

/** Newest first, each action once: a refreshed first page (of `limit` rows) over what was shown. */
function merge(fresh: ActionRow[], shown: ActionRow[], limit: number): ActionRow[] {
  const ids = new Set(fresh.map((action) => action.id));
  const oldest = fresh.at(-1)?.createdAt ?? Number.POSITIVE_INFINITY;
  // A full page all newer than what was shown: entries between them may be missing, so the list
  // restarts from the page and 'More' goes on from its end.
  const newestShown = shown[0]?.createdAt;
  if (full(fresh, limit) && newestShown !== undefined && newestShown < oldest) return fresh;
  // Shown rows newer than the fresh page's oldest and not in it no longer match: dropped.
  return [...fresh, ...shown.filter((action) => !ids.has(action.id) && action.createdAt <= oldest)];
}

/**
 * The 'Last actions' log (SPEC §2, §4, §7): first load without parameters, search from 3
 * characters after 777 ms, 'More' by createdAtFrom; one request at a time (Search and More wait
 * or are ignored while one runs), aborted when the panel unmounts. Failed loads show no message.
 * The trade filters (issue #21) reload like a search; `refresh` (live updates) reloads the current
 * query's newest entries, as many as are shown (at most 100), and keeps what 'More' added beyond.
 * With `signalId` (a notification's link) it holds that signal's entries only, shown even when
 * there are none.
 */
export function useActivity(text: string, filters: ActivityFilters = NO_FILTERS, signalId?: string) {
  const client = useClient();
  const [state, setState] = useState<ActivityState>(INITIAL);
  const pending = useRef<{ unsubscribe: () => void } | null>(null);
  const refreshWanted = useRef(false);

  const run = useCallback(
    (variables: ActivityActionsQueryVariables, update: Update): boolean => {
      if (pending.current) return false;
      setState((s) => ({ ...s, loading: true }));
      let settled = false;
      const source = client.query(ActivityActionsDocument, variables, { requestPolicy: 'network-only' });
      let subscription: { unsubscribe: () => void } | undefined;
      subscription = source.subscribe((result) => {
        // An operation still shared elsewhere first replays its last (stale) result: wait for ours.
        if (settled || result.stale) return;
        settled = true;
        pending.current = null;
        // Ended once answered: a later load with the same variables is a new operation.
        if (subscription) queueMicrotask(() => subscription?.unsubscribe());
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
    const first = signalId ? { signalId } : {};
    run(first, (rows) => (s) => ({
      ...s,
      actions: rows ?? [],
      loaded: true,
      query: JSON.stringify(first),
      // A signal's entries show even when there are none; a failed load hides the panel, as a
      // failed first load does (no message, SPEC §8), rather than reading 'No actions found'.
      hidden: !rows || (!signalId && rows.length === 0),
      hasMore: rows ? full(rows) : false,
    }));
    return () => {
      pending.current?.unsubscribe();
      pending.current = null;
    };
  }, [run, signalId]);

  // Search and filters: applied once the text settles; wait while a request runs.
  const search = useDebouncedValue(effectiveSearch(text), ACTIVITY_SEARCH_DEBOUNCE_MS);
  const symbol = useDebouncedValue(filters.symbol, ACTIVITY_SEARCH_DEBOUNCE_MS);
  const query = JSON.stringify(queryVariables(search, { ...filters, symbol }));
  // Opened with a search or filters in the address (a reload, a shared link): the unfiltered first
  // load decides whether the panel shows, but its rows are not the list asked for, so the panel
  // waits for the filtered answer rather than flashing them.
  const awaitingAddress = useRef(!signalId && query !== NONE);
  if (state.query !== NONE || query === NONE) awaitingAddress.current = false;
  const loaded = state.loaded && (state.hidden || !awaitingAddress.current);
  useEffect(() => {
    if (signalId || !state.loaded || state.loading || state.hidden || query === state.query) return;
    run(JSON.parse(query) as ActivityActionsQueryVariables, (rows) => (s) => ({
      ...s,
      // A failed search keeps the list (no message, SPEC §8) and is not retried in a loop.
      actions: rows ?? s.actions,
      hasMore: rows ? full(rows) : s.hasMore,
      query,
    }));
  }, [signalId, query, state.loaded, state.loading, state.hidden, state.query, run]);

  // Live: the first page of the shown query again, once nothing else runs.
  const refresh = useCallback(() => {
    refreshWanted.current = true;
    setState((s) => ({ ...s }));
  }, []);
  useEffect(() => {
    if (!refreshWanted.current || !state.loaded || state.loading) return;
    refreshWanted.current = false;
    const shown = state.query;
    const limit = refreshLimit(state.actions.length);
    const variables = JSON.parse(shown) as ActivityActionsQueryVariables;
    // Beyond a page only: a refresh of one page asks what the first load asked (SPEC §7).
    run(limit > ACTIVITY_PAGE_SIZE ? { ...variables, limit } : variables, (rows) => (s) => {
      if (!rows || s.query !== shown) return s;
      const actions = merge(rows, s.actions, limit);
      const hasMore = actions === rows || s.actions.length === 0 ? full(rows, limit) : s.hasMore;
      return { ...s, actions, hasMore, hidden: s.hidden && rows.length === 0 };
    });
  }, [state, run]);

  const more = useCallback(() => {
    const last = state.actions.at(-1);
    if (state.loading || !state.hasMore || !last) return;
    const variables = { ...(JSON.parse(state.query) as ActivityActionsQueryVariables), createdAtFrom: last.createdAt };
    run(variables, (rows) => (s) => {
      if (!rows) return s;
      const shown = new Set(s.actions.map((action) => action.id));
      return { ...s, actions: [...s.actions, ...rows.filter((row) => !shown.has(row.id))], hasMore: full(rows) };
    });
  }, [state.actions, state.loading, state.hasMore, state.query, run]);

  return { ...state, loaded, more, refresh };
}
