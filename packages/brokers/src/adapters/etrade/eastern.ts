// E*TRADE lives on New York time: access tokens end at midnight there, and the orders list takes
// dates as MMDDYYYY of that calendar.
const ZONE = 'America/New_York';
const dateFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const hourFormat = new Intl.DateTimeFormat('en-US', { timeZone: ZONE, hour: 'numeric', hourCycle: 'h23' });

function dateParts(instant: number): { year: number; month: number; day: number } {
  const parts = dateFormat.formatToParts(instant);
  const part = (type: string) => Number(parts.find((item) => item.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/** The next midnight in New York after `now`. */
export function nextEasternMidnight(now: number): number {
  const { year, month, day } = dateParts(now);
  const nextDay = Date.UTC(year, month - 1, day + 1);
  // New York is UTC-4 in summer and UTC-5 in winter: the candidate that reads 00:00 there.
  const summer = nextDay + 4 * 60 * 60_000;
  return Number(hourFormat.format(summer)) === 0 ? summer : nextDay + 5 * 60 * 60_000;
}

/** "06092026" for an instant on June 9, 2026 in New York. */
export function easternDate(instant: number): string {
  const { year, month, day } = dateParts(instant);
  return `${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}${year}`;
}
