// Test support: the clock hand-written adapter tests read their signals with (normalizeOrder's
// `now`). Their contracts and expiries (ESZ6, ESH2027, SPY 261218…) were current the day they
// were written; read on the real clock they expire in 2027 and the order language refuses them
// before the adapter sees them. Recorded broker examples are read as of PUBLISHED_AT (replay.ts).
export const WRITTEN_AT = (): number => Date.UTC(2026, 10, 27, 15);
