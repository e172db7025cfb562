// Rounding of prices, quantities and cash, so fills look like a broker's and floating point
// noise never accumulates in the ledger.

function decimalsOf(step: number): number {
  for (let decimals = 0; decimals < 12; decimals++) {
    if (Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) < 1e-9) return decimals;
  }
  return 12;
}

/** The nearest multiple of `tick`, written with no more decimals than the tick has. */
export function roundToTick(price: number, tick: number): number {
  const decimals = decimalsOf(tick);
  return Number((Math.round(price / tick) * tick).toFixed(decimals));
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
