// A normalized order as tastytrade's order JSON (dasherized keys, decimals as strings). Samples
// from broker-specs/tastytrade/fixtures, as this file builds them:
//   {"time-in-force":"Day","order-type":"Limit","price":"175.25","price-effect":"Debit",
//    "source":"signal-router","external-identifier":"sig-1",
//    "legs":[{"instrument-type":"Equity","symbol":"AAPL","quantity":100,"action":"Buy to Open"}]}
//   a future: {"time-in-force":"GTC","order-type":"Stop Limit","stop-trigger":"5400.00","price":"5401.25",…}
// Brackets become complex orders (complex.ts).
import { type Order, type OrderLeg, parseSymbol } from '@router/orders';
import { boundedId } from '../../ccxt/client-id.ts';
import { decimalString } from '../../core/json-read.ts';
import { priceOnKnownTick, usPriceOnTick } from '../../core/ticks.ts';
import { futureTick, type Instrument, instrumentOf, invalid, isBuy, legAction, underlyingOfRoot } from './symbols.ts';

/** Names this router as the order's source (tastytrade's `source`, free text). */
export const ORDER_SOURCE = 'signal-router';

export type Effect = 'Debit' | 'Credit';

export interface TastyLeg extends Instrument {
  quantity?: number;
  action: string;
}

export interface TastyOrder {
  'time-in-force': string;
  'gtc-date'?: string;
  'order-type': string;
  price?: string;
  'price-effect'?: Effect;
  'stop-trigger'?: string;
  value?: string;
  'value-effect'?: Effect;
  source?: string;
  'external-identifier'?: string;
  legs: TastyLeg[];
}

const TYPES = { market: 'Market', limit: 'Limit', stop: 'Stop', stop_limit: 'Stop Limit' } as const;
const SESSIONS = { regular: '', extended: ' Ext', overnight: ' Ext Overnight' } as const;
type Session = keyof typeof SESSIONS;

/** Prices as tastytrade's examples write them: at least 2 decimals ("5400.00", "175.25", "0.0525"). */
export function priceString(value: number): string {
  const text = decimalString(Math.round(value * 1e6) / 1e6);
  const [whole, decimals = ''] = text.split('.');
  return `${whole}.${decimals.padEnd(2, '0')}`;
}

/**
 * A leg's price, never past the trader's (a buy's rounded down, a sell's up; a stop alike): stocks
 * and options on the US tick (usPriceOnTick), futures on their root's tick where it is known (ES's
 * 0.25: 5401.13 is no price of /ESU6), crypto as given.
 */
export function legPrice(value: number, instrument: Instrument, buying: boolean): string {
  const type = instrument['instrument-type'];
  if (type === 'Equity' || type === 'Equity Option')
    return priceString(usPriceOnTick(value, buying, type === 'Equity Option', invalid));
  if (type === 'Future')
    return priceString(
      priceOnKnownTick(value, futureTick(instrument.symbol), buying, (message) => invalid(`price ${message}`)),
    );
  return priceString(value);
}

/** Our signal id as the external-identifier (its length limit is undocumented; see descriptor). */
export const externalIdFor = (clientOrderId: string) => boundedId(clientOrderId, 36);

export const effectOf = (action: string): Effect => (isBuy(action) ? 'Debit' : 'Credit');

function sessionOf(order: Order): Session {
  const session = order.extra?.session;
  if (session === undefined) return 'regular';
  const value = String(session).toLowerCase();
  if (!(value in SESSIONS)) throw invalid(`extra.session ${session} is not one of regular, extended, overnight`);
  return value as Session;
}

function timeInForce(order: Order): Pick<TastyOrder, 'time-in-force' | 'gtc-date'> {
  const session = sessionOf(order);
  const date = order.extra?.gtc_date;
  if (date !== undefined && order.duration !== 'gtd') throw invalid('extra.gtc_date is only for duration gtd');
  if (session !== 'regular' && order.duration !== 'day' && order.duration !== 'gtc') {
    throw invalid(`extra.session ${session} is only for duration day or gtc`);
  }
  switch (order.duration) {
    case 'day':
      return { 'time-in-force': session === 'regular' ? 'Day' : SESSIONS[session].trim() };
    case 'gtc':
      return { 'time-in-force': `GTC${SESSIONS[session]}` };
    case 'ioc':
      return { 'time-in-force': 'IOC' };
    case 'gtd':
      if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) {
        throw invalid('duration gtd needs extra.gtc_date, the last day as YYYY-MM-DD');
      }
      return { 'time-in-force': 'GTD', 'gtc-date': date };
    default:
      throw invalid(`duration ${order.duration} is not supported; use day, gtc, gtd or ioc`);
  }
}

