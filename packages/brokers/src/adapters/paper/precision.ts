// Rounding of prices, quantities and cash, so fills look like a broker's and floating point
// noise never accumulates in the ledger. Prices snap to the tick with core/ticks.ts.
import { decimalsOf } from '../../core/ticks.ts';

/** Rounds down to `decimals` (8 for crypto, 4 for fractional shares, 0 for contracts and lots). */
export function roundQuantity(quantity: number, decimals: number): number {
  const factor = 10 ** decimals;
  // The epsilon keeps 0.3/0.1-style results from losing a unit to floating point; it grows with
  // the size (100 % of 85.21516638 is 85.21516637999999: 8521516637.999999 units), never to a
  // thousandth of a unit (1e8 PEPE are 1e16 units: 1e-12 of that would add 0.0001 PEPE).
  const scaled = quantity * factor;
  return Math.floor(scaled + Math.min(1e-3, Math.max(1e-6, Math.abs(scaled) * 1e-12))) / factor;
}

export function roundCash(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}

/**
 * An average price as shown: 6 decimals, or 3 more than the tick has (a coin quoted to 0.000000001
 * averages 0.0000123725, not 0.000012: a price that far off the fills would misstate the P&L).
 */
export function roundAverage(price: number, tick: number): number {
  const factor = 10 ** Math.max(6, decimalsOf(tick) + 3);
  return Math.round(price * factor) / factor;
}

/**
 * A position's size after a fill, to the instrument's decimals (8 for crypto): the double nearest
 * that decimal. Scaled by 1e9, rounded and scaled back, 94,896,846.6752038 PEPE bought were held as
 * 94896846.67520382, and selling them left 0.000000015.
 */
export function sizeAfter(held: number, quantity: number, decimals: number): number {
  return Number((held + quantity).toFixed(decimals));
}
