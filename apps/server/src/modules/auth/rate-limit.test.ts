import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';

describe('RateLimiter (sliding window)', () => {
  it('allows the limit within the window, then frees up as hits age out', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const rule = { limit: 3, windowMs: 1000 };
    expect([1, 2, 3, 4].map(() => limiter.take('k', rule))).toEqual([true, true, true, false]);
    expect(limiter.take('other', rule)).toBe(true);
    now = 500;
    expect(limiter.allows('k', rule)).toBe(false);
    now = 1001;
    expect(limiter.take('k', rule)).toBe(true);
    limiter.reset('k');
    expect(limiter.allows('k', { limit: 1, windowMs: 1000 })).toBe(true);
  });
});
