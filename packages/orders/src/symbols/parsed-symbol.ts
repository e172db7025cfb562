// What the symbol parser tells about a symbol: its canonical spelling, its class and its parts.
import type { OrderClass } from '../types.ts';

export const FUTURE_MONTH_CODES = ['F', 'G', 'H', 'J', 'K', 'M', 'N', 'Q', 'U', 'V', 'X', 'Z'] as const;
export type FutureMonthCode = (typeof FUTURE_MONTH_CODES)[number];

export type SymbolParts =
  /** ES1!: the front (1) or a later (2, …) contract, rolled by the broker. */
  | { kind: 'continuous_future'; root: string; position: number }
  /** ESZ2024: root, month code and its number (1-12), full year. */
  | { kind: 'future'; root: string; monthCode: FutureMonthCode; month: number; year: number }
  /** OCC option: root, expiry as YYYY-MM-DD, call or put, strike in currency units. */
  | { kind: 'option'; root: string; expiry: string; right: 'C' | 'P'; strike: number }
  /** Currency pair, forex or crypto, codes in their common spelling (XBT → BTC). */
  | { kind: 'pair'; base: string; quote: string }
  /** Anything else: a ticker such as AAPL or BRK.B. */
  | { kind: 'ticker'; ticker: string };

export interface ParsedSymbol {
  /** One spelling per instrument: ESZ2024, ES1!, `AAPL  240119C00150000`, EUR/USD, BTC/USD, AAPL. */
  canonical: string;
  class: OrderClass;
  /** False when nothing in the symbol tells its class and `class` is only the stock default. */
  recognized: boolean;
  /** An exchange prefix as TradingView writes it ("NASDAQ:AAPL"), kept but not part of `canonical`. */
  exchange?: string;
  parts: SymbolParts;
}
