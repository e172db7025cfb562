// A normalized order as E*TRADE's PreviewOrderRequest (WIRE.md §4). The preview of the guide:
//   {"orderType":"EQ","clientOrderId":"sig20260609x0001","Order":[{"allOrNone":false,"priceType":"LIMIT",
//    "orderTerm":"GOOD_FOR_DAY","marketSession":"REGULAR","limitPrice":175.25,"Instrument":[{"Product":
//    {"securityType":"EQ","symbol":"AAPL"},"orderAction":"BUY","quantityType":"QUANTITY","quantity":100}]}]}
// Options are not OCC strings on the wire: the underlying plus callPut, expiry and strike.
// Multi-leg orders are one Order with several Instruments and a net price (strategy.ts).
import { type Order, type OrderAction, type OrderClass, parseSymbol } from '@router/orders';
import { boundedId } from '../../ccxt/client-id.ts';
import { BrokerError } from '../../core/errors.ts';
import { extraFlag } from '../../core/extra-flag.ts';
import { usPriceOnTick } from '../../core/ticks.ts';
import { ETRADE_TITLE } from './descriptor.ts';
import { spreadOf } from './strategy.ts';

export interface EtradeProduct {
  securityType: 'EQ' | 'OPTN';
  symbol: string;
  callPut?: 'CALL' | 'PUT';
  expiryYear?: number;
  expiryMonth?: number;
  expiryDay?: number;
  strikePrice?: number;
}

export interface EtradeInstrument {
  Product: EtradeProduct;
  orderAction: string;
  quantityType: 'QUANTITY';
  quantity: number;
}

export interface EtradeOrderDetail {
  allOrNone: boolean;
  priceType: string;
  orderTerm: string;
  marketSession: 'REGULAR' | 'EXTENDED';
  limitPrice?: number;
  stopPrice?: number;
  stopLimitPrice?: number;
  Instrument: EtradeInstrument[];
}

export interface EtradeOrderRequest {
  orderType: string;
  clientOrderId: string;
  Order: [EtradeOrderDetail];
}

const ACTIONS: Partial<Record<OrderAction, string>> = {
  buy: 'BUY',
  sell: 'SELL',
  sell_short: 'SELL_SHORT',
  buy_to_cover: 'BUY_TO_COVER',
  buy_to_open: 'BUY_OPEN',
  sell_to_open: 'SELL_OPEN',
  buy_to_close: 'BUY_CLOSE',
  sell_to_close: 'SELL_CLOSE',
};
const TERMS: Partial<Record<Order['duration'], string>> = {
  day: 'GOOD_FOR_DAY',
  gtc: 'GOOD_UNTIL_CANCEL',
  ioc: 'IMMEDIATE_OR_CANCEL',
  fok: 'FILL_OR_KILL',
  // On the open or the close: a day order of the matching price type.
  ato: 'GOOD_FOR_DAY',
  atc: 'GOOD_FOR_DAY',
};
const PRICE_TYPES = { market: 'MARKET', limit: 'LIMIT', stop: 'STOP', stop_limit: 'STOP_LIMIT' } as const;
const AUCTION_TYPES: Partial<Record<string, Partial<Record<Order['type'], string>>>> = {
  ato: { market: 'MARKET_ON_OPEN', limit: 'LIMIT_ON_OPEN' },
  atc: { market: 'MARKET_ON_CLOSE', limit: 'LIMIT_ON_CLOSE' },
};

/** Our signal id as E*TRADE's clientOrderId: itself when it fits (20 letters and digits), else its hash. */
export const etradeClientOrderId = (id: string) => boundedId(id, 20, /^[A-Za-z0-9]+$/);

export const invalid = (message: string) => new BrokerError('InvalidOrder', ETRADE_TITLE, message);
/** A price on the US tick, never past the trader's: `buying` rounds down, selling up (see usPriceOnTick). */
const price = (value: number, buying: boolean, option: boolean) => usPriceOnTick(value, buying, option, invalid);

export function productOf(symbol: string, orderClass: OrderClass): EtradeProduct {
  if (orderClass === 'stock') return { securityType: 'EQ', symbol: symbol.trim().toUpperCase() };
  if (orderClass !== 'option') throw invalid(`${orderClass} is not traded through the E*TRADE API`);
  const { parts } = parseSymbol(symbol);
  if (parts.kind !== 'option') throw invalid(`${symbol} is not an option symbol`);
  const [year, month, day] = parts.expiry.split('-').map(Number);
  return {
    securityType: 'OPTN',
    symbol: parts.root,
    callPut: parts.right === 'C' ? 'CALL' : 'PUT',
    expiryYear: year ?? 0,
    expiryMonth: month ?? 0,
    expiryDay: day ?? 0,
    strikePrice: parts.strike,
  };
}

