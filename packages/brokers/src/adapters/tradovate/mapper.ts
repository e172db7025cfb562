// A normalized order as Tradovate's order bodies (WIRE.md §4), and Tradovate's answers as ours.
//   POST /order/placeorder {"accountSpec":"DEMO123456","accountId":987654,"clOrdId":"sig-1","action":"Buy",
//     "symbol":"ESZ6","orderQty":1,"orderType":"Limit","price":5400.25,"timeInForce":"Day","isAutomated":true}
//   POST /order/placeoso  the same plus "bracket1"/"bracket2": {"action":"Sell","orderType":"Limit","price":…,
//     "timeInForce":"GTC"} (quantity inherited; the two exits cancel each other)
//   POST /order/placeoco  the same plus "other": the second order of a one-cancels-other pair
import { futureTickOf, type Order, type OrderLeg, type OrderResponse, parseSymbol } from '@router/orders';
import { boundedId } from '../../ccxt/client-id.ts';
import { BrokerError } from '../../core/errors.ts';
import { type JsonRecord, stringField } from '../../core/json-read.ts';
import { priceOnKnownTick } from '../../core/ticks.ts';
import { TRADOVATE_TITLE } from './descriptor.ts';

export type PlacePath = '/order/placeorder' | '/order/placeoso' | '/order/placeoco' | '/order/liquidateposition';

export interface Placement {
  path: PlacePath;
  body: JsonRecord;
}

export interface Destination {
  accountSpec: string;
  accountId: number;
  /** The contract name, ESZ6. */
  symbol: string;
}

const TYPES = { market: 'Market', limit: 'Limit', stop: 'Stop', stop_limit: 'StopLimit' } as const;
const DURATIONS: Partial<Record<Order['duration'], string>> = { day: 'Day', gtc: 'GTC', ioc: 'IOC', fok: 'FOK' };
const BUYS = new Set(['buy', 'buy_to_cover']);

const invalid = (message: string) => new BrokerError('InvalidOrder', TRADOVATE_TITLE, message);
export const sideOf = (action: string): 'Buy' | 'Sell' => (BUYS.has(action) ? 'Buy' : 'Sell');

/** The tick of the symbol's root where it is known (the order language's futureTickOf), else undefined. */
function tickOf(symbol: string): number | undefined {
  const { parts } = parseSymbol(symbol);
  return parts.kind === 'future' || parts.kind === 'continuous_future' ? futureTickOf(parts.root) : undefined;
}

/**
 * A price on the contract's tick where it is known, never past the trader's (a buy's down, a
 * sell's up; a stop alike), refused if that takes it to 0; as given for a root not known.
 */
function onTick(value: number, side: 'Buy' | 'Sell', field: string, tick: number | undefined): number {
  return priceOnKnownTick(value, tick, side === 'Buy', (message) => invalid(`${field} ${message}`));
}
const opposite = (side: 'Buy' | 'Sell'): 'Buy' | 'Sell' => (side === 'Buy' ? 'Sell' : 'Buy');

/** Our signal id as clOrdId (hashed only if it ever broke the descriptor's rule). */
export const clOrdIdOf = (clientOrderId: string) => boundedId(clientOrderId, 64);

export function wholeContracts(quantity: number | undefined): number {
  if (quantity === undefined || !Number.isInteger(quantity) || quantity < 1)
    throw invalid(`quantity must be a whole number of contracts, not ${quantity ?? 'none'}`);
  return quantity;
}

function timeInForce(order: Order): string {
  const value = DURATIONS[order.duration];
  if (!value) throw invalid(`duration ${order.duration} is not supported; use day, gtc, ioc or fok`);
  return value;
}

/** A body checked now and sent to the contract the broker names later. */
type ToDestination<T> = (to: Destination) => T;

/** The entry order's fields; a market day order leaves timeInForce to Tradovate's default (Day). */
function entryOf(order: Order, clOrdId: string): ToDestination<JsonRecord> {
  const orderType = TYPES[order.type];
  const tif = timeInForce(order);
  const orderQty = wholeContracts(order.quantity);
  const side = sideOf(order.action);
  const tick = tickOf(order.symbol);
  const limit = order.limit_price === undefined ? undefined : onTick(order.limit_price, side, 'limit_price', tick);
  const stop = order.stop_price === undefined ? undefined : onTick(order.stop_price, side, 'stop_price', tick);
  return (to) => ({
    accountSpec: to.accountSpec,
    accountId: to.accountId,
    clOrdId,
    action: side,
    symbol: to.symbol,
    orderQty,
    orderType,
    ...(limit !== undefined ? { price: limit } : {}),
    ...(stop !== undefined ? { stopPrice: stop } : {}),
    ...(orderType === 'Market' && tif === 'Day' ? {} : { timeInForce: tif }),
    isAutomated: true,
  });
}

