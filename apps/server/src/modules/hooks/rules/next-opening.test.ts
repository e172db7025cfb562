import { describe, expect, it } from 'vitest';
import { checkWindow } from './check.ts';
import { compileRules } from './compile.ts';
import { nextOpening } from './next-opening.ts';
import { parseHookRules } from './settings.ts';

function rulesOf(json: object) {
  const parsed = parseHookRules(JSON.stringify(json));
  if (!parsed.ok) throw new Error(parsed.message);
  const rules = compileRules(parsed.rules);
  if (!rules) throw new Error('no rules');
  return rules;
}

const NYSE = rulesOf({
  tradingWindows: [
    { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:30', to: '16:00', timeZone: 'America/New_York' },
  ],
  outsideWindow: 'queue',
});

describe('nextOpening', () => {
  it('is the same day’s opening before it, the next weekday’s after the close', () => {
    // Wednesday 2026-11-25, 08:00 in New York (13:00 UTC, standard time).
    expect(nextOpening(NYSE, new Date('2026-11-25T13:00:00Z'))?.toISOString()).toBe('2026-11-25T14:30:00.000Z');
    // Friday after the close: Monday.
    expect(nextOpening(NYSE, new Date('2026-11-27T22:00:00Z'))?.toISOString()).toBe('2026-11-30T14:30:00.000Z');
  });

  it('follows daylight saving time: the opening after the clocks change is an hour earlier in UTC', () => {
    // Saturday 2026-03-07 (standard time) → Monday 2026-03-09, daylight time (UTC−4).
    expect(nextOpening(NYSE, new Date('2026-03-07T12:00:00Z'))?.toISOString()).toBe('2026-03-09T13:30:00.000Z');
  });

  it('opens inside the window (checkWindow agrees) and a minute before it is still closed', () => {
    const opens = nextOpening(NYSE, new Date('2026-11-25T03:00:00Z')) as Date;
    expect(checkWindow(NYSE, opens)).toBeUndefined();
    expect(checkWindow(NYSE, new Date(opens.getTime() - 60_000))?.rule).toBe('tradingWindows');
  });

  it('opens a window starting in the hour daylight saving skips when the clocks jump, inside it', () => {
    const early = rulesOf({
      tradingWindows: [{ days: ['sun'], from: '02:30', to: '03:15', timeZone: 'America/New_York' }],
      outsideWindow: 'queue',
    });
    // Saturday 2026-03-07; on Sunday 02:00 EST becomes 03:00 EDT (07:00 UTC).
    const opens = nextOpening(early, new Date('2026-03-07T12:00:00Z')) as Date;
    expect(opens.toISOString()).toBe('2026-03-08T07:00:00.000Z');
    expect(checkWindow(early, opens)).toBeUndefined();
  });

  it('takes the earliest of several windows in several zones', () => {
    const two = rulesOf({
      tradingWindows: [
        { days: ['thu'], from: '09:30', to: '16:00', timeZone: 'America/New_York' },
        { days: ['thu'], from: '08:00', to: '16:30', timeZone: 'Europe/London' },
      ],
    });
    expect(nextOpening(two, new Date('2026-11-25T12:00:00Z'))?.toISOString()).toBe('2026-11-26T08:00:00.000Z');
  });
});
