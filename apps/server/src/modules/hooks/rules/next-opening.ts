// When a hook's trading windows next open (outsideWindow: "queue" places a signal then): for each
// of the next eight days and each window, that day's `from` in the window's time zone as an
// instant (@router/orders `instantOf`, which minds a daylight-saving change), the earliest ahead.
// The sweeper checks the window again when the instant comes (a start the clocks skip opens at the jump).
import { instantOf, wallClock } from '@router/orders';
import type { CompiledRules } from './compile.ts';
import { WEEKDAYS } from './settings.ts';

const DAY_MS = 86_400_000;

/** The next instant (after `now`, to the minute) a window opens; undefined when there are none. */
export function nextOpening(rules: CompiledRules, now: Date): Date | undefined {
  const windows = rules.settings.tradingWindows ?? [];
  let best: number | undefined;
  for (const [i, w] of windows.entries()) {
    const compiled = rules.windows?.[i];
    if (!compiled) continue;
    const today = wallClock(w.timeZone, now.getTime());
    const midnight = today - (today % DAY_MS);
    for (let d = 0; d <= 8; d++) {
      const day = midnight + d * DAY_MS;
      if (!compiled.days.has(WEEKDAYS[new Date(day).getUTCDay()] ?? 'sun')) continue;
      const opens = instantOf(w.timeZone, day + compiled.from * 60_000);
      if (opens > now.getTime() && (best === undefined || opens < best)) best = opens;
    }
  }
  return best === undefined ? undefined : new Date(best);
}
