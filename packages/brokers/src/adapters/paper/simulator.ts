// Placing, closing and canceling on a paper account: turns a normalized order into a paper
// order, checks it like a cash account would, and executes it when the market allows.
import type { Order, OrderClass } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { type Book, fill, finish, type Market, nextOrderId, priceAt, track, tradeProblem } from './book.ts';
import { executionPrice } from './matching.ts';
import { equity, heldQuantity, openingQuantity } from './portfolio.ts';
import { roundQuantity } from './precision.ts';
import { symbolKey } from './quotes.ts';
import type { PaperBracket, PaperOrder } from './types.ts';

export const PAPER_TITLE = 'Paper Trading';
export const PAPER_CLASSES: readonly OrderClass[] = ['stock', 'crypto', 'forex'];
const ACTIONS = new Set(['buy', 'sell', 'sell_short', 'buy_to_cover']);
const DURATIONS = new Set(['day', 'gtc', 'ioc', 'fok']);
/** Day orders end with the simulated session at 20:00 UTC (16:00 in New York in summer). */
const SESSION_CLOSE_UTC_HOUR = 20;

export interface PlaceRequest {
  order: Order;
  clientOrderId?: string;
}

function invalid(message: string): BrokerError {
  return new BrokerError('InvalidOrder', PAPER_TITLE, message);
}

export function sessionClose(now: number): number {
  const close = new Date(now);
  close.setUTCHours(SESSION_CLOSE_UTC_HOUR, 0, 0, 0);
  return close.getTime() > now ? close.getTime() : close.getTime() + 86_400_000;
}

