// The order rules of the Robinhood protocol fake (WIRE.md §3-5): trading pairs with their
// increments, order bodies validated as Robinhood validates them (400 validation_error naming the
// field), the account's buying power and coins, and orders as Robinhood writes them.
import { randomUUID } from 'node:crypto';

export interface FakePair {
  symbol: string;
  assetIncrement: string;
  quoteIncrement: string;
  minOrderSize: string;
  maxOrderSize: string;
  status: 'tradable' | 'untradable' | 'sellonly';
  apiTradable: boolean;
  quote: number;
}

export const FAKE_PAIRS: FakePair[] = [
  pair('BTC-USD', '0.00000001', '0.01', '0.000001', '20', 61234.56),
  pair('ETH-USD', '0.000001', '0.01', '0.0001', '500', 3400),
  pair('SOL-USD', '0.0001', '0.01', '0.01', '10000', 150),
  pair('DOGE-USD', '1', '0.000001', '1', '10000000', 0.15),
  // Listed, but not for API orders on v2.
  { ...pair('PEPE-USD', '1', '0.00000001', '1000', '1000000000', 0.00001), apiTradable: false },
];

function pair(symbol: string, asset: string, quote: string, min: string, max: string, price: number): FakePair {
  return {
    symbol,
    assetIncrement: asset,
    quoteIncrement: quote,
    minOrderSize: min,
    maxOrderSize: max,
    status: 'tradable',
    apiTradable: true,
    quote: price,
  };
}

/** Robinhood writes decimals with 18 places: "0.000100000000000000". */
export const wide = (value: number | string) => {
  const [whole = '0', fraction = ''] = (typeof value === 'number' ? value.toFixed(12) : value).split('.');
  return `${whole}.${fraction.padEnd(18, '0').slice(0, 18)}`;
};

export const pairBody = (item: FakePair, version: string) => ({
  asset_code: item.symbol.split('-')[0],
  quote_code: 'USD',
  quote_increment: wide(item.quoteIncrement),
  asset_increment: wide(item.assetIncrement),
  max_order_size: item.maxOrderSize,
  min_order_size: item.minOrderSize,
  status: item.status,
  symbol: item.symbol,
  ...(version === 'v2' ? { is_api_tradable: item.apiTradable } : {}),
});

export class FakeRefusal extends Error {
  readonly status: number;
  readonly attr: string | null;
  constructor(status: number, attr: string | null, detail: string) {
    super(detail);
    this.status = status;
    this.attr = attr;
  }
}

const refuse = (attr: string, detail: string) => new FakeRefusal(400, attr, detail);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONFIGS = {
  market: 'market_order_config',
  limit: 'limit_order_config',
  stop_loss: 'stop_loss_order_config',
  stop_limit: 'stop_limit_order_config',
} as const;
const TIME_IN_FORCE = ['gtc', 'gfd', 'gfw', 'gfm'];

type Json = Record<string, unknown>;

/** A decimal string (Robinhood refuses JSON numbers for amounts and prices). */
function decimal(config: Json, field: string, attr: string): number | undefined {
  const value = config[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value)) throw refuse(attr, 'A valid number is required.');
  return Number(value);
}

const isMultiple = (value: number, increment: string) => {
  const units = value / Number(increment);
  return Math.abs(units - Math.round(units)) < 1e-6;
};

export interface CheckedOrder {
  pair: FakePair;
  side: 'buy' | 'sell';
  type: keyof typeof CONFIGS;
  config: Json;
  /** Coins, or undefined for a USD amount. */
  quantity?: number;
  quoteAmount?: number;
  limitPrice?: number;
  stopPrice?: number;
}

