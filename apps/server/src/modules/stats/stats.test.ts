// actionsOrderCounters and actionsOrderStats through GraphQL: windows, buckets, errors, providers,
// per-hook grouping and caller scoping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlAs, insertHook, insertSignal, type TestHook } from '../../../test/activity-fixtures.ts';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';

const COUNTERS = `query($isTest: Boolean, $isGroup: Boolean, $createdAtTo: Float, $code: String) {
  actionsOrderCounters(code: $code, isTest: $isTest, isGroup: $isGroup, createdAtTo: $createdAtTo) {
    counter counterTest hookShortKey
  }
}`;
const STATS = `query($interval: String!, $createdAtFrom: Float, $createdAtTo: Float, $providerName: String,
  $providerNames: [String!], $width: Int, $isGroup: Boolean, $timeZone: String) {
  actionsOrderStats(interval: $interval, createdAtFrom: $createdAtFrom, createdAtTo: $createdAtTo,
    providerName: $providerName, providerNames: $providerNames, width: $width, isGroup: $isGroup,
    timeZone: $timeZone) {
    createdAt counter counterError counterTest hookShortKey
  }
}`;

interface Stat {
  createdAt: number;
  counter: number;
  counterError: number;
  counterTest: number;
  hookShortKey: string | null;
}

const NOW = Date.parse('2025-06-15T10:30:00Z'); // a Sunday
const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;

let t: TestApp;
let a: { id: number; headers: Record<string, string> };
let b: { id: number; headers: Record<string, string> };

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
  a = await insertTestUser(t.services, 'a@example.test');
  b = await insertTestUser(t.services, 'b@example.test');
  const withUser = (hook: TestHook, userId: number) => ({ ...hook, userId });
  const h1 = withUser(await insertHook(t, a.id, 'h1', 'paper'), a.id);
  const h2 = withUser(await insertHook(t, a.id, 'h2', 'kraken'), a.id);
  const test = withUser(await insertHook(t, a.id, 'test', 'paper'), a.id);
  const other = withUser(await insertHook(t, b.id, 'other', 'paper'), b.id);
  await insertSignal(t, h1, { createdAt: at('2025-06-15T10:10:00Z') });
  await insertSignal(t, h1, { createdAt: at('2025-06-15T10:20:00Z'), status: 'rejected' });
  await insertSignal(t, h2, { createdAt: at('2025-06-15T09:59:00Z') });
  await insertSignal(t, test, { createdAt: at('2025-06-15T09:00:00Z'), isTest: true });
  await insertSignal(t, h1, { createdAt: at('2025-06-14T11:00:00Z') });
  await insertSignal(t, h2, { createdAt: at('2025-06-14T10:00:00Z'), status: 'failed' });
  await insertSignal(t, h1, { createdAt: at('2025-05-06T12:00:00Z') });
  await insertSignal(t, other, { createdAt: at('2025-06-15T10:15:00Z'), status: 'rejected' });
  await insertSignal(t, other, { createdAt: new Date(Date.now() - HOUR) });
});
afterAll(async () => {
  await t.close();
});

async function stats(variables: Record<string, unknown>, headers = a.headers): Promise<Stat[]> {
  const { data, errors } = await gqlAs<{ actionsOrderStats: Stat[] }>(t, headers, STATS, variables);
  expect(errors).toBeUndefined();
  return data?.actionsOrderStats ?? [];
}

const nonEmpty = (rows: Stat[]) => rows.filter((r) => r.counter + r.counterTest + r.counterError > 0);

