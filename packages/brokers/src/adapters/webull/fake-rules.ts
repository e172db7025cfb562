// How the Webull fake checks one entry of new_orders (WIRE.md §4, the skills' tables): order types
// and times in force per instrument type, prices per type, quantity or cash amount, sessions, the
// option legs of a strategy, client_order_id (32 letters and digits). 400 for a malformed field,
// 417 for a business rule, {"error_code","message"} as Webull's error bodies.
import { futureTickOf } from '@router/orders';

export class WebullRefusal extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export type WireOrder = Record<string, unknown>;

const bad = (message: string) => new WebullRefusal(400, 'INVALID_PARAMETER', message);
export const rule = (code: string, message: string) => new WebullRefusal(417, code, message);

const TYPES: Record<string, string[]> = {
  EQUITY: [
    'MARKET',
    'LIMIT',
    'STOP_LOSS',
    'STOP_LOSS_LIMIT',
    'TRAILING_STOP_LOSS',
    'MARKET_ON_OPEN',
    'MARKET_ON_CLOSE',
  ],
  OPTION: ['MARKET', 'LIMIT', 'STOP_LOSS', 'STOP_LOSS_LIMIT'],
  FUTURES: ['MARKET', 'LIMIT', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TRAILING_STOP_LOSS'],
  CRYPTO: ['MARKET', 'LIMIT', 'STOP_LOSS_LIMIT'],
};
const LEG_COUNT: Record<string, [number, number]> = {
  SINGLE: [1, 1],
  VERTICAL: [2, 2],
  STRADDLE: [2, 2],
  STRANGLE: [2, 2],
  CALENDAR: [2, 2],
  DIAGONAL: [2, 2],
  BUTTERFLY: [3, 4],
  CONDOR: [4, 4],
  IRON_BUTTERFLY: [4, 4],
  IRON_CONDOR: [4, 4],
};

export function positive(order: WireOrder, key: string): number {
  const value = Number(order[key]);
  if (order[key] === undefined || !Number.isFinite(value) || value <= 0) throw bad(`${key} must be a positive number`);
  return value;
}

export const isOptionOrder = (order: WireOrder) => Array.isArray(order.legs);
export const instrumentTypeOf = (order: WireOrder) => (isOptionOrder(order) ? 'OPTION' : String(order.instrument_type));

export function checkClientId(value: unknown): void {
  if (typeof value !== 'string' || !/^[A-Za-z0-9]{1,32}$/.test(value))
    throw bad('client_order_id must be 1 to 32 letters and digits');
}

function checkPrices(order: WireOrder, type: string): void {
  if (type === 'LIMIT' || type === 'STOP_LOSS_LIMIT') positive(order, 'limit_price');
  if (type === 'STOP_LOSS' || type === 'STOP_LOSS_LIMIT') positive(order, 'stop_price');
  if (type === 'TRAILING_STOP_LOSS') {
    if (order.trailing_type !== 'AMOUNT' && order.trailing_type !== 'PERCENTAGE')
      throw bad('trailing_type must be AMOUNT or PERCENTAGE');
    positive(order, 'trailing_stop_step');
  }
}

/** US stock and option prices on the tick (Reg NMS 612: a cent, $0.0001 under a dollar). */
function checkPennies(order: WireOrder): void {
  for (const key of ['limit_price', 'stop_price']) {
    if (order[key] === undefined) continue;
    const decimals = (String(order[key]).split('.')[1] ?? '').length;
    if (decimals > (Number(order[key]) >= 1 ? 2 : 4))
      throw rule('INVALID_PRICE', `${key} ${String(order[key])} is not on the tick: a cent, or $0.0001 under $1`);
  }
}

/** A future's prices on its contract's tick (ESZ6: a quarter), where its root is known. */
function checkFutureTick(order: WireOrder): void {
  const root = /^([A-Z0-9]+)[FGHJKMNQUVXZ]\d$/.exec(String(order.symbol))?.[1];
  const tick = root === undefined ? undefined : futureTickOf(root);
  if (tick === undefined) return;
  for (const key of ['limit_price', 'stop_price']) {
    if (order[key] === undefined) continue;
    const ticks = Number(order[key]) / tick;
    if (Math.abs(ticks - Math.round(ticks)) > 1e-6)
      throw rule('INVALID_PRICE', `${key} ${String(order[key])} is not a multiple of the tick ${tick}`);
  }
}

function checkSize(order: WireOrder, instrumentType: string): void {
  if (order.entrust_type === 'AMOUNT') {
    if (instrumentType !== 'EQUITY' && instrumentType !== 'CRYPTO')
      throw bad('entrust_type AMOUNT is for stocks and crypto');
    if (order.quantity !== undefined) throw bad('quantity and total_cash_amount are mutually exclusive');
    positive(order, 'total_cash_amount');
    return;
  }
  if (order.entrust_type !== 'QTY') throw bad('entrust_type must be QTY or AMOUNT');
  const quantity = positive(order, 'quantity');
  if ((instrumentType === 'OPTION' || instrumentType === 'FUTURES') && !Number.isInteger(quantity))
    throw bad('quantity must be a whole number of contracts');
}

function checkLegs(order: WireOrder): void {
  const strategy = String(order.option_strategy ?? '');
  const range = LEG_COUNT[strategy];
  if (!range) throw bad('option_strategy is not supported');
  const legs = order.legs as WireOrder[];
  if (legs.length < range[0] || legs.length > range[1])
    throw bad(`Strategy '${strategy}' does not take ${legs.length} legs`);
  for (const leg of legs) {
    if (leg.instrument_type !== 'OPTION' || leg.market !== 'US') throw bad('legs must be US options');
    if (leg.side !== 'BUY' && leg.side !== 'SELL') throw bad('leg side must be BUY or SELL');
    if (leg.option_type !== 'CALL' && leg.option_type !== 'PUT') throw bad('option_type must be CALL or PUT');
    if (typeof leg.option_expire_date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(leg.option_expire_date))
      throw bad('option_expire_date must be yyyy-MM-dd');
    if (typeof leg.symbol !== 'string' || !leg.symbol) throw bad('leg symbol is required');
    positive(leg, 'strike_price');
    positive(leg, 'quantity');
  }
  if (strategy === 'SINGLE') {
    const intent = String(order.position_intent ?? '');
    if (intent && !intent.startsWith(String(order.side))) throw bad('position_intent must match side');
  }
}

/** Checks one order as Webull does; returns its instrument type. */
export function checkOrder(order: WireOrder): string {
  checkClientId(order.client_order_id);
  const instrumentType = instrumentTypeOf(order);
  if (!TYPES[instrumentType]) throw bad('instrument_type is not supported');
  if (!isOptionOrder(order) && (typeof order.symbol !== 'string' || !order.symbol || order.market !== 'US'))
    throw bad('symbol and market US are required');
  const side = String(order.side);
  if (!['BUY', 'SELL', 'SHORT'].includes(side)) throw bad('side must be BUY, SELL or SHORT');
  if (side === 'SHORT' && instrumentType !== 'EQUITY') throw bad('SHORT is for stocks');
  const type = String(order.order_type);
  if (!TYPES[instrumentType]?.includes(type)) throw bad(`order_type ${type} is not supported for ${instrumentType}`);
  checkPrices(order, type);
  if (instrumentType === 'EQUITY' || instrumentType === 'OPTION') checkPennies(order);
  if (instrumentType === 'FUTURES') checkFutureTick(order);
  checkSize(order, instrumentType);
  const tif = String(order.time_in_force);
  if (!['DAY', 'GTC', 'IOC'].includes(tif)) throw bad('time_in_force must be DAY, GTC or IOC');
  if (instrumentType === 'OPTION' && tif === 'IOC') throw bad('options take DAY or GTC');
  if (instrumentType === 'CRYPTO' && (type === 'MARKET') !== (tif === 'IOC'))
    throw bad('crypto market orders are IOC; limit orders DAY or GTC');
  if (instrumentType === 'EQUITY') {
    const session = String(order.support_trading_session ?? '');
    if (!['CORE', 'ALL', 'NIGHT'].includes(session)) throw bad('support_trading_session must be CORE, ALL or NIGHT');
    if (session !== 'CORE' && type !== 'LIMIT')
      throw rule('ORDER_TYPE_NOT_SUPPORTED', 'Only limit orders may trade outside regular hours');
  }
  if (isOptionOrder(order)) checkLegs(order);
  return instrumentType;
}

/** A bracket: a MASTER and one or two exits of the same stock, opposite side. */
export function checkCombo(orders: WireOrder[], comboId: unknown): void {
  const [master, ...exits] = orders;
  if (master?.combo_type !== 'MASTER' || exits.length < 1 || exits.length > 2)
    throw bad('a combo order is a MASTER with STOP_PROFIT and/or STOP_LOSS');
  checkClientId(comboId);
  for (const exit of exits) {
    if (exit.combo_type !== 'STOP_PROFIT' && exit.combo_type !== 'STOP_LOSS')
      throw bad('combo_type of an exit is STOP_PROFIT or STOP_LOSS');
    if (exit.symbol !== master.symbol || exit.side === master.side)
      throw bad('exits close the master: same symbol, opposite side');
  }
}
