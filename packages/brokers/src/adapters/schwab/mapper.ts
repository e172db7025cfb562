// A normalized order as Schwab's order JSON (Trader API OrderRequest). Samples from Schwab's
// order guide, as this file builds them:
//   {"orderType":"LIMIT","session":"NORMAL","duration":"DAY","orderStrategyType":"SINGLE","price":"185.5",
//    "orderLegCollection":[{"instruction":"BUY","quantity":10,"instrument":{"symbol":"AAPL","assetType":"EQUITY"}}]}
//   a bracket: {"orderStrategyType":"TRIGGER", ...entry, "childOrderStrategies":[{"orderStrategyType":"OCO",
//    "childOrderStrategies":[{...take profit LIMIT},{...stop loss STOP}]}]}
import type { Order, OrderAction, OrderClass, OrderLeg } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { decimalString } from '../../core/json-read.ts';
import { usPriceOnTick } from '../../core/ticks.ts';
import { SCHWAB_TITLE } from './descriptor.ts';
import { complexStrategyOf } from './strategy.ts';

export interface SchwabLeg {
  instruction: string;
  quantity: number;
  instrument: { symbol: string; assetType: 'EQUITY' | 'OPTION' };
}

export interface SchwabOrder {
  orderStrategyType: 'SINGLE' | 'TRIGGER' | 'OCO';
  session?: string;
  duration?: string;
  orderType?: string;
  complexOrderStrategyType?: string;
  price?: string;
  stopPrice?: string;
  orderLegCollection?: SchwabLeg[];
  childOrderStrategies?: SchwabOrder[];
}

const DURATIONS: Partial<Record<Order['duration'], string>> = {
  day: 'DAY',
  gtc: 'GOOD_TILL_CANCEL',
  fok: 'FILL_OR_KILL',
  ioc: 'IMMEDIATE_OR_CANCEL',
};
const TYPES = { market: 'MARKET', limit: 'LIMIT', stop: 'STOP', stop_limit: 'STOP_LIMIT' } as const;
const SESSIONS = ['NORMAL', 'AM', 'PM', 'SEAMLESS'];
/** Entry action → the instruction of its exits (brackets). */
const EXIT_OF: Partial<Record<OrderAction, string>> = {
  buy: 'SELL',
  sell_short: 'BUY_TO_COVER',
  buy_to_open: 'SELL_TO_CLOSE',
  sell_to_open: 'BUY_TO_CLOSE',
};

const invalid = (message: string) => new BrokerError('InvalidOrder', SCHWAB_TITLE, message);
/** A price on the US tick, never past the trader's: `buying` rounds down, selling up (see usPriceOnTick). */
export const price = (value: number, buying: boolean, option: boolean): string =>
  decimalString(usPriceOnTick(value, buying, option, invalid));
const buys = (instruction: string) => instruction.startsWith('BUY');

export function legOf(symbol: string, orderClass: OrderClass, action: OrderAction, quantity: number): SchwabLeg {
  if (orderClass !== 'stock' && orderClass !== 'option') throw invalid(`${orderClass} is not traded here`);
  if (action === 'close' || action === 'cancel') throw invalid(`${action} is not an order instruction`);
  return {
    instruction: action.toUpperCase(),
    quantity,
    instrument: { symbol, assetType: orderClass === 'option' ? 'OPTION' : 'EQUITY' },
  };
}

function sessionOf(order: Order): string {
  const session = order.extra?.session;
  if (session === undefined) return 'NORMAL';
  const value = String(session).toUpperCase();
  if (!SESSIONS.includes(value)) throw invalid(`extra.session ${session} is not one of ${SESSIONS.join(', ')}`);
  return value;
}

function durationOf(order: Order): string {
  const duration = DURATIONS[order.duration];
  if (!duration) throw invalid(`duration ${order.duration} is not supported; use day, gtc, fok or ioc`);
  return duration;
}

