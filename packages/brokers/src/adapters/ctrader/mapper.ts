// Our order → ProtoOANewOrderReq (WIRE.md §4), refused here, before anything is sent, where
// cTrader would refuse it or could only misread it:
//   {symbol: EURUSD, action: buy, quantity: 1000, stop_loss_price_distance: 0.005}
//   → {symbolId: 1, orderType: 1, tradeSide: 1, volume: 100000, relativeStopLoss: 500, clientOrderId: "…"}
// Volume counts hundredths of a unit; relative stops count 1/100000 of a price unit; a stop-limit's
// limit travels as a slippage in whole points (10^-digits) from the stop price, never past the limit;
// prices go in the symbol's digits (cTrader refuses more: TRADING_BAD_PRICES).
import type { Order } from '@router/orders';
import { boundedId } from '../../ccxt/client-id.ts';
import { BrokerError } from '../../core/errors.ts';
import type { JsonRecord } from '../../core/json-read.ts';
import { positiveOnTick } from '../../core/ticks.ts';
import { CLIENT_ORDER_ID_MAX, CTRADER_TITLE } from './descriptor.ts';
import type { SymbolDetails } from './symbols.ts';

export const ORDER_TYPE = { market: 1, limit: 2, stop: 3, stop_limit: 6 } as const;
export const TRADE_SIDE = { BUY: 1, SELL: 2 } as const;
export const TIME_IN_FORCE = { gtd: 1, gtc: 2, ioc: 3, fok: 4 } as const;
/** Relative stop loss and take profit are in 1/100000 of a price unit. */
const RELATIVE_SCALE = 100_000;
const LABEL_MAX = 100;
const COMMENT_MAX = 512;

/** Our signal id as cTrader's clientOrderId: itself when it fits (50 printable characters), else its hash. */
export const clientOrderIdFor = (id: string) => boundedId(id, CLIENT_ORDER_ID_MAX, /^[\x21-\x7E]+$/);

const refuse = (message: string) => new BrokerError('InvalidOrder', CTRADER_TITLE, message);

export function tradeSideOf(action: Order['action']): number {
  if (action === 'buy' || action === 'buy_to_cover') return TRADE_SIDE.BUY;
  if (action === 'sell' || action === 'sell_short') return TRADE_SIDE.SELL;
  throw refuse(`${action} is not an order side`);
}

/** Units → cTrader volume (hundredths of a unit), refused before any lookup unless a whole number of them. */
export function hundredthsOf(quantity: number): number {
  const volume = Math.round(quantity * 100);
  if (volume <= 0 || Math.abs(volume - quantity * 100) > 1e-6) {
    throw refuse(`quantity ${quantity} must be positive with at most 2 decimals (cTrader counts hundredths of a unit)`);
  }
  return volume;
}

/** A volume (hundredthsOf `quantity`) within the symbol's limits. */
function withinLimits(volume: number, quantity: number, symbol: SymbolDetails): number {
  const units = (value: number) => value / 100;
  if (symbol.minVolume !== undefined && volume < symbol.minVolume)
    throw refuse(`quantity ${quantity} is below ${symbol.name}'s minimum of ${units(symbol.minVolume)} units`);
  if (symbol.maxVolume !== undefined && volume > symbol.maxVolume)
    throw refuse(`quantity ${quantity} is above ${symbol.name}'s maximum of ${units(symbol.maxVolume)} units`);
  if (symbol.stepVolume !== undefined && volume % symbol.stepVolume !== 0)
    throw refuse(
      `quantity ${quantity} is not a multiple of ${symbol.name}'s step of ${units(symbol.stepVolume)} units`,
    );
  return volume;
}

/**
 * A close's units → volume: checked now (hundredthsOf), then in the symbol's minimum and steps, as
 * cTrader closes a part (no maximum: a close spanning several positions sends each its own part).
 * Checked before anything is closed, so an odd amount does not close one position and then fail
 * on the next.
 */
export function closeVolumeOf(quantity: number | undefined): ((symbol: SymbolDetails) => number) | undefined {
  if (quantity === undefined) return undefined;
  const volume = hundredthsOf(quantity);
  return ({ maxVolume: _maximum, ...limits }) => withinLimits(volume, quantity, limits);
}

