// A paper account as its owner sees it: balances, positions at today's prices, open orders and
// recent fills (every symbol swept first); and a reset back to the starting cash.
import type { OrderAction, OrderClass } from '@router/orders';
import { adopt, type Book, finish, marksAt, openOrdersOf, symbolState } from './book.ts';
import { buyingPower, equity } from './portfolio.ts';
import { roundAverage, roundCash } from './precision.ts';
import { sweepAll } from './sweep.ts';
import type { PaperOrder } from './types.ts';

export interface PaperPositionView {
  symbol: string;
  class: OrderClass;
  quantity: number;
  averagePrice: number;
  price: number;
  /** Quantity × price × multiplier (the notional, for futures and other margined instruments). */
  marketValue: number;
  unrealizedPnl: number;
}

export interface PaperOrderView {
  id: string;
  clientOrderId?: string;
  symbol: string;
  class: OrderClass;
  action: OrderAction;
  side: 'buy' | 'sell';
  type: PaperOrder['type'];
  quantity: number;
  limitPrice?: number;
  stopPrice?: number;
  duration: string;
  statusDescription: string;
  createdAt: number;
  legs?: Array<{ symbol: string; action: OrderAction; ratio: number }>;
}

export interface PaperFillView {
  id: string;
  clientOrderId?: string;
  symbol: string;
  class: OrderClass;
  side: 'buy' | 'sell';
  quantity: number;
  /** Per unit; for a combo, its net. */
  price: number;
  filledAt: number;
  description: string;
}

export interface PaperAccountView {
  id: string;
  name: string;
  currency: string;
  startingCash: number;
  cash: number;
  equity: number;
  buyingPower: number;
  /** When the view was taken (ms). */
  asOf: number;
  resetAt?: number;
  positions: PaperPositionView[];
  /** The newest open orders (at most `limits.orders`); `openOrderCount` counts them all. */
  openOrders: PaperOrderView[];
  openOrderCount: number;
  /** The newest fills since the last reset. */
  fills: PaperFillView[];
}

const newestFirst = (a: PaperOrder, b: PaperOrder) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1);

function orderView(order: PaperOrder): PaperOrderView {
  const { id, clientOrderId, symbol, action, side, type, quantity, limitPrice, stopPrice, duration, legs } = order;
  return {
    id,
    ...(clientOrderId !== undefined ? { clientOrderId } : {}),
    symbol,
    class: order.class,
    action,
    side,
    type,
    quantity,
    ...(limitPrice !== undefined ? { limitPrice } : {}),
    ...(stopPrice !== undefined ? { stopPrice } : {}),
    duration,
    statusDescription: order.statusDescription,
    createdAt: order.createdAt,
    ...(legs ? { legs: legs.map((leg) => ({ symbol: leg.symbol, action: leg.action, ratio: leg.ratio })) } : {}),
  };
}

function fillView(order: PaperOrder): PaperFillView {
  return {
    id: order.id,
    ...(order.clientOrderId !== undefined ? { clientOrderId: order.clientOrderId } : {}),
    symbol: order.symbol,
    class: order.class,
    side: order.side,
    quantity: order.quantity,
    price: order.fillPrice ?? 0,
    filledAt: order.filledAt ?? order.createdAt,
    description: order.statusDescription,
  };
}

export async function describeAccount(book: Book, limits = { orders: 100, fills: 50 }): Promise<PaperAccountView> {
  await sweepAll(book);
  const { account } = book;
  const { now } = book.market;
  const marks = marksAt(book, now);
  const positions = account.positions.map((position): PaperPositionView => {
    const { instrument, price } = marks(position.symbol, position.class);
    const { quantity, averagePrice } = position;
    return {
      symbol: position.symbol,
      class: position.class,
      quantity,
      averagePrice: roundAverage(averagePrice, instrument.tick),
      price,
      marketValue: roundCash(quantity * price * instrument.multiplier),
      unrealizedPnl: roundCash(quantity * (price - averagePrice) * instrument.multiplier),
    };
  });
  // This call's own changes (fills of the sweep) are not in the store yet.
  const own = [...book.orders.values()];
  const open =
    limits.orders > 0
      ? [...new Set([...adopt(book, await book.tx.listOpenOrders()), ...own])].filter((o) => o.status === 'open')
      : [];
  // Since the last reset: orders placed after it (a reset fills what the market reached first, at
  // most at the reset's own instant, and cancels the rest).
  const since = account.resetAt ?? 0;
  const filled =
    limits.fills > 0
      ? [...new Set([...adopt(book, await book.tx.listFills(since, limits.fills)), ...own])].filter(
          (order) => order.status === 'filled' && (order.filledAt ?? 0) >= since && order.createdAt >= since,
        )
      : [];
  let openOrderCount = 0;
  for (const state of book.symbols.values()) openOrderCount += state?.open ?? 0;
  return {
    id: account.id,
    name: account.name,
    currency: account.currency,
    startingCash: account.startingCash,
    cash: account.cash,
    equity: equity(account, marks),
    buyingPower: buyingPower(account, marks),
    asOf: now,
    ...(account.resetAt !== undefined ? { resetAt: account.resetAt } : {}),
    positions,
    openOrders: open.sort(newestFirst).slice(0, limits.orders).map(orderView),
    openOrderCount,
    fills: filled
      .sort((a, b) => (b.filledAt ?? 0) - (a.filledAt ?? 0) || newestFirst(a, b))
      .slice(0, limits.fills)
      .map(fillView),
  };
}

/**
 * Back to the starting cash: open orders canceled, positions and price anchors cleared. What the
 * market reached before the reset fills first (history, as if the account had been looked at then):
 * whether an order filled never depends on how often the account is touched.
 */
export async function resetAccount(book: Book): Promise<void> {
  await sweepAll(book);
  for (const state of await book.tx.listActiveSymbols()) {
    await symbolState(book, state.symbol);
    for (const order of await openOrdersOf(book, state.symbol))
      finish(book, order, 'canceled', 'Canceled: the account was reset');
  }
  Object.assign(book.account, {
    cash: book.account.startingCash,
    positions: [],
    priceScales: {},
    reserved: 0,
    resetAt: book.market.now,
  });
}
