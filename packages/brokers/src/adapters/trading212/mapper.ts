// A normalized order as a Trading 212 request: one endpoint per type, sells as negative quantities.
//   POST /api/v0/equity/orders/market      {"ticker":"AAPL_US_EQ","quantity":-2.5,"extendedHours":false}
//   POST /api/v0/equity/orders/stop_limit  {"ticker":"AAPL_US_EQ","quantity":1,"stopPrice":180,"limitPrice":181,"timeValidity":"DAY"}
// Answer (and pending orders, history items' "order"):
//   {"id":123,"ticker":"AAPL_US_EQ","quantity":1,"filledQuantity":0,"status":"NEW","type":"LIMIT","limitPrice":181,...}
import type { Order, OrderResponse } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { extraFlag } from '../../core/extra-flag.ts';
import { asRecord, decimalField, stringField } from '../../core/json-read.ts';
import { TRADING212_TITLE } from './descriptor.ts';

export interface Trading212Request {
  path: string;
  body: Record<string, string | number | boolean>;
}

const invalid = (message: string) => new BrokerError('InvalidOrder', TRADING212_TITLE, message);
const TIME_VALIDITY: Partial<Record<Order['duration'], string>> = { day: 'DAY', gtc: 'GOOD_TILL_CANCEL' };

/** Signed quantity: positive buys, negative sells. */
export function signedQuantity(action: Order['action'], quantity: number): number {
  if (action === 'buy') return quantity;
  if (action === 'sell') return -quantity;
  throw invalid(`${action} is not supported; use buy or sell`);
}

export function marketRequest(ticker: string, quantity: number, extendedHours = false): Trading212Request {
  return { path: '/api/v0/equity/orders/market', body: { ticker, quantity, extendedHours } };
}

/** What of the position a close sells: a fixed quantity, or (undefined) all of it. */
export function closePart(order: Order): number | undefined {
  if (order.quantity !== undefined && order.quantity_type !== 'fixed') throw invalid('close takes a fixed quantity');
  return order.quantity;
}

export function toTrading212Request(order: Order, ticker: string): Trading212Request {
  if (order.class !== 'stock') throw invalid(`${order.class} is not traded through the API`);
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is not supported`);
  if (order.legs || order.take_profit_price !== undefined || order.stop_loss_price !== undefined) {
    throw invalid('brackets and multi-leg orders are not supported');
  }
  if (order.stop_price_distance !== undefined || order.stop_price_percent !== undefined) {
    throw invalid('give the stop as stop_price');
  }
  if (order.quantity === undefined) throw invalid('quantity is required');
  const quantity = signedQuantity(order.action, order.quantity);
  const extended = extraFlag(order, 'extended_hours', invalid);
  if (order.type === 'market') {
    if (order.duration !== 'day') throw invalid(`market orders are day orders, not ${order.duration}`);
    return marketRequest(ticker, quantity, extended === true);
  }
  if (extended !== undefined) throw invalid('extra.extended_hours is for market orders only');
  const timeValidity = TIME_VALIDITY[order.duration];
  if (!timeValidity) throw invalid(`duration ${order.duration} is not supported; use day or gtc`);
  const body: Trading212Request['body'] = { ticker, quantity };
  if (order.type === 'stop' || order.type === 'stop_limit') {
    if (order.stop_price === undefined) throw invalid('stop_price is required');
    body.stopPrice = order.stop_price;
  }
  if (order.type === 'limit' || order.type === 'stop_limit') {
    if (order.limit_price === undefined) throw invalid('limit_price is required');
    body.limitPrice = order.limit_price;
  }
  body.timeValidity = timeValidity;
  return { path: `/api/v0/equity/orders/${order.type}`, body };
}

const STATUS: Record<string, OrderResponse['status']> = {
  FILLED: 'filled',
  REJECTED: 'rejected',
  CANCELLED: 'canceled',
  REPLACED: 'canceled',
};

/** An order (and its fill, from the history) as our answer. */
export function toOrderResponse(body: unknown, fill?: unknown): OrderResponse {
  const order = asRecord(body) ?? {};
  const status = stringField(order, 'status') ?? 'UNKNOWN';
  const filled = decimalField(order, 'filledQuantity');
  const price = decimalField(fill, 'price');
  return {
    id: stringField(order, 'id') ?? '',
    status: STATUS[status] ?? 'accepted',
    status_description: filled ? `${status}, ${filled} filled` : status,
    ...(price !== undefined ? { price } : {}),
  };
}

export function tickerOf(order: unknown): string | undefined {
  return stringField(order, 'ticker') ?? stringField(asRecord(asRecord(order)?.instrument), 'ticker');
}

/** Whether a listed order is the request we sent: instrument, signed quantity, type and prices. */
export function matchesRequest(listed: unknown, sent: Trading212Request): boolean {
  const order = asRecord(listed);
  if (!order || tickerOf(order) !== sent.body.ticker) return false;
  const sign = stringField(order, 'side') === 'SELL' ? -1 : 1;
  const quantity = decimalField(order, 'quantity') ?? 0;
  const signed = quantity < 0 ? quantity : sign * quantity;
  const type = sent.path.split('/').at(-1)?.toUpperCase();
  return (
    signed === sent.body.quantity &&
    stringField(order, 'type') === type &&
    decimalField(order, 'limitPrice') === sent.body.limitPrice &&
    decimalField(order, 'stopPrice') === sent.body.stopPrice
  );
}
