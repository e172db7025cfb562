// Settings refused when saved (parseHookRules) because they would not do what the trader wrote.
import { describe, expect, it } from 'vitest';
import { checkWindow } from './check.ts';
import { compileRules } from './compile.ts';
import { hookRulesSchema, parseHookRules } from './settings.ts';

const window = (timeZone: string) => ({
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  from: '09:30',
  to: '16:00',
  timeZone,
});

describe('tradingWindows time zones', () => {
  // EST was taken, and read as America/Panama: New York's 09:30–16:00 window opened at 10:30 New
  // York time all summer; BST (British Summer Time) was read as Dhaka, five hours off.
  it('refuses an abbreviation, which the engine reads as a region of its own choosing', () => {
    for (const [zone, readAs] of [
      ['EST', 'America/Panama'],
      ['BST', 'Asia/Dhaka'],
      ['CST', 'America/Chicago'],
    ] as const) {
      expect(parseHookRules(JSON.stringify({ tradingWindows: [window(zone)] }))).toEqual({
        ok: false,
        message: `tradingWindows[0].timeZone: ${zone} is an abbreviation, which is read here as ${readAs} (EST keeps no daylight saving time, BST is Dhaka's); name the region, such as America/New_York or Europe/London`,
      });
    }
    // What it protects from: EST on a July Monday at 09:45 New York time (13:45 UTC) is outside.
    const est = compileRules({ tradingWindows: [window('EST')] as never });
    if (!est) throw new Error('no rules');
    expect(checkWindow(est, new Date('2026-07-06T13:45:00Z'))).toBeDefined();
  });

  it('takes region names, UTC and GMT', () => {
    for (const zone of ['America/New_York', 'Europe/London', 'Etc/GMT+5', 'UTC', 'utc', 'GMT']) {
      expect(parseHookRules(JSON.stringify({ tradingWindows: [window(zone)] }))).toMatchObject({ ok: true });
    }
  });
});

describe('empty allowlists', () => {
  // "symbols": [] was saved and compiled to no list at all: every symbol passed.
  it('are refused rather than saved as no control', () => {
    for (const key of ['symbols', 'sourceAddresses', 'tradingWindows'] as const) {
      expect(parseHookRules(JSON.stringify({ maxQuantity: 5, [key]: [] }))).toEqual({
        ok: false,
        message: `${key}: an empty list would allow everything; leave ${key} out for no such control, or pause the webhooks to take nothing`,
      });
    }
    expect(parseHookRules('{"fanOut": []}')).toEqual({ ok: true, rules: { fanOut: [] } });
  });
});

describe('maxOrdersPerDay', () => {
  // 10,000,000,000 ("no limit, really") was saved, and every signal's count then failed in
  // PostgreSQL (an int): the webhook answered 503 to every alert.
  it('is refused past 1,000,000, as maxOrdersPerMinute past 1,000', () => {
    expect(parseHookRules('{"maxOrdersPerDay": 10000000000}')).toEqual({
      ok: false,
      message: 'maxOrdersPerDay: at most 1000000',
    });
    expect(parseHookRules('{"maxOrdersPerDay": 1000000}')).toMatchObject({ ok: true });
  });
});

describe('dayTimeZone and dayStartsAt', () => {
  it('is a region, UTC or GMT, and only beside maxOrdersPerDay; unknown names and abbreviations are refused', () => {
    for (const [rules, message] of [
      [{ maxOrdersPerDay: 5, dayTimeZone: 'America/Nowhere' }, 'dayTimeZone: unknown time zone: America/Nowhere'],
      [
        { maxOrdersPerDay: 5, dayTimeZone: 'EST' },
        "dayTimeZone: EST is an abbreviation, which is read here as America/Panama (EST keeps no daylight saving time, BST is Dhaka's); name the region, such as America/New_York or Europe/London",
      ],
      [{ maxOrdersPerDay: 5, dayTimeZone: 5 }, 'dayTimeZone: must be a time zone such as America/New_York'],
      [{ maxOrdersPerMinute: 5, dayTimeZone: 'America/New_York' }, 'dayTimeZone: needs maxOrdersPerDay'],
      [{ maxOrdersPerMinute: 5, dayStartsAt: '17:00' }, 'dayStartsAt: needs maxOrdersPerDay'],
      [{ maxOrdersPerDay: 5, dayStartsAt: '24:00' }, 'dayStartsAt: must be HH:MM (00:00 to 23:59)'],
      [{ maxOrdersPerDay: 5, dayStartsAt: '5pm' }, 'dayStartsAt: must be HH:MM (00:00 to 23:59)'],
    ] as const) {
      expect(parseHookRules(JSON.stringify(rules))).toEqual({ ok: false, message });
    }
    for (const dayTimeZone of ['America/New_York', 'America/Chicago', 'UTC']) {
      const rules = { maxOrdersPerDay: 5, dayTimeZone };
      expect(parseHookRules(JSON.stringify(rules))).toEqual({ ok: true, rules });
    }
    // CME's day: from 17:00 Chicago time.
    const cme = { maxOrdersPerDay: 5, dayTimeZone: 'America/Chicago', dayStartsAt: '17:00' };
    expect(parseHookRules(JSON.stringify(cme))).toEqual({ ok: true, rules: cme });
  });
});

describe('the other numbers', () => {
  // A fanOut multiplier of 1e300 was saved: every copy was an order of 1e300 shares (or Infinity).
  it('are refused past a bound no trader means, while settings stored before still load', () => {
    const leg = (multiplier: number, accountId = 'a') => ({ connectorKey: 'k', accountId, multiplier });
    for (const [rules, message] of [
      [{ fanOut: [leg(0.5), leg(1e300, 'b')] }, 'fanOut[1].multiplier: at most 1000'],
      [{ maxLagSeconds: 1e9 }, 'maxLagSeconds: at most 86400'],
      [{ maxQuantity: 1e300 }, 'maxQuantity: at most 1000000000000'],
      [{ maxNotional: 1e13 }, 'maxNotional: at most 1000000000000'],
      [{ maxPosition: 1e20 }, 'maxPosition: at most 1000000000000'],
    ] as const) {
      expect(parseHookRules(JSON.stringify(rules))).toEqual({ ok: false, message });
      expect(hookRulesSchema.parse(rules)).toEqual(rules);
    }
    const fine = { maxLagSeconds: 86_400, maxQuantity: 1e12, fanOut: [leg(1000)] };
    expect(parseHookRules(JSON.stringify(fine))).toEqual({ ok: true, rules: fine });
  });
});
