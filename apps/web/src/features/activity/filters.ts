import type { ActivityActionsQueryVariables } from '../../gql/graphql.ts';

/** The trade filters of the activity panel (issue #21); '' = any. */
export interface ActivityFilters {
  result: string;
  hookKey: string;
  providerName: string;
  symbol: string;
  /** A local date, yyyy-mm-dd: that day, or the first of a range with `dateTo`. */
  date: string;
  /** A local date, yyyy-mm-dd: the last day of the range (everything through it without `date`). */
  dateTo: string;
}

export const NO_FILTERS: ActivityFilters = {
  result: '',
  hookKey: '',
  providerName: '',
  symbol: '',
  date: '',
  dateTo: '',
};

/** Results a trade line can have, in the order the filter lists them. */
export const RESULTS = ['placed', 'filled', 'rejected', 'refused', 'queued', 'unknown', 'draft'] as const;

/**
 * How a result reads, in the list, the Result filter and the detail alike. A test webhook's signal
 * is checked and stored but never sent ('draft' in the API): it reads "test · not sent", so it is
 * never taken for an order that went to the broker.
 */
export const resultLabel = (result: string): string => (result === 'draft' ? 'test · not sent' : result);

export const isFiltered = (filters: ActivityFilters): boolean =>
  Object.values(filters).some((value) => value.trim() !== '');

/**
 * The query parameters of /me holding the search and the filters, so a reload, Back and Forward
 * and a shared link show the same list (`hook` is also the link of a webhook's last calls).
 */
const PARAM: Record<keyof ActivityFilters, string> = {
  result: 'result',
  hookKey: 'hook',
  providerName: 'broker',
  symbol: 'symbol',
  date: 'date',
  dateTo: 'to',
};
const SEARCH_PARAM = 'search';

/** The search text and filters of an address; a result or date the filters cannot hold is left out. */
export function fromParams(params: URLSearchParams): { text: string; filters: ActivityFilters } {
  const get = (field: keyof ActivityFilters) => params.get(PARAM[field]) ?? '';
  const result = get('result');
  const date = get('date');
  const dateTo = get('dateTo');
  return {
    text: params.get(SEARCH_PARAM) ?? '',
    filters: {
      result: (RESULTS as readonly string[]).includes(result) ? result : '',
      hookKey: get('hookKey'),
      providerName: get('providerName'),
      symbol: get('symbol'),
      date: dayRange(date) ? date : '',
      dateTo: dayRange(dateTo) ? dateTo : '',
    },
  };
}

/** `params` with the search text and filters given (empty ones removed); other parameters kept. */
export function withParams(
  params: URLSearchParams,
  query: { text: string; filters: ActivityFilters },
): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (name: string, value: string) => (value === '' ? next.delete(name) : next.set(name, value));
  put(SEARCH_PARAM, query.text);
  for (const field of Object.keys(PARAM) as (keyof ActivityFilters)[]) put(PARAM[field], query.filters[field]);
  return next;
}

/** Local midnight of a day; a year below 100 as written (`new Date(50, …)` would read 1950). */
function localMidnight(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setFullYear(year, month, day);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

/** The local day of a yyyy-mm-dd date, as [start, next day's start) in milliseconds. */
export function dayRange(date: string): [number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  return [localMidnight(year, month, day), localMidnight(year, month, day + 1)];
}

/** The query variables a search and the filters ask for; paging narrows `createdAtFrom` further. */
export function queryVariables(search: string, filters: ActivityFilters): ActivityActionsQueryVariables {
  const variables: ActivityActionsQueryVariables = {};
  if (search) variables.search = search;
  if (filters.result) variables.result = filters.result;
  if (filters.hookKey) variables.hookKey = filters.hookKey;
  if (filters.providerName) variables.providerName = filters.providerName;
  const symbol = filters.symbol.trim();
  if (symbol) variables.symbol = symbol;
  const first = dayRange(filters.date);
  const last = dayRange(filters.dateTo);
  // The server refuses times before 1970 (nothing is older): a day before then asks for none.
  // Date alone is that day; To alone, everything through it; both, every day between (either order).
  if (first) variables.since = Math.max(0, last ? Math.min(first[0], last[0]) : first[0]);
  const end = first && last ? Math.max(first[1], last[1]) : (last ?? first)?.[1];
  if (end !== undefined) variables.createdAtFrom = Math.max(0, end);
  return variables;
}
