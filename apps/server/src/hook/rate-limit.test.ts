// The in-memory token buckets (hooks, source addresses, /api/v1 clients): a flood of new keys
// must neither grow memory without bound nor hand a spent key a fresh allowance.
import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';

describe('in-memory rate limiter', () => {
  it('keeps a spent key spent through a flood of new keys, within its key bound', () => {
    const now = 1_000_000;
    // Practically no refill during the test: a token every 1000 s.
    const limiter = new RateLimiter<string>({ rate: 0.001, burst: 3 }, { maxKeys: 10, now: () => now });
    for (let i = 0; i < 3; i++) expect(limiter.take('guesser')).toBe(true);
    expect(limiter.take('guesser')).toBe(false);
    for (let i = 0; i < 100; i++) limiter.take(`random-${i}`);
    expect(limiter.take('guesser')).toBe(false);
    expect(limiter.size).toBeLessThanOrEqual(10);
    expect(limiter.retryAfterS('guesser')).toBeGreaterThan(1);
  });
});
