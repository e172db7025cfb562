// The fake's checks of an order body, as Saxo checks them (WIRE.md §4, §8): ManualOrder required,
// a known account and instrument (Uic + AssetType), the enums, the prices each OrderType needs,
// ToOpenClose for options, prices on a US equity's tick, related orders on the opposite side, the OCO stop-leg rule. Model
// errors answer 400 InvalidModelState with ModelState; business errors 400 {"ErrorInfo":…}.
import { futureTickOf } from '@router/orders';
import { type FakeInstrument, instrumentOf } from './fake-ref.ts';

type Json = Record<string, unknown>;

export class FakeRefusal extends Error {
  readonly status: number;
  readonly body: Json;
  constructor(status: number, body: Json) {
    super(String(body.Message ?? ''));
    this.status = status;
    this.body = body;
  }
}

const ORDER_TYPES = [
  'Market',
  'Limit',
  'Stop',
  'StopIfTraded',
  'StopIfBid',
  'StopIfOffered',
  'StopLimit',
  'TrailingStop',
  'TrailingStopIfTraded',
  'TrailingStopIfBid',
  'TrailingStopIfOffered',
];
const DURATIONS = [
  'DayOrder',
  'GoodTillCancel',
  'GoodTillDate',
  'ImmediateOrCancel',
  'FillOrKill',
  'AtTheOpening',
  'AtTheClose',
];
const OCO_STOPS = ['TrailingStopIfTraded', 'StopIfTraded', 'StopLimit'];

export const record = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
export const list = (value: unknown): Json[] =>
  Array.isArray(value) ? value.map(record).filter((item): item is Json => item !== undefined) : [];

export const modelState = (field: string, message: string) =>
  new FakeRefusal(400, {
    Message: 'One or more properties of the request are invalid!',
    ModelState: { [field]: [message] },
    ErrorCode: 'InvalidModelState',
  });
export const business = (status: number, code: string, message: string) =>
  new FakeRefusal(status, { ErrorInfo: { ErrorCode: code, Message: message } });

/** Amount as Saxo reads it: a number, or a decimal string ("10000", as a recorded SIM order has it). */
export function amountOf(order: Json): number {
  const amount = typeof order.Amount === 'string' ? Number(order.Amount) : order.Amount;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0)
    throw modelState('Amount', 'Amount must be greater than 0');
  return amount;
}

export interface CheckedOrder {
  body: Json;
  instrument: FakeInstrument;
  amount: number;
}

/** One order of a placement checked; `accounts` are the AccountKeys of the session. */
export function checkOrder(order: Json, accounts: ReadonlySet<string>, path = ''): CheckedOrder {
  if (typeof order.ManualOrder !== 'boolean')
    throw modelState(`${path}ManualOrder`, 'The ManualOrder field is required.');
  if (!accounts.has(String(order.AccountKey))) throw business(400, 'InvalidAccountKey', 'Account key is invalid');
  const instrument = instrumentOf(order.Uic, order.AssetType);
  if (!instrument) throw business(400, 'IllegalInstrumentId', 'Instrument ID is invalid');
  if (order.BuySell !== 'Buy' && order.BuySell !== 'Sell')
    throw modelState(`${path}BuySell`, 'BuySell must be Buy or Sell');
  const amount = amountOf(order);
  const type = String(order.OrderType);
  if (!ORDER_TYPES.includes(type)) throw modelState(`${path}OrderType`, `OrderType ${type} is not valid`);
  const needsPrice = type !== 'Market';
  if (needsPrice && !(typeof order.OrderPrice === 'number' && order.OrderPrice > 0))
    throw modelState(`${path}OrderPrice`, `OrderPrice is required for ${type}`);
  if (type === 'StopLimit' && !(typeof order.StopLimitPrice === 'number' && order.StopLimitPrice > 0))
    throw modelState(`${path}StopLimitPrice`, 'StopLimitPrice is required for StopLimit');
  const duration = record(order.OrderDuration);
  if (duration) {
    if (!DURATIONS.includes(String(duration.DurationType)))
      throw modelState(`${path}OrderDuration`, 'DurationType is not valid');
    if (
      duration.DurationType === 'GoodTillDate' &&
      !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(String(duration.ExpirationDateTime))
    )
      throw modelState(`${path}OrderDuration`, 'ExpirationDateTime is required for GoodTillDate');
  }
  if (instrument.AssetType.endsWith('Option') && order.ToOpenClose !== 'ToOpen' && order.ToOpenClose !== 'ToClose')
    throw modelState(`${path}ToOpenClose`, 'ToOpenClose is required for options');
  if (order.ExternalReference !== undefined && String(order.ExternalReference).length > 50)
    throw modelState(`${path}ExternalReference`, 'ExternalReference can be at most 50 characters');
  return { body: order, instrument, amount };
}

