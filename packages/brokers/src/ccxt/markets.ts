// An exchange's market list, loaded once and shared by every call to the same venue and endpoint
// (its API URLs: a sandbox or a fake apart) for MARKETS_TTL_MS. Each call builds its own ccxt
// instance (its credentials, its deadline: broker.ts), whose loadMarkets fetched the whole list
// again: before every order, lookup and cancel, Kraken's AssetPairs or Coinbase's product list
// was on the order's path, and against the exchange's public rate limit. Instances take the list
// by reference (ccxt's setMarketsFromExchange), from a snapshot that holds no credentials.
// A symbol the list lacks loads it again (a new listing), at most once per MARKETS_RELOAD_MS.
// A list past MARKETS_TTL_MS but within MARKETS_STALE_MS still serves the call while an instance
// of its own (no credentials, no caller's deadline) loads it again in the background: a trader
// who signals a few times a day would otherwise wait for the whole list on nearly every order.
import type { Exchange } from 'ccxt';
import { toMarketInfos } from './readers.ts';
import type { MarketInfo } from './symbols.ts';

export const MARKETS_TTL_MS = 10 * 60_000;
export const MARKETS_RELOAD_MS = 60_000;
/** Older than this, a list is loaded again on the call's path: lot and tick sizes do change. */
export const MARKETS_STALE_MS = 24 * 60 * 60_000;

/** What setMarketsFromExchange reads of its source: the market fields, no credentials. */
type MarketSnapshot = Pick<
  Exchange,
  | 'id'
  | 'markets'
  | 'markets_by_id'
  | 'symbols'
  | 'ids'
  | 'currencies'
  | 'currencies_by_id'
  | 'baseCurrencies'
  | 'quoteCurrencies'
  | 'codes'
  | 'options'
>;

interface MarketList {
  snapshot: MarketSnapshot;
  infos: MarketInfo[];
}

interface Entry {
  at: number;
  list: Promise<MarketList>;
  /** A background load of a newer list is under way. */
  refreshing?: boolean;
}

const lists = new Map<string, Entry>();

const keyOf = (exchange: Exchange): string => `${exchange.id} ${JSON.stringify(exchange.urls.api)}`;

async function fetchList(exchange: Exchange): Promise<MarketList> {
  await exchange.loadMarkets(true);
  const helperNames = (exchange.options.marketHelperProps as string[] | undefined) ?? [];
  const options: Record<string, unknown> = { marketHelperProps: helperNames };
  for (const name of helperNames) options[name] = exchange.options[name];
  const snapshot: MarketSnapshot = {
    id: exchange.id,
    markets: exchange.markets,
    markets_by_id: exchange.markets_by_id,
    symbols: exchange.symbols,
    ids: exchange.ids,
    currencies: exchange.currencies,
    currencies_by_id: exchange.currencies_by_id,
    baseCurrencies: exchange.baseCurrencies,
    quoteCurrencies: exchange.quoteCurrencies,
    codes: exchange.codes,
    options,
  };
  return { snapshot, infos: toMarketInfos(exchange.markets) };
}

export interface MarketsOptions {
  /** Load again when the list is older than this (a symbol it lacks: MARKETS_RELOAD_MS). */
  maxAge?: number;
  /**
   * An instance of the same venue and endpoint to load an aged list with, in the background,
   * while this call uses it. Without it an aged list is loaded on the call's path.
   */
  refresher?: () => Promise<Exchange>;
}

function use(exchange: Exchange, list: MarketList): MarketInfo[] {
  exchange.setMarketsFromExchange(list.snapshot as Exchange);
  return list.infos;
}

/** Loads the list again on an instance of its own; a failure keeps the aged list for the next call. */
function refresh(key: string, entry: Entry, refresher: () => Promise<Exchange>): void {
  entry.refreshing = true;
  const at = Date.now();
  refresher()
    .then(fetchList)
    .then(
      (list) => {
        if (lists.get(key) === entry) lists.set(key, { at, list: Promise.resolve(list) });
      },
      () => {
        entry.refreshing = false;
      },
    );
}

/**
 * Gives `exchange` its venue's markets: the shared list when one was loaded within `maxAge`
 * (or within MARKETS_STALE_MS, refreshed meanwhile, given a `refresher`), else its own load,
 * shared from then on. Answers them as MarketInfos. A shared load that failed (its caller's
 * deadline) is not reused: this call loads its own.
 */
export async function sharedMarkets(exchange: Exchange, options: MarketsOptions = {}): Promise<MarketInfo[]> {
  const { maxAge = MARKETS_TTL_MS, refresher } = options;
  const key = keyOf(exchange);
  const now = Date.now();
  const entry = lists.get(key);
  const age = entry ? now - entry.at : Number.POSITIVE_INFINITY;
  if (entry && (age < maxAge || (refresher && age < MARKETS_STALE_MS))) {
    const list = await entry.list.catch(() => undefined);
    if (list) {
      if (age >= maxAge && refresher && !entry.refreshing) refresh(key, entry, refresher);
      return use(exchange, list);
    }
  }
  const fresh: Entry = { at: now, list: fetchList(exchange) };
  lists.set(key, fresh);
  fresh.list.catch(() => {
    if (lists.get(key) === fresh) lists.delete(key);
  });
  return (await fresh.list).infos;
}
