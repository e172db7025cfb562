// Rounding of prices, quantities and cash, so fills look like a broker's and floating point
// noise never accumulates in the ledger. Prices snap to the tick with core/ticks.ts.

/** Rounds down to `decimals` (8 for crypto, 4 for fractional shares, 0 for contracts and lots). */
export function roundQuantity(quantity: number, decimals: number): number {
  const factor = 10 ** decimals;
  // The epsilon keeps 0.3/0.1-style results from losing a unit to floating point.
  return Math.floor(quantity * factor + 1e-6) / factor;
}

export function roundCash(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}
