// Numbers of a paper account as the screen shows them (SPEC §9 en-US): amounts in dollars
// (not cents: the paper broker keeps USD), prices with the decimals they carry.
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
const signedUsd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  signDisplay: 'exceptZero',
});
// Significant digits, not a count of decimals: a coin quoted in billionths (PEPE at 0.000012399)
// has 9 decimals, an average 10; 15 digits is all a double holds, so its noise never shows.
const plain = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 15 });

/** 1234.5 → $1,234.50 */
export const formatUsd = (dollars: number): string => usd.format(dollars);

/** A gain or loss with its sign: +$12.00, −$3.50, $0.00. */
export const formatPnl = (dollars: number): string => signedUsd.format(dollars);

/** Quantities and prices with the decimals they have: 0.0125, 5436.25, 10,000, 0.0000123725. */
export const formatNumber = (value: number): string => plain.format(value);

/** Bootstrap text colour of a gain or loss. */
export const pnlClass = (dollars: number): string =>
  dollars > 0 ? 'text-success' : dollars < 0 ? 'text-danger' : 'text-secondary';
