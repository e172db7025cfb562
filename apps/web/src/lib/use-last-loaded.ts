import { useRef } from 'react';

/**
 * `value`, or the last defined one: a reload that fails for a moment answers no data, and what
 * was shown stays (with the trader's open edits in it) until a reload succeeds.
 */
export function useLastLoaded<T>(value: T | undefined): T | undefined {
  const last = useRef(value);
  if (value !== undefined) last.current = value;
  return value ?? last.current;
}
