// Questrade orders name instruments by symbolId (WIRE.md §4), looked up once and kept a day:
//   stocks:  GET /v1/symbols/search?prefix=AAPL → {"symbols":[{"symbol":"AAPL","symbolId":8049,…}]}
//   options: the underlying's id, then GET /v1/symbols/{id}/options → {"optionChain":[{"expiryDate":
//            "2026-12-18T00:00:00.000000-05:00","chainPerRoot":[{"root":"AAPL","chainPerStrikePrice":
//            [{"strikePrice":200,"callSymbolId":…,"putSymbolId":…}]}]}]}
import { type OrderClass, parseSymbol } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import type { HttpClient } from '../../core/http.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import { QUESTRADE_TITLE } from './descriptor.ts';

const TTL_MS = 24 * 60 * 60_000;
const MAX_ENTRIES = 5_000;
const cache = new Map<string, { id: number; until: number }>();

const invalid = (message: string) => new BrokerError('InvalidOrder', QUESTRADE_TITLE, message);

async function stockId(http: HttpClient, ticker: string): Promise<number> {
  const { body } = await http.request({ path: '/v1/symbols/search', query: { prefix: ticker } });
  const found = listOf(asRecord(body)?.symbols).find((item) => stringField(item, 'symbol')?.toUpperCase() === ticker);
  const id = decimalField(found, 'symbolId');
  if (id === undefined) throw invalid(`unknown symbol ${ticker}`);
  return id;
}

async function optionId(
  http: HttpClient,
  parts: { root: string; expiry: string; right: 'C' | 'P'; strike: number },
  underlying: number,
): Promise<number> {
  const { body } = await http.request({ path: `/v1/symbols/${underlying}/options` });
  const expiry = listOf(asRecord(body)?.optionChain).find((item) =>
    stringField(item, 'expiryDate')?.startsWith(parts.expiry),
  );
  // Only the root named: another root of the chain is another contract (an adjusted deliverable).
  const root = listOf(expiry?.chainPerRoot).find((item) => stringField(item, 'root') === parts.root);
  const strike = listOf(root?.chainPerStrikePrice).find(
    (item) => Math.abs((decimalField(item, 'strikePrice') ?? Number.NaN) - parts.strike) < 1e-6,
  );
  const id = decimalField(strike, parts.right === 'C' ? 'callSymbolId' : 'putSymbolId');
  if (id === undefined)
    throw invalid(`no ${parts.root} ${parts.expiry} ${parts.strike} ${parts.right} option is listed`);
  return id;
}

/** The symbol's parts, refused before any lookup unless a stock or an option in OCC form. */
export function checkSymbol(symbol: string, orderClass: OrderClass): ReturnType<typeof parseSymbol>['parts'] {
  const { parts } = parseSymbol(symbol);
  if (orderClass === 'option') {
    if (parts.kind !== 'option') throw invalid(`${symbol} is not an option symbol (OCC form)`);
  } else if (orderClass !== 'stock') throw invalid(`${orderClass} is not traded at Questrade`);
  return parts;
}

/** The symbolId of a stock or option; `scope` keeps answers of different Questrade hosts apart. */
export async function symbolIdOf(
  http: HttpClient,
  scope: string,
  symbol: string,
  orderClass: OrderClass,
  now: number,
): Promise<number> {
  const parts = checkSymbol(symbol, orderClass);
  const parsed = parseSymbol(symbol);
  const key = `${scope}|${parsed.canonical}`;
  const known = cache.get(key);
  if (known && known.until > now) return known.id;
  const id =
    orderClass === 'option' && parts.kind === 'option'
      ? await optionId(http, parts, await symbolIdOf(http, scope, parts.root, 'stock', now))
      : await stockId(http, parsed.canonical);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value ?? '');
  cache.set(key, { id, until: now + TTL_MS });
  return id;
}

/** The underlying of an option (or the stock itself). */
export function underlyingOf(symbol: string): string {
  const { parts, canonical } = parseSymbol(symbol);
  return parts.kind === 'option' ? parts.root : canonical;
}