/** Checks a POST .../orders/ body as Robinhood does; the first fault is the answer. */
export function checkOrder(body: Json, version: string, clientIds: Set<string>): CheckedOrder {
  const clientId = body.client_order_id;
  if (typeof clientId !== 'string' || !UUID.test(clientId)) throw refuse('client_order_id', 'Must be a valid UUID.');
  if (clientIds.has(clientId.toLowerCase()))
    throw refuse('client_order_id', 'Order with this client order id already exists.');
  if (body.side !== 'buy' && body.side !== 'sell')
    throw refuse('side', `"${String(body.side)}" is not a valid choice.`);
  const type = String(body.type) as keyof typeof CONFIGS;
  if (!(type in CONFIGS)) throw refuse('type', `"${String(body.type)}" is not a valid choice.`);
  const found = FAKE_PAIRS.find((item) => item.symbol === body.symbol);
  if (!found) throw refuse('symbol', 'Trading pair not found.');
  if (version === 'v2' && !found.apiTradable) throw refuse('symbol', 'Trading pair is not tradable through the API.');
  const present = Object.values(CONFIGS).filter((key) => body[key] !== undefined);
  if (present.length !== 1 || present[0] !== CONFIGS[type])
    throw refuse(CONFIGS[type], `Exactly one order config matching the order type "${type}" is required.`);
  const config = (body[CONFIGS[type]] ?? {}) as Json;
  const attr = (field: string) => `${CONFIGS[type]}.${field}`;
  const quantity = decimal(config, 'asset_quantity', attr('asset_quantity'));
  const quoteAmount = decimal(config, 'quote_amount', attr('quote_amount'));
  if (type === 'market' && quoteAmount !== undefined)
    throw refuse(attr('quote_amount'), 'Market orders accept asset_quantity only.');
  if ((quantity === undefined) === (quoteAmount === undefined))
    throw refuse(CONFIGS[type], 'Only one of asset_quantity or quote_amount can be present.');
  if (quoteAmount !== undefined && (!(quoteAmount > 0) || !isMultiple(quoteAmount, found.quoteIncrement)))
    throw refuse(attr('quote_amount'), `Must be a positive multiple of ${found.quoteIncrement}.`);
  if (quantity !== undefined) {
    if (!(quantity > 0) || !isMultiple(quantity, found.assetIncrement))
      throw refuse(attr('asset_quantity'), `Must be a multiple of ${found.assetIncrement}.`);
    if (quantity < Number(found.minOrderSize) || quantity > Number(found.maxOrderSize))
      throw refuse(attr('asset_quantity'), `Must be between ${found.minOrderSize} and ${found.maxOrderSize}.`);
  }
  const limitPrice = decimal(config, 'limit_price', attr('limit_price'));
  const stopPrice = decimal(config, 'stop_price', attr('stop_price'));
  if ((type === 'limit' || type === 'stop_limit') && !(limitPrice && limitPrice > 0))
    throw refuse(attr('limit_price'), 'This field is required.');
  if ((type === 'stop_loss' || type === 'stop_limit') && !(stopPrice && stopPrice > 0))
    throw refuse(attr('stop_price'), 'This field is required.');
  for (const price of [limitPrice, stopPrice])
    if (price !== undefined && !isMultiple(price, found.quoteIncrement))
      throw refuse(
        attr(price === limitPrice ? 'limit_price' : 'stop_price'),
        `Must be a multiple of ${found.quoteIncrement}.`,
      );
  const tif = config.time_in_force;
  if (type !== 'market' && tif !== undefined && !TIME_IN_FORCE.includes(String(tif)))
    throw refuse(attr('time_in_force'), `"${String(tif)}" is not a valid choice.`);
  if ((type === 'stop_loss' || type === 'stop_limit') && tif === undefined)
    throw refuse(attr('time_in_force'), 'This field is required.');
  return {
    pair: found,
    side: body.side,
    type,
    config,
    ...(quantity !== undefined ? { quantity } : {}),
    ...(quoteAmount !== undefined ? { quoteAmount } : {}),
    ...(limitPrice !== undefined ? { limitPrice } : {}),
    ...(stopPrice !== undefined ? { stopPrice } : {}),
  };
}

export interface FakeOrder extends Json {
  id: string;
  client_order_id: string;
  symbol: string;
  side: string;
  state: string;
  created_at: string;
}

/** A new order as Robinhood answers it: open, nothing filled, its config echoed with 18 decimals. */
export function newOrder(body: Json, checked: CheckedOrder, accountNumber: string, at: string): FakeOrder {
  const configKey = CONFIGS[checked.type];
  const echoed = Object.fromEntries(
    Object.entries(checked.config).map(([key, value]) => [key, key === 'time_in_force' ? value : wide(String(value))]),
  );
  return {
    id: randomUUID(),
    account_number: accountNumber,
    symbol: checked.pair.symbol,
    client_order_id: String(body.client_order_id).toLowerCase(),
    side: checked.side,
    executions: [],
    type: checked.type,
    state: 'open',
    average_price: null,
    filled_asset_quantity: wide(0),
    created_at: at,
    updated_at: at,
    [configKey]: echoed,
  };
}
