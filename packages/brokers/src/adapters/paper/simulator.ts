// Placing, closing and canceling on a paper account: turns a normalized order into a paper
// order, refuses what a broker would (unknown symbols, expired contracts, what a cash account
// cannot do), and executes it when the market allows. Multi-leg orders: combo.ts.
import { isActionValidForClass, isExitAction, type Order } from '@router/orders';
import { positiveOnTick } from '../../core/ticks.ts';
import { type Book, callsSoldOnShares, finish, marksAt, openOrdersTrading, priceAt, scaleOf, track } from './book.ts';
import { placeCombo } from './combo.ts';
import type { Instrument } from './instruments.ts';
import { executionPrice } from './matching.ts';
import {
  baseOrder,
  checkTrade,
  DURATIONS,
  invalid,
  PLACING_ACTIONS,
  type PlaceRequest,
  rest,
  tradable,
} from './placing.ts';
import { equity, heldQuantity } from './portfolio.ts';
import { roundQuantity } from './precision.ts';
import { unscaledPrice } from './pricing.ts';
import { sweep, sweepAll } from './sweep.ts';
import { fill } from './trading.ts';
import type { PaperBracket, PaperOrder } from './types.ts';

const ACTIONS: ReadonlySet<string> = new Set(PLACING_ACTIONS);
const OPENING_ACTIONS = new Set(['buy', 'sell_short', 'buy_to_open', 'sell_to_open']);

