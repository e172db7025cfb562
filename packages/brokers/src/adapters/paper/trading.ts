// Executing an order: what it trades (one instrument, or every leg of a combo), whether the
// account may trade it (actions of a cash account, buying power), booking the fill, and the
// exits of a bracket (a take profit and a stop loss, one cancelling the other).
import type { OrderAction } from '@router/orders';
import { roundToTick } from '../../core/ticks.ts';
import {
  type Book,
  endWithContract,
  finish,
  instrumentOf,
  marksAt,
  nextOrderId,
  openOrdersOf,
  priceAt,
  symbolState,
  touch,
  track,
} from './book.ts';
import type { Instrument } from './instruments.ts';
import { executionPrice } from './matching.ts';
import { applyFill, buyingPower, heldQuantity, powerUsed, type Trade } from './portfolio.ts';
import type { PaperOrder } from './types.ts';

export type Problem = [kind: 'InvalidOrder' | 'InsufficientFunds', message: string];

/** What an order trades at an instant: its instrument at `price`, or each leg at the leg's price then. */
export function tradesOf(book: Book, order: PaperOrder, at: number, price: number): Trade[] {
  const signed = (side: 'buy' | 'sell', quantity: number) => (side === 'buy' ? quantity : -quantity);
  if (!order.legs) {
    const instrument = instrumentOf(book, order.symbol, order.class);
    return [{ instrument, quantity: signed(order.side, order.quantity), price }];
  }
  return order.legs.map((leg) => {
    const instrument = instrumentOf(book, leg.symbol, leg.class);
    return { instrument, quantity: signed(leg.side, leg.ratio * order.quantity), price: priceAt(book, instrument, at) };
  });
}

/** Whether this action only reduces a position (a stock's sell; a margined instrument's goes short; a close). */
export function reduces(action: OrderAction, instrument: Instrument): boolean {
  if (action === 'sell') return instrument.margin === undefined;
  return action === 'sell_to_close' || action === 'buy_to_cover' || action === 'buy_to_close' || action === 'close';
}

/**
 * Why a cash account refuses this action on what it holds, or null. `committed`: how much of the
 * position open orders already sell (or buy back), which a live broker no longer counts available.
 */
export function actionProblem(
  action: OrderAction,
  instrument: Instrument,
  quantity: number,
  held: number,
  committed = 0,
): string | null {
  const { symbol } = instrument;
  const holding = held > 0 ? held : 'none';
  // What this action reduces: a long for a sale, a short for a buy, either for a close. Short of
  // that, the messages below.
  const position = action === 'close' ? Math.abs(held) : action.startsWith('sell') ? held : -held;
  if (
    committed > 0 &&
    reduces(action, instrument) &&
    position >= quantity - 1e-9 &&
    quantity > position - committed + 1e-9
  )
    return `cannot ${action} ${quantity} ${symbol}: ${position} held, ${Math.min(committed, position)} of it in open orders (cancel them first)`;
  switch (action) {
    case 'sell':
      // Margined instruments (futures, forex, CFDs) go short by selling.
      if (instrument.margin === undefined && quantity > held + 1e-9)
        return `cannot sell ${quantity} ${symbol}, ${holding} held (sell_short opens a short position)`;
      return null;
    case 'sell_to_close':
      return quantity > held + 1e-9 ? `cannot sell_to_close ${quantity} ${symbol}, ${holding} held` : null;
    case 'sell_short':
      return held > 0 ? `cannot sell ${symbol} short while holding it long; sell the position first` : null;
    case 'sell_to_open':
      return held > 0 ? `cannot sell_to_open ${symbol} while holding it long; sell_to_close it first` : null;
    case 'buy_to_cover':
    case 'buy_to_close':
      return quantity > -held + 1e-9
        ? `cannot ${action === 'buy_to_cover' ? 'cover' : 'buy_to_close'} ${quantity} ${symbol}, ${held < 0 ? -held : 'none'} sold short`
        : null;
    case 'buy_to_open':
      return held < 0 ? `cannot buy_to_open ${symbol} while short; buy_to_close it first` : null;
    default:
      return null;
  }
}

