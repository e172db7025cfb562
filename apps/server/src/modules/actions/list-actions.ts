// The activity log as the API shows it: own actions only, worded (SPEC §4) and source-labelled (SPEC §9).

import { parseSymbol, writtenSymbol } from '@router/orders';
import {
  ACTIVITY_PAGE_MAX,
  ACTIVITY_PAGE_SIZE,
  ACTIVITY_SEARCH_MAX_LENGTH,
  ACTIVITY_SEARCH_MIN_LENGTH,
  ACTIVITY_SEARCH_TOO_SHORT,
  addressLabel,
  describeAction,
  HIDDEN_SHORT_KEY,
  isObject,
  type ProviderTitles,
} from '@router/shared';
import {
  type ActionFilter,
  type ActionRow,
  findAction,
  listActions as queryActions,
  type TradeResult,
} from '../../db/repositories/action-query.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { MAX_TIME_MS, parsePage } from '../paging.ts';
import { TRADE_RESULTS, type TradeLine, tradeLine } from './trade-line.ts';

export interface ActionView {
  id: number;
  code: string;
  address: string | null;
  addressLabel: string | null;
  /** JSON text (SPEC §3). */
  metadata: string;
  createdAt: number;
  description: string;
  /** An Order entry as a trade line; null for other actions. */
  trade: TradeLine | null;
}

export interface ActionsQuery {
  code?: string | null;
  createdAtFrom?: number | null;
  search?: string | null;
  signalId?: string | null;
  limit?: number | null;
  since?: number | null;
  result?: string | null;
  hookKey?: string | null;
  providerName?: string | null;
  symbol?: string | null;
}

/** Each provider's title by name: entries name a provider as every other screen does. */
function providerTitles(services: Services): ProviderTitles {
  return Object.fromEntries(services.brokers.providers().map((p) => [p.name, p.title]));
}

/** The metadata with a webhook's shortKey hidden: top-level, in `hook`, or `hook` itself as text. */
function hideShortKeysIn(metadata: ActionRow['metadata']): ActionRow['metadata'] {
  if (!isObject(metadata)) return metadata;
  const hidden: Record<string, unknown> = { ...metadata };
  if (typeof hidden.shortKey === 'string') hidden.shortKey = HIDDEN_SHORT_KEY;
  if (typeof hidden.hook === 'string') hidden.hook = HIDDEN_SHORT_KEY;
  else if (isObject(hidden.hook) && typeof hidden.hook.shortKey === 'string') {
    hidden.hook = { ...hidden.hook, shortKey: HIDDEN_SHORT_KEY };
  }
  return hidden;
}

function toView(found: ActionRow, titles: ProviderTitles, hideShortKeys: boolean): ActionView {
  const row = hideShortKeys ? { ...found, metadata: hideShortKeysIn(found.metadata) } : found;
  return {
    id: row.id,
    code: row.code,
    address: row.address,
    addressLabel: addressLabel(row.address),
    metadata: JSON.stringify(row.metadata ?? {}),
    createdAt: row.createdAt,
    description: describeAction(row.code, row.metadata, titles),
    trade: tradeLine(row),
  };
}

function searchTerm(search: string | null | undefined): string | undefined {
  const term = search?.trim() ?? '';
  if (term === '') return undefined;
  if (term.length < ACTIVITY_SEARCH_MIN_LENGTH)
    throw new AppError('VALIDATION', ACTIVITY_SEARCH_TOO_SHORT, { field: 'search' });
  if (term.length > ACTIVITY_SEARCH_MAX_LENGTH) {
    throw new AppError('VALIDATION', `Search is limited to ${ACTIVITY_SEARCH_MAX_LENGTH} characters`, {
      field: 'search',
    });
  }
  return term;
}

const isTradeResult = (value: string): value is TradeResult => (TRADE_RESULTS as readonly string[]).includes(value);

/** The trade filters (issue #21): result, webhook, broker, symbol, and a start time. */
function tradeFilter(query: ActionsQuery): Partial<ActionFilter> {
  const filter: Partial<ActionFilter> = {};
  if (query.since !== null && query.since !== undefined) {
    // As paging's createdAtFrom: a time before 1970 or past what a date holds is bad input (the
    // database's to_timestamp would fail on it with an internal error).
    if (!Number.isFinite(query.since) || query.since < 0 || query.since > MAX_TIME_MS) {
      throw new AppError('VALIDATION', 'Invalid since', { field: 'since' });
    }
    filter.since = query.since;
  }
  if (query.result) {
    if (!isTradeResult(query.result)) {
      throw new AppError('VALIDATION', `Result must be one of ${TRADE_RESULTS.join(', ')}`, { field: 'result' });
    }
    filter.result = query.result;
  }
  if (query.hookKey) filter.hookKey = query.hookKey;
  if (query.providerName) filter.providerName = query.providerName;
  const symbol = query.symbol?.trim();
  if (symbol) filter.symbols = symbolSpellings(symbol);
  return filter;
}

/**
 * The spellings of a symbol filter an entry's symbol may have: as written (upper-cased, without an
 * exchange prefix: NASDAQ:AAPL is AAPL) and in the canonical form a stored signal's normalized
 * order holds (an option's 21-character OCC form with its padding spaces, which a page shows as
 * one, or its shorthand AAPL240119C150; EURUSD as EUR/USD).
 */
export function symbolSpellings(symbol: string): string[] {
  const spellings = new Set([writtenSymbol(symbol)]);
  try {
    spellings.add(parseSymbol(symbol).canonical.toUpperCase());
  } catch {
    // not a symbol the order language reads: only as written
  }
  return [...spellings];
}

/**
 * Newest first, `limit` (default 20, at most 100) per page. `createdAtFrom` is the createdAt of the
 * last shown action: the page holds strictly older ones. A page never ends inside a millisecond,
 * so it may hold a few more than `limit` rows when several share the last one's millisecond.
 */
/**
 * `hideShortKeys` (admin proxy mode): the webhooks' shortKeys hidden, as the Hook type hides them
 * (the URL places orders with no sign-in and no audit entry), also from the search.
 */
export async function listActions(
  services: Services,
  userId: number,
  query: ActionsQuery,
  hideShortKeys = false,
): Promise<ActionView[]> {
  const filter: ActionFilter = {
    userId,
    withoutShortKeys: hideShortKeys,
    ...parsePage(query, ACTIVITY_PAGE_SIZE, ACTIVITY_PAGE_MAX),
    ...tradeFilter(query),
  };
  if (query.code) filter.code = query.code;
  if (query.signalId) filter.signalId = query.signalId;
  const titles = providerTitles(services);
  const search = searchTerm(query.search);
  if (search !== undefined) Object.assign(filter, { search, titles });
  const rows = await queryActions(services.db, filter);
  return rows.map((row) => toView(row, titles, hideShortKeys));
}

export async function getAction(
  services: Services,
  userId: number,
  id: number,
  hideShortKeys = false,
): Promise<ActionView> {
  const row = await findAction(services.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND', 'Action not found');
  return toView(row, providerTitles(services), hideShortKeys);
}
