// A normalized order as IBKR order tickets, POST /iserver/account/{accountId}/orders {"orders": [...]}
// (WIRE.md §4, the fixtures of broker-specs/ibkr):
//   {"acctId":"DU123456","conid":265598,"cOID":"sig-1","orderType":"LMT","side":"BUY","price":165,
//    "quantity":100,"tif":"DAY","outsideRTH":false}
// A stop's trigger goes in `price` (STP); a stop limit has the limit in `price`, the trigger in
// `auxPrice`. Brackets are the entry (with cOID) and exits whose parentId is that cOID; combos
// are one ticket naming its legs in conidex (mapper-combo.ts).
import type { Duration, Order, OrderType } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { priceOnKnownTick, usPriceOnTick } from '../../core/ticks.ts';
import { IBKR_TITLE } from './descriptor.ts';
import type { Instrument } from './instrument.ts';

export interface Ticket {
  acctId: string;
  conid?: number;
  conidex?: string;
  cOID?: string;
  parentId?: string;
  orderType: 'MKT' | 'LMT' | 'STP' | 'STOP_LIMIT';
  side: 'BUY' | 'SELL';
  price?: number;
  auxPrice?: number;
  quantity: number;
  tif: 'DAY' | 'GTC' | 'IOC' | 'OPG';
  outsideRTH: boolean;
  listingExchange?: string;
  manualIndicator?: boolean;
}

export const invalid = (message: string) => new BrokerError('InvalidOrder', IBKR_TITLE, message);

const ORDER_TYPES: Record<OrderType, Ticket['orderType']> = {
  market: 'MKT',
  limit: 'LMT',
  stop: 'STP',
  stop_limit: 'STOP_LIMIT',
};

/** dyp and gcp: day and GTC orders allowed outside regular trading hours. */
const DURATIONS: Partial<Record<Duration, { tif: Ticket['tif']; outsideRTH: boolean }>> = {
  day: { tif: 'DAY', outsideRTH: false },
  gtc: { tif: 'GTC', outsideRTH: false },
  ioc: { tif: 'IOC', outsideRTH: false },
  opg: { tif: 'OPG', outsideRTH: false },
  dyp: { tif: 'DAY', outsideRTH: true },
  gcp: { tif: 'GTC', outsideRTH: true },
};

const BUYS = new Set(['buy', 'buy_to_cover', 'buy_to_open', 'buy_to_close']);
export const sideOf = (action: string): Ticket['side'] => (BUYS.has(action) ? 'BUY' : 'SELL');
/** Float noise out of prices: 185.10000000000002 → 185.1. */
export const price = (value: number) => Math.round(value * 1e8) / 1e8;

export function timeInForce(order: Order): { tif: Ticket['tif']; outsideRTH: boolean } {
  const duration = DURATIONS[order.duration];
  if (!duration) throw invalid(`duration ${order.duration} is not supported; use day, gtc, ioc, opg, dyp or gcp`);
  if (duration.outsideRTH && (order.type === 'market' || order.type === 'stop'))
    throw invalid(`duration ${order.duration} (outside regular hours) needs a limit or stop_limit order`);
  if (duration.tif === 'OPG' && order.type !== 'market' && order.type !== 'limit')
    throw invalid('duration opg is for market and limit orders');
  return duration;
}

/** Order type and prices, checked: IBKR answers a missing price only after the round trip. */
export function priced(order: Pick<Order, 'type' | 'limit_price' | 'stop_price'>) {
  const needsLimit = order.type === 'limit' || order.type === 'stop_limit';
  const needsStop = order.type === 'stop' || order.type === 'stop_limit';
  if (needsLimit && order.limit_price === undefined) throw invalid(`limit_price is required for ${order.type} orders`);
  if (needsStop && order.stop_price === undefined) throw invalid(`stop_price is required for ${order.type} orders`);
  const orderType = ORDER_TYPES[order.type];
  if (order.type === 'stop') return { orderType, price: price(order.stop_price ?? 0) };
  if (order.type === 'stop_limit')
    return { orderType, price: price(order.limit_price ?? 0), auxPrice: price(order.stop_price ?? 0) };
  if (order.type === 'limit') return { orderType, price: price(order.limit_price ?? 0) };
  return { orderType };
}

