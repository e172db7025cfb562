// Normalized order → Webull's POST /openapi/trade/order/place (WIRE.md §4), the SDK samples' shape:
//   {"account_id":"…","new_orders":[{"combo_type":"NORMAL","client_order_id":"sig…","symbol":"AAPL",
//    "instrument_type":"EQUITY","market":"US","order_type":"LIMIT","limit_price":"188","quantity":"1",
//    "support_trading_session":"CORE","side":"BUY","time_in_force":"DAY","entrust_type":"QTY"}]}
// A bracket is three orders (MASTER, STOP_PROFIT, STOP_LOSS) each with its own client id, plus a
// client_combo_order_id; an option is one order with legs[]. Numbers are decimal strings as the
// samples send them. What Webull cannot take is refused here, before anything is sent.
import type { Order } from '@router/orders';
import { boundedId } from '../../ccxt/client-id.ts';
import { BrokerError } from '../../core/errors.ts';
import { decimalString, quantityString } from '../../core/json-read.ts';
import { priceOnKnownTick, usPriceOnTick } from '../../core/ticks.ts';
import { WEBULL_TITLE } from './descriptor.ts';
import {
  type OptionLeg,
  optionLeg,
  optionStrategy,
  sideOf,
  type WebullInstrument,
  webullInstrument,
  wireLeg,
} from './instruments.ts';

type WireOrder = Record<string, unknown>;

export interface WebullPlacement {
  body: { account_id: string; new_orders: WireOrder[]; client_combo_order_id?: string };
  /** The `category` header: US_EQUITY, US_OPTION, US_FUTURES, US_CRYPTO. */
  category: string;
}

const invalid = (message: string) => new BrokerError('InvalidOrder', WEBULL_TITLE, message);
const money = (value: number) => decimalString(value);

/**
 * A price as Webull takes it, never past the trader's (a buy's rounded down, a sell's up; a stop
 * alike): stocks and options on the US tick (see usPriceOnTick), futures on their contract's tick
 * where it is known (`tick`: ES's 0.25), crypto as given.
 */
function priceOf(value: number, instrumentType: string, buying: boolean, tick?: number): string {
  if (instrumentType === 'FUTURES')
    return money(priceOnKnownTick(value, tick, buying, (message) => invalid(`price ${message}`)));
  if (instrumentType !== 'EQUITY' && instrumentType !== 'OPTION') return money(value);
  return money(usPriceOnTick(value, buying, instrumentType === 'OPTION', invalid));
}

/**
 * Our id as Webull's client_order_id: itself when it is at most 30 letters and digits, else a hash
 * that is; a bracket's exits and combo add two letters (TP, SL, CB) within Webull's 32.
 */
export function webullClientId(clientOrderId: string): string {
  return boundedId(clientOrderId, 30, /^[A-Za-z0-9]+$/);
}

const TIF: Partial<Record<Order['duration'], string>> = { day: 'DAY', gtc: 'GTC', ioc: 'IOC', opg: 'DAY', cls: 'DAY' };

function timeInForce(order: Order, instrumentType: string): string {
  const tif = TIF[order.duration];
  if (!tif) throw invalid(`duration ${order.duration} is not one Webull takes`);
  if (
    (order.duration === 'opg' || order.duration === 'cls') &&
    (order.type !== 'market' || instrumentType !== 'EQUITY')
  )
    throw invalid('opg and cls are market orders for stocks (market on open, market on close)');
  // Webull fills crypto market orders at once or not at all.
  if (instrumentType === 'CRYPTO' && order.type === 'market') return 'IOC';
  if ((instrumentType === 'OPTION' || instrumentType === 'CRYPTO') && tif === 'IOC')
    throw invalid(`${instrumentType === 'OPTION' ? 'options' : 'crypto limit orders'} take day or gtc`);
  return tif;
}