/** The price a signal carried (`extra.price`, e.g. TradingView's {{close}}), if any. */
function priceHint(order: Order): number | undefined {
  const hint = order.extra?.price;
  const value = typeof hint === 'string' ? Number(hint) : hint;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

function baseOrder(book: Book, request: PlaceRequest, symbol: string, now: number): PaperOrder {
  const { order } = request;
  return {
    id: nextOrderId(book),
    accountId: book.account.id,
    ...(request.clientOrderId !== undefined ? { clientOrderId: request.clientOrderId } : {}),
    symbol,
    class: order.class,
    action: order.action,
    side: order.action === 'buy' || order.action === 'buy_to_cover' ? 'buy' : 'sell',
    quantity: 0,
    type: 'market',
    duration: order.duration,
    status: 'open',
    statusDescription: '',
    createdAt: now,
    reservation: 0,
  };
}

/** Places an order (or a close or cancel signal) and returns its record. Throws BrokerError. */
export function placeOrder(book: Book, market: Market, request: PlaceRequest): PaperOrder {
  const { order } = request;
  if (order.legs?.length) throw invalid('multi-leg orders are not supported');
  if (!PAPER_CLASSES.includes(order.class)) throw invalid(`${order.class} orders are not supported`);
  const symbol = order.symbol.trim().toUpperCase();
  if (!symbol) throw invalid('symbol is required');
  const hint = priceHint(order);
  if (hint !== undefined) {
    // Anchor this symbol's synthetic path to the signal's price for the account's later fills.
    book.account.priceScales[symbolKey(symbol)] = hint / market.quote(symbol, order.class, market.now);
  }
  if (order.action === 'cancel') return cancelSymbol(book, market, request, symbol);
  if (order.action === 'close') return closeSymbol(book, market, request, symbol);
  return placeNew(book, market, request, symbol);
}

function cancelOpenOrders(book: Book, symbol: string, reason: string): number {
  const targets = book.open.filter((open) => open.symbol === symbol);
  for (const target of targets) finish(book, target, 'canceled', reason);
  return targets.length;
}

/** `cancel`: cancels the symbol's open orders. Nothing to cancel is not an error (strategies send it blindly). */
function cancelSymbol(book: Book, market: Market, request: PlaceRequest, symbol: string): PaperOrder {
  const record = baseOrder(book, request, symbol, market.now);
  const count = cancelOpenOrders(book, symbol, `Canceled by cancel order ${record.id}`);
  record.status = 'canceled';
  record.statusDescription = count ? `Canceled ${count} open order(s) for ${symbol}` : `No open orders for ${symbol}`;
  track(book, record);
  return record;
}

/** `close`: cancels the symbol's open orders, then flattens the position at the market. */
function closeSymbol(book: Book, market: Market, request: PlaceRequest, symbol: string): PaperOrder {
  const record = baseOrder(book, request, symbol, market.now);
  const count = cancelOpenOrders(book, symbol, `Canceled by close order ${record.id}`);
  const held = heldQuantity(book.account, symbol);
  if (held === 0) {
    if (!count) throw invalid(`no position in ${symbol} to close`);
    record.status = 'canceled';
    record.statusDescription = `No position in ${symbol}; canceled ${count} open order(s)`;
    track(book, record);
    return record;
  }
  record.side = held > 0 ? 'sell' : 'buy';
  record.quantity = Math.abs(held);
  const price = priceAt(book, market, market.now)(symbol, record.class);
  fill(book, market, record, market.now, price);
  return record;
}

function resolveQuantity(book: Book, market: Market, order: Order, symbol: string, price: number): number {
  const amount = order.quantity;
  if (amount === undefined || !Number.isFinite(amount) || amount <= 0)
    throw invalid('quantity must be a positive number');
  let quantity: number;
  switch (order.quantity_type) {
    case 'fixed':
      quantity = amount;
      break;
    case 'cash':
      quantity = amount / price;
      break;
    case 'percent_of_equity':
      quantity = (equity(book.account, priceAt(book, market, market.now)) * amount) / 100 / price;
      break;
    case 'percent_of_position':
      quantity = (Math.abs(heldQuantity(book.account, symbol)) * amount) / 100;
      break;
  }
  const rounded = roundQuantity(order.class, quantity);
  if (rounded <= 0)
    throw invalid(`quantity ${amount} (${order.quantity_type}) is less than one tradable unit of ${symbol}`);
  return rounded;
}

function bracketOf(order: Order, side: 'buy' | 'sell', reference: number): PaperBracket | undefined {
  const bracket: PaperBracket = {
    ...(order.take_profit_price !== undefined ? { takeProfitPrice: order.take_profit_price } : {}),
    ...(order.stop_loss_price !== undefined ? { stopLossPrice: order.stop_loss_price } : {}),
    ...(order.stop_loss_price_distance !== undefined ? { stopLossDistance: order.stop_loss_price_distance } : {}),
    ...(order.stop_loss_price_percent !== undefined ? { stopLossPercent: order.stop_loss_price_percent } : {}),
  };
  if (Object.keys(bracket).length === 0) return undefined;
  if (order.action !== 'buy' && order.action !== 'sell_short')
    throw invalid('take profit and stop loss apply to buy and sell_short orders only');
  // A long's profit is above its entry and its loss below; a short's the other way round.
  const long = side === 'buy';
  const { takeProfitPrice: profit, stopLossPrice: loss } = bracket;
  if (profit !== undefined && (long ? profit <= reference : profit >= reference)) {
    throw invalid(`take_profit_price must be ${long ? 'above' : 'below'} the entry price ${reference}`);
  }
  if (loss !== undefined && (long ? loss >= reference : loss <= reference)) {
    throw invalid(`stop_loss_price must be ${long ? 'below' : 'above'} the entry price ${reference}`);
  }
  for (const value of [bracket.stopLossDistance, bracket.stopLossPercent]) {
    if (value !== undefined && !(value > 0)) throw invalid('stop loss distance and percent must be positive');
  }
  return bracket;
}

function placeNew(book: Book, market: Market, request: PlaceRequest, symbol: string): PaperOrder {
  const { order } = request;
  if (!ACTIONS.has(order.action)) throw invalid(`action ${order.action} is not supported`);
  if (!DURATIONS.has(order.duration)) throw invalid(`duration ${order.duration} is not supported`);
  const paper = baseOrder(book, request, symbol, market.now);
  paper.type = order.type;
  if (order.type === 'limit' || order.type === 'stop_limit') {
    if (!(order.limit_price !== undefined && order.limit_price > 0))
      throw invalid(`limit_price is required for ${order.type} orders`);
    paper.limitPrice = order.limit_price;
  }
  if (order.type === 'stop' || order.type === 'stop_limit') {
    if (!(order.stop_price !== undefined && order.stop_price > 0))
      throw invalid(`stop_price is required for ${order.type} orders`);
    paper.stopPrice = order.stop_price;
  }
  const prices = priceAt(book, market, market.now);
  const marketPrice = prices(symbol, order.class);
  // What the order is sized, funded and bracketed against: its own price, else the market.
  const reference = paper.limitPrice ?? paper.stopPrice ?? marketPrice;
  paper.quantity = resolveQuantity(book, market, order, symbol, reference);
  const bracket = bracketOf(order, paper.side, reference);
  if (bracket) paper.bracket = bracket;
  const problem = tradeProblem(book, paper, reference, prices);
  if (problem) throw new BrokerError(problem[0], PAPER_TITLE, problem[1]);

  const now = executionPrice(paper, marketPrice, false, false);
  if (now.price !== undefined) {
    fill(book, market, paper, market.now, now.price);
    return paper;
  }
  if (now.triggered) paper.triggered = true;
  const what = `${paper.type} ${paper.side} ${paper.quantity} ${symbol}`;
  if (order.duration === 'ioc' || order.duration === 'fok') {
    paper.status = 'canceled';
    paper.statusDescription = `Canceled: ${what} not marketable at ${marketPrice} (${order.duration})`;
  } else {
    const signed = paper.side === 'buy' ? paper.quantity : -paper.quantity;
    // Only what would open or grow a position holds buying power while the order rests.
    paper.reservation = openingQuantity(heldQuantity(book.account, symbol), signed) * reference;
    if (order.duration === 'day') paper.expiresAt = sessionClose(market.now);
    paper.statusDescription = `Accepted: ${what} at ${reference} (${order.duration})`;
  }
  track(book, paper);
  return paper;
}
