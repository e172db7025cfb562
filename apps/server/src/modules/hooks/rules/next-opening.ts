// When a hook's trading windows next open (outsideWindow: "queue" places a signal then): for each
// of the next eight days and each window, that day's `from` in the window's time zone as an
// instant, the earliest still ahead. Local times become instants through the zone's offset at
// that moment, asked twice so a daylight-saving change between now and then is taken into account.
// The sweeper checks the window again when the instant comes (a skipped hour opens it a bit late).
import type { CompiledRules } from './compile.ts';
import { WEEKDAYS } from './settings.ts';

const DAY_MS = 86_400_000;
const zones = new Map<string, Intl.DateTimeFormat>();

function dateFormat(timeZone: string): Intl.DateTimeFormat {
  let format = zones.get(timeZone);
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
    zones.set(timeZone, format);
  }
  return format;
}

/** The zone's wall clock at `at`, as if it were UTC (ms), to the minute. */
function wallClock(format: Intl.DateTimeFormat, at: number): number {
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(at)) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0);
}

/** The instant the zone's clock shows `wall` (a local time written as UTC ms). */
function instantOf(format: Intl.DateTimeFormat, wall: number): number {
  const first = wall - (wallClock(format, wall) - wall);
  return wall - (wallClock(format, first) - first);
}

/** The next instant (after `now`, to the minute) a window opens; undefined when there are none. */
export function nextOpening(rules: CompiledRules, now: Date): Date | undefined {
  const windows = rules.settings.tradingWindows ?? [];
  let best: number | undefined;
  for (const [i, w] of windows.entries()) {
    const compiled = rules.windows?.[i];
    if (!compiled) continue;
    const format = dateFormat(w.timeZone);
    const today = wallClock(format, now.getTime());
    const midnight = today - (today % DAY_MS);
    for (let d = 0; d <= 8; d++) {
      const day = midnight + d * DAY_MS;
      if (!compiled.days.has(WEEKDAYS[new Date(day).getUTCDay()] ?? 'sun')) continue;
      const opens = instantOf(format, day + compiled.from * 60_000);
      if (opens > now.getTime() && (best === undefined || opens < best)) best = opens;
    }
  }
  return best === undefined ? undefined : new Date(best);
}
