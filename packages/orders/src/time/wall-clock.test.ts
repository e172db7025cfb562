import { describe, expect, it } from 'vitest';
import { latestWallHour } from './wall-clock.ts';

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
