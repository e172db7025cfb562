// Rounding of prices, quantities and cash, so fills look like a broker's and floating point
// noise never accumulates in the ledger. Prices snap to the tick with core/ticks.ts.
import { decimalsOf } from '../../core/ticks.ts';

/** Rounds down to `decimals` (8 for crypto, 4 for fractional shares, 0 for contracts and lots). */
export function roundQuantity(quantity: number, decimals: number): number {
  const factor = 10 ** decimals;
  // The epsilon keeps 0.3/0.1-style results from losing a unit to floating point.
  return Math.floor(quantity * factor + 1e-6) / factor;
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