describe('actionsOrderCounters', () => {
  it('counts live and test orders of the last 24 hours', async () => {
    const { data } = await gqlAs(t, a.headers, COUNTERS, { createdAtTo: NOW });
    expect(data).toEqual({ actionsOrderCounters: [{ counter: 4, counterTest: 1, hookShortKey: null }] });
  });

  it('groups per hook, filters test hooks, ends the window at createdAtTo', async () => {
    const grouped = await gqlAs(t, a.headers, COUNTERS, { createdAtTo: NOW, isGroup: true });
    expect(grouped.data).toEqual({
      actionsOrderCounters: [
        { hookShortKey: 'sk_h1', counter: 3, counterTest: 0 },
        { hookShortKey: 'sk_h2', counter: 1, counterTest: 0 },
        { hookShortKey: 'sk_test', counter: 0, counterTest: 1 },
      ],
    });
    const tests = await gqlAs(t, a.headers, COUNTERS, { createdAtTo: NOW, isTest: true });
    expect(tests.data).toEqual({ actionsOrderCounters: [{ counter: 0, counterTest: 1, hookShortKey: null }] });
    const earlier = await gqlAs(t, a.headers, COUNTERS, { createdAtTo: NOW - 30 * 24 * HOUR });
    expect(earlier.data).toEqual({ actionsOrderCounters: [{ counter: 0, counterTest: 0, hookShortKey: null }] });
  });

  it('defaults to the last 24 hours from now and counts only the caller', async () => {
    const { data } = await gqlAs(t, b.headers, COUNTERS, {});
    expect(data).toEqual({ actionsOrderCounters: [{ counter: 1, counterTest: 0, hookShortKey: null }] });
    const refused = await gqlAs(t, a.headers, COUNTERS, { code: 'Signin' });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('actionsOrderCounters and actionsOrderStats times', () => {
  const WINDOW = `query($createdAtFrom: Float, $createdAtTo: Float) {
    actionsOrderCounters(createdAtFrom: $createdAtFrom, createdAtTo: $createdAtTo) { counter }
  }`;

  it('refuse a time no date can hold as invalid input, naming the field, not as an internal error', async () => {
    for (const [query, variables, field] of [
      [WINDOW, { createdAtTo: 1e300 }, 'createdAtTo'],
      [WINDOW, { createdAtFrom: 1e300 }, 'createdAtFrom'],
      [WINDOW, { createdAtTo: -1e300 }, 'createdAtTo'],
      [STATS, { interval: 'day', createdAtTo: 1e300 }, 'createdAtTo'],
      [STATS, { interval: 'day', createdAtFrom: -1e300, createdAtTo: NOW }, 'createdAtFrom'],
    ] as const) {
      const { errors } = await gqlAs(t, a.headers, query, variables);
      expect(errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe('BAD_USER_INPUT');
      expect(errors?.[0]?.message).toBe(`Invalid ${field}`);
    }
  });
});

describe('actionsOrderStats', () => {
  it('gives 24 hourly bars ending with the current hour, empty ones as zeros', async () => {
    const rows = await stats({ interval: 'hour', createdAtTo: NOW });
    expect(rows).toHaveLength(24);
    expect(rows[0]?.createdAt).toBe(Date.parse('2025-06-14T11:00:00Z'));
    expect(rows.at(-1)?.createdAt).toBe(Date.parse('2025-06-15T10:00:00Z'));
    expect(nonEmpty(rows)).toEqual([
      {
        createdAt: Date.parse('2025-06-14T11:00:00Z'),
        counter: 1,
        counterError: 0,
        counterTest: 0,
        hookShortKey: null,
      },
      {
        createdAt: Date.parse('2025-06-15T09:00:00Z'),
        counter: 1,
        counterError: 0,
        counterTest: 1,
        hookShortKey: null,
      },
      {
        createdAt: Date.parse('2025-06-15T10:00:00Z'),
        counter: 2,
        counterError: 1,
        counterTest: 0,
        hookShortKey: null,
      },
    ]);
  });

  it('uses SPEC bar counts per interval, and width instead', async () => {
    const days = await stats({ interval: 'day', createdAtTo: NOW });
    expect(days).toHaveLength(30);
    const three = await stats({ interval: 'day', createdAtTo: NOW, width: 3 });
    expect(three.map((r) => [new Date(r.createdAt).toISOString().slice(0, 10), r.counter, r.counterError])).toEqual([
      ['2025-06-13', 0, 0],
      ['2025-06-14', 2, 1],
      ['2025-06-15', 3, 1],
    ]);
    const weeks = await stats({ interval: 'week', createdAtTo: NOW });
    expect(weeks).toHaveLength(8);
    expect(weeks.at(-1)?.createdAt).toBe(Date.parse('2025-06-09T00:00:00Z'));
    expect(nonEmpty(weeks).map((r) => [r.createdAt, r.counter])).toEqual([
      [Date.parse('2025-05-05T00:00:00Z'), 1],
      [Date.parse('2025-06-09T00:00:00Z'), 5],
    ]);
    const months = await stats({ interval: 'month', createdAtTo: NOW });
    expect(months).toHaveLength(12);
    expect(months[0]?.createdAt).toBe(Date.parse('2024-07-01T00:00:00Z'));
    expect(nonEmpty(months).map((r) => [r.counter, r.counterError, r.counterTest])).toEqual([
      [1, 0, 0],
      [5, 2, 1],
    ]);
  });

  it("buckets by the trader's own days when a time zone is given (as the activity's Date filter)", async () => {
    // UTC+14: 2025-06-14T10:00Z is already 6/15 there, 2025-06-15T10:10Z is 6/16.
    const days = await stats({ interval: 'day', createdAtTo: NOW, width: 3, timeZone: 'Pacific/Kiritimati' });
    expect(days.map((r) => [new Date(r.createdAt).toISOString(), r.counter, r.counterError, r.counterTest])).toEqual([
      ['2025-06-13T10:00:00.000Z', 0, 0, 0],
      ['2025-06-14T10:00:00.000Z', 3, 1, 1],
      ['2025-06-15T10:00:00.000Z', 2, 1, 0],
    ]);
    const from = await stats({
      interval: 'day',
      createdAtFrom: Date.parse('2025-06-14T10:00:00Z'),
      createdAtTo: NOW,
      timeZone: 'Pacific/Kiritimati',
    });
    expect(from.map((r) => r.createdAt)).toEqual([
      Date.parse('2025-06-14T10:00:00Z'),
      Date.parse('2025-06-15T10:00:00Z'),
    ]);
    const bad = await gqlAs(t, a.headers, STATS, { interval: 'day', timeZone: 'Mars/Olympus' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('gives each hour once across a daylight-saving change (no hour that does not exist there)', async () => {
    // New York springs forward at 2025-03-09T07:00Z: local 02:00 does not exist.
    const to = Date.parse('2025-03-09T12:30:00Z');
    const hours = await stats({ interval: 'hour', createdAtTo: to, width: 24, timeZone: 'America/New_York' });
    const starts = hours.map((r) => r.createdAt);
    expect(new Set(starts).size).toBe(starts.length);
    expect(starts.every((start, i) => i === 0 || start - (starts[i - 1] ?? 0) === HOUR)).toBe(true);
    expect(starts.at(-1)).toBe(Date.parse('2025-03-09T12:00:00Z'));
  });

  it('keeps the two hours a fall-back repeats apart, each with its own calls', async () => {
    // New York falls back at 2025-11-02T06:00Z: local 01:00-02:00 happens twice (EDT, then EST).
    const c = await insertTestUser(t.services, 'fall-back@example.test');
    const hook = { ...(await insertHook(t, c.id, 'fall-back', 'paper')), userId: c.id };
    await insertSignal(t, hook, { createdAt: at('2025-11-02T05:30:00Z') });
    await insertSignal(t, hook, { createdAt: at('2025-11-02T06:10:00Z') });
    await insertSignal(t, hook, { createdAt: at('2025-11-02T06:20:00Z'), status: 'rejected' });
    const to = Date.parse('2025-11-02T12:30:00Z');
    const hours = await stats(
      { interval: 'hour', createdAtTo: to, width: 24, timeZone: 'America/New_York' },
      c.headers,
    );
    expect(hours).toHaveLength(24);
    expect(nonEmpty(hours).map((r) => [new Date(r.createdAt).toISOString(), r.counter, r.counterError])).toEqual([
      ['2025-11-02T05:00:00.000Z', 1, 0],
      ['2025-11-02T06:00:00.000Z', 2, 1],
    ]);
    // Asked during the first of the two: the last bar is that hour, not the one still to come.
    const first = await stats(
      { interval: 'hour', createdAtTo: Date.parse('2025-11-02T05:45:00Z'), width: 2, timeZone: 'America/New_York' },
      c.headers,
    );
    expect(first.map((r) => [new Date(r.createdAt).toISOString(), r.counter])).toEqual([
      ['2025-11-02T04:00:00.000Z', 0],
      ['2025-11-02T05:00:00.000Z', 1],
    ]);
    // A zone half an hour off UTC: its hours start at half past.
    const kolkata = await stats({ interval: 'hour', createdAtTo: to, width: 24, timeZone: 'Asia/Kolkata' }, c.headers);
    expect(nonEmpty(kolkata).map((r) => [new Date(r.createdAt).toISOString(), r.counter])).toEqual([
      ['2025-11-02T05:30:00.000Z', 3],
    ]);
  });

  it("refuses, as invalid input, a zone the browser's ICU knows but PostgreSQL does not", async () => {
    expect(() => new Intl.DateTimeFormat('en-US', { timeZone: 'US/Pacific-New' })).not.toThrow();
    const bad = await gqlAs(t, a.headers, STATS, { interval: 'day', timeZone: 'US/Pacific-New' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.errors?.[0]?.message).toBe('Invalid timeZone');
  });

  it('takes an explicit window, providers and per-hook grouping', async () => {
    const window = await stats({
      interval: 'day',
      createdAtFrom: Date.parse('2025-05-06T15:00:00Z'),
      createdAtTo: NOW,
    });
    expect(window).toHaveLength(41);
    expect(window.reduce((sum, r) => sum + r.counter, 0)).toBe(6);
    const kraken = await stats({ interval: 'hour', createdAtTo: NOW, providerName: 'kraken' });
    expect(nonEmpty(kraken).map((r) => [r.counter, r.counterTest])).toEqual([[1, 0]]);
    const paper = await stats({ interval: 'hour', createdAtTo: NOW, providerNames: ['paper'] });
    expect(nonEmpty(paper).map((r) => [r.counter, r.counterError, r.counterTest])).toEqual([
      [1, 0, 0],
      [0, 0, 1],
      [2, 1, 0],
    ]);
    const grouped = await stats({ interval: 'day', createdAtTo: NOW, width: 1, isGroup: true });
    expect(grouped.map((r) => [r.hookShortKey, r.counter, r.counterError, r.counterTest])).toEqual([
      ['sk_h1', 2, 1, 0],
      ['sk_h2', 1, 0, 0],
      ['sk_test', 0, 0, 1],
    ]);
  });

  it('counts only the caller and validates its input', async () => {
    const other = await stats({ interval: 'hour', createdAtTo: NOW }, b.headers);
    expect(nonEmpty(other).map((r) => [r.counter, r.counterError])).toEqual([[1, 1]]);
    for (const variables of [
      { interval: 'year' },
      { interval: 'day', width: 0 },
      { interval: 'hour', createdAtFrom: 0 },
    ]) {
      const { errors } = await gqlAs(t, a.headers, STATS, variables);
      expect(errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const anonymous = await gqlAs(t, {}, STATS, { interval: 'day' });
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
