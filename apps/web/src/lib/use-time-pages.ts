import { useCallback, useEffect, useRef, useState } from 'react';

export interface TimePagesState<Row> {
  rows: Row[];
  loading: boolean;
  /** The first page settled (loaded or failed). */
  loaded: boolean;
  /** The last request failed. */
  failed: boolean;
  /** 'More' shows when the last page was full. */
  hasMore: boolean;
}

/**
 * A list paged by time as SPEC §7 `actions` is: newest first, and 'More' asks for the rows older
 * than the last one shown (`createdAtFrom`). `fetchPage` answers null when the request failed.
 */
export function useTimePages<Row extends { createdAt: number }>(
  fetchPage: (createdAtFrom?: number) => Promise<Row[] | null>,
  pageSize: number,
): TimePagesState<Row> & { more: () => void } {
  const [state, setState] = useState<TimePagesState<Row>>({
    rows: [],
    loading: true,
    loaded: false,
    failed: false,
    hasMore: false,
  });
  const busy = useRef(false);
  const mounted = useRef(true);

  const load = useCallback(
    async (createdAtFrom?: number) => {
      if (busy.current) return;
      busy.current = true;
      setState((s) => ({ ...s, loading: true }));
      const page = await fetchPage(createdAtFrom);
      busy.current = false;
      if (!mounted.current) return;
      setState((s) => ({
        rows: page ? (createdAtFrom === undefined ? page : [...s.rows, ...page]) : s.rows,
        loading: false,
        loaded: true,
        failed: !page,
        hasMore: page ? page.length >= pageSize : s.hasMore,
      }));
    },
    [fetchPage, pageSize],
  );

  useEffect(() => {
    mounted.current = true;
    void load();
    return () => {
      mounted.current = false;
    };
  }, [load]);

  const last = state.rows.at(-1);
  const more = useCallback(() => {
    if (last && !state.loading) void load(last.createdAt);
  }, [last, state.loading, load]);
  return { ...state, more };
}
