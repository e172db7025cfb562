import { currentExample } from '@router/orders';
// Test support: the clock tests that only read an order (no hook, no broker) normalize it with.
// Their contracts and expiries (SPY 271217…, ESZ2030) were current the day they were written; on
// the real clock they expire and the order language refuses them. (packages/brokers has its own.)
export const WRITTEN_AT = (): number => Date.UTC(2026, 10, 27, 15);

/**
 * The signal with its written contracts and expiries (ESZ2026, SPY_271217…) moved to current ones,
 * for tests through a hook: the server reads it on the real clock.
 */
export const currentSignal = <T extends Record<string, unknown>>(signal: T): T =>
  Object.fromEntries(
    Object.entries(signal).map(([key, value]) => [
      key,
      typeof value === 'string' ? currentExample(value, Date.now()) : value,
    ]),
  ) as T;