/** The order Schwab receives for a signal (close and cancel are handled by the adapter). */
export function toSchwabOrder(order: Order): SchwabOrder {
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is not supported`);
  if (order.legs) return multiLeg(order, order.legs);
  if (order.quantity === undefined) throw invalid('quantity is required');
  const buying = buys(order.action.toUpperCase());
  const option = order.class === 'option';
  const entry: SchwabOrder = {
    orderStrategyType: 'SINGLE',
    session: sessionOf(order),
    duration: durationOf(order),
    orderType: TYPES[order.type],
    ...(order.limit_price !== undefined ? { price: price(order.limit_price, buying, option) } : {}),
    ...(order.stop_price !== undefined ? { stopPrice: price(order.stop_price, buying, option) } : {}),
    orderLegCollection: [legOf(order.symbol, order.class, order.action, order.quantity)],
  };
  for (const field of ['stop_price_distance', 'stop_price_percent', 'stop_loss_price_distance'] as const) {
    if (order[field] !== undefined) throw invalid(`${field} is not supported; give an absolute price`);
  }
  if (order.stop_loss_price_percent !== undefined) throw invalid('stop_loss_price_percent is not supported');
  const exits = bracketExits(order, order.quantity);
  if (exits.length === 0) return entry;
  return {
    ...entry,
    orderStrategyType: 'TRIGGER',
    childOrderStrategies: exits.length === 1 ? exits : [{ orderStrategyType: 'OCO', childOrderStrategies: exits }],
  };
}

function bracketExits(order: Order, quantity: number): SchwabOrder[] {
  if (order.take_profit_price === undefined && order.stop_loss_price === undefined) return [];
  const instruction = EXIT_OF[order.action];
  if (!instruction) throw invalid(`take profit and stop loss need an opening action, not ${order.action}`);
  const exit = (orderType: string, priceField: 'price' | 'stopPrice', value: number): SchwabOrder => ({
    orderStrategyType: 'SINGLE',
    session: sessionOf(order),
    duration: 'GOOD_TILL_CANCEL',
    orderType,
    [priceField]: price(value, buys(instruction), order.class === 'option'),
    orderLegCollection: [{ ...legOf(order.symbol, order.class, order.action, quantity), instruction }],
  });
  const exits: SchwabOrder[] = [];
  if (order.take_profit_price !== undefined) exits.push(exit('LIMIT', 'price', order.take_profit_price));
  if (order.stop_loss_price !== undefined) exits.push(exit('STOP', 'stopPrice', order.stop_loss_price));
  return exits;
}

/** Exits and stops a multi-leg order cannot carry at Schwab. */
const COMBO_REFUSED = [
  'take_profit_price',
  'stop_loss_price',
  'stop_loss_price_distance',
  'stop_loss_price_percent',
  'stop_price',
  'stop_price_distance',
  'stop_price_percent',
] as const;

function multiLeg(order: Order, legs: OrderLeg[]): SchwabOrder {
  if (order.group !== 'combo') throw invalid(`group ${order.group} with legs is not supported; use combo`);
  if (legs.length > 4) throw invalid('at most 4 legs');
  if (legs.some((leg) => leg.limit_price !== undefined || leg.type !== undefined)) {
    throw invalid('legs take no type or price: give the net price as limit_price');
  }
  if (order.type !== 'market' && order.type !== 'limit') throw invalid('a multi-leg order is market or limit');
  // Not one of these reaches Schwab on a multi-leg order: refused, never silently left out.
  for (const field of COMBO_REFUSED) {
    if (order[field] !== undefined) throw invalid(`${field} is not supported on a multi-leg order`);
  }
  const net = order.limit_price;
  const orderType = net === undefined ? 'MARKET' : net > 0 ? 'NET_DEBIT' : net < 0 ? 'NET_CREDIT' : 'NET_ZERO';
  return {
    orderStrategyType: 'SINGLE',
    session: sessionOf(order),
    duration: durationOf(order),
    orderType,
    complexOrderStrategyType: complexStrategyOf(legs),
    // A debit is paid (rounded down), a credit received (rounded up): never past the trader's net.
    ...(net !== undefined ? { price: price(Math.abs(net), net > 0, true) } : {}),
    orderLegCollection: legs.map((leg) => legOf(leg.symbol, leg.class, leg.action, leg.quantity)),
  };
}
