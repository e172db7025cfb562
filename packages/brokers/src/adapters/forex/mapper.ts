// Normalized order → CIAPI order request (WIRE.md §5, NewTradeOrderRequestDTO and
// NewStopLimitOrderRequestDTO): a market order is a trade on the current quote, a limit or stop a
// stop/limit order whose kind FOREX.com infers from the side of the market its level is on, so
// the side is checked here against the quote. Exits go along as one IfDone of a stop and a limit.
import type { Order } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { FOREX_TITLE } from './descriptor.ts';
import type { ForexAccount, ForexMarket, Quote } from './markets.ts';

export type Direction = 'buy' | 'sell';

export interface ForexExit {
  TriggerPrice: number;
  Direction: Direction;
  Quantity: number;
  Applicability: 'gtc';
}

export interface IfDone {
  Stop?: ForexExit;
  Limit?: ForexExit;
}

interface Common {
  MarketId: number;
  Direction: Direction;
  Quantity: number;
  BidPrice: number;
  OfferPrice: number;
}

interface Account {
  TradingAccountId: number;
  Currency: string;
  AutoRollover: false;
  /** 1: LongOrShortOnly, positions net per market. */
  PositionMethodId: 1;
}

export type TradeRequest = Common & Account & { IfDone: IfDone[]; Close: number[] };
export type StopLimitRequest = Common & {
  TriggerPrice: number;
  Applicability: 'gtc' | 'gfd';
  ExpiryDateTimeUTC: null;
  Guaranteed: false;
} & Account & { IfDone: IfDone[]; OcoOrder: null };

export type ForexRequest =
  | { path: '/order/newtradeorder'; body: TradeRequest }
  | { path: '/order/newstoplimitorder'; body: StopLimitRequest };

const invalid = (message: string) => new BrokerError('InvalidOrder', FOREX_TITLE, message);
const opposite = (direction: Direction): Direction => (direction === 'buy' ? 'sell' : 'buy');

/** A price at the market's decimals. */
const level = (value: number, market: ForexMarket) =>
  market.decimals === undefined ? value : Number(value.toFixed(market.decimals));

/**
 * A level at the market's decimals: a limit (entry or take profit) never beyond the trader's price (a buy
 * rounded down, a sell up), a stop to the nearest.
 */
export function entryLevel(value: number, type: Order['type'], direction: Direction, market: ForexMarket): number {
  if (market.decimals === undefined || type !== 'limit') return level(value, market);
  const scale = 10 ** market.decimals;
  // The tolerance keeps a level already at the decimals (1.005 × 1000 = 1004.9999…) where it is.
  const steps = direction === 'buy' ? Math.floor(value * scale + 1e-6) : Math.ceil(value * scale - 1e-6);
  return Number((steps / scale).toFixed(market.decimals));
}

/** The quantity, checked now; against the market's sizes once it is known. */
function quantityOf(order: Order): (market: ForexMarket) => number {
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is not supported`);
  const quantity = order.quantity ?? 0;
  if (!(quantity > 0)) throw invalid('quantity must be greater than zero');
  return (market) => {
    if (market.minSize !== undefined && quantity < market.minSize)
      throw invalid(`${quantity} is below the minimum of ${market.minSize} for ${market.name}`);
    if (market.maxSize !== undefined && quantity > market.maxSize)
      throw invalid(`${quantity} is above the maximum of ${market.maxSize} for ${market.name}`);
    return quantity;
  };
}

/** A limit buy below the offer, a stop buy above it (and the reverse for sells), as FOREX.com infers them. */
function checkSide(order: Order, direction: Direction, trigger: number, quote: Quote): void {
  const market = direction === 'buy' ? quote.offer : quote.bid;
  const below = trigger < market;
  const wanted = (order.type === 'limit') === (direction === 'buy');
  if (below !== wanted) {
    const side = wanted ? 'below' : 'above';
    throw invalid(`a ${direction} ${order.type} must be ${side} the market (${market}); ${trigger} is not`);
  }
}

function exitsOf(order: Order, direction: Direction, quantity: number, entry: number, market: ForexMarket): IfDone[] {
  const exit = (price: number, type: 'stop' | 'limit'): ForexExit => ({
    TriggerPrice: entryLevel(price, type, opposite(direction), market),
    Direction: opposite(direction),
    Quantity: quantity,
    Applicability: 'gtc',
  });
  const { stop_loss_price: stop, take_profit_price: limit } = order;
  if (stop === undefined && limit === undefined) return [];
  const up = direction === 'buy' ? 1 : -1;
  if (stop !== undefined && (stop - entry) * up >= 0)
    throw invalid(`stop_loss_price must be ${up > 0 ? 'below' : 'above'} the entry (${entry}) for a ${direction}`);
  if (limit !== undefined && (limit - entry) * up <= 0)
    throw invalid(`take_profit_price must be ${up > 0 ? 'above' : 'below'} the entry (${entry}) for a ${direction}`);
  return [
    {
      ...(stop !== undefined ? { Stop: exit(stop, 'stop') } : {}),
      ...(limit !== undefined ? { Limit: exit(limit, 'limit') } : {}),
    },
  ];
}

/** A request checked now, completed with the market, the account and the quote the broker gives later. */
export type ToMarket = (market: ForexMarket, account: ForexAccount, quote: Quote) => ForexRequest;

/**
 * The request a buy or sell becomes: every refusal that needs no market or quote thrown here,
 * before any lookup (Broker.checkOrder stops at this point).
 */
export function toForexRequest(order: Order): ToMarket {
  if (order.action !== 'buy' && order.action !== 'sell')
    throw invalid(`${order.action} is not an order FOREX.com takes`);
  const direction: Direction = order.action;
  const quantityIn = quantityOf(order);
  const raw = order.type === 'limit' ? order.limit_price : order.stop_price;
  if (order.type !== 'market') {
    if (order.type === 'stop_limit') throw invalid('FOREX.com has no stop-limit order');
    if (raw === undefined) throw invalid(`${order.type === 'limit' ? 'limit_price' : 'stop_price'} is required`);
    if (order.duration !== 'gtc' && order.duration !== 'day')
      throw invalid(`duration ${order.duration} is not supported; use day or gtc`);
  }
  return (market, account, quote) => {
    const quantity = quantityIn(market);
    const common: Common = {
      MarketId: market.marketId,
      Direction: direction,
      Quantity: quantity,
      BidPrice: quote.bid,
      OfferPrice: quote.offer,
    };
    const settings: Account = {
      TradingAccountId: account.tradingAccountId,
      Currency: account.currency,
      AutoRollover: false,
      PositionMethodId: 1,
    };
    if (order.type === 'market' || raw === undefined) {
      const entry = direction === 'buy' ? quote.offer : quote.bid;
      return {
        path: '/order/newtradeorder',
        body: { ...common, ...settings, IfDone: exitsOf(order, direction, quantity, entry, market), Close: [] },
      };
    }
    const trigger = entryLevel(raw, order.type, direction, market);
    checkSide(order, direction, trigger, quote);
    return {
      path: '/order/newstoplimitorder',
      body: {
        ...common,
        TriggerPrice: trigger,
        Applicability: order.duration === 'day' ? 'gfd' : 'gtc',
        ExpiryDateTimeUTC: null,
        Guaranteed: false,
        ...settings,
        IfDone: exitsOf(order, direction, quantity, trigger, market),
        OcoOrder: null,
      },
    };
  };
}
