// Test support: the clock tests that only read an order (no hook, no broker) normalize it with.
// Their contracts and expiries (SPY 271217…, ESZ2030) were current the day they were written; on
// the real clock they expire and the order language refuses them. (packages/brokers has its own.)
export const WRITTEN_AT = (): number => Date.UTC(2026, 10, 27, 15);