/** Why this order cannot trade these trades now, or null. */
export function tradeProblem(
  book: Book,
  order: PaperOrder,
  trades: readonly Trade[],
  at: number,
  committed: readonly number[] = [],
): Problem | null {
  const actions: OrderAction[] = order.legs ? order.legs.map((leg) => leg.action) : [order.action];
  for (const [i, trade] of trades.entries()) {
    const action = actions[i] ?? order.action;
    const held = heldQuantity(book.account, trade.instrument);
    const problem = actionProblem(action, trade.instrument, Math.abs(trade.quantity), held, committed[i]);
    if (problem) return ['InvalidOrder', problem];
  }
  if (order.action === 'close') return null;
  const marks = marksAt(book, at);
  const { used, opens } = powerUsed(book.account, trades, marks);
  // A resting order's own hold is part of what it may use.
  const available = buyingPower(book.account, marks) + order.reservation;
  // Written so that NaN (a quantity so large that its value overflows) is refused too, never traded.
  return opens && !(used <= available + 1e-6) ? ['InsufficientFunds', 'insufficient buying power'] : null;
}

function describeFill(order: PaperOrder, price: number): string {
  if (order.legs) return `Filled: ${order.quantity} × ${order.legs.length}-leg combo at a net ${price}`;
  return `Filled: ${order.side} ${order.quantity} ${order.symbol} at ${price}`;
}

/** Executes an order at a price (a combo: its legs at theirs); one that can no longer trade is rejected. */
export async function fill(book: Book, order: PaperOrder, at: number, limitOrMarket: number): Promise<void> {
  const trades = tradesOf(book, order, at, limitOrMarket);
  // A combo fills at its legs' prices: its net is what they make.
  const price = order.legs
    ? Math.round((trades.reduce((net, trade) => net + trade.quantity * trade.price, 0) / order.quantity) * 100) / 100
    : limitOrMarket;
  const problem = tradeProblem(book, order, trades, at);
  if (problem) {
    finish(book, order, 'rejected', `Rejected: ${problem[1]}`);
    return;
  }
  const before = trades.map((trade) => heldQuantity(book.account, trade.instrument));
  for (const trade of trades) applyFill(book.account, trade);
  order.legs?.forEach((leg, i) => {
    leg.fillPrice = trades[i]?.price;
  });
  order.fillPrice = price;
  order.filledAt = at;
  finish(book, order, 'filled', describeFill(order, price));
  const sibling = order.ocoId ? book.orders.get(order.ocoId) : undefined;
  if (sibling?.status === 'open') finish(book, sibling, 'canceled', 'Canceled: the other exit of the bracket filled');
  for (const [i, trade] of trades.entries()) await fitExits(book, trade.instrument, before[i] ?? 0);
  if (order.bracket) await createExits(book, order, at, price);
}

/**
 * Bracket exits follow the position they protect. Closed (or turned the other way) by any order,
 * they are canceled, so an old stop loss never sells a position opened later; reduced (a partial
 * sale), they shrink to what is left, so an exit never sells more than is held (a stock's would be
 * rejected, leaving the rest unprotected; a margined one's would open a short).
 */
export async function fitExits(book: Book, instrument: Instrument, before: number): Promise<void> {
  const held = heldQuantity(book.account, instrument);
  if (before === 0 || (Math.sign(held) === Math.sign(before) && Math.abs(held) >= Math.abs(before))) return;
  await symbolState(book, instrument.symbol);
  for (const exit of await openOrdersOf(book, instrument.symbol)) {
    if (exit.parentId === undefined || exit.class !== instrument.class) continue;
    if (exit.side === 'sell' ? held <= 0 : held >= 0) {
      finish(book, exit, 'canceled', 'Canceled: the position of its bracket was closed');
    } else if (exit.quantity > Math.abs(held)) {
      exit.quantity = Math.abs(held);
      exit.statusDescription = exitDescription(exit);
      touch(book, exit);
    }
  }
}

