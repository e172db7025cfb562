import { describe, expect, it } from 'vitest';
import { retryDelay } from './live-stream.ts';

describe('retryDelay', () => {
  it('doubles from 1 s to at most 15 s, each wait between half and all of its step', () => {
    const least = [0, 1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, () => 0));
    const most = [0, 1, 2, 3, 4, 5].map((attempt) => retryDelay(attempt, () => 0.999_999));
    expect(least).toEqual([500, 1000, 2000, 4000, 7500, 7500]);
    expect(most).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000]);
  });

  it('spreads the streams a restart dropped together over the step, not one instant', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const waits = Array.from({ length: 200 }, () => retryDelay(3, random));
    const seconds = new Set(waits.map((ms) => Math.floor(ms / 1000)));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(4000);
    expect(Math.max(...waits)).toBeLessThanOrEqual(8000);
    expect(seconds).toEqual(new Set([4, 5, 6, 7]));
  });
});
