// The protocol fake's brokerage: validates an order as Schwab does (the enums of the Trader API
// description, the prices each orderType needs, option instructions for options), then fills
// market orders at a fixed quote and rests the others as WORKING.
export interface FakeAccount {
  accountNumber: string;
  hashValue: string;
  type: 'CASH' | 'MARGIN';
  cash: number;
  positions: Map<string, { assetType: string; quantity: number; averagePrice: number }>;
}

export interface FakeOrder {
  orderId: number;
  accountNumber: string;
  enteredTime: string;
  status: string;
  body: Record<string, unknown>;
  fillPrice?: number;
  /** Its child orders (a bracket's exits, an OCO's two), listed inside it, each with its own id. */
  children?: FakeOrder[];
}

export class FakeRejection extends Error {
  readonly status: number;
  readonly errors: string[];
  constructor(status: number, message: string, errors: string[] = []) {
    super(message);
    this.status = status;
    this.errors = errors;
  }
}

const ENUMS: Record<string, string[]> = {
  orderType: ['MARKET', 'LIMIT', 'STOP', 'STOP_LIMIT', 'TRAILING_STOP', 'NET_DEBIT', 'NET_CREDIT', 'NET_ZERO'],
  session: ['NORMAL', 'AM', 'PM', 'SEAMLESS'],
  duration: ['DAY', 'GOOD_TILL_CANCEL', 'FILL_OR_KILL', 'IMMEDIATE_OR_CANCEL', 'END_OF_WEEK', 'END_OF_MONTH'],
  orderStrategyType: ['SINGLE', 'OCO', 'TRIGGER'],
};
const EQUITY_INSTRUCTIONS = ['BUY', 'SELL', 'SELL_SHORT', 'BUY_TO_COVER'];
const OPTION_INSTRUCTIONS = ['BUY_TO_OPEN', 'BUY_TO_CLOSE', 'SELL_TO_OPEN', 'SELL_TO_CLOSE'];
const OCC = /^[A-Z][A-Z0-9.]{0,5} *\d{6}[CP]\d{8}$/;

type Json = Record<string, unknown>;
const record = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(record).filter((x): x is Json => !!x) : []);
const isPrice = (value: unknown) =>
  (typeof value === 'number' && value >= 0) || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value));

/** Problems Schwab would answer 400 for; empty when the order is acceptable. */
export function orderProblems(order: Json, path = ''): string[] {
  const problems: string[] = [];
  for (const [field, values] of Object.entries(ENUMS)) {
    const value = order[field];
    if (value !== undefined && !values.includes(String(value)))
      problems.push(`${path}${field} ${String(value)} is invalid`);
  }
  const strategy = order.orderStrategyType;
  const children = list(order.childOrderStrategies);
  if (strategy === 'OCO') {
    if (children.length !== 2) problems.push(`${path}an OCO order needs 2 child orders`);
    return [...problems, ...childProblems(children, path)];
  }
  if (strategy === 'TRIGGER' && children.length === 0) problems.push(`${path}a TRIGGER order needs child orders`);
  problems.push(...childProblems(children, path));
  for (const field of ['session', 'duration', 'orderType', 'orderStrategyType']) {
    if (order[field] === undefined) problems.push(`${path}${field} is required`);
  }
  const type = String(order.orderType);
  if (['LIMIT', 'STOP_LIMIT', 'NET_DEBIT', 'NET_CREDIT'].includes(type) && !isPrice(order.price)) {
    problems.push(`${path}price is required for ${type} orders`);
  }
  if (['STOP', 'STOP_LIMIT'].includes(type) && !isPrice(order.stopPrice)) {
    problems.push(`${path}stopPrice is required for ${type} orders`);
  }
  const legs = list(order.orderLegCollection);
  if (legs.length === 0) problems.push(`${path}orderLegCollection is required`);
  if (legs.length > 1 && type.startsWith('NET') && !order.complexOrderStrategyType) {
    problems.push(`${path}complexOrderStrategyType is required for multi-leg orders`);
  }
  for (const leg of legs) {
    const instrument = record(leg.instrument);
    const symbol = String(instrument?.symbol ?? '');
    const assetType = instrument?.assetType;
    const quantity = leg.quantity;
    if (typeof quantity !== 'number' || quantity <= 0 || !Number.isInteger(quantity)) {
      problems.push(`${path}quantity must be a whole number greater than 0`);
    }
    if (assetType === 'OPTION') {
      if (!OCC.test(symbol)) problems.push(`${path}${symbol} is not an option symbol`);
      if (!OPTION_INSTRUCTIONS.includes(String(leg.instruction)))
        problems.push(`${path}invalid instruction for an option`);
    } else if (assetType === 'EQUITY') {
      if (!/^[A-Z][A-Z0-9./]{0,9}$/.test(symbol)) problems.push(`${path}symbol ${symbol} is invalid`);
      if (!EQUITY_INSTRUCTIONS.includes(String(leg.instruction)))
        problems.push(`${path}invalid instruction for equity`);
    } else problems.push(`${path}assetType ${String(assetType)} is not supported`);
  }
  return problems;
}

const childProblems = (children: Json[], path: string) =>
  children.flatMap((child, index) => orderProblems(child, `${path}child ${index + 1}: `));

/** What buying the legs costs at the quote; options in contracts of 100. */
export function orderCost(order: Json, quote: (symbol: string) => number): number {
  return list(order.orderLegCollection).reduce((sum, leg) => {
    const instrument = record(leg.instrument);
    const buys = String(leg.instruction).startsWith('BUY');
    const multiplier = instrument?.assetType === 'OPTION' ? 100 : 1;
    const price =
      isPrice(order.price) && order.orderType === 'LIMIT' ? Number(order.price) : quote(String(instrument?.symbol));
    return sum + (buys ? 1 : 0) * Number(leg.quantity) * price * multiplier;
  }, 0);
}

/** Applies a market fill of every leg to the account's positions and cash. */
export function fill(account: FakeAccount, order: Json, price: (symbol: string) => number): number {
  let last = 0;
  for (const leg of list(order.orderLegCollection)) {
    const instrument = record(leg.instrument) ?? {};
    const symbol = String(instrument.symbol);
    const sign = String(leg.instruction).startsWith('BUY') ? 1 : -1;
    const quantity = Number(leg.quantity) * sign;
    const multiplier = instrument.assetType === 'OPTION' ? 100 : 1;
    last = price(symbol);
    const held = account.positions.get(symbol) ?? {
      assetType: String(instrument.assetType),
      quantity: 0,
      averagePrice: last,
    };
    const total = held.quantity + quantity;
    if (total === 0) account.positions.delete(symbol);
    else account.positions.set(symbol, { ...held, quantity: total, averagePrice: last });
    account.cash -= quantity * last * multiplier;
  }
  return last;
}
