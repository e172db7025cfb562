// A normalized order as Questrade's order bodies (WIRE.md §4), and its order records as ours.
//   POST …/orders   {"accountNumber":"26598145","symbolId":8049,"quantity":10,"limitPrice":537,
//     "isAllOrNone":false,"isAnonymous":false,"orderType":"Limit","timeInForce":"GoodTillCanceled",
//     "action":"Buy","primaryRoute":"AUTO","secondaryRoute":"AUTO"}
//   POST …/orders/bracket  {"symbolId","primaryRoute","secondaryRoute","components":[{"orderId":0,
//     "orderClass":"Primary"|"Limit"|"StopLoss","orderType","timeInForce","quantity","action",…}]}
//   POST …/orders/strategy {"accountNumber","symbolId": underlying,"strategy":"Custom","orderType",
//     "timeInForce","limitPrice","quantity","legs":[{"symbolId","action","legQuantity"}],…}
import type { Order, OrderResponse } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { extraFlag } from '../../core/extra-flag.ts';
import { decimalField, decimalString, type JsonRecord, stringField } from '../../core/json-read.ts';
import { positiveOnTick, roundToTick } from '../../core/ticks.ts';
import { QUESTRADE_TITLE } from './descriptor.ts';
import { checkSymbol, underlyingOf } from './symbols.ts';

export type OrderPath = 'orders' | 'orders/bracket' | 'orders/strategy';

export interface Submission {
  path: OrderPath;
  body: JsonRecord;
}

const TYPES = { market: 'Market', limit: 'Limit', stop: 'Stop', stop_limit: 'StopLimit' } as const;
const DURATIONS: Partial<Record<Order['duration'], string>> = {
  day: 'Day',
  gtc: 'GoodTillCanceled',
  dyp: 'GoodTillExtendedDay',
  ioc: 'ImmediateOrCancel',
  fok: 'FillOrKill',
};
const BUYS = new Set(['buy', 'buy_to_cover', 'buy_to_open', 'buy_to_close']);
const ROUTES = { primaryRoute: 'AUTO', secondaryRoute: 'AUTO' } as const;
const MAX_LEGS = 4;

const invalid = (message: string) => new BrokerError('InvalidOrder', QUESTRADE_TITLE, message);
const price = (value: number) => Number(decimalString(value));
export const actionOf = (action: string): 'Buy' | 'Sell' => (BUYS.has(action) ? 'Buy' : 'Sell');

function whole(quantity: number | undefined): number {
  if (quantity === undefined || !Number.isInteger(quantity) || quantity < 1)
    throw invalid(`quantity must be a whole number, not ${quantity ?? 'none'}`);
  return quantity;
}

function timeInForce(order: Order): string {
  const value = DURATIONS[order.duration];
  if (!value) throw invalid(`duration ${order.duration} is not supported; use day, gtc, dyp, ioc or fok`);
  return value;
}

function special(order: Order): JsonRecord {
  const extra = order.extra ?? {};
  const count = (key: string) => {
    const value = extra[key];
    if (value === undefined) return undefined;
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1) throw invalid(`extra.${key} must be a whole number`);
    return number;
  };
  const iceberg = count('iceberg_quantity');
  const minimum = count('min_quantity');
  return {
    ...(iceberg !== undefined ? { icebergQuantity: iceberg } : {}),
    ...(minimum !== undefined ? { minQuantity: minimum } : {}),
    isAllOrNone: extraFlag(order, 'all_or_none', invalid) === true,
    isAnonymous: false,
  };
}

/**
 * A single order's price: options always, and from $1 up every US and Canadian listing, tick a
 * cent: on the cent and never past the trader's (a buy's rounded down, a sell's up), an option's
 * under one cent refused; a stock's under $1, where the tick depends on the listing, as given.
 */
function onCent(value: number, action: 'Buy' | 'Sell', option: boolean): number {
  const direction = action === 'Buy' ? 'down' : 'up';
  if (option) return positiveOnTick(value, 0.01, direction, (message) => invalid(`price ${message}`));
  return value >= 1 ? roundToTick(value, 0.01, direction) : price(value);
}

const prices = (order: Order): JsonRecord => {
  const [action, option] = [actionOf(order.action), order.class === 'option'];
  return {
    ...(order.limit_price !== undefined ? { limitPrice: onCent(order.limit_price, action, option) } : {}),
    ...(order.stop_price !== undefined ? { stopPrice: onCent(order.stop_price, action, option) } : {}),
  };
};

/**
 * A strategy's net price on the option cent, never past the trader's: a debit (positive) paid no
 * more, a credit (negative) received no less, both rounded down; a debit under a cent is refused.
 */
const netOnCent = (net: number) => positiveOnTick(net, 0.01, 'down', (message) => invalid(`limit_price ${message}`));

/** Where the broker's lookups send an order: the account, the symbol's id (a strategy's underlying), its legs'. */
export interface Target {
  accountNumber: string;
  symbolId: number;
  legIds: number[];
}

/** A submission checked now, completed with the ids the broker gives later. */
type ToTarget = (to: Target) => Submission;

