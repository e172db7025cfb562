// Kite's clock is India's (IST, UTC+5:30, no daylight saving). Access tokens end at the next
// 6 AM IST; the order book holds the current trading day; timestamps come as local
// "YYYY-MM-DD HH:MM:SS" without a zone.
const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
const SIX_AM_MS = 6 * 60 * 60_000;

/** Midnight IST of the day `now` falls in, and 6 AM IST of that day (both ms since epoch). */
function istDay(now: number): { midnight: number; sixAm: number } {
  const local = now + IST_OFFSET_MS;
  const midnight = Math.floor(local / DAY_MS) * DAY_MS - IST_OFFSET_MS;
  return { midnight, sixAm: midnight + SIX_AM_MS };
}

/** When a token issued at `now` stops working: the next 6 AM IST. */
export function sessionExpiry(now: number): number {
  const { sixAm } = istDay(now);
  return now < sixAm ? sixAm : sixAm + DAY_MS;
}

/**
 * From when the order book surely holds every order. Kite says "the day's orders" without naming
 * the hour it starts a new book, so the later of the two candidates (midnight, 6 AM IST) is taken.
 */
export function bookCoverageStart(now: number): number {
  const { midnight, sixAm } = istDay(now);
  return now >= sixAm ? sixAm : midnight;
}

/** "2021-05-31 09:18:57" (IST) → ms since epoch; undefined when it is not such a time. */
export function parseKiteTime(value: string | undefined): number | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)) return undefined;
  const parsed = Date.parse(`${value.replace(' ', 'T')}+05:30`);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** ms since epoch → "YYYY-MM-DD HH:MM:SS" in IST (the fake writes Kite's timestamps with it). */
export function formatKiteTime(ms: number): string {
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}
