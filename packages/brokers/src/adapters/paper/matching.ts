// When a resting order executes. Prices are sampled once a minute on minute boundaries, so an
// order's fill does not depend on how often the account is touched; and which orders a range of
// prices reaches, so a sweep reads only those (an index on these levels).
import type { OrderClass } from '@router/orders';
import type { PaperOrder } from './types.ts';

export const STEP = 60_000;
/** The simulated session closes at 20:00 UTC (16:00 in New York in summer): day orders expire, options and futures too. */
export const SESSION_CLOSE_UTC_HOUR = 20;
/** A sweep looks back at most this far; older stretches of an idle account are skipped. */
const MAX_LOOKBACK = 7 * 24 * 3_600_000;

export interface Execution {
  at: number;
  price: number;
}

export interface ScanResult {
  execution?: Execution;
  /** A stop_limit order's stop was hit in the window (it now rests as a limit order). */
  triggered: boolean;
}

/** Price of the order's symbol at an instant. */
export type PriceAt = (at: number) => number;

function stopHit(order: PaperOrder, price: number): boolean {
  const stop = order.stopPrice ?? Number.NaN;
  return order.side === 'buy' ? price >= stop : price <= stop;
}

function limitReached(order: PaperOrder, price: number): boolean {
  const limit = order.limitPrice ?? Number.NaN;
  return order.side === 'buy' ? price <= limit : price >= limit;
}

/**
 * Whether the order executes at this market price, and at what price. `resting` orders that
 * were passed by the market fill at their limit (conservative); an order marketable when
 * placed fills at the market price, which is at least as good.
 */
export function executionPrice(
  order: PaperOrder,
  price: number,
  triggered: boolean,
  resting: boolean,
): { price?: number; triggered: boolean } {
  switch (order.type) {
    case 'market':
      return { price, triggered };
    case 'limit':
      return limitReached(order, price)
        ? { price: resting ? (order.limitPrice ?? price) : price, triggered }
        : { triggered };
    case 'stop':
      // A triggered stop becomes a market order: it fills at the first price past the stop.
      return stopHit(order, price) ? { price, triggered: true } : { triggered };
    case 'stop_limit': {
      const nowTriggered = triggered || stopHit(order, price);
      if (!nowTriggered) return { triggered: false };
      if (!limitReached(order, price)) return { triggered: true };
      const fill = triggered && resting ? (order.limitPrice ?? price) : price;
      return { price: fill, triggered: true };
    }
  }
}

/** Sample instants in (from, to]: every minute boundary, at most a week back. */
export function sampleTimes(from: number, to: number): number[] {
  const start = Math.max(from, to - MAX_LOOKBACK);
  const times: number[] = [];
  for (let at = Math.floor(start / STEP) * STEP + STEP; at <= to; at += STEP) times.push(at);
  return times;
}

/** The first execution of a resting order at these sample instants (ascending) in (from, to]. */
export function scan(
  order: PaperOrder,
  times: readonly number[],
  from: number,
  to: number,
  priceAt: PriceAt,
): ScanResult {
  let triggered = order.triggered ?? false;
  for (const at of times) {
    if (at <= from) continue;
    if (at > to) break;
    const result = executionPrice(order, priceAt(at), triggered, true);
    if (result.price !== undefined) return { execution: { at, price: result.price }, triggered: result.triggered };
    triggered = result.triggered;
  }
  return { triggered };
}

/** A level every range reaches: multi-leg orders price from their legs, so every sweep scans them. */
export const ALWAYS_REACHED = Number.MAX_VALUE;

/**
 * The prices at which an open order may execute: when the lowest price seen is at or below `low`
 * (a buy limit, a sell stop), or the highest at or above `high` (a sell limit, a buy stop).
 */
export function reachLevels(order: PaperOrder): { low?: number; high?: number } {
  const buy = order.side === 'buy';
  if (order.legs || order.type === 'market') return { low: ALWAYS_REACHED };
  const limit = order.limitPrice ?? Number.NaN;
  const stop = order.stopPrice ?? Number.NaN;
  if (order.type === 'limit' || (order.type === 'stop_limit' && order.triggered)) {
    return buy ? { low: limit } : { high: limit };
  }
  return buy ? { high: stop } : { low: stop };
}

/** What a sweep looks for: orders reached by the range [low, high], and those expiring by then. */
export interface Reach {
  low: number;
  high: number;
  expiringBy?: number;
}

export function isReached(order: PaperOrder, reach: Reach): boolean {
  const { low, high } = reachLevels(order);
  return (
    (low !== undefined && low >= reach.low) ||
    (high !== undefined && high <= reach.high) ||
    (reach.expiringBy !== undefined && order.expiresAt !== undefined && order.expiresAt <= reach.expiringBy)
  );
}

/** The next session close after `now`. */
export function sessionClose(now: number): number {
  const close = new Date(now);
  close.setUTCHours(SESSION_CLOSE_UTC_HOUR, 0, 0, 0);
  return close.getTime() > now ? close.getTime() : close.getTime() + 86_400_000;
}

/**
 * When a day order of a class ends: the next session close on a weekday (crypto trades every
 * day), so one placed after Friday's close or over the weekend works through Monday's session, as
 * a broker queues it for the next session, rather than end on a Saturday with no session in it.
 */
export function dayOrderExpiry(now: number, cls: OrderClass): number {
  let close = sessionClose(now);
  if (cls === 'crypto') return close;
  while ([0, 6].includes(new Date(close).getUTCDay())) close += 86_400_000;
  return close;
}