/** The price a signal carried (`extra.price`, e.g. TradingView's {{close}}), if any. */
function priceHint(order: Order): number | undefined {
  const hint = order.extra?.price;
  const value = typeof hint === 'string' ? Number(hint) : hint;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Places an order (or a close or cancel signal) and returns its record. Throws BrokerError. */
export async function placeOrder(book: Book, request: PlaceRequest): Promise<PaperOrder> {
  const { order } = request;
  if (order.legs?.length) return placeCombo(book, request);
  const instrument = tradable(book, order.symbol, order.class, isExitAction(order.action));
  await sweep(book, await listings(book, order, instrument));
  const hint = priceHint(order);
  // Anchor this instrument's synthetic path to the signal's price for the account's later fills
  // (not an expired option worth nothing: no factor makes 0 the signal's price).
  const unscaled =
    hint === undefined ? 0 : unscaledPrice(instrument, book.market.now, book.market.quote, scaleOf(book));
  if (hint !== undefined && unscaled > 0) book.account.priceScales[instrument.scaleKey] = hint / unscaled;
  if (order.action === 'cancel') return cancelSymbol(book, request, instrument);
  if (order.action === 'close') return closeSymbol(book, request, instrument);
  return placeNew(book, request, instrument);
}

/**
 * The symbols an order's call sweeps: its own; for a close or a cancel of an option, also those
 * the combos with a leg on it are listed under (it ends them: one the market reached fills first).
 */
async function listings(book: Book, order: Order, instrument: Instrument): Promise<string[]> {
  if (!instrument.option || (order.action !== 'close' && order.action !== 'cancel')) return [instrument.symbol];
  const combos = await openOrdersTrading(book, instrument);
  return [...new Set([instrument.symbol, ...combos.map((combo) => combo.symbol)])];
}

/**
 * Cancels the open orders that trade the instrument, a combo with a leg on it too: of its class
 * only (AAPL the CFD leaves AAPL the stock's orders).
 */
async function cancelOpenOrders(book: Book, instrument: Instrument, reason: string): Promise<number> {
  const targets = await openOrdersTrading(book, instrument);
  for (const target of targets) finish(book, target, 'canceled', reason);
  return targets.length;
}

/** `cancel`: cancels the symbol's open orders. Nothing to cancel is not an error (strategies send it blindly). */
async function cancelSymbol(book: Book, request: PlaceRequest, instrument: Instrument): Promise<PaperOrder> {
  const { symbol } = instrument;
  const record = baseOrder(book, request, symbol);
  const count = await cancelOpenOrders(book, instrument, `Canceled by cancel order ${record.id}`);
  record.status = 'canceled';
  record.statusDescription = count ? `Canceled ${count} open order(s) for ${symbol}` : `No open orders for ${symbol}`;
  track(book, record);
  return record;
}

/**
 * `close`: flattens the position at the market, after canceling the symbol's open orders; with a
 * quantity (fixed, or percent_of_position) it closes that part, at most what is held, as the
 * brokers do. A partial close keeps the open orders: the bracket exits of what is still held
 * shrink to it (fitExits); one that would leave less than other open orders sell (or buy back) is
 * refused, as every reducing order is (checkTrade), rather than leave them to be rejected when they fill.
 */
async function closeSymbol(book: Book, request: PlaceRequest, instrument: Instrument): Promise<PaperOrder> {
  const { order } = request;
  const { symbol } = instrument;
  // An amount of cash or of equity names a part of the position: refused as other brokers do,
  // rather than read as "all of it".
  if (order.quantity !== undefined && (order.quantity_type === 'cash' || order.quantity_type === 'percent_of_equity'))
    throw invalid(`close takes a fixed quantity or percent_of_position, not quantity_type ${order.quantity_type}`);
  if (order.quantity !== undefined && !(Number.isFinite(order.quantity) && order.quantity > 0))
    throw invalid('quantity must be a positive number');
  const held = heldQuantity(book.account, instrument);
  let quantity = Math.abs(held);
  if (held !== 0 && order.quantity !== undefined) {
    const part =
      order.quantity_type === 'percent_of_position'
        ? (quantity * order.quantity) / 100
        : wholeIfUnits(order.quantity, instrument);
    quantity = Math.min(quantity, roundQuantity(part, instrument.quantityDecimals));
    // Refused before anything is canceled.
    if (quantity <= 0)
      throw invalid(`quantity ${order.quantity} (${order.quantity_type}) is less than one tradable unit of ${symbol}`);
  }
  const record = baseOrder(book, request, symbol);
  const partial = quantity < Math.abs(held);
  const count = partial ? 0 : await cancelOpenOrders(book, instrument, `Canceled by close order ${record.id}`);
  if (held === 0) {
    if (!count) throw invalid(`no position in ${symbol} to close`);
    record.status = 'canceled';
    record.statusDescription = `No position in ${symbol}; canceled ${count} open order(s)`;
    track(book, record);
    return record;
  }
  record.side = held > 0 ? 'sell' : 'buy';
  record.quantity = quantity;
  const price = priceAt(book, instrument, book.market.now);
  // What is left after a partial close must cover what open orders already sell (or buy back);
  // a close of shares, the calls resting orders sell to open on them (the close cancels neither).
  if (partial || callsSoldOnShares(book, instrument)) await checkTrade(book, record, price);
  await fill(book, record, book.market.now, price);
  return record;
}

/**
 * A fixed number of contracts, options or units is whole: trading fewer than asked is no answer
 * (a live broker refuses it). The epsilon lets a computed size's floating point noise pass.
 */
function wholeIfUnits(amount: number, instrument: Instrument): number {
  if (instrument.quantityDecimals === 0 && Math.abs(amount - Math.round(amount)) > 1e-6)
    throw invalid(`quantity ${amount} must be a whole number: ${instrument.symbol} trades in whole units`);
  return amount;
}

function resolveQuantity(book: Book, order: Order, instrument: Instrument, price: number): number {
  const amount = order.quantity;
  if (amount === undefined || !Number.isFinite(amount) || amount <= 0)
    throw invalid('quantity must be a positive number');
  const unitValue = price * instrument.multiplier;
  let quantity: number;
  switch (order.quantity_type) {
    case 'fixed':
      quantity = wholeIfUnits(amount, instrument);
      break;
    case 'cash':
      quantity = amount / unitValue;
      break;
    case 'percent_of_equity':
      quantity = (equity(book.account, marksAt(book, book.market.now)) * amount) / 100 / unitValue;
      break;
    case 'percent_of_position':
      quantity = (Math.abs(heldQuantity(book.account, instrument)) * amount) / 100;
      break;
  }
  const rounded = roundQuantity(quantity, instrument.quantityDecimals);
  if (rounded <= 0)
    throw invalid(`quantity ${amount} (${order.quantity_type}) is less than one tradable unit of ${instrument.symbol}`);
  return rounded;
}

function bracketOf(
  order: Order,
  instrument: Instrument,
  side: 'buy' | 'sell',
  reference: number,
): PaperBracket | undefined {
  const bracket: PaperBracket = {
    ...(order.take_profit_price !== undefined ? { takeProfitPrice: order.take_profit_price } : {}),
    ...(order.stop_loss_price !== undefined ? { stopLossPrice: order.stop_loss_price } : {}),
    ...(order.stop_loss_price_distance !== undefined ? { stopLossDistance: order.stop_loss_price_distance } : {}),
    ...(order.stop_loss_price_percent !== undefined ? { stopLossPercent: order.stop_loss_price_percent } : {}),
  };
  if (Object.keys(bracket).length === 0) return undefined;
  // Futures, forex and CFDs go short with sell (a strategy's short entry): it opens as sell_short does.
  if (!OPENING_ACTIONS.has(order.action) && !(order.action === 'sell' && instrument.margin !== undefined))
    throw invalid(
      'take profit and stop loss apply to buy, sell_short, buy_to_open and sell_to_open orders only (and sell of futures, forex and CFDs)',
    );
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
  // A long's stop that far below its entry is at or below zero: a stop loss that never triggers.
  const { stopLossDistance: distance, stopLossPercent: percent } = bracket;
  if (long && ((distance !== undefined && distance >= reference) || (percent !== undefined && percent >= 100))) {
    const field =
      distance !== undefined ? `stop_loss_price_distance ${distance}` : `stop_loss_price_percent ${percent}`;
    throw invalid(`${field} puts the stop loss at or below 0 (entry price ${reference})`);
  }
  return bracket;
}

async function placeNew(book: Book, request: PlaceRequest, instrument: Instrument): Promise<PaperOrder> {
  const { order } = request;
  if (!ACTIONS.has(order.action) || !isActionValidForClass(order.action, order.class))
    throw invalid(`action ${order.action} is not supported for ${order.class} orders`);
  if (!DURATIONS.has(order.duration)) throw invalid(`duration ${order.duration} is not supported`);
  const paper = baseOrder(book, request, instrument.symbol);
  paper.type = order.type;
  // Prices snap to the instrument's tick, as a broker's order ticket does; a limit never past
  // the trader's own (a buy's down, a sell's up). A stop goes the same way (a sell's stop loss
  // triggers no lower than asked, a buy's no higher), as Tradier, Robinhood and ccxt round it,
  // which keeps a stop_limit's limit on its side of the stop (rounded to the nearest, a sell's
  // stop of 100.004 went to 100.00 under its limit of 100.001 → 100.01: it could never fill).
  // A price under one tick that rounding takes to 0 is refused (positiveOnTick), never an order at 0.
  const onTick = (price: number, field: string, side = paper.side) =>
    positiveOnTick(price, instrument.tick, side === 'buy' ? 'down' : 'up', (message) => invalid(`${field} ${message}`));
  if (order.type === 'limit' || order.type === 'stop_limit') {
    if (!(order.limit_price !== undefined && order.limit_price > 0))
      throw invalid(`limit_price is required for ${order.type} orders`);
    paper.limitPrice = onTick(order.limit_price, 'limit_price');
  }
  if (order.type === 'stop' || order.type === 'stop_limit') {
    if (!(order.stop_price !== undefined && order.stop_price > 0))
      throw invalid(`stop_price is required for ${order.type} orders`);
    paper.stopPrice = onTick(order.stop_price, 'stop_price');
  }
  const marketPrice = priceAt(book, instrument, book.market.now);
  // What the order is sized, funded and bracketed against: its own price, else the market.
  const reference = paper.limitPrice ?? paper.stopPrice ?? marketPrice;
  // A part of the equity is of what the account is worth now: the exits and orders the market
  // reached on other symbols have filled first (a take profit's gain counted, a stop loss's loss).
  if (order.quantity_type === 'percent_of_equity') await sweepAll(book);
  paper.quantity = resolveQuantity(book, order, instrument, reference);
  const bracket = bracketOf(order, instrument, paper.side, reference);
  // A short's take profit is a buy: placed on the tick at the fill (trading.ts), checked here.
  if (bracket?.takeProfitPrice !== undefined)
    onTick(bracket.takeProfitPrice, 'take_profit_price', paper.side === 'buy' ? 'sell' : 'buy');
  if (bracket) paper.bracket = bracket;
  await checkTrade(book, paper, reference);

  const now = executionPrice(paper, marketPrice, false, false);
  if (now.price !== undefined) {
    await fill(book, paper, book.market.now, now.price);
    return paper;
  }
  if (now.triggered) paper.triggered = true;
  return rest(
    book,
    paper,
    reference,
    `${paper.type} ${paper.side} ${paper.quantity} ${instrument.symbol}`,
    marketPrice,
  );
}
