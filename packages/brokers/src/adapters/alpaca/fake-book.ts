// The state and order rules of the Alpaca protocol fake: one account, its positions and orders,
// validated as Alpaca validates them (messages as Alpaca words them, HTTP 422 / 403).
import { randomUUID } from 'node:crypto';

export interface FakeAlpacaOrder extends Record<string, unknown> {
  id: string;
  client_order_id: string;
  symbol: string;
  status: string;
}

export interface FakePosition {
  symbol: string;
  qty: number;
  avg: number;
  assetClass: 'us_equity' | 'us_option' | 'crypto';
}

export class FakeRefusal extends Error {
  readonly status: number;
  readonly code: number;
  constructor(status: number, code: number, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const refuse = (message: string, code = 42210000) => new FakeRefusal(422, code, message);
const TYPES = ['market', 'limit', 'stop', 'stop_limit', 'trailing_stop'];
const TIFS = ['day', 'gtc', 'opg', 'cls', 'ioc', 'fok'];
const num = (value: unknown) => (typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN);

export function assetClassOf(symbol: string): FakePosition['assetClass'] {
  if (symbol.includes('/')) return 'crypto';
  return /^[A-Z]{1,6}\d{6}[CP]\d{8}$/.test(symbol) ? 'us_option' : 'us_equity';
}

export function quoteOf(symbol: string): number {
  const cls = assetClassOf(symbol);
  return cls === 'crypto' ? 60_000 : cls === 'us_option' ? 2.5 : 100;
}

/** Checks a POST /v2/orders body as Alpaca does; returns the price it would cost. */
export function validateOrder(body: Record<string, unknown>, knownClientIds: Set<string>): number {
  const symbol = body.symbol;
  if (typeof symbol !== 'string' || !symbol) throw refuse('symbol is required', 40010000);
  if (symbol === 'NOPE') throw refuse(`asset "${symbol}" not found`, 40010001);
  if (body.side !== 'buy' && body.side !== 'sell') throw refuse('invalid side');
  if (!TYPES.includes(String(body.type))) throw refuse('invalid order type');
  if (!TIFS.includes(String(body.time_in_force))) throw refuse('invalid time_in_force');
  const clientId = body.client_order_id;
  if (typeof clientId === 'string' && clientId.length > 128)
    throw refuse('client_order_id must be no more than 128 characters', 40010001);
  if (typeof clientId === 'string' && knownClientIds.has(clientId))
    throw refuse('client_order_id must be unique', 40010001);
  const qty = num(body.qty);
  const notional = num(body.notional);
  if ((body.qty === undefined) === (body.notional === undefined)) throw refuse('qty or notional is required, not both');
  if (body.qty !== undefined && !(qty > 0)) throw refuse('qty must be > 0');
  if (body.notional !== undefined && !(notional > 0)) throw refuse('notional must be > 0');
  const type = String(body.type);
  if ((type === 'limit' || type === 'stop_limit') && !(num(body.limit_price) > 0))
    throw refuse('limit_price is required');
  if ((type === 'stop' || type === 'stop_limit') && !(num(body.stop_price) > 0)) throw refuse('stop_price is required');
  if (type === 'trailing_stop' && (body.trail_price === undefined) === (body.trail_percent === undefined))
    throw refuse('either trail_price or trail_percent is required');
  const cls = assetClassOf(symbol);
  const tif = String(body.time_in_force);
  if (cls === 'us_option' && (tif !== 'day' || !Number.isInteger(qty)))
    throw refuse('options orders must be whole-contract day orders');
  if (cls === 'crypto' && (tif === 'opg' || tif === 'cls')) throw refuse('invalid crypto time_in_force');
  const fractional = body.notional !== undefined || !Number.isInteger(qty);
  if (cls === 'us_equity' && fractional && tif !== 'day') throw refuse('fractional orders must be DAY orders');
  checkExits(body, cls);
  if (cls !== 'crypto') checkPennies(body);
  const price = num(body.limit_price) > 0 ? num(body.limit_price) : quoteOf(symbol);
  return body.notional !== undefined ? notional : qty * price;
}

/**
 * Stock and option prices on the US tick (a cent, $0.0001 under a dollar), or Alpaca refuses them:
 * "invalid limit_price 11.055. sub-penny increment does not fulfill minimum pricing criteria".
 */
function checkPennies(body: Record<string, unknown>): void {
  const prices: Array<[string, unknown]> = [
    ['limit_price', body.limit_price],
    ['stop_price', body.stop_price],
    ['take_profit.limit_price', (body.take_profit as Record<string, unknown> | undefined)?.limit_price],
    ['stop_loss.stop_price', (body.stop_loss as Record<string, unknown> | undefined)?.stop_price],
  ];
  for (const [field, value] of prices) {
    if (value === undefined) continue;
    const decimals = (String(value).split('.')[1] ?? '').length;
    if (decimals > (num(value) >= 1 ? 2 : 4))
      throw refuse(`invalid ${field} ${String(value)}. sub-penny increment does not fulfill minimum pricing criteria`);
  }
}

function checkExits(body: Record<string, unknown>, cls: FakePosition['assetClass']): void {
  const orderClass = body.order_class ?? 'simple';
  const takeProfit = num((body.take_profit as Record<string, unknown> | undefined)?.limit_price);
  const stopLoss = num((body.stop_loss as Record<string, unknown> | undefined)?.stop_price);
  if (orderClass === 'simple' || orderClass === '') return;
  if (cls !== 'us_equity') throw refuse(`${orderClass} orders are not supported for this asset`);
  if (orderClass === 'bracket' && !(takeProfit > 0 && stopLoss > 0))
    throw refuse('bracket orders must specify both take_profit and stop_loss');
  if (orderClass === 'oto' && !(takeProfit > 0) && !(stopLoss > 0))
    throw refuse('oto orders must specify take_profit or stop_loss');
}

export function newOrder(body: Record<string, unknown>, now: string): FakeAlpacaOrder {
  const str = (value: unknown) => (value === undefined ? null : String(value));
  return {
    id: randomUUID(),
    client_order_id: typeof body.client_order_id === 'string' ? body.client_order_id : randomUUID(),
    created_at: now,
    updated_at: now,
    submitted_at: now,
    filled_at: null,
    asset_id: randomUUID(),
    symbol: String(body.symbol),
    asset_class: assetClassOf(String(body.symbol)),
    notional: str(body.notional),
    qty: str(body.qty),
    filled_qty: '0',
    filled_avg_price: null,
    order_class: String(body.order_class ?? ''),
    order_type: String(body.type),
    type: String(body.type),
    side: String(body.side),
    time_in_force: String(body.time_in_force),
    limit_price: str(body.limit_price),
    stop_price: str(body.stop_price),
    trail_price: str(body.trail_price),
    trail_percent: str(body.trail_percent),
    status: 'accepted',
    extended_hours: body.extended_hours === true,
    legs: null,
    hwm: null,
  };
}
