// Our symbols as tastytrade spells them, with the leg's instrument-type (WIRE.md §4):
//   stock   AAPL, BRK.B → BRK/B                    Equity
//   option  "AAPL  260618C00200000" (OCC, padded)  Equity Option
//   future  ESU2026 → /ESU6 (last digit of year)   Future
//   crypto  BTC/USD                                Cryptocurrency
// and the leg action each of our actions is at tastytrade (futures: Buy / Sell only).
import { futureTickOf, type OrderAction, type OrderClass, oneDigitYear, parseSymbol } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { TASTYTRADE_TITLE } from './descriptor.ts';

export type InstrumentType = 'Equity' | 'Equity Option' | 'Future' | 'Cryptocurrency';

export interface Instrument {
  'instrument-type': InstrumentType;
  symbol: string;
}

/**
 * The underlying an option root trades on: a weekly or PM-settled root names its index's
 * (SPXW → SPX, NDXP → NDX, RUTW → RUT, VIXW → VIX) and an adjusted root its stock's (AAPL1 → AAPL),
 * as tastytrade's `underlying-symbol` does; one order may mix them (an SPX/SPXW calendar).
 */
export function underlyingOfRoot(root: string): string {
  const unadjusted = root.replace(/(?<=[A-Z])\d+$/, '');
  return INDEX_ROOTS[unadjusted] ?? unadjusted;
}

const INDEX_ROOTS: Record<string, string> = { SPXW: 'SPX', NDXP: 'NDX', RUTW: 'RUT', VIXW: 'VIX' };

export const invalid = (message: string) => new BrokerError('InvalidOrder', TASTYTRADE_TITLE, message);

function futureSymbol(symbol: string): string {
  const { parts } = parseSymbol(symbol);
  if (parts.kind === 'continuous_future') {
    throw invalid(`${symbol} is a continuous contract; give the contract month, such as ${parts.root}Z2026`);
  }
  if (parts.kind !== 'future') throw invalid(`${symbol} is not a futures contract`);
  const digit = oneDigitYear(parts.year, parts.month, Date.now());
  if (digit === undefined) throw invalid(`${symbol} is too far off to name with a one-digit year`);
  return `/${parts.root}${parts.monthCode}${digit}`;
}

function cryptoSymbol(symbol: string): string {
  const { parts } = parseSymbol(symbol);
  if (parts.kind !== 'pair' || parts.quote !== 'USD') {
    throw invalid(`${symbol}: cryptocurrencies trade against USD only, such as BTC/USD`);
  }
  return `${parts.base}/USD`;
}

/** The tick of a future as tastytrade names it (/ESU6: ES's 0.25), where its root is known. */
export function futureTick(wireSymbol: string): number | undefined {
  const root = /^\/([A-Z0-9]+)[FGHJKMNQUVXZ]\d{1,2}$/.exec(wireSymbol)?.[1];
  return root === undefined ? undefined : futureTickOf(root);
}

export function instrumentOf(symbol: string, orderClass: OrderClass): Instrument {
  switch (orderClass) {
    case 'stock':
      // Share classes take a slash at tastytrade: BRK/B.
      return { 'instrument-type': 'Equity', symbol: symbol.replace('.', '/') };
    case 'option':
      return { 'instrument-type': 'Equity Option', symbol };
    case 'future':
      return { 'instrument-type': 'Future', symbol: futureSymbol(symbol) };
    case 'crypto':
      return { 'instrument-type': 'Cryptocurrency', symbol: cryptoSymbol(symbol) };
    default:
      throw invalid(`${orderClass} is not traded here; use stock, option, future or crypto`);
  }
}

const OPEN_CLOSE: Partial<Record<OrderAction, string>> = {
  buy: 'Buy to Open',
  sell: 'Sell to Close',
  sell_short: 'Sell to Open',
  buy_to_cover: 'Buy to Close',
  buy_to_open: 'Buy to Open',
  buy_to_close: 'Buy to Close',
  sell_to_open: 'Sell to Open',
  sell_to_close: 'Sell to Close',
};

/** The leg action of `action` on this instrument type. */
export function legAction(type: InstrumentType, action: OrderAction): string {
  if (action === 'close' || action === 'cancel') throw invalid(`${action} is not an order action`);
  if (type === 'Future') return action === 'buy' || action === 'buy_to_cover' ? 'Buy' : 'Sell';
  if (type === 'Cryptocurrency' && (action === 'sell_short' || action === 'buy_to_cover')) {
    throw invalid('cryptocurrencies cannot be sold short; use buy and sell');
  }
  const mapped = OPEN_CLOSE[action];
  if (!mapped) throw invalid(`${action} is not an order action`);
  return mapped;
}

/** Buying pays (Debit), selling receives (Credit). */
export const isBuy = (legActionName: string) => legActionName.startsWith('Buy');
