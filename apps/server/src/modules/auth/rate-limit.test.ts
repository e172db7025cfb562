// The identity rate limits, counted in PostgreSQL: a sliding window over two fixed ones, one
// limit for every instance on the database, keys stored hashed.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/postgres.ts';
import { createPool } from '../../db/client.ts';
import type { AppError } from '../../errors.ts';
import { RateLimiter } from './rate-limit.ts';

let database: TestDatabase;
let second: pg.Pool;
beforeAll(async () => {
  database = await createTestDatabase();
  // createPool: its clients carry error listeners, so the database's drop-with-force at the end
  // cannot surface as an unhandled 'terminating connection' error.
  second = createPool(database.url, 4);
});
afterAll(async () => {
  await second.end();
  await database.drop();
});

describe('RateLimiter (shared, sliding window)', () => {
  it('allows the limit within the window, then frees up as hits age out', async () => {
    let now = 1_000_000;
    const limiter = new RateLimiter(database.db.$client, () => now);
    const rule = { limit: 3, windowMs: 1000 };
    const taken = [];
    for (let i = 0; i < 4; i++) taken.push(await limiter.take('k', rule));
    expect(taken).toEqual([true, true, true, false]);
    expect(await limiter.take('other', rule)).toBe(true);
    now += 500;
    expect(await limiter.allows('k', rule)).toBe(false);
    // Half of the previous window is still covered: 3 × 0.5 = 1.5 hits, so one more fits.
    now += 1000;
    expect(await limiter.take('k', rule)).toBe(true);
    expect(await limiter.take('k', rule)).toBe(false);
    now += 2000;
    expect(await limiter.take('k', rule)).toBe(true);
    await limiter.reset('k', rule);
    expect(await limiter.allows('k', { limit: 1, windowMs: 1000 })).toBe(true);
  });

  it('refuses past the limit with the whole seconds until one more hit fits', async () => {
    const rule = { limit: 3, windowMs: 60_000 };
    const start = 120_000_000; // a window's start
    let now = start;
    const limiter = new RateLimiter(database.db.$client, () => now);
    const refusal = async (key: string) => {
      const error = await limiter.enforce(key, rule, 'slow down').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'RATE_LIMITED', message: 'slow down' });
      return (error as AppError).retryAfterS ?? 0;
    };
    /** The wait told is enough, and not more than a second or two too long. */
    const checkWait = async (key: string) => {
      const at = now;
      const wait = await refusal(key);
      now = at + (wait - 2) * 1000;
      expect(await limiter.allows(key, rule), `${key} ${wait - 2} s later`).toBe(false);
      now = at + wait * 1000;
      expect(await limiter.allows(key, rule), `${key} ${wait} s later`).toBe(true);
      return wait;
    };
    // Three hits 15 s into a window: they fade through the next one.
    now = start + 15_000;
    for (let i = 0; i < 3; i++) await limiter.enforce('full', rule);
    expect(await checkWait('full')).toBeGreaterThan(45);
    // Three hits of the window before, 6 s into this one: only their fading weight counts.
    now = start;
    for (let i = 0; i < 3; i++) await limiter.enforce('faded', rule);
    now = start + 66_000;
    expect(await checkWait('faded')).toBeLessThan(60);
    // Hits in both windows.
    now = start;
    for (let i = 0; i < 3; i++) await limiter.enforce('both', rule);
    now = start + 90_000;
    await limiter.enforce('both', rule);
    await checkWait('both');
  });

  it('counts failures after the fact and forgets them on reset', async () => {
    const limiter = new RateLimiter(database.db.$client, () => 5_000_000);
    const rule = { limit: 2, windowMs: 60_000 };
    await limiter.add('failures', rule);
    expect(await limiter.allows('failures', rule)).toBe(true);
    await limiter.add('failures', rule);
    expect(await limiter.allows('failures', rule)).toBe(false);
    await limiter.reset('failures', rule);
    expect(await limiter.allows('failures', rule)).toBe(true);
  });

  it('is one limit for two instances taking at once, and stores no key in clear', async () => {
    const rule = { limit: 10, windowMs: 60_000 };
    const a = new RateLimiter(database.db.$client);
    const b = new RateLimiter(second);
    const key = 'signin:203.0.113.9:someone@example.com';
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take(key, rule)));
    expect(results.filter(Boolean)).toHaveLength(10);
    const rows = await second.query<{ key: string }>('select key from rate_limits');
    expect(rows.rows.some((row) => row.key.includes('example.com') || row.key.includes('203.0.113'))).toBe(false);
  });

  it('sweeps counters that can no longer count', async () => {
    let now = 9_000_000_000;
    const limiter = new RateLimiter(database.db.$client, () => now);
    await limiter.take('old', { limit: 5, windowMs: 1000 });
    now += 11 * 60_000;
    await limiter.take('new', { limit: 5, windowMs: 1000 });
    const left = await second.query<{ n: string }>(
      'select count(*)::text as n from rate_limits where expires_at < $1',
      [new Date(now)],
    );
    expect(left.rows[0]?.n).toBe('0');
  });
});
