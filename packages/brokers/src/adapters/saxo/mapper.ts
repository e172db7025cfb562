// A normalized order as Saxo's POST /trade/v2/orders body (WIRE.md §4; broker-specs/saxo/fixtures):
//   {"AccountKey","Uic":211,"AssetType":"Stock","BuySell":"Buy","Amount":100,"OrderType":"Limit",
//    "OrderPrice":175.25,"OrderDuration":{"DurationType":"DayOrder"},"ExternalReference":"sig-…",
//    "ManualOrder":false,"Orders":[take profit Limit, stop loss StopIfTraded]}
// A bracket's exits are related orders: the opposite side, the same Uic and Amount, good till
// canceled; Saxo makes them one-cancels-other. StopLimit triggers at OrderPrice and limits at
// StopLimitPrice. Options say whether they open or close (ToOpenClose). One-cancels-other (group
// oco, two limit legs) is the published OCO form: {"Orders":[order 1, order 2]}, no entry.
import type { Order, OrderAction, OrderLeg } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { priceOnKnownTick, usPriceOnTick } from '../../core/ticks.ts';
import { SAXO_TITLE } from './descriptor.ts';
import type { SaxoInstrument } from './instruments.ts';

export interface SaxoDuration {
  DurationType: string;
  ExpirationDateTime?: string;
  ExpirationDateContainsTime?: boolean;
}

export interface SaxoOrder {
  AccountKey: string;
  Uic: number;
  AssetType: string;
  BuySell: 'Buy' | 'Sell';
  Amount: number;
  OrderType: string;
  OrderPrice?: number;
  StopLimitPrice?: number;
  OrderDuration: SaxoDuration;
  ToOpenClose?: 'ToOpen' | 'ToClose';
  ExternalReference?: string;
  ManualOrder: false;
  Orders?: SaxoOrder[];
}

const DURATIONS: Partial<Record<Order['duration'], string>> = {
  day: 'DayOrder',
  gtc: 'GoodTillCancel',
  gtd: 'GoodTillDate',
  ioc: 'ImmediateOrCancel',
  fok: 'FillOrKill',
  ato: 'AtTheOpening',
  atc: 'AtTheClose',
};
const SIDES: Partial<Record<OrderAction, { side: 'Buy' | 'Sell'; openClose?: 'ToOpen' | 'ToClose' }>> = {
  buy: { side: 'Buy' },
  buy_to_cover: { side: 'Buy' },
  sell: { side: 'Sell' },
  sell_short: { side: 'Sell' },
  buy_to_open: { side: 'Buy', openClose: 'ToOpen' },
  buy_to_close: { side: 'Buy', openClose: 'ToClose' },
  sell_to_open: { side: 'Sell', openClose: 'ToOpen' },
  sell_to_close: { side: 'Sell', openClose: 'ToClose' },
};

const invalid = (message: string) => new BrokerError('InvalidOrder', SAXO_TITLE, message);
const noNoise = (value: number) => Math.round(value * 1e8) / 1e8;
const US_TICKED = ['Stock', 'Etf', 'StockOption', 'StockIndexOption'];

/**
 * The prices of one side of an order, since Saxo refuses a price off the instrument's tick
 * (WIRE.md §4): a US stock, ETF or option (in USD) on the US tick, a future on its root's known
 * tick, never past the trader's (a buy's down, a sell's up; see usPriceOnTick); others as given,
 * without float noise.
 */
function pricer(instrument: SaxoInstrument, side: 'Buy' | 'Sell'): (value: number) => number {
  const buying = side === 'Buy';
  const { tick } = instrument;
  if (tick !== undefined)
    return (value) => priceOnKnownTick(noNoise(value), tick, buying, (message) => invalid(`price ${message}`));
  if (instrument.currency !== 'USD' || !US_TICKED.includes(instrument.assetType)) return noNoise;
  const option = instrument.assetType.endsWith('Option');
  return (value) => usPriceOnTick(noNoise(value), buying, option, invalid);
}
/** FX trades on the bid and ask; everything else stops on the last trade. */
const stopType = (instrument: SaxoInstrument) => (instrument.assetType === 'FxSpot' ? 'Stop' : 'StopIfTraded');

function durationOf(order: Order): SaxoDuration {
  const type = DURATIONS[order.duration];
  if (!type) throw invalid(`duration ${order.duration} is not supported; use day, gtc, gtd, ioc, fok, ato or atc`);
  if (type !== 'GoodTillDate') return { DurationType: type };
  const expiration = String(order.extra?.expiration ?? '');
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::\d{2})?)?$/.exec(expiration);
  if (!match) throw invalid('a gtd order needs extra.expiration as YYYY-MM-DD or YYYY-MM-DDTHH:MM');
  return {
    DurationType: type,
    ExpirationDateTime: `${match[1]}T${match[2] ?? '00:00'}:00`,
    ExpirationDateContainsTime: match[2] !== undefined,
  };
}

function checkAbsolute(order: Order): void {
  for (const field of [
    'stop_price_distance',
    'stop_price_percent',
    'stop_loss_price_distance',
    'stop_loss_price_percent',
  ] as const) {
    if (order[field] !== undefined) throw invalid(`${field} is not supported; give an absolute price`);
  }
}

