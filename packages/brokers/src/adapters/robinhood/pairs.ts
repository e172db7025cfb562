// A signal's symbol → the Robinhood pair it trades, with the pair's increments and limits
// (GET .../trading/trading_pairs/?symbol=BTC-USD, WIRE.md §3), cached for an hour per version.
// BTC-USD, BTC/USD, BTCUSD and BTC all name BTC-USD; a ticker with no pair (AAPL) is refused with
// the reason: Robinhood's public API trades crypto only.
import { parseSymbol } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { AccountRef } from './accounts.ts';
import type { RobinhoodApi, RobinhoodKeys } from './api.ts';
import { ROBINHOOD_TITLE } from './descriptor.ts';

export interface TradingPair {
  symbol: string;
  assetCode: string;
  assetIncrement: string;
  quoteIncrement: string;
  minOrderSize?: number;
  maxOrderSize?: number;
  /** tradable, untradable or sellonly */
  status: string;
}

const CACHE_MS = 60 * 60_000;
const invalid = (message: string) => new BrokerError('InvalidOrder', ROBINHOOD_TITLE, message);

/** The Robinhood symbol of a signal's symbol: BASE-USD. */
export function pairSymbol(symbol: string): string {
  const { parts } = parseSymbol(symbol);
  if (parts.kind === 'pair') {
    if (parts.quote !== 'USD')
      throw invalid(`only pairs against USD trade (${parts.base}-USD), not ${parts.base}/${parts.quote}`);
    return `${parts.base}-USD`;
  }
  if (parts.kind === 'ticker' && /^[A-Z0-9]{1,12}$/.test(parts.ticker)) return `${parts.ticker}-USD`;
  throw invalid(`${symbol} is not a crypto pair`);
}

function pairOf(body: unknown, version: AccountRef['version']): TradingPair | undefined {
  const symbol = stringField(body, 'symbol');
  const assetIncrement = stringField(body, 'asset_increment');
  const quoteIncrement = stringField(body, 'quote_increment');
  if (!symbol || !assetIncrement || !quoteIncrement) return undefined;
  // v2 names the pairs an API may order; the others are refused as untradable.
  const apiTradable = version === 'v1' || asRecord(body)?.is_api_tradable === true;
  const minOrderSize = decimalField(body, 'min_order_size');
  const maxOrderSize = decimalField(body, 'max_order_size');
  return {
    symbol,
    assetCode: stringField(body, 'asset_code') ?? symbol.split('-')[0] ?? symbol,
    assetIncrement,
    quoteIncrement,
    ...(minOrderSize !== undefined ? { minOrderSize } : {}),
    ...(maxOrderSize !== undefined ? { maxOrderSize } : {}),
    status: apiTradable ? (stringField(body, 'status') ?? 'tradable') : 'not_api_tradable',
  };
}

export interface PairCache {
  /** The pair an order on `symbol` trades; refuses what Robinhood does not list. */
  pair(ctx: BrokerContext, keys: RobinhoodKeys, ref: AccountRef, symbol: string, now: number): Promise<TradingPair>;
}

export function createPairCache(api: RobinhoodApi): PairCache {
  const cache = new Map<string, { pair: TradingPair; until: number }>();
  return {
    async pair(ctx, keys, ref, symbol, now) {
      const wanted = pairSymbol(symbol);
      const key = `${ref.version}:${wanted}`;
      const cached = cache.get(key);
      if (cached && cached.until > now) return cached.pair;
      // Trading pairs are the same for every account: no account_number.
      const { body } = await api.call(ctx, keys, {
        path: `/api/${ref.version}/crypto/trading/trading_pairs/`,
        query: { symbol: wanted },
      });
      const found = listOf(asRecord(body)?.results)
        .map((item) => pairOf(item, ref.version))
        .find((pair) => pair?.symbol === wanted);
      if (!found) {
        // A plain ticker with no pair is most likely a stock: say why it cannot be traded here.
        const ticker = parseSymbol(symbol).parts.kind === 'ticker';
        throw invalid(
          ticker
            ? `${symbol} is not a crypto asset it lists (no ${wanted}). Robinhood's public API trades crypto only; ` +
                'it has no order API for stocks and options'
            : `${wanted} is not a crypto pair it lists`,
        );
      }
      cache.set(key, { pair: found, until: now + CACHE_MS });
      return found;
    },
  };
}
