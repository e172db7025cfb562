// The protocol fake's brokerage: what tastytrade checks beyond the schema (prices per order
// type, leg actions per instrument type, symbol formats, credit and debit, closing quantities,
// buying power) and what it answers. Refusals are tastytrade's envelope: structural problems
// 400 validation_error, order problems 422 preflight_check_failure with the reasons nested:
//   {"error":{"code":"preflight_check_failure","message":"One or more preflight checks failed",
//             "errors":[{"code":"cant_buy_for_credit","message":"You cannot buy for a credit."}]}}
// (The nested codes and messages past cant_buy_for_credit are the fake's own wording.)
import { futureTick, underlyingOfRoot } from './symbols.ts';

export interface FakePosition {
  instrumentType: string;
  /** Long positive, short negative. */
  quantity: number;
  averagePrice: number;
}

export interface FakeAccount {
  number: string;
  nickname: string;
  marginOrCash: 'Margin' | 'Cash';
  cash: number;
  positions: Map<string, FakePosition>;
}

export type Json = Record<string, unknown>;

export class FakeRefusal extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: Array<{ code: string; message: string }>;
  constructor(status: number, code: string, message: string, errors: Array<{ code: string; message: string }> = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.errors = errors;
  }

  get body() {
    return {
      error: { code: this.code, message: this.message, ...(this.errors.length ? { errors: this.errors } : {}) },
    };
  }
}

const invalid = (message: string) =>
  new FakeRefusal(400, 'validation_error', 'Request validation failed', [{ code: 'invalid', message }]);
const preflight = (code: string, message: string) =>
  new FakeRefusal(422, 'preflight_check_failure', 'One or more preflight checks failed', [{ code, message }]);

const SYMBOL: Record<string, RegExp> = {
  Equity: /^[A-Z][A-Z0-9]{0,5}(\/[A-Z])?$/,
  'Equity Option': /^[A-Z][A-Z0-9. ]{5}\d{6}[CP]\d{8}$/,
  Future: /^\/[A-Z0-9]{1,4}[FGHJKMNQUVXZ]\d{1,2}$/,
  Cryptocurrency: /^[A-Z0-9]{2,10}\/USD$/,
};
const MULTIPLIER: Record<string, number> = { 'Equity Option': 100, Future: 50 };
const DEFAULT_QUOTE: Record<string, number> = {
  Equity: 100,
  'Equity Option': 2.5,
  Future: 5000,
  Cryptocurrency: 60_000,
};

export const list = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((item): item is Json => !!item && typeof item === 'object') : [];
export const num = (value: unknown) =>
  typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
export const multiplierOf = (type: string) => MULTIPLIER[type] ?? 1;

export function quoteOf(quotes: Record<string, number>, symbol: string, type: string): number {
  return quotes[symbol] ?? DEFAULT_QUOTE[type] ?? 100;
}

/** A leg's underlying: its option root's (the first 6 characters, OCC), a future's without the month. */
export function underlying(symbol: string, type: string): string {
  if (type === 'Equity Option') return underlyingOfRoot(symbol.slice(0, 6).trim());
  if (type === 'Future') return symbol.slice(0, -2);
  return symbol;
}

function checkLegs(order: Json): Json[] {
  const legs = list(order.legs);
  const types = legs.map((leg) => String(leg['instrument-type']));
  const options = types.filter((type) => type === 'Equity Option').length;
  const stocks = types.filter((type) => type === 'Equity').length;
  const combo = legs.length > 1 && options > 0 && stocks <= 1 && options + stocks === legs.length;
  if (legs.length > 1 && !combo) throw invalid('only option orders (with at most one stock leg) take several legs');
  // One order, one underlying-symbol (SPX for SPXW's legs too; a share class's slash aside: BRK/B, BRKB).
  const roots = new Set(
    legs.map((leg) => underlying(String(leg.symbol), String(leg['instrument-type'])).replace('/', '')),
  );
  if (roots.size > 1) throw preflight('invalid_underlying', 'All legs of an order must have the same underlying');
  for (const leg of legs) {
    const type = String(leg['instrument-type']);
    const action = String(leg.action);
    const symbol = String(leg.symbol);
    const pattern = SYMBOL[type];
    if (!pattern) throw invalid(`instrument-type ${type} is not tradable here`);
    if (!pattern.test(symbol)) throw preflight('invalid_symbol', `Symbol ${symbol} is not a valid ${type} symbol`);
    const futures = action === 'Buy' || action === 'Sell';
    if (futures !== (type === 'Future')) throw invalid(`action ${action} is not valid for ${type}`);
    if (order['order-type'] === 'Notional Market') continue;
    const quantity = num(leg.quantity);
    if (!(quantity > 0)) throw invalid('quantity must be greater than 0');
    if (type !== 'Cryptocurrency' && !Number.isInteger(quantity)) {
      throw invalid(`${type} quantities are whole numbers; use a Notional Market order for dollar amounts`);
    }
  }
  return legs;
}

