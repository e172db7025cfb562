// Normalized order → Kite's POST /orders/{variety}, form-encoded (WIRE.md §4):
//   tradingsymbol=INFY&exchange=NSE&transaction_type=BUY&order_type=LIMIT&quantity=10&product=CNC
//   &price=1520.50&validity=DAY&tag=sig20260609a0001
// Types: market → MARKET, limit → LIMIT, stop → SL-M, stop_limit → SL. Market and SL-M orders
// carry market_protection (-1 automatic unless extra names 1-100), since Kite now refuses market
// orders without it. stop_loss_price makes a cover order (variety co). What Kite cannot take is
// refused here, before anything is sent.
import type { Order } from '@router/orders';
import { boundedId } from '../../ccxt/client-id.ts';
import { BrokerError } from '../../core/errors.ts';
import { decimalString } from '../../core/json-read.ts';
import { ZERODHA_TITLE } from './descriptor.ts';
import { type KiteInstrument, kiteInstrument } from './symbols.ts';

export interface KiteOrderRequest {
  variety: string;
  form: Record<string, string>;
}

const VARIETIES = ['regular', 'amo', 'co', 'iceberg'];
const PRODUCTS = ['CNC', 'MIS', 'NRML', 'MTF'];
const BUY_ACTIONS = new Set(['buy', 'buy_to_cover', 'buy_to_open', 'buy_to_close']);
const ORDER_TYPES: Record<Order['type'], string> = { market: 'MARKET', limit: 'LIMIT', stop: 'SL-M', stop_limit: 'SL' };

const invalid = (message: string) => new BrokerError('InvalidOrder', ZERODHA_TITLE, message);

/** Our id as a Kite tag: itself when it fits (20 letters and digits), else a hash of it that does. */
export function kiteTag(clientOrderId: string): string {
  return boundedId(clientOrderId, 20, /^[A-Za-z0-9]+$/);
}

/** Kite's price text: whole rupees as they are, else at least two decimals (1520.50, 83.2525). */
export function kitePrice(value: number): string {
  const text = decimalString(value);
  const [whole, fraction] = text.split('.');
  return fraction === undefined ? text : `${whole}.${fraction.padEnd(2, '0')}`;
}

function extraText(order: Order, key: string): string | undefined {
  const value = order.extra?.[key];
  return value === undefined || value === '' ? undefined : String(value).trim();
}

/** A whole number from extra, within [min, max]. */
function extraInteger(order: Order, key: string, min: number, max: number): number | undefined {
  const text = extraText(order, key);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max)
    throw invalid(`extra.${key} must be a whole number from ${min} to ${max}`);
  return value;
}

function productOf(order: Order, instrument: KiteInstrument): string {
  const given = extraText(order, 'product')?.toUpperCase();
  if (given !== undefined && !PRODUCTS.includes(given)) throw invalid(`product ${given} is not ${PRODUCTS.join(', ')}`);
  if (order.action === 'sell_short' && given !== undefined && given !== 'MIS')
    throw invalid('a short sale is intraday at Kite: product MIS');
  return given ?? (order.action === 'sell_short' ? 'MIS' : instrument.derivative ? 'NRML' : 'CNC');
}

function varietyOf(order: Order): string {
  const given = extraText(order, 'variety')?.toLowerCase();
  if (given !== undefined && !VARIETIES.includes(given))
    throw invalid(`variety ${given} is not ${VARIETIES.join(', ')}`);
  if (order.stop_loss_price !== undefined) {
    if (given !== undefined && given !== 'co') throw invalid('stop_loss_price makes a cover order (variety co)');
    return 'co';
  }
  if (given === 'co') throw invalid('a cover order (variety co) needs stop_loss_price');
  return given ?? 'regular';
}

function quantityOf(order: Order): number {
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is only for close`);
  const quantity = order.quantity;
  if (quantity === undefined || !Number.isInteger(quantity) || quantity <= 0)
    throw invalid('quantity must be a whole number of shares or units');
  return quantity;
}

/** Market protection, after validity as Kite's own examples order the fields. */
function marketProtection(order: Order, form: Record<string, string>): void {
  const protection = extraInteger(order, 'market_protection', -1, 100);
  const atMarket = order.type === 'market' || order.type === 'stop';
  if (protection !== undefined && !atMarket) throw invalid('market_protection is for market and stop orders');
  if (protection === 0) throw invalid('market_protection is -1 (automatic) or 1 to 100');
  if (atMarket) form.market_protection = String(protection ?? -1);
}

function validity(order: Order, form: Record<string, string>): void {
  const ttl = extraInteger(order, 'validity_ttl', 1, 375);
  if (ttl !== undefined && order.duration !== 'day') throw invalid('validity_ttl goes with duration day');
  form.validity = ttl !== undefined ? 'TTL' : order.duration.toUpperCase();
  if (ttl !== undefined) form.validity_ttl = String(ttl);
}

function iceberg(order: Order, variety: string, quantity: number, form: Record<string, string>): void {
  const legs = extraInteger(order, 'iceberg_legs', 2, 10);
  const size = extraInteger(order, 'iceberg_quantity', 1, Number.MAX_SAFE_INTEGER);
  if (variety !== 'iceberg') {
    if (legs !== undefined || size !== undefined)
      throw invalid('iceberg_legs and iceberg_quantity need variety iceberg');
    return;
  }
  if (legs === undefined) throw invalid('an iceberg order needs extra.iceberg_legs (2 to 10)');
  form.iceberg_legs = String(legs);
  form.iceberg_quantity = String(size ?? Math.ceil(quantity / legs));
}

/** The request for an entry order (not close or cancel). */
export function toKiteOrder(order: Order, clientOrderId: string): KiteOrderRequest {
  const instrument = kiteInstrument(order);
  const variety = varietyOf(order);
  const quantity = quantityOf(order);
  const form: Record<string, string> = {
    tradingsymbol: instrument.tradingsymbol,
    exchange: instrument.exchange,
    transaction_type: BUY_ACTIONS.has(order.action) ? 'BUY' : 'SELL',
    order_type: ORDER_TYPES[order.type],
    quantity: String(quantity),
    product: variety === 'co' ? 'CO' : productOf(order, instrument),
  };
  if (variety === 'co') {
    if (order.type !== 'market' && order.type !== 'limit') throw invalid('a cover order enters at market or limit');
    if (extraText(order, 'product') !== undefined) throw invalid('a cover order has product CO');
  }
  if (order.limit_price !== undefined) form.price = kitePrice(order.limit_price);
  const trigger = order.stop_loss_price ?? order.stop_price;
  if (trigger !== undefined) form.trigger_price = kitePrice(trigger);
  validity(order, form);
  marketProtection(order, form);
  const disclosed = extraInteger(order, 'disclosed_quantity', 0, quantity);
  if (disclosed) form.disclosed_quantity = String(disclosed);
  iceberg(order, variety, quantity, form);
  const autoslice = extraText(order, 'autoslice');
  if (autoslice === 'true') form.autoslice = 'true';
  else if (autoslice !== undefined && autoslice !== 'false') throw invalid('extra.autoslice is true or false');
  form.tag = kiteTag(clientOrderId);
  return { variety, form };
}
