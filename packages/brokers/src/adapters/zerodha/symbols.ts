// Our symbol → Kite's exchange and tradingsymbol. Kite names instruments as its instrument list
// does (NSE:INFY, NFO:NIFTY26JUNFUT, NFO:NIFTY26JUN24000CE, weekly NFO:NIFTY2580724400CE); the
// weekly codes cannot be derived from a date, so derivatives are taken as Kite spells them, never
// synthesised (WIRE.md §4). The exchange comes from the prefix; without one, a symbol ending in
// FUT, CE or PE (or an order of class future or option) goes to NFO, anything else to NSE.
import { type Order, parseSymbol } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { ZERODHA_TITLE } from './descriptor.ts';

export const CASH_EXCHANGES = ['NSE', 'BSE'] as const;
export const DERIVATIVE_EXCHANGES = ['NFO', 'BFO', 'MCX', 'CDS', 'BCD'] as const;
const EXCHANGES: readonly string[] = [...CASH_EXCHANGES, ...DERIVATIVE_EXCHANGES];
const DERIVATIVE_NAME = /\d.*(FUT|CE|PE)$/;
const TRADINGSYMBOL = /^[A-Z0-9&_.-]{1,40}$/;

export interface KiteInstrument {
  exchange: string;
  tradingsymbol: string;
  /** On a futures and options exchange (product NRML by default), else a cash equity. */
  derivative: boolean;
}

const invalid = (message: string) => new BrokerError('InvalidOrder', ZERODHA_TITLE, message);

/** Why a symbol our parser recognized is not a Kite tradingsymbol, with the spelling Kite wants. */
function notKite(symbol: string): string | undefined {
  const { parts } = parseSymbol(symbol);
  if (parts.kind === 'continuous_future')
    return `${symbol}: Kite has no continuous contract; name the month as Kite does (NFO:NIFTY26JUNFUT)`;
  if (parts.kind === 'option')
    return `${symbol}: give the option as Kite lists it (NFO:NIFTY26JUN24000CE), not in OCC form`;
  if (parts.kind === 'future') return `${symbol}: give the future as Kite lists it (NFO:NIFTY26JUNFUT)`;
  return undefined;
}

export function kiteInstrument(order: Pick<Order, 'symbol' | 'exchange' | 'class'>): KiteInstrument {
  const symbol = order.symbol.trim().toUpperCase();
  const reason = notKite(symbol);
  if (reason) throw invalid(reason);
  if (!TRADINGSYMBOL.test(symbol)) throw invalid(`${symbol} is not a Kite tradingsymbol`);
  const derivativeClass = order.class === 'future' || order.class === 'option';
  const exchange = order.exchange?.toUpperCase() ?? (derivativeClass || DERIVATIVE_NAME.test(symbol) ? 'NFO' : 'NSE');
  if (!EXCHANGES.includes(exchange))
    throw invalid(`${exchange} is not an exchange Kite trades on (use ${EXCHANGES.join(', ')})`);
  const derivative = (DERIVATIVE_EXCHANGES as readonly string[]).includes(exchange);
  if (derivativeClass && !derivative)
    throw invalid(`${exchange} trades stocks; give the ${order.class}'s exchange (NFO:${symbol})`);
  return { exchange, tradingsymbol: symbol, derivative };
}

/** NSE:INFY, as positions and holdings are shown. */
export const instrumentKey = (exchange: string, tradingsymbol: string) => `${exchange}:${tradingsymbol}`;
