// Normalized order → Alpaca's POST /v2/orders body, and Alpaca's Order → our OrderResponse.
//   {"symbol":"AAPL","qty":"10","side":"buy","type":"limit","time_in_force":"gtc","limit_price":"185.5",
//    "client_order_id":"sig_123","order_class":"bracket","take_profit":{"limit_price":"200"},
//    "stop_loss":{"stop_price":"175"}}
import { type Order, type OrderResponse, parseSymbol } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { extraFlag } from '../../core/extra-flag.ts';
import { decimalField, decimalString, quantityString, stringField } from '../../core/json-read.ts';
import { usPriceOnTick } from '../../core/ticks.ts';
import { ALPACA_TITLE } from './descriptor.ts';

export interface AlpacaOrderRequest {
  symbol: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit' | 'stop' | 'stop_limit' | 'trailing_stop';
  time_in_force: string;
  qty?: string;
  notional?: string;
  limit_price?: string;
  stop_price?: string;
  trail_price?: string;
  trail_percent?: string;
  extended_hours?: boolean;
  client_order_id: string;
  order_class?: 'bracket' | 'oto';
  take_profit?: { limit_price: string };
  stop_loss?: { stop_price: string };
  position_intent?: 'buy_to_open' | 'buy_to_close' | 'sell_to_open' | 'sell_to_close';
}

const invalid = (message: string) => new BrokerError('InvalidOrder', ALPACA_TITLE, message);

/** AAPL → AAPL; "SPY   240119C00450000" → SPY240119C00450000; BTCUSD, BTC-USD → BTC/USD. */
export function alpacaSymbol(symbol: string, orderClass: Order['class']): string {
  const parsed = parseSymbol(symbol);
  if (orderClass === 'option') return parsed.canonical.replace(/ /g, '');
  if (orderClass === 'crypto' && parsed.parts.kind === 'pair') return `${parsed.parts.base}/${parsed.parts.quote}`;
  return parsed.canonical;
}

/** Positions are keyed without the slash: BTC/USD → BTCUSD. */
export function positionSymbol(symbol: string, orderClass: Order['class']): string {
  return alpacaSymbol(symbol, orderClass).replace('/', '');
}

/**
 * A price as Alpaca takes it: stocks and options on the US tick, never past the trader's (see
 * usPriceOnTick), since Alpaca refuses a sub-penny ("invalid limit_price 11.055. sub-penny
 * increment does not fulfill minimum pricing criteria"); crypto as given.
 */
function priceString(price: number, orderClass: Order['class'], buying: boolean): string {
  return decimalString(
    orderClass === 'crypto' ? price : usPriceOnTick(price, buying, orderClass === 'option', invalid),
  );
}

const BUY_ACTIONS = new Set(['buy', 'buy_to_cover', 'buy_to_open', 'buy_to_close']);
const OPTION_INTENTS = new Set(['buy_to_open', 'buy_to_close', 'sell_to_open', 'sell_to_close']);

export function toAlpacaOrder(order: Order, clientOrderId: string): AlpacaOrderRequest {
  if (clientOrderId.length > 128) throw invalid('client order id longer than 128 characters');
  const request: AlpacaOrderRequest = {
    symbol: alpacaSymbol(order.symbol, order.class),
    side: BUY_ACTIONS.has(order.action) ? 'buy' : 'sell',
    type: order.type,
    time_in_force: order.duration,
    client_order_id: clientOrderId,
  };
  if (order.class === 'crypto' && (order.action === 'sell_short' || order.action === 'buy_to_cover'))
    throw invalid('crypto cannot be sold short');
  if (OPTION_INTENTS.has(order.action)) request.position_intent = order.action as AlpacaOrderRequest['position_intent'];
  if (order.quantity === undefined) throw invalid('quantity is required');
  if (order.quantity_type === 'fixed') request.qty = quantityString(order.quantity);
  else if (order.quantity_type === 'cash' && order.class !== 'option')
    request.notional = quantityString(order.quantity);
  else throw invalid(`quantity_type ${order.quantity_type} is not supported for ${order.class} ${order.action} orders`);
  const buying = request.side === 'buy';
  if (order.limit_price !== undefined) request.limit_price = priceString(order.limit_price, order.class, buying);
  if (order.stop_price !== undefined) request.stop_price = priceString(order.stop_price, order.class, buying);
  const trail = order.stop_price_distance ?? order.stop_price_percent;
  if (trail !== undefined) {
    if (order.type !== 'stop') throw invalid('a trailing distance goes with type stop (an Alpaca trailing stop)');
    request.type = 'trailing_stop';
    if (order.stop_price_distance !== undefined) request.trail_price = decimalString(trail);
    else request.trail_percent = decimalString(trail);
  }
  if (extraFlag(order, 'extended_hours', invalid)) request.extended_hours = true;
  addExits(order, request);
  return request;
}

function addExits(order: Order, request: AlpacaOrderRequest): void {
  if (order.take_profit_price === undefined && order.stop_loss_price === undefined) return;
  if (order.class !== 'stock') throw invalid('take_profit_price and stop_loss_price are for stock orders only');
  // The exits close the entry: a long's are sells, a short's buys.
  const buying = request.side === 'sell';
  if (order.take_profit_price !== undefined)
    request.take_profit = { limit_price: priceString(order.take_profit_price, order.class, buying) };
  if (order.stop_loss_price !== undefined)
    request.stop_loss = { stop_price: priceString(order.stop_loss_price, order.class, buying) };
  request.order_class = request.take_profit && request.stop_loss ? 'bracket' : 'oto';
}

const FINAL_STATUSES: Record<string, OrderResponse['status']> = {
  filled: 'filled',
  canceled: 'canceled',
  expired: 'canceled',
  replaced: 'canceled',
  rejected: 'rejected',
  // Not here: suspended ("not eligible for trading", openapi.yaml OrderStatus) is no end, unlike
  // rejected ("no further updates will occur"): the order stands and may still fill.
};

/**
 * Alpaca's Order → ours. Working states (new, accepted, pending_new, partially_filled, …) are
 * `accepted`; the average price is the fill so far.
 *   {"id":"61e69015-…","client_order_id":"sig_1","status":"filled","filled_qty":"2","filled_avg_price":"174.2"}
 */
export function fromAlpacaOrder(body: unknown, submitted = false): OrderResponse {
  const id = stringField(body, 'id');
  const status = stringField(body, 'status');
  if (!id || !status) {
    // After a submission the order may exist all the same: reconciliation by client order id decides.
    throw new BrokerError('BrokerUnavailable', ALPACA_TITLE, 'unexpected order answer', { outcomeUnknown: submitted });
  }
  const price = decimalField(body, 'filled_avg_price');
  const filled = decimalField(body, 'filled_qty');
  const ordered =
    stringField(body, 'qty') ?? (stringField(body, 'notional') ? `${stringField(body, 'notional')} USD` : '');
  const progress = status === 'partially_filled' && filled !== undefined ? `, ${filled} of ${ordered} filled` : '';
  return {
    id,
    status: FINAL_STATUSES[status] ?? 'accepted',
    status_description: `Alpaca order ${status.replace(/_/g, ' ')}${progress}`,
    ...(price !== undefined && price > 0 ? { price } : {}),
  };
}
