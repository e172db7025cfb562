import { useCallback } from 'react';
import { useAddressState } from '../../lib/use-address-state.ts';
import { type ActivityFilters, fromParams, withParams } from './filters.ts';

export interface ActivityQuery {
  text: string;
  filters: ActivityFilters;
}

/** The activity's search text and filters, kept in the address (`/me?hook=<key>&result=…`). */
export function useActivityQuery(): [ActivityQuery, (change: Partial<ActivityQuery>) => void] {
  const [query, change] = useAddressState<ActivityQuery>(fromParams, withParams);
  return [
    query,
    useCallback((next: Partial<ActivityQuery>) => change((current) => ({ ...current, ...next })), [change]),
  ];
}
