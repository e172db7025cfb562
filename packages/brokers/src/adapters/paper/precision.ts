// Rounding of prices, quantities and cash, so fills look like a broker's and floating point
// noise never accumulates in the ledger.
import type { OrderClass } from '@router/orders';

function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Stocks and crypto in cents (sub-dollar in 6 decimals); forex in pips' tenths. */
export function roundPrice(cls: OrderClass, price: number): number {
  if (cls === 'forex') return round(price, price >= 20 ? 3 : 5);
  return round(price, price >= 1 ? 2 : 6);
}

/** Fractional shares to 4 decimals, crypto to 8, forex in whole units. Rounds down. */
export function roundQuantity(cls: OrderClass, quantity: number): number {
  const decimals = cls === 'crypto' ? 8 : cls === 'stock' ? 4 : 0;
  const factor = 10 ** decimals;
  // The epsilon keeps 0.3/0.1-style results from losing a unit to floating point.
  return Math.floor(quantity * factor + 1e-6) / factor;
}

export function roundCash(amount: number): number {
  return round(amount, 6);
}