/** order_type and its prices (`tick`: a future's). */
function pricing(order: Order, instrumentType: string, tick?: number): WireOrder {
  const trail = order.stop_price_distance ?? order.stop_price_percent;
  if (trail !== undefined) {
    if (order.type !== 'stop') throw invalid('a trailing distance goes with type stop (a trailing stop)');
    if (instrumentType === 'OPTION' || instrumentType === 'CRYPTO')
      throw invalid('trailing stops are for stocks and futures');
    const percent = order.stop_price_distance === undefined;
    return {
      order_type: 'TRAILING_STOP_LOSS',
      trailing_type: percent ? 'PERCENTAGE' : 'AMOUNT',
      // A percentage as a fraction: 0.01 is 1 %.
      trailing_stop_step: money(percent ? trail / 100 : trail),
    };
  }
  if (order.type === 'stop' && instrumentType === 'CRYPTO') throw invalid('crypto stops are stop_limit orders');
  const type =
    order.duration === 'opg'
      ? 'MARKET_ON_OPEN'
      : order.duration === 'cls'
        ? 'MARKET_ON_CLOSE'
        : { market: 'MARKET', limit: 'LIMIT', stop: 'STOP_LOSS', stop_limit: 'STOP_LOSS_LIMIT' }[order.type];
  const buying = sideOf(order.action) === 'BUY';
  return {
    order_type: type,
    ...(order.limit_price !== undefined
      ? { limit_price: priceOf(order.limit_price, instrumentType, buying, tick) }
      : {}),
    ...(order.stop_price !== undefined ? { stop_price: priceOf(order.stop_price, instrumentType, buying, tick) } : {}),
  };
}