/** Structure per order type and time in force (400 when wrong). */
function checkOrderFields(order: Json, legs: Json[]): void {
  const type = String(order['order-type']);
  const hasPrice = order.price !== undefined;
  if (['Limit', 'Stop Limit', 'Marketable Limit'].includes(type)) {
    if (!hasPrice || !order['price-effect']) throw invalid(`price and price-effect are required for ${type} orders`);
  } else if (hasPrice) throw invalid(`price is not allowed for ${type} orders`);
  const stop = order['stop-trigger'] !== undefined;
  if (stop !== (type === 'Stop' || type === 'Stop Limit'))
    throw invalid(`stop-trigger is only for Stop and Stop Limit`);
  if (type === 'Notional Market') {
    if (order.value === undefined || !order['value-effect']) throw invalid('value and value-effect are required');
    if (legs.some((leg) => leg.quantity !== undefined)) throw invalid('a Notional Market leg takes no quantity');
  }
  if ((order['time-in-force'] === 'GTD') !== (order['gtc-date'] !== undefined)) {
    throw invalid('gtc-date is required with, and only with, time-in-force GTD');
  }
}

/**
 * Stock and option prices on the US tick (Reg NMS 612): a cent, $0.0001 for a stock under $1;
 * a future's on its contract's tick (the exchange's, /ESU6 in quarters).
 */
function checkTick(order: Json, legs: Json[]): void {
  const types = legs.map((leg) => String(leg['instrument-type']));
  const [first] = legs;
  if (legs.length === 1 && first && types[0] === 'Future') {
    checkFutureTick(order, String(first.symbol));
    return;
  }
  if (!types.every((type) => type === 'Equity' || type === 'Equity Option')) return;
  for (const key of ['price', 'stop-trigger']) {
    if (order[key] === undefined) continue;
    const decimals = (String(order[key]).split('.')[1] ?? '').replace(/0+$/, '').length;
    const subDollarStock = num(order[key]) < 1 && types.every((type) => type === 'Equity');
    if (decimals > (subDollarStock ? 4 : 2))
      throw preflight('invalid_price_increment', `${key} ${String(order[key])} is not a valid price increment`);
  }
}

function checkFutureTick(order: Json, symbol: string): void {
  const tick = futureTick(symbol);
  if (tick === undefined) return;
  for (const key of ['price', 'stop-trigger']) {
    if (order[key] === undefined) continue;
    const ticks = num(order[key]) / tick;
    if (Math.abs(ticks - Math.round(ticks)) > 1e-6)
      throw preflight(
        'invalid_price_increment',
        `${key} ${String(order[key])} is not a multiple of ${symbol}'s tick ${tick}`,
      );
  }
}

/**
 * Validates an order; returns what its buys cost. A bracket's exits (`exit`) close what their
 * trigger opens, so neither positions nor buying power are checked for them.
 */
export function validateOrder(order: Json, account: FakeAccount, quotes: Record<string, number>, exit = false): number {
  const legs = checkLegs(order);
  checkOrderFields(order, legs);
  checkTick(order, legs);
  const effect = order['price-effect'] ?? order['value-effect'];
  const [first] = legs;
  if (legs.length === 1 && first && effect) {
    const buys = String(first.action).startsWith('Buy');
    if (buys && effect === 'Credit') throw preflight('cant_buy_for_credit', 'You cannot buy for a credit.');
    if (!buys && effect === 'Debit') throw preflight('cant_sell_for_debit', 'You cannot sell for a debit.');
  }
  if (exit) return 0;
  let cost = order['order-type'] === 'Notional Market' && effect === 'Debit' ? num(order.value) : 0;
  const closing = new Map<string, number>();
  for (const leg of legs) {
    const type = String(leg['instrument-type']);
    const symbol = String(leg.symbol);
    const quantity = num(leg.quantity);
    const action = String(leg.action);
    if (action.endsWith('to Close') && type !== 'Future') {
      const held = (account.positions.get(symbol)?.quantity ?? 0) * (action.startsWith('Sell') ? 1 : -1);
      const wanted = quantity + (closing.get(symbol) ?? 0);
      if (held < wanted)
        throw preflight('closing_quantity_exceeded', `Closing quantity exceeds the ${symbol} position`);
      closing.set(symbol, wanted);
    }
    if (action.startsWith('Buy') && order['order-type'] !== 'Notional Market') {
      const price =
        order['order-type'] === 'Limit' && legs.length === 1 ? num(order.price) : quoteOf(quotes, symbol, type);
      cost += quantity * price * multiplierOf(type) * (type === 'Future' ? 0.1 : 1);
    }
  }
  if (cost > account.cash) throw preflight('margin_check_failed', 'This order exceeds your available buying power.');
  return cost;
}
