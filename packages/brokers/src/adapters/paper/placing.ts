// What placing any order shares: the refusals a broker gives for a symbol, a new order's
// record, the money check, and resting an order that cannot execute now.
import type { Order, OrderAction, OrderClass } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import {
  type Book,
  endWithContract,
  instrumentOf,
  type Market,
  marksAt,
  nextOrderId,
  openCallSalesOn,
  openOrdersTrading,
  track,
} from './book.ts';
import type { Instrument } from './instruments.ts';
import { dayOrderExpiry } from './matching.ts';
import type { Trade } from './portfolio.ts';
import { powerUsed } from './portfolio.ts';
import { sweep, sweepAll } from './sweep.ts';
import { type Problem, reduces, tradeProblem, tradesOf } from './trading.ts';
import type { PaperOrder } from './types.ts';

export const PAPER_TITLE = 'Paper Trading';
export const PAPER_CLASSES: readonly OrderClass[] = ['stock', 'crypto', 'option', 'future', 'forex', 'cfd'];
/** What the paper broker answers for a symbol its list lacks, as real brokers do. */
export const SYMBOL_NOT_FOUND = 'Symbol not found';
export const DURATIONS = new Set(['day', 'gtc', 'ioc', 'fok']);
/** The actions that place an order; `close` and `cancel` act on what the symbol has. */
export const PLACING_ACTIONS = [
  'buy',
  'sell',
  'sell_short',
  'buy_to_cover',
  'buy_to_open',
  'sell_to_open',
  'buy_to_close',
  'sell_to_close',
] as const satisfies readonly OrderAction[];

export interface PlaceRequest {
  order: Order;
  clientOrderId?: string;
}

export function invalid(message: string): BrokerError {
  return new BrokerError('InvalidOrder', PAPER_TITLE, message);
}

/** The instrument a symbol names, or the refusal a broker gives for it; an expired one only to close or cancel. */
export function tradable(book: Book, symbol: string, cls: OrderClass, closing = false): Instrument {
  return tradableIn(book.market, symbol, cls, closing);
}

/** tradable() on the symbol list at a time, with no account (Broker.checkOrder). */
export function tradableIn(
  market: Pick<Market, 'instruments' | 'now'>,
  symbol: string,
  cls: OrderClass,
  closing = false,
): Instrument {
  if (!PAPER_CLASSES.includes(cls)) throw invalid(`${cls} orders are not supported`);
  const instrument = market.instruments.resolve(symbol, cls);
  if (!instrument.listed) throw invalid(`${SYMBOL_NOT_FOUND}: ${symbol.trim().toUpperCase()}`);
  if (!closing && instrument.expiresAt !== undefined && instrument.expiresAt <= market.now) {
    throw invalid(`${instrument.symbol} expired on ${new Date(instrument.expiresAt).toISOString().slice(0, 10)}`);
  }
  return instrument;
}

export function baseOrder(book: Book, request: PlaceRequest, symbol: string): PaperOrder {
  const { order } = request;
  return {
    id: nextOrderId(book),
    accountId: book.account.id,
    ...(request.clientOrderId !== undefined ? { clientOrderId: request.clientOrderId } : {}),
    symbol,
    class: order.class,
    action: order.action,
    side: order.action.startsWith('buy') ? 'buy' : 'sell',
    quantity: 0,
    type: 'market',
    duration: order.duration,
    status: 'open',
    statusDescription: '',
    createdAt: book.market.now,
    reservation: 0,
  };
}

/** The shares an open order's calls sold to open need to be covered (net of the calls it buys). */
function sharesToCover(book: Book, open: PaperOrder): number {
  let units = 0;
  for (const leg of open.legs ?? [{ ...open, ratio: 1 }]) {
    const instrument = instrumentOf(book, leg.symbol, leg.class);
    if (instrument.option?.right !== 'C') continue;
    units += (leg.side === 'buy' ? 1 : -1) * leg.ratio * open.quantity * instrument.multiplier;
  }
  return Math.max(0, -units);
}

/**
 * How much of each trade's position open orders already sell (or buy back): a live broker refuses
 * a second sale of shares a resting sell holds, rather than reject it when it fills; shares that
 * cover a resting call sold to open are held for it too (sold, they would leave it naked, to be
 * rejected when it fills). A bracket's exits are not counted: they shrink with the position they
 * protect (fitExits). The other symbols those orders are listed under (a combo's first leg, a
 * call) are swept first: one the market reached has filled.
 */
async function committedTo(book: Book, order: PaperOrder, trades: readonly Trade[]): Promise<number[]> {
  const committed: number[] = [];
  for (const trade of trades) {
    const { symbol, class: cls } = trade.instrument;
    const selling = trade.quantity < 0;
    const trading = await openOrdersTrading(book, trade.instrument);
    const read = selling ? [...trading, ...(await openCallSalesOn(book, trade.instrument))] : trading;
    const elsewhere = read.filter((open) => open.symbol !== symbol).map((open) => open.symbol);
    // The book's copies: what the sweep filled or ended is no longer open.
    if (elsewhere.length > 0) await sweep(book, elsewhere);
    const opens = read.filter((open) => open.status === 'open');
    let total = 0;
    for (const open of opens) {
      if (open.id === order.id || open.parentId !== undefined) continue;
      if (selling && trade.instrument.class === 'stock' && open.symbol !== symbol) {
        total += sharesToCover(book, open);
        continue;
      }
      for (const leg of open.legs ?? [{ ...open, ratio: 1 }]) {
        const same = leg.symbol === symbol && leg.class === cls && (leg.side === 'buy') === trade.quantity > 0;
        if (same && reduces(leg.action, trade.instrument)) total += leg.ratio * open.quantity;
      }
    }
    committed.push(total);
  }
  return committed;
}

/** Checks an order's trades; a refusal for money first sweeps every symbol (fills elsewhere may have freed cash). */
export async function checkTrade(book: Book, order: PaperOrder, price: number): Promise<void> {
  const { now } = book.market;
  const problemNow = async () => {
    const trades = tradesOf(book, order, now, price);
    // Only a sale of what is held reads the symbol's open orders (a buy reads none).
    const actions = order.legs?.map((leg) => leg.action) ?? [order.action];
    const reducing = trades.some((trade, i) => reduces(actions[i] ?? order.action, trade.instrument));
    return tradeProblem(book, order, trades, now, reducing ? await committedTo(book, order, trades) : []);
  };
  let problem: Problem | null = await problemNow();
  if (problem?.[0] === 'InsufficientFunds') {
    await sweepAll(book);
    problem = await problemNow();
  }
  if (problem) throw new BrokerError(problem[0], PAPER_TITLE, problem[1]);
}

/** Rests an order that cannot execute now, holding the buying power it would use; ioc and fok end. */
export function rest(book: Book, order: PaperOrder, reference: number, what: string, market: number): PaperOrder {
  if (order.duration === 'ioc' || order.duration === 'fok') {
    order.status = 'canceled';
    order.statusDescription = `Canceled: ${what} not marketable at ${market} (${order.duration})`;
  } else {
    const { now } = book.market;
    order.reservation = Math.max(
      0,
      powerUsed(book.account, tradesOf(book, order, now, reference), marksAt(book, now)).used,
    );
    if (order.duration === 'day') order.expiresAt = dayOrderExpiry(now, order.class);
    endWithContract(book, order);
    order.statusDescription = `Accepted: ${what} at ${reference} (${order.duration})`;
  }
  track(book, order);
  return order;
}
