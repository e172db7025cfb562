// Rounding of prices, quantities and cash, so fills look like a broker's and floating point
// noise never accumulates in the ledger.

function decimalsOf(step: number): number {
  for (let decimals = 0; decimals < 12; decimals++) {
    if (Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) < 1e-9) return decimals;
  }
  return 12;
}

/**
 * A multiple of `tick`, written with no more decimals than the tick has: the nearest, or the one
 * at or below (`down`) or at or above (`up`) the price. A limit snaps towards the trader's side:
 * a buy at most 100.006 is a buy at most 100.00, never at 100.01.
 */
export function roundToTick(price: number, tick: number, direction: 'nearest' | 'down' | 'up' = 'nearest'): number {
  const decimals = decimalsOf(tick);
  const ticks = price / tick;
  // The epsilon keeps a price already on the tick (100.01 / 0.01 = 10000.999…) where it is.
  const whole =
    direction === 'down' ? Math.floor(ticks + 1e-9) : direction === 'up' ? Math.ceil(ticks - 1e-9) : Math.round(ticks);
  return Number((whole * tick).toFixed(decimals));
}

/** Rounds down to `decimals` (8 for crypto, 4 for fractional shares, 0 for contracts and lots). */
export function roundQuantity(quantity: number, decimals: number): number {
  const factor = 10 ** decimals;
  // The epsilon keeps 0.3/0.1-style results from losing a unit to floating point.
  return Math.floor(quantity * factor + 1e-6) / factor;
}

export function roundCash(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}
