// Wall clocks of time zones: a hook's trading windows (the server) and brokers that list orders
// by their own calendar (Tradier's day in New York, CME's session from 17:00 in Chicago). Local
// times are written as UTC milliseconds; an instant is found through the zone's offset at that
// moment, asked twice so a daylight-saving change in between is taken into account.
const DAY_MS = 86_400_000;
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The zone's wall clock at `at`, as if it were UTC (ms), to the minute. */
export function wallClock(timeZone: string, at: number): number {
  const parts: Record<string, number> = {};
  for (const part of formatOf(timeZone).formatToParts(at))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0);
}

/**
 * The instant the zone's clock shows `wall` (a local time written as UTC ms, to the minute). A
 * time the clock skipped (02:30 when daylight saving begins at 02:00) is the instant it jumped
 * past it (03:00): a window opening then opens at the jump, never an hour before it.
 */
export function instantOf(timeZone: string, wall: number): number {
  const first = wall - (wallClock(timeZone, wall) - wall);
  const second = wall - (wallClock(timeZone, first) - first);
  if (wallClock(timeZone, second) === wall) return second;
  if (wallClock(timeZone, first) === wall) return first;
  // Skipped: the clock reads before `wall` at the earlier candidate and past it at the later.
  let before = Math.min(first, second);
  let after = Math.max(first, second);
  while (after - before > 60_000) {
    const middle = before + Math.max(1, Math.floor((after - before) / 120_000)) * 60_000;
    if (wallClock(timeZone, middle) < wall) before = middle;
    else after = middle;
  }
  return after;
}

/** The latest instant at or before `now` when the clock in `timeZone` read `hour`:00. */
export function latestWallHour(now: number, timeZone: string, hour: number): number {
  const wall = wallClock(timeZone, now);
  const today = wall - (wall % DAY_MS) + hour * 3_600_000;
  return instantOf(timeZone, today <= wall ? today : today - DAY_MS);
}