/** The action that closes a long (or short) position of this class. */
export function exitAction(order: PaperOrder, long: boolean): OrderAction {
  if (order.class === 'option') return long ? 'sell_to_close' : 'buy_to_close';
  return long ? 'sell' : 'buy_to_cover';
}

/** What an open exit says: a take profit is a limit, a stop loss a stop. */
function exitDescription(exit: PaperOrder): string {
  const role = exit.type === 'limit' ? 'take profit' : 'stop loss';
  return `Accepted: ${role} ${exit.side} ${exit.quantity} ${exit.symbol} at ${exit.limitPrice ?? exit.stopPrice}`;
}

/**
 * A filled bracket entry gets its exits: a take-profit limit and a stop-loss stop, one cancels the
 * other. They protect what the entry opened: a buy that only reduced a short opened nothing (its
 * "stop loss" would sell, adding to the short), one that turned it long opened what is now held.
 */
async function createExits(book: Book, entry: PaperOrder, at: number, price: number): Promise<void> {
  const bracket = entry.bracket ?? {};
  const long = entry.side === 'buy';
  const instrument = instrumentOf(book, entry.symbol, entry.class);
  const { tick } = instrument;
  const held = heldQuantity(book.account, instrument);
  const quantity = Math.min(entry.quantity, long ? held : -held);
  if (quantity <= 0) {
    entry.statusDescription += `; no take profit or stop loss: it opened no ${long ? 'long' : 'short'} position`;
    return;
  }
  const exit = (type: 'limit' | 'stop', level: number): PaperOrder => {
    const order: PaperOrder = {
      id: nextOrderId(book),
      accountId: entry.accountId,
      symbol: entry.symbol,
      class: entry.class,
      action: exitAction(entry, long),
      side: long ? 'sell' : 'buy',
      quantity,
      type,
      ...(type === 'limit' ? { limitPrice: level } : { stopPrice: level }),
      duration: 'gtc',
      status: 'open',
      statusDescription: '',
      createdAt: at,
      reservation: 0,
      parentId: entry.id,
    };
    order.statusDescription = exitDescription(order);
    return order;
  };
  const direction = long ? -1 : 1;
  let stopLevel = bracket.stopLossPrice;
  if (stopLevel === undefined && bracket.stopLossDistance !== undefined)
    stopLevel = price + direction * bracket.stopLossDistance;
  if (stopLevel === undefined && bracket.stopLossPercent !== undefined)
    stopLevel = price * (1 + (direction * bracket.stopLossPercent) / 100);
  const exits: PaperOrder[] = [];
  // On the tick, never past the trader's price (a long's sell up, a short's buy down): the take
  // profit as a limit rounds, the stop loss as a placed stop does (it triggers no later than asked).
  const onTick = (level: number) => roundToTick(level, tick, long ? 'up' : 'down');
  if (bracket.takeProfitPrice !== undefined) exits.push(exit('limit', onTick(bracket.takeProfitPrice)));
  if (stopLevel !== undefined) exits.push(exit('stop', onTick(stopLevel)));
  const [first, second] = exits;
  if (first && second) {
    first.ocoId = second.id;
    second.ocoId = first.id;
  }
  for (const order of exits) {
    endWithContract(book, order);
    track(book, order);
  }
  // A take profit the entry's fill already passed (a stop entry that gapped through it) is a
  // marketable limit: it fills there and then at that price, as a broker fills one, not at its
  // limit at the next minute.
  const takeProfit = exits.find((order) => order.type === 'limit');
  if (takeProfit && executionPrice(takeProfit, price, false, false).price !== undefined)
    await fill(book, takeProfit, at, price);
  // A stop loss the market is past at the fill (a resting limit filled at its price on the way
  // down to a lower market) is triggered there and then: it sells at that market, as a broker's
  // stop does, not only if the market is still past it a minute later.
  const stopLoss = exits.find((order) => order.type === 'stop' && order.status === 'open');
  if (stopLoss) {
    const market = priceAt(book, instrument, at);
    if (executionPrice(stopLoss, market, false, false).price !== undefined) await fill(book, stopLoss, at, market);
  }
}
