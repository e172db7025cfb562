import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigationType, useSearchParams } from 'react-router';

/**
 * A screen's choices kept in its address (query parameters), so a reload, Back and Forward and a
 * copied link show the same thing. The value is held here too (a text box driven by the router's
 * transitions would lose keystrokes) and written to the address, replaced rather than pushed (Back
 * leaves the page); an address reached otherwise (Back, Forward, a link) is read again. `read`
 * ignores what it cannot hold; `write` sets its own parameters and keeps the others.
 */
export function useAddressState<T>(
  read: (params: URLSearchParams) => T,
  write: (params: URLSearchParams, value: T) => URLSearchParams,
): [T, (change: (current: T) => T) => void] {
  const [params, setParams] = useSearchParams();
  const navigationType = useNavigationType();
  const { key } = useLocation();
  const [value, setValue] = useState(() => read(params));
  const latest = useRef(value);
  const seenKey = useRef(key);
  useEffect(() => {
    if (key === seenKey.current) return;
    seenKey.current = key;
    if (navigationType === 'REPLACE') return;
    latest.current = read(params);
    setValue(latest.current);
  }, [key, navigationType, params, read]);
  const change = useCallback(
    (update: (current: T) => T) => {
      const next = update(latest.current);
      latest.current = next;
      setValue(next);
      setParams((current) => write(current, next), { replace: true, preventScrollReset: true });
    },
    [setParams, write],
  );
  return [value, change];
}
