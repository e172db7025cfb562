// Symbol parser. Recognizes, in this order:
//   options   "AAPL  240119C00150000"  "AAPL_240119C00150000"  "AAPL240119C150"
//   futures   "ES1!"  "ESZ4"  "ESZ24"  "ESZ2024"
//   pairs     "EURUSD"  "EUR/USD"  "BTC-USDT"  "XBTUSD"
//   indices   "^SPX" (Yahoo-style caret)
//   tickers   "AAPL"  "BRK.B"  "NASDAQ:AAPL" (exchange prefix kept apart; a market after it, AAPL:US, refused)
// and returns one canonical spelling per instrument. Plain tickers are stock unless told otherwise.
import { OrderValidationError, quoteCharacter } from '../errors.ts';
import type { OrderClass } from '../types.ts';
import { continuousLookalike, parseFuture } from './future.ts';
import { bloombergName, exchangeName, marketAfterTicker } from './markets.ts';
import { parseOption } from './option.ts';
import { parsePair, perpetualPairName } from './pair.ts';
import type { ParsedSymbol } from './parsed-symbol.ts';

export const MAX_SYMBOL_LENGTH = 64;
const ALLOWED = /^[A-Za-z0-9 ._\-/!:=^&#+]*$/;
const NOT_ALLOWED = /[^A-Za-z0-9 ._\-/!:=^&#+]/;
const PLACEHOLDER = /\{\{[^}]*\}\}|%[a-zA-Z_.]+%/;
const EXCHANGE = /^([A-Za-z0-9_]{1,20}):(.+)$/;

export interface ParseSymbolOptions {
  /** Clock for resolving 1 and 2 digit futures years; tests pin it. */
  now?: () => number;
  /** The field named in errors: `symbol`, `symbol[2]`, `legs[0].symbol`. */
  field?: string;
}

/** Parses a symbol or throws an OrderValidationError naming the field. */
export function parseSymbol(input: string, options: ParseSymbolOptions = {}): ParsedSymbol {
  const field = options.field ?? 'symbol';
  const text = input.trim();
  if (text === '') throw new OrderValidationError(field, `${field}: required`);
  if (text.length > MAX_SYMBOL_LENGTH) {
    throw new OrderValidationError(field, `${field}: longer than ${MAX_SYMBOL_LENGTH} characters`);
  }
  const placeholder = PLACEHOLDER.exec(text);
  if (placeholder) {
    throw new OrderValidationError(field, `${field}: placeholder ${placeholder[0]} was not replaced by the sender`);
  }
  if (!ALLOWED.test(text)) {
    // In UTF-16 units from the first character of the value as given, spaces before it counted:
    // the positions of expressions and of the playground's JSON messages.
    const offset = input.length - input.trimStart().length + text.search(NOT_ALLOWED);
    const bad = String.fromCodePoint(input.codePointAt(offset) ?? 0);
    throw new OrderValidationError(field, `${field}: unexpected ${quoteCharacter(bad)} at position ${offset}`);
  }
  // One match gives the exchange and the symbol after it (exchangePrefix and writtenSymbol, read once).
  const [, before, after] = EXCHANGE.exec(text) ?? [];
  const suffixed = before !== undefined && after !== undefined ? marketAfterTicker(before, after) : undefined;
  if (suffixed) throw new OrderValidationError(field, `${field}: ${suffixed}`);
  const written = (after ?? text).trim().toUpperCase();
  const parsed = recognize(written, options.now?.() ?? Date.now(), field);
  return before !== undefined ? { ...parsed, exchange: exchangeName(before) } : parsed;
}

/** The exchange prefix of a symbol as TradingView writes it (NASDAQ:AAPL, NYMEX_DL:CL1! → NASDAQ, NYMEX). */
export function exchangePrefix(input: string): string | undefined {
  const prefix = EXCHANGE.exec(input.trim())?.[1];
  return prefix === undefined ? undefined : exchangeName(prefix);
}

/**
 * The symbol as written, upper-cased, without an exchange prefix: how a name of the broker's own
 * (a CFD: HK50, EU50) is spelled, where the canonical form would read it as something else.
 */
export function writtenSymbol(input: string): string {
  return symbolAfterExchange(input).toUpperCase();
}

/** The symbol as written, letter case kept, without an exchange prefix: EURUSD.pro, where case tells a suffix (EURUSDm). */
export function symbolAfterExchange(input: string): string {
  const text = input.trim();
  return (EXCHANGE.exec(text)?.[2] ?? text).trim();
}

function recognize(symbol: string, now: number, field: string): ParsedSymbol {
  if (/[:]/.test(symbol)) throw new OrderValidationError(field, `${field}: unexpected ":"`);
  const perpetual = perpetualPairName(symbol);
  if (perpetual) {
    // Refused, not traded as the pair: a spot order is not the perpetual the chart showed.
    throw new OrderValidationError(
      field,
      `${field}: ${symbol} is TradingView's name for a perpetual contract, not a ticker; send the pair, ${perpetual} ` +
        "(the broker's symbol notes say whether it trades the pair's perpetual, and how to choose it)",
    );
  }
  const known = parseOption(symbol, field) ?? parseFuture(symbol, now) ?? parsePair(symbol);
  if (known) return known;
  if (/^\^[A-Z0-9.]{1,10}$/.test(symbol)) {
    // The caret stays: without it "^AQ0" would read back as a future.
    return { canonical: symbol, class: 'index', recognized: true, parts: { kind: 'ticker', ticker: symbol.slice(1) } };
  }
  const other = otherPlatformsName(symbol) ?? (symbol.includes(' ') ? bloombergName(symbol) : undefined);
  if (other) throw new OrderValidationError(field, `${field}: ${other}`);
  return { canonical: symbol, class: 'stock', recognized: false, parts: { kind: 'ticker', ticker: symbol } };
}

const YAHOO = /^([A-Z0-9]{1,12})=([FX])$/;

/**
 * Why a symbol no parser read is no ticker either (no ticker holds a "!", starts with "/" or ends
 * in =F or =X), but a contract mistyped or named as another platform names it: sent on, it
 * would be a stock order for "ES!" or "/ES".
 */
function otherPlatformsName(symbol: string): string | undefined {
  if (symbol.includes('!')) {
    return `${symbol} is no symbol: "!" only ends a continuous futures contract, its root and position (ES1! the front month, ES2! the next)`;
  }
  // (/ZC1, a continuous contract without its "!", is the order's to refuse: it says so unless a class is given.)
  if (symbol.startsWith('/') && !continuousLookalike(symbol)) {
    return `${symbol} is no symbol: a leading "/" names a future with its month, as thinkorswim writes /ESZ26; write the month, or ${symbol.slice(1)}1! for the front month`;
  }
  const [, name = '', kind] = YAHOO.exec(symbol) ?? [];
  if (kind === 'F') {
    return `${symbol} is Yahoo's name for a continuous future; write ${name}1! for the front month, or a contract month as ${name}Z26`;
  }
  if (kind === 'X') return `${symbol} is Yahoo's name for a currency pair; write ${name}`;
  return undefined;
}

/**
 * Whether an explicit class may stand for a recognized one: CFDs wrap any instrument, and
 * metal pairs (XAUUSD) are commodities as much as currencies.
 */
export function isClassCompatible(parsed: ParsedSymbol, explicit: OrderClass): boolean {
  if (!parsed.recognized || explicit === parsed.class || explicit === 'cfd') return true;
  if (explicit === 'commodity' && parsed.parts.kind === 'pair') return /^X(AU|AG|PT|PD)$/.test(parsed.parts.base);
  return false;
}
