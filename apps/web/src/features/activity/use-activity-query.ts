import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigationType, useSearchParams } from 'react-router';
import { type ActivityFilters, fromParams, withParams } from './filters.ts';

export interface ActivityQuery {
  text: string;
  filters: ActivityFilters;
}

/**
 * The activity's search text and filters, kept in the address (`/me?hook=<key>&result=…`) so a
 * reload, Back and Forward, and a copied link show the same list. Typing is held here (a text box
 * driven by the router's transitions would lose keystrokes) and written to the address, replaced
 * rather than pushed (Back leaves the page); an address reached otherwise (Back, Forward, a link)
 * is read again.
 */
export function useActivityQuery(): [ActivityQuery, (change: Partial<ActivityQuery>) => void] {
  const [params, setParams] = useSearchParams();
  const navigationType = useNavigationType();
  const { key } = useLocation();
  const [query, setQuery] = useState(() => fromParams(params));
  const latest = useRef(query);
  const seenKey = useRef(key);
  useEffect(() => {
    if (key === seenKey.current) return;
    seenKey.current = key;
    if (navigationType === 'REPLACE') return;
    latest.current = fromParams(params);
    setQuery(latest.current);
  }, [key, navigationType, params]);
  const change = useCallback(
    (next: Partial<ActivityQuery>) => {
      latest.current = { ...latest.current, ...next };
      setQuery(latest.current);
      const whole = latest.current;
      setParams((current) => withParams(current, whole), { replace: true, preventScrollReset: true });
    },
    [setParams],
  );
  return [query, change];
}