/**
 * The tick checked: a future's where its root's is known (ESZ6:xcme → ES); a US stock's or
 * option's (Reg NMS 612: a cent, $0.0001 under a dollar; options in cents).
 */
function tickOf(instrument: FakeInstrument, price: number): number | undefined {
  if (instrument.AssetType === 'ContractFutures')
    return futureTickOf(/^([A-Z0-9]+?)[FGHJKMNQUVXZ]\d{1,2}:/.exec(instrument.Symbol)?.[1] ?? '');
  if (instrument.CurrencyCode !== 'USD') return undefined;
  if (instrument.AssetType.endsWith('Option')) return 0.01;
  if (instrument.AssetType !== 'Stock' && instrument.AssetType !== 'Etf') return undefined;
  return price >= 1 ? 0.01 : 0.0001;
}

/**
 * Prices off the instrument's tick size scheme are refused (WIRE.md §4), here for US equities and known futures;
 * after the model checks (a business error, as Saxo's own order of answers has it).
 */
export function checkTicks(orders: CheckedOrder[]): void {
  for (const { instrument, body } of orders) {
    for (const field of ['OrderPrice', 'StopLimitPrice']) {
      const price = body[field];
      const tick = typeof price === 'number' ? tickOf(instrument, price) : undefined;
      if (typeof price === 'number' && tick !== undefined && Math.abs(price / tick - Math.round(price / tick)) > 1e-6)
        throw business(
          400,
          'PriceNotInTickSizeIncrements',
          `${field} ${price} is not a multiple of the tick size ${tick}`,
        );
    }
  }
}

/** An entry and its related orders: exits on the other side, the same instrument and amount. */
export function checkRelated(entry: CheckedOrder, related: CheckedOrder[]): void {
  if (related.length > 2) throw modelState('Orders', 'At most two related orders');
  for (const exit of related) {
    if (exit.body.BuySell === entry.body.BuySell || exit.instrument.Identifier !== entry.instrument.Identifier)
      throw modelState('Orders', 'Related orders must close the entry: the other side of the same instrument');
  }
}

/** Two stand-alone orders one-cancels-other: outside FX the stop leg triggers on trades. */
export function checkOco(legs: CheckedOrder[]): void {
  if (legs.length !== 2) throw modelState('Orders', 'An OCO order takes two orders');
  for (const leg of legs) {
    const type = String(leg.body.OrderType);
    if (leg.instrument.AssetType !== 'FxSpot' && type.includes('Stop') && !OCO_STOPS.includes(type))
      throw modelState(
        'Orders',
        'Stop leg of OCO order must have OrderType of either: TrailingStopIfTraded, StopIfTraded, StopLimit',
      );
  }
}

/** What buying costs at the order's price or the quote (options in contracts of 100). */
export function costOf(order: CheckedOrder): number {
  if (order.body.BuySell !== 'Buy') return 0;
  const price = order.body.OrderType === 'Limit' ? Number(order.body.OrderPrice) : order.instrument.price;
  const multiplier = order.instrument.AssetType.endsWith('Option') ? 100 : 1;
  // FX and futures trade on margin: a twentieth of the notional.
  const margin = ['FxSpot', 'ContractFutures'].includes(order.instrument.AssetType) ? 0.05 : 1;
  return order.amount * price * multiplier * margin;
}