/**
 * A distance in 1/100000 of a price unit, on the symbol's digits (the exit cTrader derives from
 * the fill is a price, so a finer distance gives it more digits than the symbol allows: 10^-3 for a
 * 3-digit symbol is 100 of these units). A take profit is a limit: its distance rounds up, so the
 * exit is never closer to the entry than the trader's (rounding 5.4 down to 5 would take the profit
 * short of it); a stop loss's rounds to the nearest.
 */
function relative(
  distance: number | undefined,
  field: string,
  round: (value: number) => number = Math.round,
): ((symbol: SymbolDetails) => number) | undefined {
  if (distance === undefined) return undefined;
  if (!(round(distance * RELATIVE_SCALE) > 0)) throw refuse(`${field} must be a positive distance of at least 0.00001`);
  return (symbol) => {
    const step = RELATIVE_SCALE / 10 ** Math.min(symbol.digits, 5);
    const scaled = round((distance * RELATIVE_SCALE) / step) * step;
    if (!(scaled > 0))
      throw refuse(`${field} ${distance} is less than ${symbol.name}'s price step of ${step / RELATIVE_SCALE}`);
    return scaled;
  };
}

function numberExtra(order: Order, key: string): number | undefined {
  const value = order.extra?.[key];
  if (value === undefined) return undefined;
  const parsed = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(parsed)) throw refuse(`extra.${key} must be a number`);
  return parsed;
}

function textExtra(order: Order, key: string, max: number): string | undefined {
  const value = order.extra?.[key];
  if (value === undefined) return undefined;
  const text = String(value);
  if (text.length > max) throw refuse(`extra.${key} is longer than ${max} characters`);
  return text;
}

/** extra.expiration_time as ms since epoch (ISO time or ms). */
function expirationOf(order: Order): number | undefined {
  const value = order.extra?.expiration_time;
  if (value === undefined) return undefined;
  const at =
    typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : Date.parse(String(value));
  if (!Number.isFinite(at)) throw refuse('extra.expiration_time must be an ISO time or ms since epoch');
  return at;
}

function timeInForce(order: Order): JsonRecord {
  const expiration = expirationOf(order);
  if (order.duration === 'gtd') {
    if (expiration === undefined) throw refuse('a gtd order needs extra.expiration_time');
    if (order.type === 'market') throw refuse('a market order executes at once; gtd is for pending orders');
    return { timeInForce: TIME_IN_FORCE.gtd, expirationTimestamp: expiration };
  }
  if (expiration !== undefined) throw refuse('extra.expiration_time is only for gtd orders');
  const value = TIME_IN_FORCE[order.duration as keyof typeof TIME_IN_FORCE];
  if (value === undefined) throw refuse(`duration ${order.duration} is not available; use gtc, gtd, ioc or fok`);
  // A market order fills at once or not at all: only fill-or-kill changes what cTrader does.
  if (order.type === 'market') return order.duration === 'fok' ? { timeInForce: value } : {};
  return { timeInForce: value };
}

/**
 * A price in the symbol's digits, which cTrader refuses more of: never past the trader's (a buy's
 * down, a sell's up; a stop alike, as the other adapters round it), refused if that takes it to 0.
 */
function inDigits(value: number, buying: boolean, field: string, symbol: SymbolDetails): number {
  return positiveOnTick(value, 10 ** -symbol.digits, buying ? 'down' : 'up', (m) => refuse(`${field} ${m}`));
}

