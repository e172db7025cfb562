// Currency pairs, with or without a separator:
//   forex   "EURUSD"  "EUR/USD"  "EUR_USD"  "EUR-USD"  "XAUUSD"
//   crypto  "BTCUSD"  "BTC/USD"  "BTC-USDT"  "XBTUSD"  "PEPE/USDT"  "1INCHUSDT" (any coin over USDT/USDC)
// Canonical: BASE/QUOTE in common codes (XBT → BTC), as ccxt spells markets.
// A pair is crypto when either side is a crypto currency, forex when both are fiat (or metals).
import { CURRENCY_ALIASES, FIAT_CURRENCIES, isKnownCurrency, QUOTE_LENGTHS } from './currencies.ts';
import type { ParsedSymbol } from './parsed-symbol.ts';

const SEPARATED = /^([A-Z0-9]{2,10})[/_-]([A-Z0-9]{2,6})$/;
const JOINED = /^[A-Z0-9]{5,16}$/;

export function parsePair(symbol: string): ParsedSymbol | undefined {
  const separated = SEPARATED.exec(symbol);
  if (separated) {
    const [, base = '', quote = ''] = separated;
    // With a separator a known quote is enough: new coins appear daily ("PEPE/USDT").
    return isKnownCurrency(quote) ? pair(base, quote) : undefined;
  }
  if (!JOINED.test(symbol)) return undefined;
  let fiatInCrypto: ParsedSymbol | undefined;
  for (const length of QUOTE_LENGTHS) {
    const base = symbol.slice(0, -length);
    const quote = symbol.slice(-length);
    if (base.length < 2 || !isKnownCurrency(base) || !isKnownCurrency(quote)) continue;
    // Markets price coins in money, not money in coins: USDTUSD is USDT/USD, not USD/TUSD.
    // A fiat base over a coin stands only when no other split reads (EURUSDT).
    if (!FIAT_CURRENCIES.has(base) || FIAT_CURRENCIES.has(quote)) return pair(base, quote);
    fiatInCrypto ??= pair(base, quote);
  }
  return fiatInCrypto ?? stablecoinPair(symbol);
}

/** Quotes no ticker ends in: a coin the list does not know over one is still a pair (1INCHUSDT). */
const STABLECOIN_QUOTED = /^([A-Z0-9]*[A-Z][A-Z0-9]*)(USDT|USDC)$/;

function stablecoinPair(symbol: string): ParsedSymbol | undefined {
  const [, base = '', quote = ''] = STABLECOIN_QUOTED.exec(symbol) ?? [];
  return base.length >= 2 ? pair(base, quote) : undefined;
}

function pair(rawBase: string, rawQuote: string): ParsedSymbol {
  const base = alias(rawBase);
  const quote = alias(rawQuote);
  const fiat = FIAT_CURRENCIES.has(base) && FIAT_CURRENCIES.has(quote);
  return {
    canonical: `${base}/${quote}`,
    class: fiat ? 'forex' : 'crypto',
    recognized: true,
    parts: { kind: 'pair', base, quote },
  };
}

function alias(code: string): string {
  return Object.hasOwn(CURRENCY_ALIASES, code) ? (CURRENCY_ALIASES[code] ?? code) : code;
}

/**
 * TradingView's perpetual-contract suffix, as {{ticker}} sends it on a perpetual chart: BTCUSDT.P,
 * and BTCUSDTPERP, its name for Binance's perpetuals until 2022 (still in older alerts).
 */
const PERPETUAL = /^(.+)(?:\.P|PERP)$/;

/**
 * The crypto pair a TradingView perpetual name stands for (BTCUSDT.P, BTCUSDTPERP → BTCUSDT), else undefined.
 * Not a ticker of its own: read as one it would be a stock order, or the pair's spot market.
 */
export function perpetualPairName(symbol: string): string | undefined {
  const stem = PERPETUAL.exec(symbol)?.[1];
  return stem !== undefined && parsePair(stem)?.class === 'crypto' ? stem : undefined;
}

/** A pair's name as a MetaTrader or cTrader server decorates it: EURUSD.pro, XAUUSD.m, EURUSD_i, EURUSD-ECN, EURUSDm. */
const DECORATED = /^([A-Za-z0-9]{5,16})([.#_+-][A-Za-z0-9]{0,5})$|^([A-Z0-9]{5,16})([a-z]{1,4})$/;

/**
 * The pair and suffix of a symbol (as written, letter case kept, no exchange) a trading server named
 * with its own suffix: EURUSD.pro → EURUSD and ".pro". Read as a ticker elsewhere it is a stock order.
 */
export function decoratedPairName(written: string): { pair: string; suffix: string } | undefined {
  const [, stem = '', suffix = '', lowerStem = '', lowerSuffix = ''] = DECORATED.exec(written) ?? [];
  const pair = (stem || lowerStem).toUpperCase();
  return pair && parsePair(pair) ? { pair, suffix: suffix || lowerSuffix } : undefined;
}
