import { describe, expect, it } from 'vitest';
import { instantOf, latestWallHour, wallClock } from './wall-clock.ts';

const at = (iso: string) => Date.parse(iso);

describe('latestWallHour', () => {
  it.each([
    // New York midnight: EST (UTC-5) in winter, EDT (UTC-4) in summer.
    ['2025-01-14T03:30:12.345Z', 'America/New_York', 0, '2025-01-13T05:00:00Z'],
    ['2025-07-14T12:00:00Z', 'America/New_York', 0, '2025-07-14T04:00:00Z'],
    ['2026-11-26T05:00:00Z', 'America/New_York', 0, '2026-11-26T05:00:00Z'],
    ['2026-11-26T04:59:59.999Z', 'America/New_York', 0, '2026-11-25T05:00:00Z'],
    // The CME session: from 17:00 in Chicago.
    ['2026-11-26T22:59:59Z', 'America/Chicago', 17, '2026-11-25T23:00:00Z'],
    ['2026-11-26T23:00:00.500Z', 'America/Chicago', 17, '2026-11-26T23:00:00Z'],
    ['2026-07-14T22:30:00Z', 'America/Chicago', 17, '2026-07-14T22:00:00Z'],
  ])('%s in %s, hour %i: %s', (now, zone, hour, expected) => {
    expect(latestWallHour(at(now), zone, hour)).toBe(at(expected));
  });

  it.each([
    // Clocks went forward at 02:00 on 8 March 2026: midnight was still EST (05:00 UTC).
    ['spring forward', '2026-03-08T16:00:00Z', '2026-03-08T05:00:00Z'],
    // Clocks went back at 02:00 on 1 November 2026: midnight was still EDT (04:00 UTC).
    ['fall back', '2026-11-01T16:00:00Z', '2026-11-01T04:00:00Z'],
  ])('on a daylight-saving day (%s) it is the real midnight', (_name, now, expected) => {
    expect(latestWallHour(at(now), 'America/New_York', 0)).toBe(at(expected));
  });
});

describe('instantOf', () => {
  it.each([
    ['an ordinary time', 'America/New_York', '2026-11-25T09:30:00Z', '2026-11-25T14:30:00Z'],
    // 1 November 2026, 01:30 happened twice in New York: the first (EDT) is taken.
    ['a time the clock showed twice', 'America/New_York', '2026-11-01T01:30:00Z', '2026-11-01T05:30:00Z'],
    // 8 March 2026, 02:00 EST became 03:00 EDT (07:00 UTC): 02:30 never showed.
    ['a time the clock skipped', 'America/New_York', '2026-03-08T02:30:00Z', '2026-03-08T07:00:00Z'],
    ['a time the clock skipped (London)', 'Europe/London', '2026-03-29T01:30:00Z', '2026-03-29T01:00:00Z'],
  ])('%s (%s %s) is %s', (_name, zone, wall, expected) => {
    const instant = instantOf(zone, at(wall));
    expect(instant).toBe(at(expected));
    // Never before the clock reached the time asked for.
    expect(wallClock(zone, instant)).toBeGreaterThanOrEqual(at(wall));
  });
});
