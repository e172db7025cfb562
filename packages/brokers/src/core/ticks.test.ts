import { describe, expect, it } from 'vitest';
import { roundToTick } from './ticks.ts';

describe('roundToTick', () => {
  it('snaps a price between ticks towards the side asked, and the nearest', () => {
    expect(roundToTick(100.006, 0.01, 'down')).toBe(100);
    expect(roundToTick(100.006, 0.01, 'up')).toBe(100.01);
    expect(roundToTick(100.006, 0.01)).toBe(100.01);
    expect(roundToTick(60000.3, 0.5, 'down')).toBe(60000);
    expect(roundToTick(10000.00015, 0.0001, 'down')).toBe(10000.0001);
    expect(roundToTick(10000.00015, 0.0001, 'up')).toBe(10000.0002);
  });

  it('keeps a price noise took off its tick where it is', () => {
    expect(roundToTick(0.1 + 0.2, 0.01, 'up')).toBe(0.3);
    expect(roundToTick(100.01, 0.01, 'down')).toBe(100.01);
  });

  // price / tick past 10^8 is off by more than the old tolerance of 10^-9 ticks:
  // 1000000.19 / 0.01 is 100000018.99999999, which a floor cut to 1000000.18.
  it.each([
    [1000000.19, 0.01],
    [10000.0001, 0.0001],
    [1234.56789, 0.00001],
    [1.23456789, 0.00000001],
  ])('keeps %s, on its tick of %s, where it is in every direction', (price, tick) => {
    for (const direction of ['down', 'up', 'nearest'] as const) expect(roundToTick(price, tick, direction)).toBe(price);
  });
});