function exits(order: Order): JsonRecord[] {
  const side = opposite(sideOf(order.action));
  const tick = tickOf(order.symbol);
  const found: JsonRecord[] = [];
  if (order.take_profit_price !== undefined) {
    const limit = onTick(order.take_profit_price, side, 'take_profit_price', tick);
    found.push({ action: side, orderType: 'Limit', price: limit, timeInForce: 'GTC' });
  }
  if (order.stop_loss_price !== undefined) {
    const stop = onTick(order.stop_loss_price, side, 'stop_loss_price', tick);
    found.push({ action: side, orderType: 'Stop', stopPrice: stop, timeInForce: 'GTC' });
  }
  return found;
}

function ocoOf(order: Order, legs: OrderLeg[], clOrdId: string): ToDestination<Placement> {
  const [first, second] = legs;
  if (order.group !== 'oco' || legs.length !== 2 || !first || !second)
    throw invalid('legs are sent as one-cancels-other only: group oco with exactly two legs');
  if (first.symbol !== second.symbol || first.quantity !== second.quantity)
    throw invalid('both legs of a one-cancels-other pair trade the same contract and quantity');
  if (first.limit_price === undefined || second.limit_price === undefined)
    throw invalid('each leg of a one-cancels-other pair is a limit order with its limit_price');
  const tif = timeInForce(order);
  const main = entryOf(
    { ...order, action: first.action, quantity: first.quantity, type: 'limit', limit_price: first.limit_price },
    clOrdId,
  );
  const otherSide = sideOf(second.action);
  const other = {
    action: otherSide,
    orderType: 'Limit',
    price: onTick(second.limit_price, otherSide, 'legs[1].limit_price', tickOf(second.symbol)),
    timeInForce: tif,
  };
  return (to) => ({ path: '/order/placeoco', body: { ...main(to), other } });
}

/**
 * The request a signal becomes (close and cancel are handled by the adapter), every refusal
 * thrown here, before the contract is looked up (Broker.checkOrder stops at this point).
 */
export function toPlacement(order: Order, clientOrderId: string): ToDestination<Placement> {
  if (order.class !== 'future') throw invalid(`${order.class} is not traded at Tradovate; futures only`);
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is only for close`);
  const clOrdId = clOrdIdOf(clientOrderId);
  if (order.legs) {
    if (order.take_profit_price !== undefined || order.stop_loss_price !== undefined)
      throw invalid('a one-cancels-other pair takes no take profit or stop loss');
    return ocoOf(order, order.legs, clOrdId);
  }
  const entry = entryOf(order, clOrdId);
  const [bracket1, bracket2] = exits(order);
  if (!bracket1) return (to) => ({ path: '/order/placeorder', body: entry(to) });
  return (to) => ({ path: '/order/placeoso', body: { ...entry(to), bracket1, ...(bracket2 ? { bracket2 } : {}) } });
}

/** {"orderId": 8812345678} (+ oso1Id/oso2Id, ocoId) → our response. */
export function fromPlacement(body: unknown, path: PlacePath): OrderResponse {
  const id = stringField(body, 'orderId');
  if (!id) {
    // Neither an order id nor a failure: the order may exist; reconciliation looks for it.
    throw new BrokerError('BrokerUnavailable', TRADOVATE_TITLE, 'unexpected answer to the order', {
      outcomeUnknown: true,
    });
  }
  const linked =
    path === '/order/placeoso'
      ? ['oso1Id', 'oso2Id'].map((key) => stringField(body, key)).filter(Boolean)
      : path === '/order/placeoco'
        ? [stringField(body, 'ocoId')].filter(Boolean)
        : [];
  const detail =
    path === '/order/placeoso'
      ? ` with exit order(s) ${linked.join(', ')}`
      : path === '/order/placeoco'
        ? `, one-cancels-other with order ${linked.join(', ')}`
        : '';
  return { id, status: 'accepted', status_description: `Tradovate order placed${detail}` };
}

const FINAL: Record<string, OrderResponse['status']> = {
  Filled: 'filled',
  Canceled: 'canceled',
  Expired: 'canceled',
  Rejected: 'rejected',
};

/** An Order entity ({id, ordStatus, …}), its average fill price and why it was rejected → our response. */
export function fromOrder(body: unknown, fillPrice?: number, rejection?: string): OrderResponse {
  const id = stringField(body, 'id') ?? '';
  const status = stringField(body, 'ordStatus') ?? 'Unknown';
  return {
    id,
    status: FINAL[status] ?? 'accepted',
    status_description: `Tradovate order ${status}${rejection ? `: ${rejection}` : ''}`,
    ...(fillPrice !== undefined ? { price: fillPrice } : {}),
  };
}
