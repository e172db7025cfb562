import { describe, expect, it } from 'vitest';
import { positiveOnTick, roundToTick, usPriceOnTick } from './ticks.ts';

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

describe('positiveOnTick and usPriceOnTick', () => {
  const refuse = (message: string) => new Error(message);

  it('refuses a positive price the rounding takes to 0, never returning an order at 0', () => {
    expect(() => positiveOnTick(0.3, 0.5, 'down', refuse)).toThrow('0.3 is less than one tick (0.5): it would be 0');
    expect(() => usPriceOnTick(0.00001234, true, false, refuse)).toThrow(
      'price 0.00001234 is less than one tick (0.0001): it would be 0',
    );
    expect(() => usPriceOnTick(0.004, true, true, refuse)).toThrow('price 0.004 is less than one tick (0.01)');
  });

  it('keeps a price the rounding leaves above 0, and one a sell rounds up to a tick', () => {
    expect(positiveOnTick(60000.3, 0.5, 'down', refuse)).toBe(60000);
    expect(usPriceOnTick(0.00001234, false, false, refuse)).toBe(0.0001);
    expect(usPriceOnTick(0.00015, true, false, refuse)).toBe(0.0001);
  });
});