export function instrumentOf(symbol: string, orderClass: OrderClass, action: OrderAction, quantity: number) {
  const orderAction = ACTIONS[action];
  if (!orderAction) throw invalid(`${action} is not an order action`);
  if (!Number.isInteger(quantity) || quantity <= 0)
    throw invalid('quantity must be a whole number of shares or contracts');
  const instrument: EtradeInstrument = {
    Product: productOf(symbol, orderClass),
    orderAction,
    quantityType: 'QUANTITY',
    quantity,
  };
  return instrument;
}

function sessionOf(order: Order): 'REGULAR' | 'EXTENDED' {
  const session = order.extra?.session;
  if (session === undefined) return 'REGULAR';
  const value = String(session).toUpperCase();
  if (value !== 'REGULAR' && value !== 'EXTENDED') throw invalid(`extra.session ${session} is not regular or extended`);
  return value;
}

type Terms = Omit<EtradeOrderDetail, 'Instrument'>;

function termsOf(order: Order, priceType: string): Terms {
  const orderTerm = TERMS[order.duration];
  if (!orderTerm) throw invalid(`duration ${order.duration} is not supported; use day, gtc, ioc, fok, ato or atc`);
  return {
    allOrNone: extraFlag(order, 'all_or_none', invalid) === true,
    priceType,
    orderTerm,
    marketSession: sessionOf(order),
  };
}

function singlePriceType(order: Order): string {
  const auction = AUCTION_TYPES[order.duration];
  if (!auction) return PRICE_TYPES[order.type];
  const type = auction[order.type];
  if (!type) throw invalid(`${order.duration} takes market or limit orders`);
  return type;
}

/** The PreviewOrderRequest for a signal (close and cancel are the adapter's). */
export function toEtradeOrder(order: Order, clientOrderId: string): EtradeOrderRequest {
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is not supported`);
  for (const field of ['stop_price_distance', 'stop_price_percent'] as const) {
    if (order[field] !== undefined) throw invalid(`${field} is not supported; give stop_price`);
  }
  if (order.legs && order.legs.length > 1) return multiLeg(order, clientOrderId);
  if (order.quantity === undefined) throw invalid('quantity is required');
  const instrument = instrumentOf(order.symbol, order.class, order.action, order.quantity);
  const detail = termsOf(order, singlePriceType(order));
  const buying = order.action.startsWith('buy');
  const option = instrument.Product.securityType === 'OPTN';
  if (order.limit_price !== undefined) detail.limitPrice = price(order.limit_price, buying, option);
  if (order.stop_price !== undefined) detail.stopPrice = price(order.stop_price, buying, option);
  // The trigger goes in stopPrice and the limit in limitPrice; the docs also name
  // stopLimitPrice, so it carries the same limit.
  if (order.type === 'stop_limit' && order.limit_price !== undefined)
    detail.stopLimitPrice = price(order.limit_price, buying, option);
  return {
    orderType: instrument.Product.securityType === 'OPTN' ? 'OPTN' : 'EQ',
    clientOrderId,
    Order: [{ ...detail, Instrument: [instrument] }],
  };
}

function multiLeg(order: Order, clientOrderId: string): EtradeOrderRequest {
  const legs = order.legs ?? [];
  if (order.group !== 'combo') throw invalid(`group ${order.group} with legs is not supported; use combo`);
  if (legs.length > 4) throw invalid('at most 4 legs');
  if (legs.some((leg) => leg.limit_price !== undefined || leg.type !== undefined)) {
    throw invalid('legs take no type or price: give the net price as limit_price');
  }
  const net = order.limit_price;
  if (order.type !== 'limit' || net === undefined)
    throw invalid('a multi-leg order needs its net price as limit_price');
  const instruments = legs.map((leg) => instrumentOf(leg.symbol, leg.class, leg.action, leg.quantity));
  const priceType = net > 0 ? 'NET_DEBIT' : net < 0 ? 'NET_CREDIT' : 'NET_EVEN';
  const detail = termsOf(order, priceType);
  return {
    orderType: spreadOf(instruments),
    clientOrderId,
    // A debit is paid (rounded down), a credit received (rounded up): never past the trader's net.
    Order: [
      { ...detail, ...(net !== 0 ? { limitPrice: price(Math.abs(net), net > 0, true) } : {}), Instrument: instruments },
    ],
  };
}
