// One account's working state inside a store transaction: the account, its open orders and
// the orders changed so far. Fills, exits (bracket children) and the sweep of resting orders.
import type { OrderClass } from '@router/orders';
import { type ScanResult, scan } from './matching.ts';
import { applyFill, buyingPower, heldQuantity, openingQuantity, type PriceOf } from './portfolio.ts';
import { roundPrice } from './precision.ts';
import { type QuoteSource, symbolKey } from './quotes.ts';
import { copyAccount, copyOrder, type PaperAccount, type PaperOrder, type PaperOrderStatus } from './types.ts';

export interface Book {
  account: PaperAccount;
  open: PaperOrder[];
  /** Orders created or changed in this transaction, to be saved. */
  changed: Map<string, PaperOrder>;
}

export interface Market {
  now: number;
  quote: QuoteSource;
}

/** Copies what the store gave, so a preview or a failed call leaves nothing half-changed. */
export function openBook(account: PaperAccount, openOrders: readonly PaperOrder[]): Book {
  return { account: copyAccount(account), open: openOrders.map(copyOrder), changed: new Map() };
}

export function priceAt(book: Book, market: Market, at: number): PriceOf {
  return (symbol: string, cls: OrderClass) =>
    roundPrice(cls, market.quote(symbol, cls, at) * (book.account.priceScales[symbolKey(symbol)] ?? 1));
}

export function nextOrderId(book: Book): string {
  book.account.orderSequence += 1;
  return `${book.account.id}-${book.account.orderSequence}`;
}

export function track(book: Book, order: PaperOrder): void {
  book.changed.set(order.id, order);
  if (order.status === 'open' && !book.open.includes(order)) book.open.push(order);
}

export function finish(
  book: Book,
  order: PaperOrder,
  status: Exclude<PaperOrderStatus, 'open'>,
  description: string,
): void {
  order.status = status;
  order.statusDescription = description;
  order.reservation = 0;
  book.open = book.open.filter((other) => other !== order);
  book.changed.set(order.id, order);
}

/** Why this order cannot trade at this price now, or null. [kind, message] for a BrokerError. */
export function tradeProblem(
  book: Book,
  order: PaperOrder,
  price: number,
  prices: PriceOf,
): [kind: 'InvalidOrder' | 'InsufficientFunds', message: string] | null {
  const held = heldQuantity(book.account, order.symbol);
  const { quantity, symbol } = order;
  if (order.action === 'sell' && quantity > held + 1e-9) {
    return [
      'InvalidOrder',
      `cannot sell ${quantity} ${symbol}, ${held > 0 ? held : 'none'} held (sell_short opens a short position)`,
    ];
  }
  if (order.action === 'sell_short' && held > 0) {
    return ['InvalidOrder', `cannot sell ${symbol} short while holding it long; sell the position first`];
  }
  if (order.action === 'buy_to_cover' && quantity > -held + 1e-9) {
    return ['InvalidOrder', `cannot cover ${quantity} ${symbol}, ${held < 0 ? -held : 'none'} sold short`];
  }
  const opening = openingQuantity(held, order.side === 'buy' ? quantity : -quantity);
  if (opening > 0 && order.action !== 'close') {
    const others = book.open.filter((other) => other !== order);
    if (opening * price > buyingPower(book.account, others, prices) + 1e-6)
      return ['InsufficientFunds', 'insufficient buying power'];
  }
  return null;
}

function describeFill(order: PaperOrder, price: number): string {
  return `Filled: ${order.side} ${order.quantity} ${order.symbol} at ${price}`;
}

/** Executes an order at a price; a resting order that can no longer trade is rejected. */
export function fill(book: Book, market: Market, order: PaperOrder, at: number, price: number): void {
  const prices = priceAt(book, market, at);
  const problem = tradeProblem(book, order, price, prices);
  if (problem) {
    finish(book, order, 'rejected', `Rejected: ${problem[1]}`);
    return;
  }
  applyFill(book.account, order.symbol, order.class, order.side === 'buy' ? order.quantity : -order.quantity, price);
  order.fillPrice = price;
  order.filledAt = at;
  finish(book, order, 'filled', describeFill(order, price));
  const sibling = order.ocoId ? book.open.find((other) => other.id === order.ocoId) : undefined;
  if (sibling) finish(book, sibling, 'canceled', 'Canceled: the other exit of the bracket filled');
  if (order.bracket) createExits(book, order, at, price);
}

/** A filled bracket entry gets its exits: a take-profit limit and a stop-loss stop, one cancels the other. */
function createExits(book: Book, entry: PaperOrder, at: number, price: number): void {
  const bracket = entry.bracket ?? {};
  const long = entry.side === 'buy';
  const exit = (type: 'limit' | 'stop', level: number, role: string): PaperOrder => ({
    id: nextOrderId(book),
    accountId: entry.accountId,
    symbol: entry.symbol,
    class: entry.class,
    action: long ? 'sell' : 'buy_to_cover',
    side: long ? 'sell' : 'buy',
    quantity: entry.quantity,
    type,
    ...(type === 'limit' ? { limitPrice: level } : { stopPrice: level }),
    duration: 'gtc',
    status: 'open',
    statusDescription: `Accepted: ${role} ${long ? 'sell' : 'buy'} ${entry.quantity} ${entry.symbol} at ${level}`,
    createdAt: at,
    reservation: 0,
    parentId: entry.id,
  });
  const direction = long ? -1 : 1;
  let stopLevel = bracket.stopLossPrice;
  if (stopLevel === undefined && bracket.stopLossDistance !== undefined)
    stopLevel = price + direction * bracket.stopLossDistance;
  if (stopLevel === undefined && bracket.stopLossPercent !== undefined)
    stopLevel = price * (1 + (direction * bracket.stopLossPercent) / 100);
  const exits: PaperOrder[] = [];
  if (bracket.takeProfitPrice !== undefined) exits.push(exit('limit', bracket.takeProfitPrice, 'take profit'));
  if (stopLevel !== undefined) exits.push(exit('stop', roundPrice(entry.class, stopLevel), 'stop loss'));
  const [first, second] = exits;
  if (first && second) {
    first.ocoId = second.id;
    second.ocoId = first.id;
  }
  for (const order of exits) track(book, order);
}

/**
 * Executes resting orders the market reached since the last sweep, earliest first, so each
 * fill sees the cash and positions left by the ones before it; then expires day orders.
 */
export function sweep(book: Book, market: Market): void {
  const { now } = market;
  const from = book.account.sweptAt;
  if (now <= from) return;
  const scans = new Map<PaperOrder, ScanResult>();
  const scanOf = (order: PaperOrder): ScanResult => {
    let result = scans.get(order);
    if (!result) {
      const start = Math.max(from, order.createdAt);
      const end = Math.min(now, order.expiresAt ?? now);
      result = scan(order, start, end, (at) => priceAt(book, market, at)(order.symbol, order.class));
      scans.set(order, result);
    }
    return result;
  };
  for (;;) {
    let next: { order: PaperOrder; at: number; price: number } | undefined;
    for (const order of book.open) {
      const execution = scanOf(order).execution;
      if (execution && (!next || execution.at < next.at)) next = { order, ...execution };
    }
    if (!next) break;
    fill(book, market, next.order, next.at, next.price);
  }
  for (const order of [...book.open]) {
    if (scans.get(order)?.triggered && !order.triggered) {
      order.triggered = true;
      book.changed.set(order.id, order);
    }
    if (order.expiresAt !== undefined && order.expiresAt <= now)
      finish(book, order, 'canceled', 'Canceled: expired at the end of the day');
  }
  book.account.sweptAt = now;
}
