// Signal symbols (BTCUSD, BTC/USD, BTC-USD, XBTUSD, XBT/USD, or the exchange's own id such as
// XXBTZUSD, SPOT_BTC_USDT) matched against the markets ccxt loaded from the exchange.

/** What we read of a ccxt market. */
export interface MarketInfo {
  id: string;
  /** ccxt's unified symbol: BTC/USD, BTC/USDT:USDT for a linear perpetual swap. */
  symbol: string;
  base: string;
  quote: string;
  spot: boolean;
  swap: boolean;
  active: boolean;
  /** Contract size of derivatives (BitMEX: 1 USD per XBTUSD contract). */
  contractSize?: number;
  /** Alternative names the exchange uses (Kraken's altname XBTUSD). */
  aliases: string[];
}

export type MarketKind = 'spot' | 'swap';

/** Exchange-specific currency codes read as the common one, as ccxt does. */
const CODE_ALIASES: Readonly<Record<string, string>> = { XBT: 'BTC' };

const compact = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');
const common = (code: string) => CODE_ALIASES[code.toUpperCase()] ?? code.toUpperCase();

/** The spellings a signal may use for a market: ids, aliases and base+quote in both codings. */
function namesOf(market: MarketInfo): Set<string> {
  const names = new Set([compact(market.id), compact(market.symbol), ...market.aliases.map(compact)]);
  names.add(compact(common(market.base) + common(market.quote)));
  return names;
}

/** BTC/USD, XBT-USD → BTCUSD; BTC/USDT:USDT → BTCUSDTUSDT (ccxt's swap symbol); XBTUSD → BTCUSD too. */
function spellings(symbol: string): string[] {
  const text = symbol.trim().toUpperCase();
  const parts = text.split(/[/_-]/);
  const joined = compact(text);
  const result = new Set([joined]);
  if (parts.length === 2) result.add(compact(parts.map((part) => common(part)).join('')));
  for (const [alias, code] of Object.entries(CODE_ALIASES)) {
    if (joined.startsWith(alias)) result.add(code + joined.slice(alias.length));
    if (joined.endsWith(alias)) result.add(joined.slice(0, -alias.length) + code);
  }
  return [...result];
}

/**
 * The market a signal symbol names. An exact exchange id wins; otherwise spot is preferred
 * over a perpetual swap (or `prefer` decides), and active markets over inactive ones.
 */
export function findMarket(
  markets: readonly MarketInfo[],
  symbol: string,
  prefer?: MarketKind,
): MarketInfo | undefined {
  const exact = markets.find((market) => market.id === symbol.trim() || market.symbol === symbol.trim());
  if (exact && !prefer) return exact;
  const wanted = spellings(symbol);
  const candidates = markets.filter((market) => {
    const names = namesOf(market);
    return wanted.some((name) => names.has(name));
  });
  const rank = (market: MarketInfo) =>
    (market.active ? 0 : 4) +
    (prefer === 'swap' ? (market.swap ? 0 : 2) : market.spot ? 0 : 2) +
    (market.spot || market.swap ? 0 : 1);
  return [...candidates].sort((a, b) => rank(a) - rank(b))[0] ?? exact;
}

/** The market kind an order asks for through `extra.market` ('spot' or 'swap'/'perp'). */
export function preferredKind(extra: Record<string, string | number | boolean> | undefined): MarketKind | undefined {
  const value = String(extra?.market ?? '').toLowerCase();
  if (value === 'spot') return 'spot';
  if (value === 'swap' || value === 'perp' || value === 'perpetual') return 'swap';
  return undefined;
}