/** Type, prices and effect of a single-instrument order whose leg action is `action`. */
function pricing(
  order: Order,
  instrument: Instrument,
  action: string,
): Partial<TastyOrder> & Pick<TastyOrder, 'order-type'> {
  const priced: Partial<TastyOrder> & Pick<TastyOrder, 'order-type'> = { 'order-type': TYPES[order.type] };
  if (order.stop_price !== undefined) priced['stop-trigger'] = legPrice(order.stop_price, instrument, isBuy(action));
  if (order.limit_price !== undefined) {
    priced.price = legPrice(order.limit_price, instrument, isBuy(action));
    priced['price-effect'] = effectOf(action);
  }
  return priced;
}

function checkUnsupported(order: Order): void {
  for (const field of ['stop_price_distance', 'stop_price_percent', 'stop_loss_price_distance'] as const) {
    if (order[field] !== undefined) throw invalid(`${field} is not supported; give an absolute price`);
  }
  if (order.stop_loss_price_percent !== undefined) throw invalid('stop_loss_price_percent is not supported');
}

/** The order tastytrade receives for a signal (close and cancel are handled by the adapter). */
export function toTastyOrder(order: Order, clientOrderId: string): TastyOrder {
  checkUnsupported(order);
  const common = { ...timeInForce(order), source: ORDER_SOURCE, 'external-identifier': externalIdFor(clientOrderId) };
  if (order.legs) return { ...common, ...multiLeg(order, order.legs) };
  if (order.quantity === undefined) throw invalid('quantity is required');
  const instrument = instrumentOf(order.symbol, order.class);
  const action = legAction(instrument['instrument-type'], order.action);
  if (order.quantity_type === 'cash') return { ...common, ...notional(order, order.quantity, instrument, action) };
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is not supported`);
  const priced = pricing(order, instrument, action);
  return { ...common, ...priced, legs: [{ ...instrument, quantity: order.quantity, action }] };
}

/** A dollar amount: Notional Market, its value and effect, a leg without quantity. */
function notional(order: Order, amount: number, instrument: Instrument, action: string) {
  if (order.type !== 'market') throw invalid('quantity_type cash takes a market order');
  const type = instrument['instrument-type'];
  if (type !== 'Equity' && type !== 'Cryptocurrency') throw invalid('quantity_type cash is for stocks and crypto');
  return {
    'order-type': 'Notional Market',
    value: priceString(amount),
    'value-effect': effectOf(action),
    legs: [{ ...instrument, action }],
  };
}

/** A multi-leg order's net price goes on the option tick. */
const OPTION_NET: Instrument = { 'instrument-type': 'Equity Option', symbol: '' };

/** A leg's underlying: an option root's (SPXW's is SPX), a stock's ticker (BRK.B as BRKB). */
function underlyingOf(leg: OrderLeg): string {
  const { parts } = parseSymbol(leg.symbol);
  return (parts.kind === 'option' ? underlyingOfRoot(parts.root) : leg.symbol).replace(/[./]/g, '');
}

function multiLeg(order: Order, legs: OrderLeg[]): Pick<TastyOrder, 'order-type' | 'price' | 'price-effect' | 'legs'> {
  if (order.group !== 'combo') throw invalid(`group ${order.group} with legs is not supported; use combo`);
  if (legs.length > 4) throw invalid('at most 4 legs');
  if (order.quantity_type !== 'fixed') throw invalid('a multi-leg order takes quantities, not quantity_type');
  if (legs.some((leg) => leg.limit_price !== undefined || leg.type !== undefined)) {
    throw invalid('legs take no type or price: give the net price as limit_price');
  }
  if (legs.some((leg) => leg.class !== 'option' && leg.class !== 'stock')) {
    throw invalid('multi-leg orders combine option legs, or stock and option legs');
  }
  if (order.type !== 'market' && order.type !== 'limit') throw invalid('a multi-leg order is market or limit');
  const wire = legs.map((leg) => {
    const instrument = instrumentOf(leg.symbol, leg.class);
    return { ...instrument, quantity: leg.quantity, action: legAction(instrument['instrument-type'], leg.action) };
  });
  // One order carries one underlying-symbol (WIRE.md §5).
  const roots = new Set(legs.map((leg) => underlyingOf(leg)));
  if (roots.size > 1) throw invalid(`the legs of one order share one underlying; these have ${[...roots].join(', ')}`);
  const net = order.limit_price;
  if (net === undefined) return { 'order-type': 'Market', legs: wire };
  if (net === 0) throw invalid('a multi-leg limit needs a net price other than 0');
  return {
    'order-type': 'Limit',
    // A debit paid no more than the net, a credit received no less.
    price: legPrice(Math.abs(net), OPTION_NET, net > 0),
    'price-effect': net > 0 ? 'Debit' : 'Credit',
    legs: wire,
  };
}
