// When a resting order executes. Prices are sampled once a minute on minute boundaries (and at
// the sweep's end), so an order's fill does not depend on how often the account is touched.
import type { PaperOrder } from './types.ts';

const STEP = 60_000;
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

/** Sample instants in (from, to]: every minute boundary, then `to` itself. */
export function* sampleTimes(from: number, to: number): Generator<number> {
  const start = Math.max(from, to - MAX_LOOKBACK);
  for (let at = Math.floor(start / STEP) * STEP + STEP; at < to; at += STEP) {
    if (at > from) yield at;
  }
  if (to > from) yield to;
}

/** The first execution of a resting order in (from, to]. */
export function scan(order: PaperOrder, from: number, to: number, priceAt: PriceAt): ScanResult {
  let triggered = order.triggered ?? false;
  for (const at of sampleTimes(from, to)) {
    const result = executionPrice(order, priceAt(at), triggered, true);
    if (result.price !== undefined) return { execution: { at, price: result.price }, triggered: result.triggered };
    triggered = result.triggered;
  }
  return { triggered };
}
