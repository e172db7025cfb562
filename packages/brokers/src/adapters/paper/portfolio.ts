// Cash and positions of a paper account, without borrowing. Instruments paid in full (stocks,
// crypto, options): longs are paid, a short's proceeds are credited but twice its market value
// stays locked (short options: what they can lose at expiry, option-hold.ts). Margined instruments (futures, forex, CFDs): a fill moves no cash until it
// closes (realized P&L), and a fraction of the notional is held while the position is open.
import type { OrderClass } from '@router/orders';
import type { Instrument } from './instruments.ts';
import { optionsPower } from './option-hold.ts';
import { roundCash, sizeAfter } from './precision.ts';
import type { PaperAccount, PaperPosition } from './types.ts';

export interface Mark {
  instrument: Instrument;
  price: number;
}

/** The instrument of a position's symbol and its price now (synthetic quote × the account's scale). */
export type MarkOf = (symbol: string, cls: OrderClass) => Mark;

/** A fill to book or to try: a signed quantity (negative: a sale) at a price. */
export interface Trade {
  instrument: Instrument;
  quantity: number;
  price: number;
}

/** The position in a symbol (of a class: AAPL the stock and AAPL as a CFD are two positions). */
export function positionOf(account: PaperAccount, symbol: string, cls?: OrderClass): PaperPosition | undefined {
  return account.positions.find(
    (position) => position.symbol === symbol && (cls === undefined || position.class === cls),
  );
}

export function heldQuantity(account: PaperAccount, instrument: Instrument): number {
  return positionOf(account, instrument.symbol, instrument.class)?.quantity ?? 0;
}

/** The position after a trade (undefined when flat) and the cash the trade moves. */
function traded(before: PaperPosition | undefined, trade: Trade): { after?: PaperPosition; cash: number } {
  const { instrument, quantity, price } = trade;
  const held = before?.quantity ?? 0;
  const average = before?.averagePrice ?? price;
  const next = sizeAfter(held, quantity, instrument.quantityDecimals);
  const closed =
    held !== 0 && Math.sign(quantity) !== Math.sign(held)
      ? Math.sign(held) * Math.min(Math.abs(quantity), Math.abs(held))
      : 0;
  const cash =
    instrument.margin === undefined
      ? -quantity * price * instrument.multiplier
      : closed * (price - average) * instrument.multiplier;
  if (next === 0) return { cash };
  let averagePrice = average;
  if (Math.sign(next) !== Math.sign(held))
    averagePrice = price; // opened or flipped at this price
  else if (Math.abs(next) > Math.abs(held)) averagePrice = (held * average + quantity * price) / next;
  return { after: { symbol: instrument.symbol, class: instrument.class, quantity: next, averagePrice }, cash };
}

/** What a position adds to equity: its value, or for a margined one its open P&L. */
function equityPart(position: PaperPosition, mark: Mark): number {
  const { instrument, price } = mark;
  if (instrument.margin === undefined) return position.quantity * price * instrument.multiplier;
  return position.quantity * (price - position.averagePrice) * instrument.multiplier;
}

/**
 * What a position adds to buying power (negative: what it holds). Longs paid in full hold nothing
 * more; options are held together, per underlying and expiry (optionsPower).
 */
function powerPart(position: PaperPosition | undefined, mark: Mark): number {
  if (!position) return 0;
  const { instrument, price } = mark;
  if (instrument.option) return 0;
  const value = position.quantity * price * instrument.multiplier;
  if (instrument.margin === undefined) return position.quantity < 0 ? 2 * value : 0;
  return equityPart(position, mark) - Math.abs(value) * instrument.margin;
}

export function equity(account: PaperAccount, markOf: MarkOf): number {
  let total = account.cash;
  for (const position of account.positions) total += equityPart(position, markOf(position.symbol, position.class));
  return roundCash(total);
}

/** What a new position may use: cash, less what short and margined positions hold, less open orders' holds. */
export function buyingPower(account: PaperAccount, markOf: MarkOf): number {
  let total = account.cash - account.reserved + optionsPower(account.positions, markOf);
  for (const position of account.positions) total += powerPart(position, markOf(position.symbol, position.class));
  return roundCash(total);
}

/**
 * The buying power trades use with each instrument valued by `markOf` (options' hold by `market`:
 * it depends on their strikes and the underlying's price), and whether one of them opens or grows a position.
 */
function usedAt(account: PaperAccount, trades: readonly Trade[], markOf: (trade: Trade) => Mark, market: MarkOf) {
  const positions = new Map<string, PaperPosition | undefined>();
  let change = 0;
  let opens = false;
  for (const trade of trades) {
    const { symbol, class: cls } = trade.instrument;
    const key = `${cls}|${symbol}`;
    const before = positions.has(key) ? positions.get(key) : positionOf(account, symbol, cls);
    const { after, cash } = traded(before, trade);
    const mark = markOf(trade);
    change += cash + powerPart(after, mark) - powerPart(before, mark);
    const held = before?.quantity ?? 0;
    if (after && (Math.abs(after.quantity) > Math.abs(held) + 1e-9 || Math.sign(after.quantity) !== Math.sign(held))) {
      opens = true;
    }
    positions.set(key, after);
  }
  const untraded = account.positions.filter((position) => !positions.has(`${position.class}|${position.symbol}`));
  const afterAll = [...untraded, ...[...positions.values()].flatMap((position) => (position ? [position] : []))];
  change += optionsPower(afterAll, market) - optionsPower(account.positions, market);
  return { used: roundCash(-change), opens };
}

/**
 * The buying power these trades would use (negative: free), and whether one of them opens or grows a
 * position (trades that only reduce positions are never refused for money). The larger of two
 * valuations: at the market now, and at the trades' own prices (as when a resting order fills):
 * valued at the market only, a futures buy limit far below it counted the gap as a gain it has
 * not made and held nothing, a short limit above it less than its fill would use.
 */
export function powerUsed(
  account: PaperAccount,
  trades: readonly Trade[],
  markOf: MarkOf,
): { used: number; opens: boolean } {
  const atMarket = usedAt(account, trades, ({ instrument }) => markOf(instrument.symbol, instrument.class), markOf);
  const atOwn = usedAt(account, trades, ({ instrument, price }) => ({ instrument, price }), markOf);
  return { used: Math.max(atMarket.used, atOwn.used), opens: atMarket.opens };
}

/** Books a fill: cash moves, the position's size and average price change. */
export function applyFill(account: PaperAccount, trade: Trade): void {
  const before = positionOf(account, trade.instrument.symbol, trade.instrument.class);
  const { after, cash } = traded(before, trade);
  account.cash = roundCash(account.cash + cash);
  const index = before ? account.positions.indexOf(before) : account.positions.length;
  account.positions.splice(index, before ? 1 : 0, ...(after ? [after] : []));
}
