// Normalized order → Robinhood's order body (WIRE.md §4), and Robinhood's order → ours (§5).
//   {"client_order_id":"5f0e6c1a-…","side":"sell","type":"limit","symbol":"ETH-USD",
//    "limit_order_config":{"asset_quantity":"0.25","limit_price":"3500.00","time_in_force":"gtc"}}
// Numbers go as decimal strings: coins rounded down to the pair's asset increment, prices to its
// quote increment (the pair's decimals, as Robinhood writes them), a limit never past the trader's.
import type { Order, OrderResponse } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { decimalField, decimalString, stringField } from '../../core/json-read.ts';
import { positiveOnTick, roundToTick } from '../../core/ticks.ts';
import { ROBINHOOD_TITLE } from './descriptor.ts';
import type { TradingPair } from './pairs.ts';

type Amount = { asset_quantity: string } | { quote_amount: string };
type TimeInForce = 'gtc' | 'gfd' | 'gfw' | 'gfm';

export interface RobinhoodOrderRequest {
  client_order_id: string;
  side: 'buy' | 'sell';
  type: 'market' | 'limit' | 'stop_loss' | 'stop_limit';
  symbol: string;
  market_order_config?: { asset_quantity: string };
  limit_order_config?: Amount & { limit_price: string; time_in_force: TimeInForce };
  stop_loss_order_config?: Amount & { stop_price: string; time_in_force: TimeInForce };
  stop_limit_order_config?: Amount & { limit_price: string; stop_price: string; time_in_force: TimeInForce };
}

const TIME_IN_FORCE: Partial<Record<Order['duration'], TimeInForce>> = {
  gtc: 'gtc',
  day: 'gfd',
  gtw: 'gfw',
  gtm: 'gfm',
};

const invalid = (message: string) => new BrokerError('InvalidOrder', ROBINHOOD_TITLE, message);

/** Decimals of an increment: "0.000000010000000000" → 8, "1" → 0. */
const decimalsOf = (increment: string) => (increment.split('.')[1] ?? '').replace(/0+$/, '').length;
const trimZeros = (text: string) => (text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text);

/** `value` rounded (down, up or to the nearest) to a multiple of `increment`, with its decimals. */
export function toIncrement(value: number, increment: string, mode: 'down' | 'up' | 'nearest'): string {
  const step = Number(increment);
  if (!(step > 0)) return trimZeros(value.toFixed(9));
  return roundToTick(value, step, mode).toFixed(decimalsOf(increment));
}

/** A body checked now, completed with the pair (and the coins held) the broker gives later. */
export type ToPair = (pair: TradingPair, held?: number) => RobinhoodOrderRequest;

/** The amount's kind, checked now; its size is rounded and bounded by the pair. */
function amountOf(order: Order): (pair: TradingPair, held: number | undefined) => Amount {
  const quantity = order.quantity ?? 0;
  if (order.quantity_type === 'cash') {
    if (order.type === 'market')
      throw invalid('a USD amount (quantity_type cash) goes with limit and stop orders; market orders take coins');
    return (pair) => {
      const amount = toIncrement(quantity, pair.quoteIncrement, 'down');
      if (!(Number(amount) > 0))
        throw invalid(
          `${decimalString(quantity)} USD is less than the quote increment of ${pair.symbol} (${trimZeros(pair.quoteIncrement)})`,
        );
      return { quote_amount: amount };
    };
  }
  const percent = order.quantity_type === 'percent_of_position';
  if (percent && order.action !== 'sell') throw invalid('percent_of_position goes with sell and close');
  if (!percent && order.quantity_type !== 'fixed')
    throw invalid(`quantity_type ${order.quantity_type} is not supported`);
  return (pair, held) => {
    if (percent && held === undefined) throw invalid('percent_of_position goes with sell and close');
    const coins = percent ? ((held ?? 0) * quantity) / 100 : quantity;
    const asset = trimZeros(toIncrement(coins, pair.assetIncrement, 'down'));
    const size = Number(asset);
    if (!(size > 0) || (pair.minOrderSize !== undefined && size < pair.minOrderSize))
      throw invalid(
        `${decimalString(coins)} ${pair.assetCode} is below the minimum order size of ${pair.minOrderSize ?? 0}`,
      );
    if (pair.maxOrderSize !== undefined && size > pair.maxOrderSize)
      throw invalid(`${size} ${pair.assetCode} is above the maximum order size of ${pair.maxOrderSize}`);
    return { asset_quantity: asset };
  };
}

function checkTradable(order: Order, pair: TradingPair): void {
  if (pair.status === 'not_api_tradable') throw invalid(`${pair.symbol} cannot be ordered through the API (v2)`);
  if (pair.status === 'untradable') throw invalid(`${pair.symbol} is not tradable at the moment`);
  if (pair.status === 'sellonly' && order.action !== 'sell') throw invalid(`${pair.symbol} can only be sold`);
}

/**
 * The order body: every refusal that needs no pair thrown here, before any lookup
 * (Broker.checkOrder stops at this point); the pair's status, increments and sizes once it is
 * known. `held` is the coins available for trading, for percent_of_position.
 */
