// What a symbol of a class is at the paper broker: listed or not, how it is priced (the quote
// key, a multiplier in USD, a tick), how it is sized, whether it is paid in full or margined,
// and when it expires. Built from the symbol list (symbol-list.ts).
import { type OrderClass, parseSymbol, type SymbolParts, writtenSymbol } from '@router/orders';
import { SESSION_CLOSE_UTC_HOUR } from './matching.ts';
import { hash, type LevelOf, symbolKey } from './quotes.ts';
import { type ListedSymbol, type ListSection, type SymbolList, SymbolListError, symbolListOf } from './symbol-list.ts';

export interface Instrument {
  /** As the order language spells it: AAPL, BTC/USD, EUR/USD, ES1!, ESZ2026, `SPY   271217P00540000`. */
  symbol: string;
  class: OrderClass;
  listed: boolean;
  /** What the quote source prices, as which class (a future's root, an option's underlying). */
  priceKey: string;
  priceClass: OrderClass;
  /** The account's price scale (a signal's extra.price) applying to it. */
  scaleKey: string;
  /** USD per point of price per unit: contract size, and the quote currency's USD rate. */
  multiplier: number;
  tick: number;
  quantityDecimals: number;
  /** Margined (futures, forex, CFDs): this fraction of the notional is held; else paid in full. */
  margin?: number;
  expiresAt?: number;
  option?: { underlying: Instrument; strike: number; right: 'C' | 'P'; volatility: number };
  /** Futures: listed month codes; continuous symbols (ES1!) name their position from the front. */
  future?: { months: string; position?: number };
}

export interface Instruments {
  /** Never throws: a symbol the list lacks (or that does not parse) is `listed: false`. */
  resolve(symbol: string, cls: OrderClass): Instrument;
  levelOf: LevelOf;
}

const USD_LIKE = new Set(['USD', 'USDT', 'USDC']);
const ALL_MONTHS = 'FGHJKMNQUVXZ';
const CFD_MARGIN: Partial<Record<OrderClass, number>> = { stock: 0.2, crypto: 0.5, forex: 0.05 };

/** The third Friday of a month, at the session close: when equity options and futures expire. */
export function thirdFriday(year: number, month: number): number {
  const firstDay = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const day = 1 + ((5 - firstDay + 7) % 7) + 14;
  return Date.UTC(year, month - 1, day, SESSION_CLOSE_UTC_HOUR);
}

function tickFor(cls: OrderClass, level: number): number {
  if (cls === 'forex') return level >= 20 ? 0.001 : 0.00001;
  if (cls === 'crypto') return Math.min(0.01, Math.max(1e-10, 10 ** (Math.floor(Math.log10(level)) - 4)));
  return level >= 1 ? 0.01 : 0.0001;
}

