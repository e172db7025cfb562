// What a cash account holds for the options it is short: on each underlying and expiry, the most
// its options there can lose at expiry (a short put its strike × 100, cash-secured; a vertical or
// an iron condor its widest spread), and for calls sold beyond the shares held (covered calls hold
// nothing more) the shares' value, what covering them costs. The premiums received are in cash.
// A long option of a later expiry covers nothing (a calendar or a diagonal holds its short leg as
// naked): the short is assigned at its expiry into shares while the long is still open, which an
// account without borrowing cannot carry (expiry.ts).
import type { MarkOf } from './portfolio.ts';
import type { PaperPosition } from './types.ts';

interface Leg {
  strike: number;
  right: 'C' | 'P';
  /** Signed: shares' worth of the underlying (contracts × 100), negative when short. */
  units: number;
}

/** A leg's value at expiry with the underlying at `spot`. */
const payoff = (leg: Leg, spot: number) =>
  leg.units * Math.max(0, leg.right === 'C' ? spot - leg.strike : leg.strike - spot);

/** The buying power the account's option positions hold (0 or negative; longs are paid in full). */
export function optionsPower(positions: readonly PaperPosition[], markOf: MarkOf): number {
  const groups = new Map<string, { underlying: string; legs: Leg[] }>();
  for (const position of positions) {
    if (position.class !== 'option') continue;
    const { instrument } = markOf(position.symbol, position.class);
    if (!instrument.option) continue;
    const { underlying, strike, right } = instrument.option;
    const key = `${underlying.symbol}|${instrument.expiresAt}`;
    const group = groups.get(key) ?? { underlying: underlying.symbol, legs: [] };
    group.legs.push({ strike, right, units: position.quantity * instrument.multiplier });
    groups.set(key, group);
  }
  if (groups.size === 0) return 0;
  // Shares held cover calls sold, each share once.
  const shares = new Map<string, number>();
  for (const position of positions)
    if (position.class === 'stock' && position.quantity > 0) shares.set(position.symbol, position.quantity);
  let total = 0;
  for (const { underlying, legs } of groups.values()) {
    // The payoff is linear between strikes: its lowest is at 0, at a strike, or past the highest
    // strike, where it falls by the calls sold net of those bought.
    const worst = Math.min(
      0,
      ...[0, ...legs.map((leg) => leg.strike)].map((spot) => legs.reduce((sum, leg) => sum + payoff(leg, spot), 0)),
    );
    const callsSold = Math.max(0, -legs.reduce((sum, leg) => sum + (leg.right === 'C' ? leg.units : 0), 0));
    const cover = Math.min(callsSold, shares.get(underlying) ?? 0);
    shares.set(underlying, (shares.get(underlying) ?? 0) - cover);
    const uncovered = callsSold - cover;
    total += worst - (uncovered > 0 ? uncovered * markOf(underlying, 'stock').price : 0);
  }
  return total;
}