/**
 * A ticket's prices on the instrument's tick where it is known: US stocks and options on the cent
 * ($0.0001 for a stock under $1), futures on their root's tick (ES: 0.25), never past the
 * trader's (see usPriceOnTick, priceOnKnownTick); others as given.
 */
export function onTick<T extends { price?: number; auxPrice?: number }>(
  prices: T,
  instrument: Instrument,
  side: Ticket['side'],
): T {
  const us = instrument.currency === 'USD' && (instrument.secType === 'STK' || instrument.secType === 'OPT');
  const futureTick = instrument.secType === 'FUT' ? instrument.tick : undefined;
  if (!us && futureTick === undefined) return prices;
  const tick = (value: number) =>
    us
      ? usPriceOnTick(value, side === 'BUY', instrument.secType === 'OPT', invalid)
      : priceOnKnownTick(value, futureTick, side === 'BUY', (message) => invalid(`price ${message}`));
  return {
    ...prices,
    ...(prices.price !== undefined ? { price: tick(prices.price) } : {}),
    ...(prices.auxPrice !== undefined ? { auxPrice: tick(prices.auxPrice) } : {}),
  };
}

/** US futures need the automated-order flag or IBKR rejects them (WIRE.md §4); ours are automated. */
export const flags = (instrument: Instrument) => (instrument.secType === 'FUT' ? { manualIndicator: false } : {});

/** Tickets checked now, completed with the contract IBKR names and the account later. */
export type ToInstrument<T> = (instrument: Instrument, accountId: string) => T;

/** A single order's ticket: its quantity, prices and duration checked now. */
export function entryTicket(order: Order, clientOrderId: string | undefined): ToInstrument<Ticket> {
  const tif = timeInForce(order);
  const { orderType, ...prices } = priced(order);
  const { quantity } = order;
  if (quantity === undefined || !(quantity > 0)) throw invalid('quantity must be positive');
  return (instrument, accountId) => ({
    acctId: accountId,
    conid: instrument.conid,
    ...(clientOrderId !== undefined ? { cOID: clientOrderId } : {}),
    orderType,
    side: sideOf(order.action),
    ...onTick(prices, instrument, sideOf(order.action)),
    quantity,
    ...tif,
    ...flags(instrument),
  });
}

const OPENING_ACTIONS = new Set(['buy', 'sell_short', 'buy_to_open', 'sell_to_open']);

/**
 * The entry and its exits: a take profit (LMT) and/or a stop loss (STP), GTC, linked by parentId.
 * Every refusal is thrown here, before any contract is looked up (Broker.checkOrder stops here).
 */
export function bracketTickets(order: Order, clientOrderId: string): ToInstrument<Ticket[]> {
  const entryOn = entryTicket(order, clientOrderId);
  if (order.take_profit_price === undefined && order.stop_loss_price === undefined)
    return (instrument, accountId) => [entryOn(instrument, accountId)];
  if (!OPENING_ACTIONS.has(order.action))
    throw invalid(`take profit and stop loss need an opening action, not ${order.action}`);
  if (!clientOrderId) throw invalid('a bracket needs a client order id');
  return (instrument, accountId) => {
    const entry = entryOn(instrument, accountId);
    // IBKR's bracket example routes every ticket SMART; stocks only, futures go to their exchange.
    const routing = instrument.secType === 'STK' ? { listingExchange: 'SMART' } : {};
    const side = entry.side === 'BUY' ? 'SELL' : 'BUY';
    const exit = (orderType: 'LMT' | 'STP', value: number): Ticket => ({
      acctId: entry.acctId,
      conid: instrument.conid,
      orderType,
      ...onTick({ price: price(value) }, instrument, side),
      ...routing,
      outsideRTH: entry.outsideRTH,
      side,
      tif: 'GTC',
      quantity: entry.quantity,
      parentId: clientOrderId,
      ...flags(instrument),
    });
    // Stop loss first, as in IBKR's bracket example.
    const exits: Ticket[] = [];
    if (order.stop_loss_price !== undefined) exits.push(exit('STP', order.stop_loss_price));
    if (order.take_profit_price !== undefined) exits.push(exit('LMT', order.take_profit_price));
    return [{ ...entry, ...routing }, ...exits];
  };
}
