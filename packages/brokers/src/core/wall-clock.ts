// Brokers that list orders by their own calendar (Tradier's day in New York, CME's session from
// 17:00 in Chicago): the latest time a wall clock in that zone read a given hour.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** Seconds since the clock in `timeZone` last read `hour`:00:00, at `instant` (0 to a day). */
function sinceWallHour(instant: number, timeZone: string, hour: number): number {
  const parts = formatOf(timeZone).formatToParts(instant);
  const part = (type: string) => Number(parts.find((item) => item.type === type)?.value ?? 0);
  return ((part('hour') - hour + 24) % 24) * 3600 + part('minute') * 60 + part('second');
}

/** The latest instant at or before `now` (whole seconds) when the clock in `timeZone` read `hour`:00:00. */
export function latestWallHour(now: number, timeZone: string, hour: number): number {
  const first = now - (now % 1000) - sinceWallHour(now, timeZone, hour) * 1000;
  // A daylight-saving change in between moved the clock by an hour: that guess reads 23:00 or
  // 01:00 where 00:00 was meant. One correction lands on it.
  let off = sinceWallHour(first, timeZone, hour);
  if (off > 12 * 3600) off -= 24 * 3600;
  return first - off * 1000;
}
