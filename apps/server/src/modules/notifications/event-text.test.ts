import { describe, expect, it } from 'vitest';
import { describeEvent } from './event-text.ts';

const title = (name: string) => name;

describe('credit events in words', () => {
  it('tells the low mark of a low balance', () => {
    const { details } = describeEvent('credits.low', { balance: 2, threshold: 10 }, title);
    expect(details).toEqual([
      ['Signals left', '2'],
      ['Low at', '10'],
    ]);
  });

  it('tells no low mark once none are left, nor one of 0 (a plan ended with nothing else granted)', () => {
    expect(describeEvent('credits.exhausted', { balance: 0, threshold: 20 }, title).details).toEqual([
      ['Signals left', '0'],
    ]);
    expect(describeEvent('credits.low', { balance: 0, threshold: 0 }, title).details).toEqual([['Signals left', '0']]);
  });

  it('says "1 signal left", not "1 signals" (a free account of 5 is low at 1)', () => {
    expect(describeEvent('credits.low', { balance: 1, threshold: 1 }, title).summary).toBe('You have 1 signal left');
    expect(describeEvent('credits.low', { balance: 3, threshold: 20 }, title).summary).toBe('You have 3 signals left');
  });
});