function typeAndPrices(
  order: Order,
  instrument: SaxoInstrument,
  side: 'Buy' | 'Sell',
): Pick<SaxoOrder, 'OrderType' | 'OrderPrice' | 'StopLimitPrice'> {
  const { limit_price: limit, stop_price: stop } = order;
  const price = pricer(instrument, side);
  switch (order.type) {
    case 'market':
      return { OrderType: 'Market' };
    case 'limit':
      return { OrderType: 'Limit', OrderPrice: price(limit ?? 0) };
    case 'stop':
      return { OrderType: stopType(instrument), OrderPrice: price(stop ?? 0) };
    case 'stop_limit':
      return { OrderType: 'StopLimit', OrderPrice: price(stop ?? 0), StopLimitPrice: price(limit ?? 0) };
  }
}

/** A body checked now, completed with the instrument Saxo lists and the account later. */
export type ToInstrument = (instrument: SaxoInstrument, accountKey: string) => SaxoOrder;

/**
 * The body Saxo receives for a signal (close and cancel are the adapter's): every refusal that
 * needs no instrument thrown here, before any lookup (Broker.checkOrder stops at this point).
 */
export function toSaxoOrder(order: Order, reference: string): ToInstrument {
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is not supported`);
  if (order.legs && order.legs.length > 1) throw invalid('legs are sent only as one-cancels-other (group oco)');
  if (order.quantity === undefined || order.quantity <= 0) throw invalid('quantity is required');
  const sides = SIDES[order.action];
  if (!sides) throw invalid(`${order.action} is not an order action`);
  checkAbsolute(order);
  const duration = durationOf(order);
  const amount = order.quantity;
  return (instrument, accountKey) => {
    const option = instrument.assetType.endsWith('Option');
    const entry: SaxoOrder = {
      AccountKey: accountKey,
      Uic: instrument.uic,
      AssetType: instrument.assetType,
      BuySell: sides.side,
      Amount: amount,
      ...typeAndPrices(order, instrument, sides.side),
      OrderDuration: duration,
      ...(option ? { ToOpenClose: sides.openClose ?? (sides.side === 'Buy' ? 'ToOpen' : 'ToClose') } : {}),
      ExternalReference: reference,
      ManualOrder: false,
    };
    const exits = exitsOf(order, entry, instrument);
    return exits.length ? { ...entry, Orders: exits } : entry;
  };
}

function exitsOf(order: Order, entry: SaxoOrder, instrument: SaxoInstrument): SaxoOrder[] {
  if (order.take_profit_price === undefined && order.stop_loss_price === undefined) return [];
  if (entry.ToOpenClose === 'ToClose') throw invalid('take profit and stop loss need an opening order');
  const side = entry.BuySell === 'Buy' ? 'Sell' : 'Buy';
  const price = pricer(instrument, side);
  const exit = (fields: Pick<SaxoOrder, 'OrderType' | 'OrderPrice'>): SaxoOrder => ({
    AccountKey: entry.AccountKey,
    Uic: entry.Uic,
    AssetType: entry.AssetType,
    BuySell: side,
    Amount: entry.Amount,
    ...fields,
    OrderDuration: { DurationType: 'GoodTillCancel' },
    ...(entry.ToOpenClose ? { ToOpenClose: 'ToClose' as const } : {}),
    ManualOrder: false,
  });
  const exits: SaxoOrder[] = [];
  if (order.take_profit_price !== undefined)
    exits.push(exit({ OrderType: 'Limit', OrderPrice: price(order.take_profit_price) }));
  if (order.stop_loss_price !== undefined)
    exits.push(exit({ OrderType: stopType(instrument), OrderPrice: price(order.stop_loss_price) }));
  return exits;
}

/** Saxo's OCO of two stand-alone orders: no entry, top-level Orders. */
export interface SaxoOco {
  Orders: [SaxoOrder, SaxoOrder];
}

/** The legs of a one-cancels-other pair, checked before anything is sent. */
function ocoLegs(order: Order): [OrderLeg, OrderLeg] {
  const [first, second, ...more] = order.legs ?? [];
  if (order.group !== 'oco' || !first || !second || more.length)
    throw invalid('legs are sent only as one-cancels-other: group oco with exactly two legs');
  if (order.take_profit_price !== undefined || order.stop_loss_price !== undefined)
    throw invalid('a one-cancels-other pair takes no take profit or stop loss');
  for (const leg of [first, second]) {
    if ((leg.type ?? 'limit') !== 'limit' || leg.limit_price === undefined)
      throw invalid('each leg of a one-cancels-other pair is a limit order with its limit_price');
  }
  return [first, second];
}

/**
 * Both legs carry our reference (Saxo does not need it unique), so a lost pair is found by either
 * leg, even when Saxo refused the other. The legs and each leg's order are checked now.
 */
/** A pair's legs, checked, and its body once each leg's instrument is known. */
export interface SaxoOcoPlan {
  legs: [OrderLeg, OrderLeg];
  build: (instruments: [SaxoInstrument, SaxoInstrument], accountKey: string) => SaxoOco;
}

export function toSaxoOco(order: Order, reference: string): SaxoOcoPlan {
  const single = (leg: OrderLeg): ToInstrument => {
    const { legs: _legs, group: _group, ...rest } = order;
    const alone: Order = { ...rest, ...leg, type: 'limit' };
    return toSaxoOrder(alone, reference);
  };
  const legs = ocoLegs(order);
  const first = single(legs[0]);
  const second = single(legs[1]);
  return {
    legs,
    build: ([one, other], accountKey) => ({ Orders: [first(one, accountKey), second(other, accountKey)] }),
  };
}
