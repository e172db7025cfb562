// The rules and record shape of the Questrade protocol fake (fake-book.ts keeps the state):
// field checks as general errors (HTTP 400 {"code","message"}; 3139 "Invalid route" as in
// Questrade's sample, other codes illustrative) and order records with Questrade's sample
// fields and spellings (icebergQty, comissionCharged), times with an offset and microseconds.
import type { FakeSymbols } from './fake-symbols.ts';

type Json = Record<string, unknown>;

export class FakeAnswer extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super('fake answer');
    this.status = status;
    this.body = body;
  }
}

export const TYPES = [
  'Market',
  'Limit',
  'Stop',
  'StopLimit',
  'TrailStopInPercentage',
  'TrailStopInDollar',
  'TrailStopLimitInPercentage',
  'TrailStopLimitInDollar',
  'LimitOnOpen',
  'LimitOnClose',
];
export const TIFS = [
  'Day',
  'GoodTillCanceled',
  'GoodTillExtendedDay',
  'GoodTillDate',
  'ImmediateOrCancel',
  'FillOrKill',
];
const ROUTES = ['AUTO', 'LAMP', 'ITSR', 'TSX', 'NYSE', 'NASDAQ', 'ARCA'];
export const STRATEGIES = [
  'CoveredCall',
  'MarriedPuts',
  'VerticalCallSpread',
  'VerticalPutSpread',
  'Straddle',
  'Strangle',
  'IronButterfly',
  'CondorCall',
  'Custom',
];
export const OPEN = new Set([
  'Pending',
  'Accepted',
  'Queued',
  'Partial',
  'ContingentOrder',
  'PendingRiskReview',
  'Activated',
  'Triggered',
]);
export const ORDER_FIELDS = [
  'accountNumber',
  'symbolId',
  'quantity',
  'icebergQuantity',
  'minQuantity',
  'limitPrice',
  'stopPrice',
  'isAllOrNone',
  'isAnonymous',
  'orderType',
  'timeInForce',
  'gtdDate',
  'action',
  'primaryRoute',
  'secondaryRoute',
  'orderId',
];
export const COMPONENT_FIELDS = [
  'orderId',
  'quantity',
  'icebergQuantity',
  'limitPrice',
  'stopPrice',
  'isAllOrNone',
  'isAnonymous',
  'orderType',
  'timeInForce',
  'gtdDate',
  'action',
  'orderClass',
];

export const refuse = (message: string, code = 1002) => new FakeAnswer(400, { code, message });

/** Questrade's time format: Eastern offset, microseconds ("2014-10-24T17:48:20.546000-05:00"). */
export function questradeTime(ms: number): string {
  return new Date(ms - 5 * 3_600_000).toISOString().replace('Z', '000-05:00');
}

export function checkFields(body: Json, allowed: readonly string[]): void {
  const unknown = Object.keys(body).find((key) => !allowed.includes(key));
  if (unknown) throw refuse(`Unknown argument ${unknown}`);
}

/** An order's terms; an `option`'s prices tick a cent at every price. */
export function checkTerms(body: Json, option = false): void {
  if (!Number.isInteger(body.quantity) || (body.quantity as number) < 1) throw refuse('Invalid quantity');
  if (!TYPES.includes(String(body.orderType))) throw refuse('Invalid orderType');
  if (!TIFS.includes(String(body.timeInForce))) throw refuse('Invalid timeInForce');
  if (body.action !== 'Buy' && body.action !== 'Sell') throw refuse('Invalid action');
  const type = String(body.orderType);
  if (['Limit', 'StopLimit'].includes(type) && !((body.limitPrice as number) > 0))
    throw refuse('Limit price is required');
  if (['Stop', 'StopLimit'].includes(type) && !((body.stopPrice as number) > 0)) throw refuse('Stop price is required');
  if (type === 'Market' && body.limitPrice !== undefined) throw refuse('Market orders take no limit price');
  // From $1 up, US and Canadian listings tick a cent; options at every price.
  for (const key of ['limitPrice', 'stopPrice']) {
    const value = body[key];
    if (typeof value === 'number' && (option || value >= 1) && (String(value).split('.')[1] ?? '').length > 2)
      throw refuse(`Invalid ${key}: ${value} is not a valid price increment`);
  }
}

export function checkRoutes(body: Json): void {
  for (const key of ['primaryRoute', 'secondaryRoute'])
    if (body[key] !== undefined && !ROUTES.includes(String(body[key]))) throw refuse('Invalid route', 3139);
}

/** Sides of a buy in Questrade's records; the others (Sell, Short, STO, STC) sell. */
export const BUY_SIDES = new Set(['Buy', 'Cov', 'BTO', 'BTC']);

/**
 * The side Questrade lists (WIRE.md §5, Order Side): orders are sent as Buy or Sell, and the
 * listing names what they do to the position held: a sell of nothing is Short, a buy while short
 * Cov; an option's side is BTO, STC, STO or BTC.
 */
export function listedSide(action: unknown, option: boolean, held: number): string {
  if (option) return action === 'Buy' ? (held < 0 ? 'BTC' : 'BTO') : held > 0 ? 'STC' : 'STO';
  if (action === 'Buy') return held < 0 ? 'Cov' : 'Buy';
  return held > 0 ? 'Sell' : 'Short';
}

/** A new order record as Questrade lists it, state Accepted. */
export function newRecord(
  symbols: FakeSymbols,
  at: string,
  id: number,
  symbolId: number,
  terms: Json,
  extra: Json = {},
): Json {
  const symbol = symbols.byId(symbolId);
  return {
    id,
    symbol: symbol?.symbol ?? '',
    symbolId,
    totalQuantity: terms.quantity,
    openQuantity: terms.quantity,
    filledQuantity: 0,
    canceledQuantity: 0,
    side: terms.action,
    orderType: terms.orderType,
    limitPrice: terms.limitPrice ?? null,
    stopPrice: terms.stopPrice ?? null,
    isAllOrNone: terms.isAllOrNone === true,
    isAnonymous: terms.isAnonymous === true,
    icebergQty: terms.icebergQuantity ?? null,
    minQuantity: terms.minQuantity ?? null,
    avgExecPrice: null,
    lastExecPrice: null,
    source: 'TradingAPI',
    timeInForce: terms.timeInForce,
    gtdDate: terms.gtdDate ?? null,
    state: 'Accepted',
    clientReasonStr: '',
    chainId: id,
    creationTime: at,
    updateTime: at,
    notes: '',
    primaryRoute: terms.primaryRoute ?? 'AUTO',
    secondaryRoute: terms.secondaryRoute ?? 'AUTO',
    orderRoute: 'LAMP',
    venueHoldingOrder: '',
    comissionCharged: 0,
    exchangeOrderId: '',
    isSignificantShareHolder: false,
    isInsider: false,
    isLimitOffsetInDollar: false,
    userId: 3_000_124,
    placementCommission: null,
    legs: [],
    strategyType: 'SingleLeg',
    triggerStopPrice: null,
    orderGroupId: 0,
    orderClass: null,
    mainChainId: 0,
    ...extra,
  };
}