export function toRobinhoodOrder(order: Order, clientOrderId: string): ToPair {
  const side = order.action;
  if (side !== 'buy' && side !== 'sell') throw invalid(`${side} is not an order Robinhood takes; no short selling`);
  const amountFor = amountOf(order);
  const head = (pair: TradingPair) => ({ client_order_id: clientOrderId, side, symbol: pair.symbol }) as const;
  if (order.type === 'market')
    return (pair, held) => {
      checkTradable(order, pair);
      const amount = amountFor(pair, held);
      if (!('asset_quantity' in amount)) throw invalid('market orders take coins');
      return { ...head(pair), type: 'market', market_order_config: amount };
    };
  const time_in_force = TIME_IN_FORCE[order.duration];
  if (!time_in_force) throw invalid(`duration ${order.duration} is not supported; use gtc, day, gtw or gtm`);
  // A limit price is never rounded past the trader's: a buy's down, a sell's up. A stop goes the
  // same way (a sell's stop-loss triggers no lower than asked, a buy's no higher), which keeps a
  // stop-limit's limit on its side of the stop: rounded to the nearest, a sell's stop of 100.004
  // went to 100.00 under its limit of 100.001 → 100.01, a limit that cannot fill as it falls.
  const price = (value: number | undefined, field: string) => {
    if (value === undefined || !(value > 0)) throw invalid(`${field} must be a positive price`);
    const direction = side === 'buy' ? 'down' : 'up';
    return (pair: TradingPair) => {
      // Under one increment a buy's price would be 0: refused (positiveOnTick), never sent so.
      const step = Number(pair.quoteIncrement);
      if (step > 0) positiveOnTick(value, step, direction, (message) => invalid(`${field} ${message}`));
      return toIncrement(value, pair.quoteIncrement, direction);
    };
  };
  const tradable = (pair: TradingPair, held: number | undefined) => {
    checkTradable(order, pair);
    return { ...head(pair), amount: amountFor(pair, held) };
  };
  switch (order.type) {
    case 'limit': {
      const limit = price(order.limit_price, 'limit_price');
      return (pair, held) => {
        const { amount, ...start } = tradable(pair, held);
        return {
          ...start,
          type: 'limit',
          limit_order_config: { ...amount, limit_price: limit(pair), time_in_force },
        };
      };
    }
    case 'stop': {
      const stop = price(order.stop_price, 'stop_price');
      return (pair, held) => {
        const { amount, ...start } = tradable(pair, held);
        return {
          ...start,
          type: 'stop_loss',
          stop_loss_order_config: { ...amount, stop_price: stop(pair), time_in_force },
        };
      };
    }
    case 'stop_limit': {
      const stop = price(order.stop_price, 'stop_price');
      const limit = price(order.limit_price, 'limit_price');
      return (pair, held) => {
        const { amount, ...start } = tradable(pair, held);
        return {
          ...start,
          type: 'stop_limit',
          stop_limit_order_config: { ...amount, stop_price: stop(pair), limit_price: limit(pair), time_in_force },
        };
      };
    }
  }
}

/**
 * A close: the sell of what is held (all of it, a part in coins or a percent of it), its
 * quantity's kind checked now, its size once the coins held are known.
 */
export function closeOrder(part: Partial<Pick<Order, 'quantity' | 'quantity_type'>>, clientOrderId: string): ToPair {
  const coins = part.quantity !== undefined && part.quantity_type === 'fixed';
  if (part.quantity !== undefined && !coins && part.quantity_type !== 'percent_of_position')
    throw invalid('close takes coins or percent_of_position');
  return (pair, held = 0) => {
    const order = {
      symbol: pair.symbol,
      class: 'crypto',
      action: 'sell',
      quantity: coins ? Math.min(part.quantity ?? held, held) : (part.quantity ?? 100),
      quantity_type: coins ? 'fixed' : 'percent_of_position',
      type: 'market',
      duration: 'gtc',
    } as const;
    return toRobinhoodOrder(order, clientOrderId)(pair, held);
  };
}

const STATUSES: Record<string, OrderResponse['status']> = {
  filled: 'filled',
  canceled: 'canceled',
  // WIRE.md §5: one client spells it with two l's.
  cancelled: 'canceled',
  failed: 'rejected',
};

/**
 * Robinhood's order → ours: open and partially filled orders are accepted, the average price is
 * the fill so far.
 *   {"id":"6f1d2e3c-…","state":"filled","average_price":"61234.56","filled_asset_quantity":"0.0001"}
 */
export function fromRobinhoodOrder(body: unknown, submitted = false): OrderResponse {
  const id = stringField(body, 'id');
  const state = stringField(body, 'state');
  if (!id || !state) {
    // After a submission the order may exist all the same: reconciliation decides.
    throw new BrokerError('BrokerUnavailable', ROBINHOOD_TITLE, 'unexpected order answer', {
      outcomeUnknown: submitted,
    });
  }
  const price = decimalField(body, 'average_price');
  const filled = decimalField(body, 'filled_asset_quantity');
  const progress = state === 'partially_filled' && filled !== undefined ? `, ${filled} filled` : '';
  return {
    id,
    status: STATUSES[state] ?? 'accepted',
    status_description: `Robinhood order ${state.replace(/_/g, ' ')}${progress}`,
    ...(price !== undefined && price > 0 ? { price } : {}),
  };
}
