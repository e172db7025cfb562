// Cash and positions of a paper account: a cash account without margin. Longs are paid in
// full; a short's proceeds are credited but its market value stays locked as collateral.
import type { OrderClass } from '@router/orders';
import { roundCash } from './precision.ts';
import type { PaperAccount, PaperOrder, PaperPosition } from './types.ts';

/** The current price of a symbol for this account (synthetic quote × the account's scale). */
export type PriceOf = (symbol: string, cls: OrderClass) => number;

export function positionOf(account: PaperAccount, symbol: string): PaperPosition | undefined {
  return account.positions.find((position) => position.symbol === symbol);
}

export function heldQuantity(account: PaperAccount, symbol: string): number {
  return positionOf(account, symbol)?.quantity ?? 0;
}

export function equity(account: PaperAccount, priceOf: PriceOf): number {
  let total = account.cash;
  for (const position of account.positions) total += position.quantity * priceOf(position.symbol, position.class);
  return roundCash(total);
}

/**
 * What a new position may cost: equity less the market value of every position (longs are
 * paid, shorts are collateralized) less what open orders hold.
 */
export function buyingPower(account: PaperAccount, openOrders: readonly PaperOrder[], priceOf: PriceOf): number {
  let shortValue = 0;
  for (const position of account.positions) {
    if (position.quantity < 0) shortValue -= position.quantity * priceOf(position.symbol, position.class);
  }
  const reserved = openOrders.reduce((sum, order) => sum + order.reservation, 0);
  return roundCash(account.cash - 2 * shortValue - reserved);
}

/** Of a buy (positive) or sell (negative) quantity, the part that opens or grows a position. */
export function openingQuantity(held: number, signedQuantity: number): number {
  if (signedQuantity > 0) return held >= 0 ? signedQuantity : Math.max(0, signedQuantity + held);
  return held <= 0 ? -signedQuantity : Math.max(0, -signedQuantity - held);
}

/** Books a fill: cash moves by the trade's value, the position's size and average price change. */
export function applyFill(
  account: PaperAccount,
  symbol: string,
  cls: OrderClass,
  signedQuantity: number,
  price: number,
): void {
  account.cash = roundCash(account.cash - signedQuantity * price);
  const position = positionOf(account, symbol);
  if (!position) {
    account.positions.push({ symbol, class: cls, quantity: signedQuantity, averagePrice: price });
    return;
  }
  const before = position.quantity;
  // Quantities carry up to 8 decimals (crypto); round off floating point noise below that.
  const after = Math.round((before + signedQuantity) * 1e9) / 1e9;
  if (after === 0) {
    account.positions = account.positions.filter((other) => other !== position);
    return;
  }
  if (Math.sign(after) !== Math.sign(before)) {
    position.averagePrice = price; // flipped: the remainder was opened at this price
  } else if (Math.abs(after) > Math.abs(before)) {
    position.averagePrice = (before * position.averagePrice + signedQuantity * price) / after;
  }
  position.quantity = after;
}