/** The prices, checked now, in the symbol's digits; a stop-limit's slippage counts the symbol's points. */
function prices(order: Order, side: number): (symbol: SymbolDetails) => JsonRecord {
  const need = (value: number | undefined, field: string) => {
    if (value === undefined) throw refuse(`a ${order.type} order needs ${field}`);
    return value;
  };
  const buying = side === TRADE_SIDE.BUY;
  switch (order.type) {
    case 'market':
      return () => ({});
    case 'limit': {
      const limit = need(order.limit_price, 'limit_price');
      return (symbol) => ({ limitPrice: inDigits(limit, buying, 'limit_price', symbol) });
    }
    case 'stop': {
      const stop = need(order.stop_price, 'stop_price');
      return (symbol) => ({ stopPrice: inDigits(stop, buying, 'stop_price', symbol) });
    }
    case 'stop_limit': {
      const stop = need(order.stop_price, 'stop_price');
      const limit = need(order.limit_price, 'limit_price');
      const beyond = (from: number) => (buying ? limit - from : from - limit);
      if (beyond(stop) < 0) {
        throw refuse(`a stop_limit ${buying ? 'buy' : 'sell'} needs its limit at or beyond its stop price`);
      }
      // Whole points from the stop as sent: the limit cTrader derives never goes past the trader's
      // (a buy's above it, a sell's below it); the epsilon keeps 0.0002 (1.9999… points) at 20.
      return (symbol) => {
        const stopPrice = inDigits(stop, buying, 'stop_price', symbol);
        return { stopPrice, slippageInPoints: Math.floor(beyond(stopPrice) * 10 ** symbol.digits + 1e-6) };
      };
    }
  }
}

/** Stop loss and take profit: distances checked now, absolute prices in the symbol's digits. */
function protection(order: Order, side: number): (symbol: SymbolDetails) => JsonRecord {
  const takeDistance = numberExtra(order, 'take_profit_distance');
  if (order.stop_loss_price !== undefined && order.stop_loss_price_distance !== undefined)
    throw refuse('give stop_loss_price or stop_loss_price_distance, not both');
  if (order.take_profit_price !== undefined && takeDistance !== undefined)
    throw refuse('give take_profit_price or extra.take_profit_distance, not both');
  if (order.type === 'market' && (order.stop_loss_price !== undefined || order.take_profit_price !== undefined)) {
    throw refuse(
      'a market order takes its stop loss and take profit as distances (stop_loss_price_distance, extra.take_profit_distance)',
    );
  }
  const relativeStopLoss = relative(order.stop_loss_price_distance, 'stop_loss_price_distance');
  // The tolerance keeps a distance already in whole steps (0.00051 × 100000 = 51.00000000000001) where it is.
  const relativeTakeProfit = relative(takeDistance, 'extra.take_profit_distance', (value) => Math.ceil(value - 1e-6));
  // The exits trade the other side: a long's take profit is a sell, rounded up, its stop loss too.
  const exitBuys = side !== TRADE_SIDE.BUY;
  const { stop_loss_price: stopLoss, take_profit_price: takeProfit } = order;
  return (symbol) => ({
    ...(stopLoss !== undefined ? { stopLoss: inDigits(stopLoss, exitBuys, 'stop_loss_price', symbol) } : {}),
    ...(takeProfit !== undefined ? { takeProfit: inDigits(takeProfit, exitBuys, 'take_profit_price', symbol) } : {}),
    ...(relativeStopLoss ? { relativeStopLoss: relativeStopLoss(symbol) } : {}),
    ...(relativeTakeProfit ? { relativeTakeProfit: relativeTakeProfit(symbol) } : {}),
  });
}

/**
 * The ProtoOANewOrderReq payload (without the account, which the client adds): every refusal that
 * needs no symbol details thrown here, before any call (Broker.checkOrder stops at this point).
 */
export function toNewOrder(order: Order, clientOrderId: string): (symbol: SymbolDetails) => JsonRecord {
  if (order.quantity_type !== 'fixed') throw refuse(`quantity_type ${order.quantity_type} is not available`);
  if (order.quantity === undefined) throw refuse('quantity is required');
  const { quantity } = order;
  const tradeSide = tradeSideOf(order.action);
  const label = textExtra(order, 'label', LABEL_MAX);
  const comment = textExtra(order, 'comment', COMMENT_MAX);
  const volume = hundredthsOf(quantity);
  const priced = prices(order, tradeSide);
  const timed = timeInForce(order);
  const protect = protection(order, tradeSide);
  return (symbol) => ({
    symbolId: symbol.symbolId,
    orderType: ORDER_TYPE[order.type],
    tradeSide,
    volume: withinLimits(volume, quantity, symbol),
    ...priced(symbol),
    ...timed,
    ...protect(symbol),
    ...(label !== undefined ? { label } : {}),
    ...(comment !== undefined ? { comment } : {}),
    clientOrderId,
  });
}