function quantityFields(order: Order, instrumentType: string): WireOrder {
  if (order.quantity === undefined) throw invalid('quantity is required');
  if (order.quantity_type === 'cash') {
    if (instrumentType !== 'EQUITY' && instrumentType !== 'CRYPTO')
      throw invalid('a cash amount is for stocks and crypto');
    return { total_cash_amount: money(order.quantity), entrust_type: 'AMOUNT' };
  }
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is only for close`);
  if (instrumentType === 'FUTURES' && !Number.isInteger(order.quantity)) throw invalid('futures trade whole contracts');
  // Cut, never rounded up: 1.9999999999 shares go out as 1.999999999, not 2.
  return { quantity: quantityString(order.quantity), entrust_type: 'QTY' };
}

function session(order: Order, instrument: WebullInstrument): WireOrder {
  const given = order.extra?.session === undefined ? undefined : String(order.extra.session).toUpperCase();
  if (given !== undefined && !['CORE', 'ALL', 'NIGHT'].includes(given)) throw invalid('session is CORE, ALL or NIGHT');
  if (instrument.instrumentType !== 'EQUITY') {
    if (given !== undefined) throw invalid('session is for stock orders');
    return {};
  }
  return { support_trading_session: given ?? 'CORE' };
}

function singleOrder(order: Order, clientId: string, instrument: WebullInstrument): WireOrder {
  const side = order.action === 'sell_short' && instrument.instrumentType === 'EQUITY' ? 'SHORT' : sideOf(order.action);
  const { entrust_type: entrust, ...size } = quantityFields(order, instrument.instrumentType);
  return {
    combo_type: 'NORMAL',
    client_order_id: clientId,
    symbol: instrument.symbol,
    instrument_type: instrument.instrumentType,
    market: 'US',
    ...pricing(order, instrument.instrumentType, instrument.tick),
    ...size,
    ...session(order, instrument),
    side,
    time_in_force: timeInForce(order, instrument.instrumentType),
    entrust_type: entrust,
  };
}

/** A bracket's order in the field order of Webull's sample (bracket.request.json). */
function bracketOrder(clientId: string, comboType: string, priced: WireOrder, common: WireOrder): WireOrder {
  const { order_type: type, ...prices } = priced;
  const {
    side,
    entrust_type: entrust,
    time_in_force: tif,
    quantity,
    support_trading_session: session,
    ...instrument
  } = common;
  return {
    client_order_id: clientId,
    combo_type: comboType,
    ...instrument,
    order_type: type,
    quantity,
    support_trading_session: session,
    ...prices,
    side,
    entrust_type: entrust,
    time_in_force: tif,
  };
}

/** MASTER entry with a STOP_PROFIT and/or STOP_LOSS exit (stocks). */
function bracket(order: Order, base: string, instrument: WebullInstrument) {
  if (instrument.instrumentType !== 'EQUITY')
    throw invalid('take_profit_price and stop_loss_price are for stock orders');
  if (order.quantity_type !== 'fixed') throw invalid('a bracket takes a fixed quantity');
  const single = singleOrder(order, base, instrument);
  const common = (side: unknown): WireOrder => ({
    symbol: instrument.symbol,
    instrument_type: 'EQUITY',
    market: 'US',
    quantity: single.quantity,
    support_trading_session: single.support_trading_session,
    side,
    entrust_type: 'QTY',
    time_in_force: single.time_in_force,
  });
  const exitSide = single.side === 'BUY' ? 'SELL' : 'BUY';
  const orders = [bracketOrder(base, 'MASTER', pricing(order, 'EQUITY'), common(single.side))];
  if (order.take_profit_price !== undefined)
    orders.push(
      bracketOrder(
        `${base}TP`,
        'STOP_PROFIT',
        { order_type: 'LIMIT', limit_price: priceOf(order.take_profit_price, 'EQUITY', exitSide === 'BUY') },
        common(exitSide),
      ),
    );
  if (order.stop_loss_price !== undefined)
    orders.push(
      bracketOrder(
        `${base}SL`,
        'STOP_LOSS',
        { order_type: 'STOP_LOSS', stop_price: priceOf(order.stop_loss_price, 'EQUITY', exitSide === 'BUY') },
        common(exitSide),
      ),
    );
  return { client_combo_order_id: `${base}CB`, new_orders: orders };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** One option order: SINGLE, or a strategy of its legs with the net price. */
function optionOrder(order: Order, clientId: string): WireOrder {
  const legs: OptionLeg[] = (
    order.legs ?? [{ symbol: order.symbol, action: order.action, quantity: order.quantity ?? 0 }]
  ).map(optionLeg);
  if (order.quantity_type !== 'fixed') throw invalid('options trade a fixed number of contracts');
  if (order.stop_price_distance !== undefined || order.stop_price_percent !== undefined)
    throw invalid('trailing stops are for stocks and futures');
  const tif = timeInForce(order, 'OPTION');
  const [first] = legs;
  if (!first) throw invalid('an option order needs a leg');
  if (legs.length === 1) {
    const { order_type: type, ...prices } = pricing(order, 'OPTION');
    return {
      client_order_id: clientId,
      combo_type: 'NORMAL',
      order_type: type,
      quantity: String(first.quantity),
      ...prices,
      option_strategy: 'SINGLE',
      side: first.side,
      time_in_force: tif,
      entrust_type: 'QTY',
      position_intent: order.action.toUpperCase(),
      legs: [wireLeg(first)],
    };
  }
  if (order.type !== 'market' && order.type !== 'limit') throw invalid('a strategy is a market or limit order');
  const units = legs.reduce((all, leg) => gcd(all, leg.quantity), 0);
  const net = order.limit_price;
  return {
    client_order_id: clientId,
    combo_type: 'NORMAL',
    option_strategy: optionStrategy(legs),
    order_type: order.type === 'limit' ? 'LIMIT' : 'MARKET',
    // Bought for a debit, sold for a credit: the net price's sign.
    side: net === undefined ? first.side : net < 0 ? 'SELL' : 'BUY',
    time_in_force: tif,
    entrust_type: 'QTY',
    instrument_type: 'OPTION',
    market: 'US',
    symbol: first.root,
    quantity: String(units),
    // A debit paid no more than the net, a credit received no less.
    ...(net !== undefined ? { limit_price: priceOf(Math.abs(net), 'OPTION', net > 0) } : {}),
    legs: legs.map((leg) => wireLeg(leg)),
  };
}

/** The placement of an entry order (not close or cancel). */
export function toWebullPlacement(order: Order, accountId: string, clientOrderId: string): WebullPlacement {
  const clientId = webullClientId(clientOrderId);
  if (order.class === 'option') {
    if (order.take_profit_price !== undefined || order.stop_loss_price !== undefined)
      throw invalid('take_profit_price and stop_loss_price are for stock orders');
    return { body: { account_id: accountId, new_orders: [optionOrder(order, clientId)] }, category: 'US_OPTION' };
  }
  if (order.legs) throw invalid('multi-leg orders are option strategies');
  const instrument = webullInstrument(order.symbol, order.class);
  const category = `US_${instrument.instrumentType}`;
  if (order.take_profit_price !== undefined || order.stop_loss_price !== undefined)
    return { body: { account_id: accountId, ...bracket(order, clientId, instrument) }, category };
  return { body: { account_id: accountId, new_orders: [singleOrder(order, clientId, instrument)] }, category };
}