function singleOrder(order: Order): ToTarget {
  const quantity = whole(order.quantity);
  const fields = { ...prices(order), ...special(order) };
  const tif = timeInForce(order);
  return ({ accountNumber, symbolId }) => ({
    path: 'orders',
    body: {
      accountNumber,
      symbolId,
      quantity,
      ...fields,
      orderType: TYPES[order.type],
      timeInForce: tif,
      action: actionOf(order.action),
      ...ROUTES,
    },
  });
}

/** Entry (Primary) and its exits (Limit, StopLoss), each with the entry's duration. */
function bracketOrder(order: Order): ToTarget {
  const quantity = whole(order.quantity);
  const tif = timeInForce(order);
  const exit = opposite(actionOf(order.action));
  const components: JsonRecord[] = [
    {
      orderId: 0,
      ...prices(order),
      orderType: TYPES[order.type],
      timeInForce: tif,
      orderClass: 'Primary',
      quantity,
      action: actionOf(order.action),
    },
  ];
  if (order.take_profit_price !== undefined)
    components.push({
      orderId: 0,
      limitPrice: onCent(order.take_profit_price, exit, order.class === 'option'),
      orderType: 'Limit',
      timeInForce: tif,
      orderClass: 'Limit',
      quantity,
      action: exit,
    });
  if (order.stop_loss_price !== undefined)
    components.push({
      orderId: 0,
      stopPrice: onCent(order.stop_loss_price, exit, order.class === 'option'),
      orderType: 'Stop',
      timeInForce: tif,
      orderClass: 'StopLoss',
      quantity,
      action: exit,
    });
  return ({ symbolId }) => ({ path: 'orders/bracket', body: { symbolId, ...ROUTES, components } });
}

const opposite = (action: 'Buy' | 'Sell'): 'Buy' | 'Sell' => (action === 'Buy' ? 'Sell' : 'Buy');
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** A multi-leg order as a Custom strategy: leg quantities factorised by their common divisor. */
function strategyOrder(order: Order): ToTarget {
  const legs = order.legs ?? [];
  if (order.group !== 'combo') throw invalid(`group ${order.group} with legs is not supported; use combo`);
  if (legs.length > MAX_LEGS) throw invalid(`at most ${MAX_LEGS} legs`);
  if (legs.some((leg) => leg.limit_price !== undefined || leg.type !== undefined))
    throw invalid('legs take no type or price: give the net price as limit_price');
  if (order.type !== 'market' && order.type !== 'limit') throw invalid('a strategy order is market or limit');
  const quantities = legs.map((leg) => whole(leg.quantity));
  const common = quantities.reduce(gcd);
  const tif = timeInForce(order);
  const net = order.limit_price === undefined ? undefined : netOnCent(order.limit_price);
  return ({ accountNumber, symbolId, legIds }) => ({
    path: 'orders/strategy',
    body: {
      accountNumber,
      symbolId,
      strategy: 'Custom',
      orderType: TYPES[order.type],
      timeInForce: tif,
      ...(net !== undefined ? { limitPrice: net } : {}),
      quantity: common,
      legs: legs.map((leg, index) => ({
        symbolId: legIds[index],
        action: actionOf(leg.action),
        legQuantity: (quantities[index] ?? common) / common,
      })),
      ...ROUTES,
    },
  });
}

/**
 * The request a signal becomes (close and cancel are handled by the adapter), every refusal that
 * needs no symbol id thrown here, before any lookup (Broker.checkOrder stops at this point).
 */
export function toSubmission(order: Order): ToTarget {
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is not supported`);
  for (const field of [
    'stop_price_distance',
    'stop_price_percent',
    'stop_loss_price_distance',
    'stop_loss_price_percent',
  ] as const)
    if (order[field] !== undefined) throw invalid(`${field} is not supported; give an absolute price`);
  if (order.legs) {
    if (new Set(order.legs.map((leg) => underlyingOf(leg.symbol))).size !== 1)
      throw invalid('all legs of a strategy share one underlying');
    for (const leg of order.legs) checkSymbol(leg.symbol, leg.class);
    return strategyOrder(order);
  }
  checkSymbol(order.symbol, order.class);
  if (order.take_profit_price !== undefined || order.stop_loss_price !== undefined) return bracketOrder(order);
  return singleOrder(order);
}

/** A close's quantity, refused before any lookup unless fixed (the held size is checked when known). */
export function closeQuantity(order: Order): number | undefined {
  if (order.quantity_type !== 'fixed') throw invalid('close takes a fixed quantity');
  return order.quantity;
}

const FINAL: Record<string, OrderResponse['status']> = {
  Executed: 'filled',
  Canceled: 'canceled',
  PartialCanceled: 'canceled',
  Expired: 'canceled',
  Replaced: 'canceled',
  Rejected: 'rejected',
  Failed: 'rejected',
};

/** An order record → ours; the id given wins (the placing answer's orderId). */
export function fromRecord(record: unknown, id?: string): OrderResponse {
  const state = stringField(record, 'state') ?? 'Unknown';
  const reason = stringField(record, 'clientReasonStr') || stringField(record, 'rejectionReason');
  const average = decimalField(record, 'avgExecPrice') ?? 0;
  return {
    id: id ?? stringField(record, 'id') ?? '',
    status: FINAL[state] ?? 'accepted',
    status_description: `Questrade order ${state}${reason ? `: ${reason}` : ''}`,
    ...(average > 0 ? { price: average } : {}),
  };
}