export function createInstruments(entries: readonly ListedSymbol[]): Instruments {
  const list: SymbolList = symbolListOf(entries);
  const section = (name: ListSection) => list.get(name) ?? new Map<string, ListedSymbol>();
  const stockEntry = (ticker: string) => section('stock').get(ticker) ?? section('etf').get(ticker);

  /** USD per unit of a currency, at its pair's listed level; undefined when nothing prices it. */
  const rateOf = (currency: string): number | undefined => {
    if (USD_LIKE.has(currency)) return 1;
    const direct = section('forex').get(`${currency}/USD`) ?? section('crypto').get(`${currency}/USD`);
    if (direct) return direct.price;
    const inverse = section('forex').get(`USD/${currency}`);
    return inverse ? 1 / inverse.price : undefined;
  };
  for (const name of ['forex', 'crypto'] as const) {
    for (const entry of section(name).values()) {
      const quote = entry.symbol.split('/')[1] ?? '';
      if (rateOf(quote) === undefined) {
        throw new SymbolListError(
          `${entry.symbol}: nothing prices ${quote} in USD (list ${quote}/USD or USD/${quote})`,
        );
      }
    }
  }

  const levels = new Map<string, number>();
  for (const [name, entries] of list) {
    const cls: OrderClass = name === 'etf' ? 'stock' : name;
    for (const entry of entries.values()) levels.set(`${cls}:${symbolKey(entry.symbol)}`, entry.price);
  }

  const base = (symbol: string, cls: OrderClass, listed: boolean, level = 1): Instrument => ({
    symbol,
    class: cls,
    listed,
    priceKey: symbolKey(symbol),
    priceClass: cls,
    scaleKey: symbolKey(symbol),
    multiplier: 1,
    tick: tickFor(cls, level),
    quantityDecimals: cls === 'crypto' ? 8 : cls === 'stock' ? 4 : 0,
  });

  const ofPair = (parts: { base: string; quote: string }, cls: 'crypto' | 'forex', symbol: string): Instrument => {
    const usdQuoted = cls === 'crypto' && USD_LIKE.has(parts.quote);
    const entry = section(cls).get(usdQuoted ? `${parts.base}/USD` : symbol);
    const instrument = base(symbol, cls, entry !== undefined, entry?.price);
    if (!entry) return instrument;
    instrument.priceKey = symbolKey(entry.symbol);
    instrument.scaleKey = instrument.priceKey;
    instrument.multiplier = rateOf(parts.quote) ?? 1;
    instrument.tick = entry.tick ?? instrument.tick;
    if (cls === 'forex') instrument.margin = entry.margin ?? 0.02;
    return instrument;
  };

  const ofFuture = (parts: SymbolParts, symbol: string): Instrument => {
    const root = parts.kind === 'future' || parts.kind === 'continuous_future' ? parts.root : symbol;
    const entry = section('future').get(root);
    const months = entry?.months ?? ALL_MONTHS;
    const monthListed = parts.kind !== 'future' || months.includes(parts.monthCode);
    const instrument = base(symbol, 'future', entry !== undefined && monthListed, entry?.price);
    instrument.priceKey = root;
    // Apart from a stock of the same name (CL: Colgate-Palmolive and crude oil).
    instrument.scaleKey = `future:${root}`;
    instrument.multiplier = entry?.multiplier ?? 1;
    instrument.tick = entry?.tick ?? 0.01;
    instrument.margin = entry?.margin ?? 0.06;
    instrument.future = parts.kind === 'continuous_future' ? { months, position: parts.position } : { months };
    if (parts.kind === 'future') instrument.expiresAt = thirdFriday(parts.year, parts.month);
    return instrument;
  };

  const ofOption = (parts: Extract<SymbolParts, { kind: 'option' }>, symbol: string): Instrument => {
    const underlying = resolve(parts.root, 'stock');
    const etf = section('etf').has(parts.root);
    const [year = 0, month = 1, day = 1] = parts.expiry.split('-').map(Number);
    return {
      ...base(symbol, 'option', underlying.listed),
      tick: 0.01,
      multiplier: 100,
      priceKey: underlying.priceKey,
      priceClass: 'stock',
      expiresAt: Date.UTC(year, month - 1, day, SESSION_CLOSE_UTC_HOUR),
      option: {
        underlying,
        strike: parts.strike,
        right: parts.right,
        volatility: etf ? 0.18 : 0.22 + 0.28 * (hash(parts.root) / 2 ** 32),
      },
    };
  };

  const ofCfd = (symbol: string, parsed: ReturnType<typeof parseSymbol>): Instrument => {
    const entry = section('cfd').get(symbol);
    if (entry) {
      return {
        ...base(symbol, 'cfd', true, entry.price),
        tick: entry.tick ?? 0.01,
        margin: entry.margin ?? 0.05,
        quantityDecimals: 2,
      };
    }
    // Any other listed symbol trades as a CFD: its price, margined.
    const natural = parsed.class === 'crypto' || parsed.class === 'forex' ? parsed.class : 'stock';
    const wrapped = resolve(parsed.canonical, natural);
    return { ...wrapped, class: 'cfd', margin: CFD_MARGIN[natural] ?? 0.2, quantityDecimals: 2 };
  };

  function build(symbol: string, cls: OrderClass): Instrument {
    let parsed: ReturnType<typeof parseSymbol>;
    try {
      parsed = parseSymbol(symbol);
    } catch {
      return base(symbol.trim().toUpperCase(), cls, false);
    }
    const { canonical, parts } = parsed;
    // A listed CFD by its own name, which may read as something else (HK50: a future of 2050).
    if (cls === 'cfd')
      return ofCfd(section('cfd').has(writtenSymbol(symbol)) ? writtenSymbol(symbol) : canonical, parsed);
    if (cls === 'option' && parts.kind === 'option') return ofOption(parts, canonical);
    if (cls === 'future') return ofFuture(parts, canonical);
    if ((cls === 'crypto' || cls === 'forex') && parts.kind === 'pair') return ofPair(parts, cls, canonical);
    if (cls === 'stock' && parts.kind === 'ticker') {
      const entry = stockEntry(canonical);
      return base(canonical, 'stock', entry !== undefined, entry?.price);
    }
    return base(canonical, cls, false);
  }

  const cache = new Map<string, Instrument>();
  function resolve(symbol: string, cls: OrderClass): Instrument {
    const key = `${cls}|${symbol}`;
    let instrument = cache.get(key);
    if (!instrument) {
      instrument = build(symbol, cls);
      // Symbols come from users: bound the cache rather than let it grow without end.
      if (cache.size >= 10_000) cache.clear();
      cache.set(key, instrument);
    }
    return instrument;
  }

  return { resolve, levelOf: (key, cls) => levels.get(`${cls}:${key}`) };
}
