// Our symbols as Webull's order_v3 takes them (WIRE.md §4): stocks by ticker (EQUITY), futures by
// root + month code + one-digit year (ESZ2026 → ESZ6, FUTURES), crypto as BTCUSD (CRYPTO), and
// options not as an OCC string but as a leg {symbol: underlying, strike_price, option_expire_date,
// option_type}. Several option legs on one underlying are one strategy order, named from the legs.
import {
  futureTickOf,
  type OrderAction,
  type OrderClass,
  type OrderLeg,
  oneDigitYear,
  parseSymbol,
} from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { decimalString } from '../../core/json-read.ts';
import { WEBULL_TITLE } from './descriptor.ts';

const invalid = (message: string) => new BrokerError('InvalidOrder', WEBULL_TITLE, message);

export interface WebullInstrument {
  symbol: string;
  instrumentType: 'EQUITY' | 'FUTURES' | 'CRYPTO';
  /** A future's tick, where its root is known (ES: 0.25). */
  tick?: number;
}

export function webullInstrument(symbol: string, orderClass: OrderClass): WebullInstrument {
  const { parts, canonical } = parseSymbol(symbol);
  if (parts.kind === 'continuous_future')
    throw invalid(`${canonical} is a continuous contract; give the contract month, such as ESZ2026`);
  if (parts.kind === 'future') {
    const digit = oneDigitYear(parts.year, parts.month, Date.now());
    if (digit === undefined) throw invalid(`${canonical} is too far off to name with a one-digit year`);
    const tick = futureTickOf(parts.root);
    return {
      symbol: `${parts.root}${parts.monthCode}${digit}`,
      instrumentType: 'FUTURES',
      ...(tick !== undefined ? { tick } : {}),
    };
  }
  if (parts.kind === 'pair') {
    if (orderClass !== 'crypto' || parts.quote !== 'USD')
      throw invalid(`${canonical}: Webull trades crypto against USD`);
    return { symbol: `${parts.base}${parts.quote}`, instrumentType: 'CRYPTO' };
  }
  if (parts.kind === 'option') throw invalid(`${canonical} is an option: give class option`);
  if (orderClass !== 'stock') throw invalid(`${canonical} is not a Webull ${orderClass} symbol`);
  return { symbol: canonical, instrumentType: 'EQUITY' };
}

export interface OptionLeg {
  side: 'BUY' | 'SELL';
  quantity: number;
  root: string;
  strike: number;
  expiry: string;
  type: 'CALL' | 'PUT';
}

const BUYS = new Set<OrderAction>(['buy', 'buy_to_open', 'buy_to_close', 'buy_to_cover']);
export const sideOf = (action: OrderAction): 'BUY' | 'SELL' => (BUYS.has(action) ? 'BUY' : 'SELL');

export function optionLeg(leg: Pick<OrderLeg, 'symbol' | 'action' | 'quantity'>): OptionLeg {
  const { parts, canonical } = parseSymbol(leg.symbol);
  if (parts.kind !== 'option') throw invalid(`${canonical} is not an option in OCC form`);
  if (!Number.isInteger(leg.quantity) || leg.quantity <= 0) throw invalid('option quantities are whole contracts');
  return {
    side: sideOf(leg.action),
    quantity: leg.quantity,
    root: parts.root,
    strike: parts.strike,
    expiry: parts.expiry,
    type: parts.right === 'C' ? 'CALL' : 'PUT',
  };
}

/** A leg as Webull's legs[] carries it. */
export function wireLeg(leg: OptionLeg, quantity = leg.quantity) {
  return {
    side: leg.side,
    quantity: String(quantity),
    symbol: leg.root,
    strike_price: decimalString(leg.strike),
    option_expire_date: leg.expiry,
    instrument_type: 'OPTION',
    option_type: leg.type,
    market: 'US',
  };
}

const distinct = <T>(values: T[]) => new Set(values).size;

/** The strategy four legs or fewer make, as Webull names it; undefined when none fits. */
function strategyOf(legs: OptionLeg[]): string | undefined {
  const types = distinct(legs.map((leg) => leg.type));
  const expiries = distinct(legs.map((leg) => leg.expiry));
  const strikes = distinct(legs.map((leg) => leg.strike));
  const sides = distinct(legs.map((leg) => leg.side));
  if (legs.length === 2) {
    if (types === 1 && sides === 2) {
      if (expiries === 1) return strikes === 2 ? 'VERTICAL' : undefined;
      return strikes === 1 ? 'CALENDAR' : 'DIAGONAL';
    }
    if (types === 2 && sides === 1 && expiries === 1) return strikes === 1 ? 'STRADDLE' : 'STRANGLE';
    return undefined;
  }
  if (expiries !== 1 || sides !== 2) return undefined;
  if (types === 1 && (legs.length === 3 || strikes === 3)) return 'BUTTERFLY';
  if (types === 1 && legs.length === 4) return strikes === 4 ? 'CONDOR' : undefined;
  if (types === 2 && legs.length === 4) {
    const sold = legs.filter((leg) => leg.side === 'SELL');
    if (sold.length !== 2 || distinct(sold.map((leg) => leg.type)) !== 2) return undefined;
    return distinct(sold.map((leg) => leg.strike)) === 1 ? 'IRON_BUTTERFLY' : 'IRON_CONDOR';
  }
  return undefined;
}

export function optionStrategy(legs: OptionLeg[]): string {
  if (legs.length > 4 || distinct(legs.map((leg) => leg.root)) !== 1)
    throw invalid('a strategy has up to 4 option legs on one underlying');
  const strategy = strategyOf(legs);
  if (!strategy)
    throw invalid(
      'these legs are not a strategy Webull takes (vertical, straddle, strangle, calendar, diagonal, butterfly, ' +
        'condor, iron butterfly, iron condor)',
    );
  return strategy;
}
